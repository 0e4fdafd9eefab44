import { DurableObject } from "cloudflare:workers";
export class RaceDO extends DurableObject<Env> {
  async ping() {
    return "pong";
  }
}

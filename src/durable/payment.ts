import { DurableObject } from "cloudflare:workers";
export class PaymentDO extends DurableObject<Env> {
  async ping() {
    return "pong";
  }
}

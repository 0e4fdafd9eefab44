import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";
it("pings", async () => {
  const res = await exports.default.fetch("http://x/api/ping");
  expect(await res.json()).toEqual({ ok: true });
  expect(await env.RACE.getByName("r1").ping()).toBe("pong");
});

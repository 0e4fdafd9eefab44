import { createMiddleware } from "hono/factory";
import { offsetClock, systemClock } from "../../shared/clock";
import type { AppEnv } from "../env";

/**
 * Puts the clock and the development flag on the context. In development `NOW` (ISO) with `NOW_SET_AT`
 * (epoch ms when the server started, written by the start script) shifts the clock: it starts at NOW and
 * then advances normally. Production ignores both.
 */
export const appContext = createMiddleware<AppEnv>(async (c, next) => {
  const devMode = c.env.DEV_MODE === "true";
  c.set("devMode", devMode);
  c.set("clock", serverClock(c.env));
  await next();
});

export function serverClock(env: Env) {
  if (env.DEV_MODE !== "true" || !env.NOW) return systemClock;
  const startAt = Date.parse(env.NOW);
  if (Number.isNaN(startAt)) return systemClock;
  const setAt = Number(env.NOW_SET_AT) || Date.now();
  const offset = startAt - setAt;
  return { now: () => Date.now() + offset };
}

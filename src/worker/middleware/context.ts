import { createMiddleware } from "hono/factory";
import { clockFromSettings } from "../../shared/clock";
import type { AppEnv } from "../env";

/** Puts the clock (shared/clock.ts: NOW shifts it in development) and the development flag on the context. */
export const appContext = createMiddleware<AppEnv>(async (c, next) => {
  const devMode = c.env.DEV_MODE === "true";
  c.set("devMode", devMode);
  c.set("clock", clockFromSettings(c.env));
  await next();
});

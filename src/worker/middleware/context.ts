import { createMiddleware } from "hono/factory";
import { clockFromSettings } from "../../shared/clock";
import { applyDevSeason } from "../../shared/dev-season";
import type { AppEnv } from "../env";

/**
 * Puts the clock (shared/clock.ts: NOW shifts it in development) and the development flag on the context, and applies
 * development's season switch (shared/dev-season.ts: CHILD_SAFE_PUBLISHING; nothing outside development).
 */
export const appContext = createMiddleware<AppEnv>(async (c, next) => {
  const devMode = c.env.DEV_MODE === "true";
  c.set("devMode", devMode);
  applyDevSeason(c.env);
  c.set("clock", clockFromSettings(c.env));
  await next();
});

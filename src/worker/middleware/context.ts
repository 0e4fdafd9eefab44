import { createMiddleware } from "hono/factory";
import { clockFromSettings, DEV_NOW_HEADER, fixedClock } from "../../shared/clock";
import { applyDevSeason } from "../../shared/dev-season";
import type { AppEnv } from "../env";

/**
 * Puts the clock (shared/clock.ts: NOW shifts it in development) and the development flag on the context, and applies
 * development's season switch (shared/dev-season.ts: CHILD_SAFE_PUBLISHING; nothing outside development).
 *
 * In development a request may also name its own moment (`x-loppet-dev-now`, an ISO time): its routes then read that
 * moment, unmoving, so one local server answers as on another day (the browser tests' race morning and season
 * cut-offs, without a server per date). The race objects and the cron keep the server's clock. Production ignores it.
 */
export const appContext = createMiddleware<AppEnv>(async (c, next) => {
  const devMode = c.env.DEV_MODE === "true";
  c.set("devMode", devMode);
  applyDevSeason(c.env);
  const asked = devMode ? Date.parse(c.req.header(DEV_NOW_HEADER) ?? "") : Number.NaN;
  c.set("clock", Number.isNaN(asked) ? clockFromSettings(c.env) : fixedClock(asked));
  await next();
});

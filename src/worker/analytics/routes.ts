/**
 * `GET /admin/api/registration-analytics` (admin spec §7: "analytics data, or an error field"; admin guard in
 * app.ts). The figures and what they count: src/shared/analytics.ts and src/worker/analytics/analytics-db.ts. A failure is
 * logged and answered 500 with `{error}` in Swedish, which the page shows in its closable alert.
 */
import { Hono } from "hono";
import { registrationAnalytics } from "./analytics-db";
import { database } from "../db/client";
import type { AppEnv } from "../env";

export const adminAnalyticsRoutes = new Hono<AppEnv>();

export const ANALYTICS_FAILED = "Statistiken kunde inte räknas fram just nu. Försök igen om en stund.";

adminAnalyticsRoutes.get("/", async (c) => {
  try {
    const analytics = await registrationAnalytics(database(c.env.DB), c.var.clock.now());
    return c.json(analytics, 200, { "cache-control": "no-store" });
  } catch (err) {
    console.error("registration-analytics", err);
    return c.json({ error: ANALYTICS_FAILED }, 500);
  }
});

/**
 * GET /admin/api/goodiebags: the packing list for race morning (admin only; the admin guard in app.ts covers
 * /admin/api/*): bags per distance, children and adults apart, from the current season's paid runners.
 */
import { Hono } from "hono";
import { SEASON } from "../../shared/season";
import { database } from "../db/client";
import { goodieBags } from "./goodiebags-db";
import type { AppEnv } from "../env";
import type { GoodieBags } from "../../shared/api-answers";

export const goodieBagRoutes = new Hono<AppEnv>();

goodieBagRoutes.get("/", async (c) => {
  c.header("cache-control", "no-store");
  // generatedAt: the server clock's moment (epoch ms), printed on the list.
  return c.json({
    ...(await goodieBags(database(c.env.DB), SEASON)),
    generatedAt: c.var.clock.now(),
  } satisfies GoodieBags);
});

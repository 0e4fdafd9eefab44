/**
 * The registrations overview of the admin area (the admin guard in app.ts covers /admin/registrations and
 * /admin/api/*); refunds are the payments resource's (src/worker/payments/routes.ts):
 * - `GET /admin/registrations?season=YYYY`: the season's registrations (spec: email, payid, swishtory, deltagare),
 *   each payment with its refunds; the current season by default.
 * - `GET /admin/api/box-office-sales?season=YYYY`: the season's box-office sales (payment, runner, refunds), so a
 *   Swish sale can be refunded from the admin screens too.
 */
import { Hono } from "hono";
import { z } from "zod";
import { SEASON } from "../../shared/season";
import { boxOfficeSales, seasonOverview } from "./overview-db";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../middleware/validate";

export const adminRegistrationRoutes = new Hono<AppEnv>();
export const boxOfficeSalesRoutes = new Hono<AppEnv>();

const MSG = {
  season: "Ange säsongen som ett årtal med fyra siffror, till exempel 2025.",
} as const;

const overviewQuery = z.object({
  season: z
    .string({ error: MSG.season })
    .regex(/^\d{4}$/, MSG.season)
    .transform(Number)
    .pipe(z.number().min(2000, MSG.season).max(2100, MSG.season))
    .optional(),
});

adminRegistrationRoutes.get("/", validate("query", overviewQuery), async (c) => {
  const season = c.req.valid("query").season ?? SEASON.year;
  return c.json(await seasonOverview(database(c.env.DB), season));
});

boxOfficeSalesRoutes.get("/", validate("query", overviewQuery), async (c) => {
  const season = c.req.valid("query").season ?? SEASON.year;
  return c.json(await boxOfficeSales(database(c.env.DB), season));
});

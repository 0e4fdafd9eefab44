/**
 * The signed-in family's race day (issue 28): `GET /api/family/results`, their runners' times and placings, live
 * on race day. Only the family's own runners: the session's address picks the registration, nothing in the
 * request does.
 */
import { Hono, type Context } from "hono";
import { SEASON } from "../../shared/season";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { unauthorized } from "../lib/errors";
import { familyResults } from "./family-results";
import { findRegistration, registrationRunners } from "./registrations-db";

export const familyRoutes = new Hono<AppEnv>();

function visitorEmail(c: Context<AppEnv>): string {
  const session = c.var.session;
  if (!session) throw unauthorized("Inte inloggad");
  return session.email;
}

familyRoutes.get("/api/family/results", async (c) => {
  const email = visitorEmail(c);
  const db = database(c.env.DB);
  const registration = await findRegistration(db, SEASON.year, email);
  const runners = registration ? await registrationRunners(db, registration.id) : [];
  c.header("cache-control", "no-store");
  return c.json(await familyResults(c.env, db, runners, c.var.clock.now()));
});

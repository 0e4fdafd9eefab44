/**
 * The signed-in family's race day (issue 28, items 3 and 4): `GET /api/family/results`, their runners' times and
 * placings, live on race day, and `GET /api/family/diplomas` (`?runner=` for one), their finished runners'
 * diplomas as a print view. Only the family's own runners: the session's address picks the registration; a
 * runner id of another family is a 404, exactly like one that does not exist.
 *
 * The organiser's diplomas, every finisher of a race on its own page: `GET /admin/api/diplomas/{race}` (the admin
 * guard in front of /admin/api/* decides who gets there).
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { SEASON } from "../../shared/season";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { conflict, notFound, unauthorized } from "../lib/errors";
import { validate } from "../middleware/validate";
import { raceSnapshot } from "../race-day/race-runners";
import { DIPLOMA_HEADERS, DIPLOMA_TEXT, diplomaDocument, type Diploma } from "./diplomas";
import { familyResults } from "./family-results";
import { findRegistration, registrationRunners } from "../db/registrations-db";

export const familyRoutes = new Hono<AppEnv>();
export const diplomaRoutes = new Hono<AppEnv>();

function visitorEmail(c: Context<AppEnv>): string {
  const session = c.var.session;
  if (!session) throw unauthorized("Inte inloggad");
  return session.email;
}

async function familyRunners(c: Context<AppEnv>) {
  const email = visitorEmail(c);
  const db = database(c.env.DB);
  const registration = await findRegistration(db, SEASON.year, email);
  const runners = registration ? await registrationRunners(db, registration.id) : [];
  return { db, runners };
}

familyRoutes.get("/results", async (c) => {
  const { db, runners } = await familyRunners(c);
  c.header("cache-control", "no-store");
  return c.json(await familyResults(c.env, db, runners, c.var.clock.now()));
});

const diplomaQuery = z.object({ runner: z.string().min(1).max(64).optional() });

familyRoutes.get("/diplomas", validate("query", diplomaQuery), async (c) => {
  const { runner: only } = c.req.valid("query");
  const { db, runners } = await familyRunners(c);
  const wanted = only === undefined ? runners : runners.filter((r) => r.id === only);
  if (only !== undefined && wanted.length === 0) throw notFound("Löparen finns inte i din anmälan.");
  const results = await familyResults(c.env, db, wanted, c.var.clock.now());
  const races = new Map(results.races.map((r) => [r.part, r]));
  const diplomas: Diploma[] = [];
  for (const result of results.runners) {
    const runner = wanted.find((r) => r.id === result.id);
    const race = races.get(result.raceId);
    if (!runner || !race || result.time === null) continue;
    diplomas.push({
      name: `${runner.firstname} ${runner.lastname}`.trim(),
      distance: race.distance,
      time: result.time,
      part: race.part,
      date: race.date,
    });
  }
  if (only !== undefined && diplomas.length === 0) {
    throw conflict("Diplomet kan skrivas ut när löparen har gått i mål.");
  }
  return c.html(diplomaDocument(diplomas, SEASON, DIPLOMA_TEXT.noneFamily), 200, DIPLOMA_HEADERS);
});

const raceParam = z.object({ race: z.string().min(1).max(64) });

diplomaRoutes.get("/:race", validate("param", raceParam), async (c) => {
  const [race, ...runners] = await raceSnapshot(c.env, database(c.env.DB), c.req.valid("param").race);
  const diplomas = runners
    .filter((r) => r.time !== undefined)
    .map((r): Diploma => ({
      name: `${r.firstname} ${r.lastname}`.trim(),
      distance: race.distance,
      time: r.time!,
      part: race.part,
      date: race.date,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "sv"));
  if (diplomas.length === 0) throw conflict("Ingen löpare i loppet har gått i mål ännu.");
  return c.html(diplomaDocument(diplomas, SEASON), 200, DIPLOMA_HEADERS);
});

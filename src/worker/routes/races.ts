/**
 * Race reads. Public: the race list and a race's start list (`GET /api/races`, `GET /api/races/get/{part}`);
 * admin: the same under /admin/api (the admin guard in front of /admin/api/* decides who gets there), where the
 * runners carry their age and participant id too. Race-day writes live with the race-day routes.
 */
import { Hono } from "hono";
import { z } from "zod";
import { SEASON } from "../../shared/season";
import { raceIdForSeason } from "../../shared/race-id";
import { toPublicRunner, type PublicRaceSnapshot, type RaceRecord } from "../../shared/race-protocol";
import { database, type Db } from "../db/client";
import { ensureSeasonRaces, listRaces, raceRecordFromRow } from "../db/races";
import type { AppEnv } from "../env";
import { validate } from "../middleware/validate";
import { raceSnapshot } from "../race-runners";

export const raceRoutes = new Hono<AppEnv>();

/**
 * Every race of every season, by part. The current season's races are written from the config the first time
 * they are missing, so a fresh deployment lists them without a manual seeding step.
 */
async function allRaces(db: Db): Promise<RaceRecord[]> {
  let rows = await listRaces(db);
  const seasonParts = SEASON.races.map((r) => raceIdForSeason(r.distance, SEASON));
  if (!seasonParts.every((part) => rows.some((row) => row.part === part))) {
    await ensureSeasonRaces(db, SEASON);
    rows = await listRaces(db);
  }
  return rows.map(raceRecordFromRow);
}

raceRoutes.get("/api/races", async (c) => c.json(await allRaces(database(c.env.DB))));

/** Malformed or unknown ids are answered 404 by raceSnapshot (the shared race-id rules); this bounds the input. */
const partParam = z.object({ part: z.string().min(1).max(64) });
const raceIdParam = z.object({ raceId: z.string().min(1).max(64) });

raceRoutes.get("/api/races/get/:part", validate("param", partParam), async (c) => {
  const [race, ...runners] = await raceSnapshot(c.env, database(c.env.DB), c.req.valid("param").part);
  const body: PublicRaceSnapshot = [race, ...runners.map(toPublicRunner)];
  return c.json(body);
});

raceRoutes.get("/admin/api/races", async (c) => c.json(await allRaces(database(c.env.DB))));

raceRoutes.get("/admin/api/races/get/:raceId", validate("param", raceIdParam), async (c) =>
  c.json(await raceSnapshot(c.env, database(c.env.DB), c.req.valid("param").raceId)),
);

/**
 * Race reads. Public: the race list and a race's start list (`GET /api/races`, `GET /api/races/get/{part}`);
 * admin: the same under /admin/api (the admin guard in front of /admin/api/* decides who gets there), where the
 * runners carry their age and participant id too. Race-day writes live in race-day.ts.
 */
import { Hono } from "hono";
import { z } from "zod";
import { SEASON } from "../../shared/season";
import { raceIdForSeason } from "../../shared/race-id";
import { publishesResult, publishingRules } from "../../shared/child-safe";
import { publicRunners, toPublicRace, type PublicRaceSnapshot, type RaceRecord } from "../../shared/race-protocol";
import { database, type Db } from "../db/client";
import { ensureSeasonRaces, listRaces, raceRecordFromRow } from "./races-db";
import type { AppEnv } from "../env";
import { validate } from "../middleware/validate";
import { raceSnapshot } from "./race-runners";

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

/**
 * Spectators follow a running race by reloading its start list. Each isolate answers from a copy at most
 * PUBLIC_RACE_TTL_MS old, and concurrent requests share one read, so a crowd of phones wakes the race's object
 * about once a second per isolate, not once per visitor. Failures are not kept.
 */
export const PUBLIC_RACE_TTL_MS = 1_000;
const publicRaceCache = new Map<string, { at: number; body: Promise<PublicRaceSnapshot> }>();

function publicRace(env: Env, part: string, now: number): Promise<PublicRaceSnapshot> {
  const cached = publicRaceCache.get(part);
  if (cached && now - cached.at < PUBLIC_RACE_TTL_MS && now >= cached.at) return cached.body;
  // Child-safe publishing (the season setting, child-safe.ts): a withheld runner is listed as finished, without
  // a time, a finish moment or a placing.
  const rules = publishingRules(SEASON);
  const body = raceSnapshot(env, database(env.DB), part).then(([race, ...runners]): PublicRaceSnapshot => [
    toPublicRace(race),
    ...publicRunners(runners, (age) => publishesResult(age, rules)),
  ]);
  publicRaceCache.set(part, { at: now, body });
  body.catch(() => {
    if (publicRaceCache.get(part)?.body === body) publicRaceCache.delete(part);
  });
  // Ids are validated before they get here, but a long-lived isolate still must not collect them forever.
  if (publicRaceCache.size > 200) publicRaceCache.delete(publicRaceCache.keys().next().value!);
  return body;
}

raceRoutes.get("/api/races/get/:part", validate("param", partParam), async (c) => {
  const body = await publicRace(c.env, c.req.valid("param").part, c.var.clock.now());
  return c.json(body, 200, { "cache-control": "public, max-age=1" });
});

raceRoutes.get("/admin/api/races", async (c) => c.json(await allRaces(database(c.env.DB))));

raceRoutes.get("/admin/api/races/get/:raceId", validate("param", raceIdParam), async (c) =>
  c.json(await raceSnapshot(c.env, database(c.env.DB), c.req.valid("param").raceId)),
);

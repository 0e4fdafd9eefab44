/**
 * The race index in D1: one row per race, seeded from the season config. Race-day truth (start time, runners,
 * finish order) lives in each race's Durable Object; state and started here mirror it for the lists.
 */
import { asc, eq, sql } from "drizzle-orm";
import { distanceMeters } from "../../shared/distances";
import { raceIdForSeason } from "../../shared/race-id";
import { isRaceState, type RaceRecord, type RaceState, type ResultsStatus } from "../../shared/race-protocol";
import { SEASON, type Season } from "../../shared/season";
import type { Db } from "../db/client";
import { participants, races, runnerIds } from "../db/schema";

export type RaceRow = typeof races.$inferSelect;

/**
 * Upserts the season's races (one per distance). The config's fields win on every call (the organiser edits
 * the config and deploys); state and start time belong to race day and are never touched here.
 */
export async function ensureSeasonRaces(db: Db, season: Season): Promise<RaceRow[]> {
  const rows = season.races.map((r) => ({
    part: raceIdForSeason(r.distance, season),
    season: season.year,
    date: season.raceDay,
    distance: distanceMeters(r.distance),
    startTime: r.startTime,
    openForReg: r.openForReg,
  }));
  const [first, ...rest] = rows.map((row) =>
    db
      .insert(races)
      .values(row)
      .onConflictDoUpdate({
        target: races.part,
        set: {
          season: sql`excluded.season`,
          date: sql`excluded.date`,
          distance: sql`excluded.distance`,
          startTime: sql`excluded.start_time`,
          openForReg: sql`excluded.open_for_reg`,
        },
      }),
  );
  if (first) await db.batch([first, ...rest]);
  return db.select().from(races).where(eq(races.season, season.year)).orderBy(asc(races.part)).all();
}

/** Every race of every season, by part (race-YYMMDD-NN sorts by date, then distance). */
export async function listRaces(db: Db): Promise<RaceRow[]> {
  return db.select().from(races).orderBy(asc(races.part)).all();
}

/**
 * `GET /api/races`: every race of every season, by part. The current season's races are written from the config
 * the first time they are missing, so a fresh deployment lists them without a manual seeding step.
 */
export async function listRaceRecords(db: Db, season: Season = SEASON): Promise<RaceRecord[]> {
  let rows = await listRaces(db);
  const seasonParts = season.races.map((r) => raceIdForSeason(r.distance, season));
  if (!seasonParts.every((part) => rows.some((row) => row.part === part))) {
    await ensureSeasonRaces(db, season);
    rows = await listRaces(db);
  }
  return rows.map(raceRecordFromRow);
}

export async function getRace(db: Db, part: string): Promise<RaceRow | null> {
  return (await db.select().from(races).where(eq(races.part, part)).get()) ?? null;
}

/**
 * Whether a race of `season` is under way or over: the season's results page (/resultat/{year}) shows it from
 * its races from then on (the page itself waits for the first finisher).
 */
export async function seasonRaceUnderWay(db: Db, season: number): Promise<boolean> {
  const row = await db
    .select({ part: races.part })
    .from(races)
    .where(sql`${races.season} = ${season} AND ${races.state} IN ('started', 'ended')`)
    .limit(1)
    .get();
  return row !== undefined;
}

/** The D1 participants linked to a race (its runners before the race's object holds any). */
export async function participantsInRace(db: Db, part: string) {
  return db.select().from(participants).where(eq(participants.raceId, part)).all();
}

/** Mirrors the Durable Object's state into the index; false when there is no such race. */
export async function setRaceState(db: Db, part: string, state: RaceState, started: number | null): Promise<boolean> {
  const updated = await db
    .update(races)
    .set({ state, started })
    .where(eq(races.part, part))
    .returning({ part: races.part });
  return updated.length > 0;
}

/** The spec's race record from an index row. */
export function raceRecordFromRow(row: RaceRow): RaceRecord {
  const record: RaceRecord = {
    type: "race",
    part: row.part,
    sort: "race",
    state: isRaceState(row.state) ? row.state : "",
    started: row.started,
    date: row.date,
    distance: row.distance,
    openForReg: row.openForReg,
  };
  if (isResultsStatus(row.resultsStatus)) record.results = row.resultsStatus;
  if (row.resultsOfficialAt !== null) record.officialAt = row.resultsOfficialAt;
  return record;
}

function isResultsStatus(x: string): x is ResultsStatus {
  return x === "preliminary" || x === "official" || x === "corrected";
}

/** A race an organiser creates by hand (admin "Lägg till lopp"); false when the part already exists. */
export async function createRace(
  db: Db,
  race: { part: string; date: string; distance: number; openForReg: boolean },
): Promise<boolean> {
  const inserted = await db
    .insert(races)
    .values({ ...race, season: Number(race.date.slice(0, 4)) })
    .onConflictDoNothing()
    .returning({ part: races.part });
  return inserted.length > 0;
}

/**
 * A runner id made outside a family's registration, reserved before anyone can see it (schema.ts `runnerIds`): a
 * family's save naming it is refused (db/registrations-db.ts `runnerIdsOwnedElsewhere`).
 */
export async function reserveRunnerId(db: Db, id: string, owner: string, now: number): Promise<void> {
  await db.insert(runnerIds).values({ id, owner, createdAt: now });
}

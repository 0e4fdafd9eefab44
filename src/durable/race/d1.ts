/**
 * The race object and D1. D1 is an index: participants' race, bib and distance, and the race's state, start and
 * results status (with the moment they were marked official), are mirrored here after the write in the object has
 * committed; the race object is the truth. A failed race
 * mirror sets `mirror_pending` and the alarm retries it (every later race write re-sends it too).
 *
 * Also the two reads the object makes from D1: a race of the index (a distance move's target) and the runners
 * that reached D1 before the object existed (they join the race when it is made).
 */
import { distanceFromMeters } from "../../shared/distances";
import type { Clock } from "../../shared/clock";
import { raceRecord } from "./records";
import type { RaceStore } from "./storage";
import { RACE_HUB_NAME, type RaceInit } from "./types";

/** How soon the alarm retries an unfinished distance move or D1 mirror. */
export const RETRY_MS = 5_000;

export type KnownParticipant = {
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  grp: string;
  bib: number | null;
  picked_up_at: number | null;
};

/** A race of D1's index with its mirrored state, as the object builds itself from it. */
export interface IndexedRace extends RaceInit {
  state: string;
  started: number | null;
  /** 'HH:MM' Stockholm on the race's date, when the season gives one. */
  startTime: string | null;
}

/** A race of D1's index; null when there is none. */
export async function indexedRace(env: Env, part: string): Promise<IndexedRace | null> {
  const row = await env.DB.prepare(
    `SELECT part, date, distance, open_for_reg AS openForReg, state, started, start_time AS startTime
     FROM races WHERE part = ?`,
  )
    .bind(part)
    .first<{
      part: string;
      date: string;
      distance: number;
      openForReg: number;
      state: string | null;
      started: number | null;
      startTime: string | null;
    }>();
  return row
    ? {
        part: row.part,
        date: row.date,
        distance: row.distance,
        openForReg: Boolean(row.openForReg),
        state: row.state ?? "",
        started: row.started,
        startTime: row.startTime,
      }
    : null;
}

/** Runners D1 already places in this race (e.g. seeded data), read when the object is made. */
export async function participantsInRace(env: Env, part: string): Promise<KnownParticipant[]> {
  const known = await env.DB.prepare(
    `SELECT id, firstname, lastname, age, company, "group" AS grp, bib, picked_up_at FROM participants
     WHERE race_id = ?`,
  )
    .bind(part)
    .all<KnownParticipant>();
  return known.results;
}

/**
 * D1's participants row follows this object: race, bib, the distance (only the four distances exist there), and
 * when the bib was picked up.
 * A runner no longer here is unlinked only if D1 still points at this race, so a move to another race (which
 * adds there first) is never undone.
 */
export async function mirrorRunner(env: Env, store: RaceStore, id: string): Promise<void> {
  const meta = store.requireMeta();
  const row = store.runnerRow(id);
  if (row && row.moving_to === null) {
    const km = distanceFromMeters(meta.distance);
    await env.DB.prepare(
      `UPDATE participants SET race_id = ?1, bib = ?2, distance = COALESCE(?3, distance), picked_up_at = ?5
       WHERE id = ?4`,
    )
      .bind(meta.part, row.bib, km, id, row.picked_up_at)
      .run();
    store.mirrored(id, row.seq);
  } else if (!row) {
    const seq = store.removedSeq(id);
    await env.DB.prepare(`UPDATE participants SET race_id = NULL, bib = NULL WHERE id = ?1 AND race_id = ?2`)
      .bind(id, meta.part)
      .run();
    if (seq !== undefined) store.mirrored(id, seq);
  }
}

/**
 * The race index (lists, hub) follows state, start and results status; the hub's sockets hear of it. A failure is
 * retried.
 */
export async function mirrorRace(
  env: Env,
  store: RaceStore,
  storage: DurableObjectStorage,
  clock: Clock,
): Promise<void> {
  const meta = store.requireMeta();
  try {
    await env.DB.prepare(
      "UPDATE races SET state = ?1, started = ?2, results_status = ?3, results_official_at = ?4 WHERE part = ?5",
    )
      .bind(meta.state, meta.started, meta.results, meta.official_at, meta.part)
      .run();
    // Only the state that was written is done: a change that landed while D1 answered keeps its debt.
    store.sql("UPDATE meta SET mirror_pending = 0 WHERE id = 1 AND seq = ?", meta.seq);
  } catch (err) {
    console.error("race mirror to D1 failed; the alarm retries", meta.part, err);
    await storage.setAlarm(clock.now() + RETRY_MS);
    return;
  }
  try {
    await env.RACE_HUB.getByName(RACE_HUB_NAME).raceChanged(raceRecord(store.requireMeta()));
  } catch (err) {
    // The hub's pages reload the list from D1 when they reconnect; a missed nudge costs nothing lasting.
    console.warn("race hub notification failed", meta.part, err);
  }
}

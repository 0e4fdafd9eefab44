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
import { RACE_HUB_NAME } from "../../shared/object-calls";
import type { RaceRecord } from "../../shared/race-protocol";
import type { RaceRoom } from "./room";
import type { KnownParticipant, RaceInit, RunnerOwner } from "./types";

/** How soon the alarm retries an unfinished distance move or D1 mirror. */
export const RETRY_MS = 5_000;

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
    `SELECT id, registration_id, firstname, lastname, age, company, "group" AS grp, bib, picked_up_at
     FROM participants WHERE race_id = ?`,
  )
    .bind(part)
    .all<KnownParticipant>();
  return known.results;
}

/**
 * D1's participants row follows this object: race, bib, the distance (only the four distances exist there), and
 * when the bib was picked up. Only the row that is this race's runner is written, the one of its owner: a family's
 * runner the row of its registration, a box-office runner the row without one; a runner made on the race screen
 * has no row, so none is written (a row with its id was made elsewhere: a family's save cannot take a reserved id
 * any more, schema.ts `runnerIds`). A runner added before owners were kept writes only a row made before it joined
 * the race (a paid runner's was; a row that took over its id since was not).
 * A runner no longer here is unlinked only if D1 still points at this race, so a move to another race (which
 * adds there first) is never undone. A runner on its way to another race is left for the move to finish.
 */
export async function mirrorRunner(env: Env, room: RaceRoom, id: string): Promise<void> {
  const mirror = room.runnerMirror(id);
  if (!mirror) return;
  if (mirror.inRace) {
    const owned = ownedBy(mirror.owner, mirror.addedAt);
    if (owned) {
      await env.DB.prepare(
        `UPDATE participants SET race_id = ?, bib = ?, distance = COALESCE(?, distance), picked_up_at = ?
         WHERE id = ? AND ${owned.where}`,
      )
        .bind(mirror.part, mirror.bib, distanceFromMeters(mirror.distance), mirror.pickedUpAt, id, ...owned.binds)
        .run();
    }
    room.runnerMirrored(id, mirror.seq);
    return;
  }
  await env.DB.prepare(`UPDATE participants SET race_id = NULL, bib = NULL WHERE id = ?1 AND race_id = ?2`)
    .bind(id, mirror.part)
    .run();
  if (mirror.seq !== undefined) room.runnerMirrored(id, mirror.seq);
}

/** Which participants row a runner of this owner is (null: none, a race-screen runner). */
function ownedBy(owner: RunnerOwner | null, addedAt: number): { where: string; binds: unknown[] } | null {
  if (owner === "race") return null;
  if (owner === "box-office") return { where: "registration_id IS NULL", binds: [] };
  if (owner?.startsWith("registration:")) {
    return { where: "registration_id = ?", binds: [owner.slice("registration:".length)] };
  }
  return { where: "created_at <= ?", binds: [addedAt] };
}

/**
 * The race index (lists, hub) follows state, start and results status; the hub's sockets hear of it. Throws when
 * D1 fails (the caller leaves it owed for the alarm); a hub that cannot be told is only logged.
 */
export async function mirrorRace(env: Env, room: RaceRoom): Promise<void> {
  const mirror = room.raceMirror();
  if (!mirror) return;
  await env.DB.prepare(
    "UPDATE races SET state = ?1, started = ?2, results_status = ?3, results_official_at = ?4 WHERE part = ?5",
  )
    .bind(mirror.state, mirror.started, mirror.results, mirror.officialAt, mirror.part)
    .run();
  // Only the state that was written is done: a change that landed while D1 answered keeps its debt.
  room.raceMirrored(mirror.seq);
  const race: RaceRecord = room.race();
  try {
    await env.RACE_HUB.getByName(RACE_HUB_NAME).raceChanged(race);
  } catch (err) {
    // The hub's pages reload the list from D1 when they reconnect; a missed nudge costs nothing lasting.
    console.warn("race hub notification failed", mirror.part, err);
  }
}

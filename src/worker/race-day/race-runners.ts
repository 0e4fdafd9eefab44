/**
 * The Worker's way into the race Durable Objects. A route validates, builds a command (src/durable/race/commands.ts)
 * and runs it on the race (`runOnRace`), or calls one of the object's reads (`answered(raceStub(…).snapshot())`);
 * the race's refusals come back as the Worker's 4xx. Below that: payment settlement and the box office add paid
 * runners here, the admin "Byt distans" moves one. The object is the writer of record and mirrors bib, race and
 * distance to D1's participants itself.
 */
import type { DurableObject } from "cloudflare:workers";
import type { AnswerOf, RaceCommand } from "../../durable/race/commands";
import type { RaceDO } from "../../durable/race/race-do";
import type { AddRunnerResult, ChangeAuthor, RaceAnswer, RunnerInput } from "../../durable/race/types";
import type { RunnerHistory } from "../../durable/race/rules/erase";
import { toDistance } from "../../shared/distances";
import { isRaceId, raceIdForSeason } from "../../shared/race-id";
import { compareRunners, runnerSort, type RaceSnapshot, type RunnerRecord } from "../../shared/race-protocol";
import type { MoveResult } from "../../shared/race-answers";
import type { Season } from "../../shared/season";
import type { Db } from "../db/client";
import { participantsByIds } from "../db/participants-db";
import { ensureSeasonRaces, getRace, participantsInRace, raceRecordFromRow } from "./races-db";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { deleteTapPhotos } from "./photo-objects";

/**
 * The race object's methods as the Worker calls them, with the class's own types: RPC's stub types add promise
 * pipelining, which the Worker never uses, and lose `run`'s type parameter (each command's own answer).
 */
export type RaceObject = Omit<RaceDO, keyof DurableObject>;

/**
 * The race's object, without any I/O: one call reaches the race. An object without storage makes itself from its
 * row in D1's index on that call, and a race the index does not have answers 404 (src/durable/race/race-do.ts).
 */
export function raceStub(env: Env, part: string): RaceObject {
  if (!isRaceId(part)) throw notFound("Loppet finns inte");
  return env.RACE.getByName(part) as unknown as RaceObject;
}

/** A race object's answer: its value, or the race's refusal thrown as the Worker's 4xx (ApiError). */
export async function answered<T>(call: Promise<RaceAnswer<T>>): Promise<T> {
  const answer = await call;
  if (answer.ok) return answer.value;
  throw new ApiError(answer.status, answer.error, undefined, answer.retimes, answer.retryAfter);
}

/** One command on the race `part` (RaceDO.run): its answer, or the race's refusal as the Worker's 4xx. */
export function runOnRace<C extends RaceCommand>(
  env: Env,
  part: string,
  command: C,
  by: ChangeAuthor,
): Promise<AnswerOf<C>> {
  return answered(raceStub(env, part).run(command, by));
}

export interface ParticipantForRace extends RunnerInput {
  /** km as the spec writes it: '0.8' … '5.6'. */
  distance: string;
  /** An adult running with a child (shared/companion.ts): never a runner of a race object, so left out here. */
  companion?: boolean | null;
}

export interface AddedToRace extends AddRunnerResult {
  part: string;
}

/**
 * Puts paid participants in their races: the race they are already linked to in D1 (an admin may have moved
 * them), otherwise the season's race for their distance. Idempotent: a second run adds nobody and changes
 * nothing. A bib taken meanwhile is dropped rather than leaving a paid runner out (see `droppedBib`). Companions
 * (shared/companion.ts) are left out: they are not runners of any race. `pickedUpAt`:
 * the runners join checked in (the box office hands the bib over at the table).
 */
export async function addParticipantsToRaces(
  env: Env,
  db: Db,
  participants: readonly ParticipantForRace[],
  season: Season,
  by: ChangeAuthor = { actor: "system" },
  pickedUpAt: number | null = null,
): Promise<AddedToRace[]> {
  // Companions run with their child without competing: no race object ever holds them (no bib, no time, never
  // DNS, never holding back 'Avsluta lopp'); they are listed from D1 (companions-db.ts).
  participants = participants.filter((p) => p.companion !== true);
  if (participants.length === 0) return [];
  const ids = participants.map((p) => p.id);
  const rows = new Map((await participantsByIds(db, ids)).map((row) => [row.id, row]));
  const linked = new Map([...rows.values()].map((row) => [row.id, row.raceId]));

  const byPart = new Map<string, ParticipantForRace[]>();
  for (const p of participants) {
    const distance = toDistance(p.distance);
    if (!distance) throw badRequest(`Ogiltig distans: ${p.distance}`);
    const part = linked.get(p.id) ?? raceIdForSeason(distance, season);
    byPart.set(part, [...(byPart.get(part) ?? []), p]);
  }

  const results: AddedToRace[] = [];
  let seeded = false;
  for (const [part, group] of byPart) {
    let row = await getRace(db, part);
    if (!row && !seeded) {
      await ensureSeasonRaces(db, season);
      seeded = true;
      row = await getRace(db, part);
    }
    if (!row) throw notFound("Loppet finns inte");
    for (const p of group) {
      const runner: RunnerInput = {
        id: p.id,
        firstname: p.firstname,
        lastname: p.lastname,
        age: p.age,
        company: p.company ?? "",
        group: p.group ?? "Ingen",
        bib: p.bib ?? null,
        pickedUpAt,
      };
      // The race mirrors only into the participants row of this owner (src/durable/race/d1.ts).
      const stored = rows.get(p.id);
      if (stored) runner.owner = stored.registrationId ? `registration:${stored.registrationId}` : "box-office";
      const result = await runOnRace(
        env,
        row.part,
        { type: "add-runner", runner, options: { dropTakenBib: true } },
        by,
      );
      results.push({ ...result, part });
    }
  }
  return results;
}

/**
 * Admin "Byt distans": the runner leaves one race and joins another with that race's distance, keeping the bib
 * when it is free there. The source race's object runs the move (marked, added there, removed here, its alarm
 * retrying until done), so a failure half-way never loses or doubles the runner; a repeat after success finds
 * the runner already moved and answers the same.
 */
export async function changeRunnerDistance(
  env: Env,
  fromPart: string,
  toPart: string,
  id: string,
  by: ChangeAuthor = { actor: "system" },
): Promise<MoveResult> {
  if (fromPart === toPart) throw badRequest("Löparen är redan anmäld till det loppet.");
  const from = raceStub(env, fromPart);
  const to = raceStub(env, toPart);
  const here = await answered(from.getRunner(id));
  if (!here) {
    const moved = await answered(to.getRunner(id));
    if (moved) return { runner: moved };
  }
  return answered(from.moveRunner(toPart, id, by));
}

/**
 * `GET /admin/api/races/get/{part}` (the race screen before its socket connects, the families' results): the race
 * record, then its runners. The index row gives the race (404 without one) and what the season's config sets in it
 * (date, distance, whether registration is open). The object, once it exists, is the truth for everything race day
 * changes: its race record as the socket carries it (state, start, results status, officialAt, the main timer …,
 * so a phone that loads before its socket computes slot times with the right main timer) and the runners. Before
 * the object has data, the runners are the D1 participants linked to the race.
 */
export async function raceSnapshot(env: Env, db: Db, part: string): Promise<RaceSnapshot> {
  const row = isRaceId(part) ? await getRace(db, part) : null;
  if (!row) throw notFound("Loppet finns inte");
  const indexed = raceRecordFromRow(row);
  const live = await answered(raceStub(env, part).snapshot());
  if (live) {
    const [race, ...runners] = live;
    return [{ ...race, date: indexed.date, distance: indexed.distance, openForReg: indexed.openForReg }, ...runners];
  }
  const runners = (await participantsInRace(db, part)).map((p): RunnerRecord => ({
    type: "runner",
    part,
    sort: runnerSort(p.id),
    id: p.id,
    bib: p.bib && p.bib > 0 ? p.bib : null,
    firstname: p.firstname,
    lastname: p.lastname,
    age: p.age,
    company: p.company,
    group: p.group,
    finished: null,
    distance: p.distance,
  }));
  return [indexed, ...runners.sort(compareRunners)];
}

/** The spec's runner fields a family may change on a paid runner. */
export interface RunnerDetails {
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  group: string;
  /** km ('5.6'). */
  distance: string;
}

/**
 * A paid runner's details changed by the family, in the race object first (issue 24): a new distance is the race
 * object's move to the season's race for it (D1's race and distance follow from the object's mirror), then the
 * names, age, club and group are the target race's `updateRunner`. A refusal (the runner has finished, is on its
 * way elsewhere, has left the race) is a 4xx before D1 changes. Returns the race the runner is in afterwards.
 */
export async function changeRunnerInRace(
  env: Env,
  db: Db,
  runner: { id: string; raceId: string; distance: string },
  next: RunnerDetails,
  season: Season,
  by: ChangeAuthor,
): Promise<string> {
  let part = runner.raceId;
  if (next.distance !== runner.distance) {
    const distance = toDistance(next.distance);
    if (!distance) throw badRequest(`Ogiltig distans: ${next.distance}`);
    const target = raceIdForSeason(distance, season);
    if (target !== part) {
      await ensureSeasonRaces(db, season);
      await changeRunnerDistance(env, part, target, runner.id, by);
      part = target;
    }
  }
  const patch = {
    firstname: next.firstname,
    lastname: next.lastname,
    age: next.age,
    company: next.company,
    group: next.group,
  };
  await runOnRace(env, part, { type: "update-runner", runnerId: runner.id, patch }, by);
  return part;
}

/**
 * Puts D1's details of a runner into the race it is in: the way back after a change reached the race object but
 * D1's save of it was refused (another tab saved first), so the two never disagree. Best effort: a runner no
 * longer in a race is left alone, and a failure is logged (D1 stays the family's truth for names).
 */
export async function syncRunnerFromD1(env: Env, db: Db, id: string, by: ChangeAuthor): Promise<void> {
  const [row] = await participantsByIds(db, [id]);
  if (!row?.raceId || row.deregisteredAt !== null) return;
  try {
    const patch = {
      firstname: row.firstname,
      lastname: row.lastname,
      age: row.age,
      company: row.company,
      group: row.group,
    };
    await runOnRace(env, row.raceId, { type: "update-runner", runnerId: id, patch }, by);
  } catch (err) {
    console.error("putting D1's runner back into its race failed", id, row.raceId, err);
  }
}

export interface LeftRace {
  /** The races the runner was taken out of. */
  removedFrom: string[];
  /** A race that has started or ended: the runner stays in it (its start and result are race-day history). */
  keptIn: { part: string; state: string } | null;
}

/**
 * A deregistered runner leaves its races (start lists, the race objects, its bib): 'remove-runner' in every race of
 * its season that holds it. Only a race that has not started is changed; in a started or ended race the runner
 * stays (taking it out would rewrite a running race or published results), and the caller says so.
 *
 * Every race of the season is asked, not only the one D1 names: a distance move running at the same time holds
 * the runner in its old race (on its way) and adds it to the new one before D1's link follows, so D1 can name the
 * race the runner is leaving, or none, while the new race already has it. The move that lands after this scan is
 * the mover's to undo: a family's save checks the deregistration once its move is done and calls this again
 * (registration/runner-changes.ts). Idempotent: a second call removes nothing more.
 */
export async function takeRunnerOutOfRaces(env: Env, db: Db, id: string, by: ChangeAuthor): Promise<LeftRace> {
  const removedFrom: string[] = [];
  let keptIn: LeftRace["keptIn"] = null;
  const [row] = await participantsByIds(db, [id]);
  if (!row) return { removedFrom, keptIn };
  const parts = (await racesOf(db, [{ id, season: row.season, race_id: row.raceId }])).get(id) ?? [];
  for (const part of parts) {
    const race = raceStub(env, part);
    if (!(await answered(race.getRunner(id)))) continue;
    const record = await answered(race.getRace());
    if (record && record.state !== "") {
      keptIn = { part, state: record.state };
      continue;
    }
    await runOnRace(env, part, { type: "remove-runner", runnerId: id }, by);
    removedFrom.push(part);
  }
  return { removedFrom, keptIn };
}

/** A runner as the personal-data calls know it from D1. */
export interface StoredRunner {
  id: string;
  season: number;
  race_id: string | null;
}

/**
 * The races a runner may have left something in: every race of its season in D1's index (a change of distance
 * leaves the runner's add and its tombstone in the race it left; ended races too), and the race D1 has it in.
 */
async function racesOf(db: Db, runners: readonly StoredRunner[]): Promise<Map<string, string[]>> {
  const seasons = [...new Set(runners.map((r) => r.season))];
  const { results } = await db.$client
    .prepare("SELECT part, season FROM races WHERE season IN (SELECT value FROM json_each(?1)) ORDER BY part")
    .bind(JSON.stringify(seasons))
    .all<{ part: string; season: number }>();
  const out = new Map<string, string[]>();
  for (const runner of runners) {
    const parts = results.filter((r) => r.season === runner.season).map((r) => r.part);
    if (runner.race_id && !parts.includes(runner.race_id)) parts.push(runner.race_id);
    out.set(runner.id, parts);
  }
  return out;
}

/**
 * Erasure in the race objects (src/durable/race/rules/erase.ts): every race a runner may have been in renames it
 * and rewrites its race-day log and review items, whether it runs there, left, or the race has ended. Answers how
 * many (race, runner) pairs held something. One race at a time; a failure is thrown (the caller answers 502 and
 * changes nothing in D1); repeating is harmless (a race with nothing left to rename writes nothing new but a log
 * line without any name).
 */
export async function eraseFromRaces(
  env: Env,
  db: Db,
  runners: readonly StoredRunner[],
  replacement: { firstname: string; lastname: string },
  by: ChangeAuthor,
): Promise<number> {
  const races = await racesOf(db, runners);
  let touched = 0;
  for (const runner of runners) {
    for (const part of races.get(runner.id) ?? []) {
      if (!isRaceId(part)) continue;
      const erased = await answered(raceStub(env, part).anonymiseRunner(runner.id, replacement, by));
      if (erased === null) continue;
      touched++;
      // Målfoto: the photos of the runner's taps are its personal data; the race removed them, their objects go
      // (every tap that ever had one, each time: an R2 deletion that failed is made good by erasing again).
      if (erased.photoObjects?.length) await deleteTapPhotos(env, part, erased.photoObjects);
    }
  }
  return touched;
}

/** What the race objects hold about the runners (record, bib, finish, log lines, review items), for the export. */
export async function raceDayHistory(
  env: Env,
  db: Db,
  runners: readonly StoredRunner[],
): Promise<(RunnerHistory & { runnerId: string })[]> {
  const races = await racesOf(db, runners);
  const out: (RunnerHistory & { runnerId: string })[] = [];
  for (const runner of runners) {
    for (const part of races.get(runner.id) ?? []) {
      if (!isRaceId(part)) continue;
      const history = await answered(raceStub(env, part).runnerHistory(runner.id));
      if (history) out.push({ runnerId: runner.id, ...history });
    }
  }
  return out;
}

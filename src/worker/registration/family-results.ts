/**
 * The family's own results (issue 28, item 3): their runners' times and placings, read from their races as the
 * race objects have them, so they follow the race live on race day (src/shared/family-results.ts decides the
 * placings, child-safe publishing included: the family sees their own child's time, never a placing the public
 * does not see).
 *
 * A race is read through this isolate's copy of its last settled snapshot, at most RACE_COPY_MS old, so families
 * refreshing their page on race day wake each race object about once per RACE_COPY_MS per isolate. Only values
 * are kept, never a pending read: two requests of the isolate that both find the copy old each read the race
 * themselves (workerd refuses I/O on behalf of another request), and a failed read keeps nothing.
 */
import { publishingRules } from "../../shared/child-safe";
import {
  familyRace,
  familyRunnerResults,
  type FamilyResults,
  type FamilyRunnerResult,
} from "../../shared/family-results";
import type { RaceSnapshot } from "../../shared/race-protocol";
import { SEASON } from "../../shared/season";
import type { Db } from "../db/client";
import { raceSnapshot } from "../race-day/race-runners";
import type { StoredRunner } from "../db/registrations-db";
import { keptInIsolate } from "../lib/isolate-memory";

export const RACE_COPY_MS = 5_000;
/** A season has four races; this bounds what an isolate keeps of races made by hand. */
const MAX_COPIES = 50;

const copies = keptInIsolate(new Map<string, { at: number; snapshot: RaceSnapshot }>());

/** The race as its object has it now, or this isolate's copy when it is younger than RACE_COPY_MS. */
export async function recentRace(env: Env, db: Db, part: string, now: number): Promise<RaceSnapshot> {
  const copy = copies.get(part);
  if (copy && now >= copy.at && now - copy.at < RACE_COPY_MS) return copy.snapshot;
  const snapshot = await raceSnapshot(env, db, part);
  copies.delete(part);
  copies.set(part, { at: now, snapshot });
  if (copies.size > MAX_COPIES) copies.delete(copies.keys().next().value!);
  return snapshot;
}

/** Forgets every copy (tests that change a race and read it again at once). */
export function forgetRaceCopies(): void {
  copies.clear();
}

/**
 * The results of the family's runners that are in a race (paid, placed in their race; a runner a refund took out
 * is not), each race read once. A race that cannot be read now leaves its runners out rather than failing the page.
 */
export async function familyResults(
  env: Env,
  db: Db,
  runners: readonly StoredRunner[],
  now: number,
): Promise<FamilyResults> {
  const byRace = new Map<string, Set<string>>();
  for (const r of runners) {
    if (!r.raceId || r.deregisteredAt !== null) continue;
    byRace.set(r.raceId, (byRace.get(r.raceId) ?? new Set()).add(r.id));
  }
  const rules = publishingRules(SEASON);
  const answer: FamilyResults = { races: [], runners: [] };
  for (const [part, ids] of byRace) {
    let snapshot: RaceSnapshot;
    try {
      snapshot = await recentRace(env, db, part, now);
    } catch (err) {
      console.error("family results: race not read", part, err);
      continue;
    }
    const [race, ...raceRunners] = snapshot;
    answer.races.push(familyRace(race));
    answer.runners.push(...familyRunnerResults(race, raceRunners, ids, rules));
  }
  const order = new Map(runners.map((r, i) => [r.id, i]));
  answer.runners.sort((a: FamilyRunnerResult, b: FamilyRunnerResult) => order.get(a.id)! - order.get(b.id)!);
  return answer;
}

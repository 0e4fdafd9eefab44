/**
 * Race day in the race room (race-day, review and ended-race tests): a started race with its runners, and taps as a
 * phone sends them. Built on room-helpers.ts (shared with other room tests; not changed here).
 */
import { expect } from "vitest";
import type { FinishTap } from "../../src/durable/race/rules/finish";
import type { ChangeAuthor, RunnerInput } from "../../src/durable/race/types";
import type { ReviewRecord } from "../../src/shared/race-protocol";
import { newRoom, runner, tapId, type TestRoom } from "./room-helpers";
import type { SentToReview } from "../../src/shared/race-answers";

export const TEN_MINUTES = 600_000;

export interface StartedRace {
  race: TestRoom;
  /** The runners as added, in the order given. */
  runners: RunnerInput[];
  /** The race's start: ten minutes before the clock, so a tap at start + n s lies in the past. */
  started: number;
}

/** A race with these runners (each a bib or its fields), then started by a tap. */
export function startedRace(
  runners: (number | null | Partial<RunnerInput>)[] = [601, 602],
  options: Parameters<typeof newRoom>[0] = {},
): StartedRace {
  const race = withRunners(runners, options);
  const started = race.race.clock.now() - TEN_MINUTES;
  race.race.run({ type: "start", tap: { tapId: tapId(), at: started } });
  return { ...race, started };
}

/** A race not started yet, with these runners. */
export function withRunners(
  runners: (number | null | Partial<RunnerInput>)[],
  options: Parameters<typeof newRoom>[0] = {},
): { race: TestRoom; runners: RunnerInput[] } {
  const race = newRoom(options);
  const added = runners.map((r) => runner(typeof r === "object" && r !== null ? r : { bib: r }));
  for (const input of added) race.run({ type: "add-runner", runner: input });
  return { race, runners: added };
}

/** A finish tap as a phone sends it: a fresh tap id unless one is given. */
export function tap(race: TestRoom, runnerId: string, fields: FinishTap = {}, by?: ChangeAuthor) {
  return race.run({ type: "finish", runnerId, tap: { tapId: tapId(), ...fields } }, by);
}

/** The spec's bare finish call: no tap id (refusals are thrown, nothing goes to the review list). */
export function bareFinish(race: TestRoom, runnerId: string, at?: number) {
  return race.run({ type: "finish", runnerId, tap: at === undefined ? {} : { at } });
}

/** The item a start or finish tap made on the review list (the tap must have gone there). */
export function reviewOf(result: { outcome: string }): ReviewRecord {
  expect(result.outcome).toBe("review");
  return (result as SentToReview).review;
}

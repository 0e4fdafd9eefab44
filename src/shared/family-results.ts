/**
 * The family's own results (issue 28, item 3): each of the family's runners in a race with their time and their
 * placing in their distance and in their class, from the race as the race object has it (live on race day).
 *
 * Placings are the public's (child-safe.ts): counted among the runners whose result is published. A runner whose
 * result the public does not see (child-safe publishing on, 11 or under) still has their time here, for their own
 * family, but no placing: they are not ranked.
 */
import { publishesResult, type PublishingRules } from "./child-safe";
import type { RaceRecord, RaceState, RunnerRecord } from "./race-protocol";
import { parseResult } from "./time-format";

/** Where a runner is in their race. */
export type FamilyRunnerState = "waiting" | "running" | "finished" | "dns";

export interface FamilyRunnerResult {
  /** The participant id (the registration's runner id). */
  id: string;
  raceId: string;
  state: FamilyRunnerState;
  /** 'mm:ss.fff' once finished with a known start; null otherwise. */
  time: string | null;
  timeMs: number | null;
  bib: number | null;
  /** The class the runner is placed in: 'Dam', 'Herr', or '' for none ('Ingen'). */
  klass: string;
  /** Place in the distance among the published results; null when not placed (not finished, or withheld). */
  place: number | null;
  /** How many have a published result in the distance (the "of" of the place). */
  placedInDistance: number;
  /** Place in the class; null without a class or when not placed. */
  classPlace: number | null;
  placedInClass: number;
  /** The public does not see this runner's time and placing (child-safe publishing). */
  withheld: boolean;
}

/** A race the family has runners in, as the family's page needs it. */
export interface FamilyRace {
  part: string;
  date: string;
  /** Metres. */
  distance: number;
  state: RaceState;
  started: number | null;
  /** The results status when the race index carries it ('preliminary', 'official', 'corrected'); else null. */
  resultsStatus: string | null;
}

export interface FamilyResults {
  races: FamilyRace[];
  runners: FamilyRunnerResult[];
}

function klassOf(group: string): string {
  return group === "Dam" || group === "Herr" ? group : "";
}

function timeMsOf(r: RunnerRecord): number | null {
  return r.time === undefined ? null : parseResult(r.time);
}

/** Competition ranking by time (1, 2, 2, 4) of the runners given; the place of each by id. */
function places(runners: readonly { id: string; ms: number }[]): Map<string, number> {
  const sorted = [...runners].sort((a, b) => a.ms - b.ms);
  const byId = new Map<string, number>();
  let place = 0;
  sorted.forEach((r, i) => {
    if (i === 0 || r.ms !== sorted[i - 1]!.ms) place = i + 1;
    byId.set(r.id, place);
  });
  return byId;
}

export function familyRace(race: RaceRecord & { results?: string }): FamilyRace {
  return {
    part: race.part,
    date: race.date,
    distance: race.distance,
    state: race.state,
    started: race.started,
    resultsStatus: race.results ? race.results : null,
  };
}

/** The family's runners (`ids`) of one race, each with their state, time and placings. */
export function familyRunnerResults(
  race: RaceRecord,
  runners: readonly RunnerRecord[],
  ids: ReadonlySet<string>,
  rules: PublishingRules,
): FamilyRunnerResult[] {
  const published = runners
    .map((r) => ({ r, ms: timeMsOf(r) }))
    .filter((x): x is { r: RunnerRecord; ms: number } => x.ms !== null && publishesResult(x.r.age, rules));
  const inDistance = places(published.map(({ r, ms }) => ({ id: r.id, ms })));
  const inClass = new Map<string, Map<string, number>>();
  for (const klass of ["Dam", "Herr"]) {
    inClass.set(
      klass,
      places(published.filter(({ r }) => klassOf(r.group) === klass).map(({ r, ms }) => ({ id: r.id, ms }))),
    );
  }

  return runners
    .filter((r) => ids.has(r.id))
    .map((r): FamilyRunnerResult => {
      const timeMs = timeMsOf(r);
      const klass = klassOf(r.group);
      const state: FamilyRunnerState =
        r.finished !== null ? "finished" : r.dns ? "dns" : race.state === "" ? "waiting" : "running";
      const classPlaces = klass ? inClass.get(klass)! : null;
      return {
        id: r.id,
        raceId: race.part,
        state,
        time: state === "finished" && timeMs !== null ? (r.time ?? null) : null,
        timeMs: state === "finished" ? timeMs : null,
        bib: r.bib,
        klass,
        place: inDistance.get(r.id) ?? null,
        placedInDistance: inDistance.size,
        classPlace: classPlaces?.get(r.id) ?? null,
        placedInClass: classPlaces?.size ?? 0,
        withheld: !publishesResult(r.age, rules),
      };
    });
}

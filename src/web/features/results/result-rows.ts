/**
 * The results page's rules, as plain functions (spec, public site "Results"): which season is the latest and
 * where each of its distances comes from (an imported results file, or for a race of the current season that has
 * results, the race itself), which tab opens, the older years to link, and the table's lines with ± to the winner.
 * A race's own rows (placings from its public view, child-safe publishing included) come from
 * shared/public-view.ts `resultRows`, the one place that decides what the public sees.
 */
import { DISTANCES, distanceFromMeters, type DistanceKm } from "../../../shared/distances";
import { partYear } from "../../../shared/race-id";
import type { PublicRaceSnapshot, RaceRecord } from "../../../shared/race-protocol";
import { WITHHELD_TEXT } from "../../../shared/child-safe";
import type { PublicResultSet } from "../../../shared/page-render";
import type { PublishedRow } from "../../../shared/results-file";
import type { Season } from "../../../shared/season";
import { formatDiff, formatResult } from "../../../shared/time-format";

/** `GET /api/results`: which years and distances have an imported results file. */

/** Where one distance's results come from. */
export type ResultSource = { kind: "file"; file: string } | { kind: "race"; part: string };

export interface SeasonResults {
  year: number;
  sources: Partial<Record<DistanceKm, ResultSource>>;
}

/** The tabs' default (spec: "default 5.6K"), or the longest distance there is. */
export const DEFAULT_DISTANCE: DistanceKm = "5.6";

export function defaultDistance(available: readonly DistanceKm[]): DistanceKm {
  if (available.includes(DEFAULT_DISTANCE) || available.length === 0) return DEFAULT_DISTANCE;
  return [...available].sort((a, b) => Number(b) - Number(a))[0]!;
}

/** The season's distances in the order they start on race day (0.8 at 11:00 first; equal starts longest first). */
export function startOrder(season: Pick<Season, "races">): DistanceKm[] {
  return [...season.races]
    .sort((a, b) => a.startTime.localeCompare(b.startTime) || Number(b.distance) - Number(a.distance))
    .map((r) => r.distance);
}

/**
 * The tab a results page opens on (issue 28): the spec's 5.6K when it has results, else the first race of the
 * day that has (on race day the 0.8K has finishers long before the 5.6K), else 5.6K. `withResults` are the
 * distances that have results (a season's sources only name those).
 */
export function openingDistance(withResults: readonly DistanceKm[], order: readonly DistanceKm[]): DistanceKm {
  if (withResults.includes(DEFAULT_DISTANCE) || withResults.length === 0) return DEFAULT_DISTANCE;
  return order.find((d) => withResults.includes(d)) ?? defaultDistance(withResults);
}

/** One year's imported files per distance. */
export function fileSources(sets: readonly PublicResultSet[], year: number): SeasonResults["sources"] {
  const sources: SeasonResults["sources"] = {};
  for (const s of sets) if (s.year === year) sources[s.distance] = { kind: "file", file: s.file };
  return sources;
}

/** Finishers counted from a race's public view, by part (the page counts them for started races: below). */
export type FinisherCounts = ReadonlyMap<string, number>;

/** How many runners of a public view have finished (a time shown or, for a withheld result, only the fact). */
export function finishersOf(view: PublicRaceSnapshot): number {
  const [, ...runners] = view;
  return runners.filter((r) => r.finished !== null || r.resultWithheld === true).length;
}

/**
 * Whether a race has results: a counted number of finishers decides; otherwise its results status when the record
 * carries one, else whether it has ended (an ended race is one whose runners all finished or did not start).
 */
export function raceHasResults(race: RaceRecord, finishers: FinisherCounts): boolean {
  const counted = finishers.get(race.part);
  if (counted !== undefined) return counted > 0;
  if (race.results) return true;
  return race.state === "ended";
}

/**
 * The races of `year` whose finishers the page has to count from their public view to know whether they have
 * results: started, not ended, and without a results status on the record. Only on race day is there any.
 */
export function racesToCount(races: readonly RaceRecord[], year: number): string[] {
  return races.filter((r) => r.state === "started" && !r.results && partYear(r.part) === year).map((r) => r.part);
}

/**
 * One season's sources: each distance from its imported file if the organiser has imported one, else from the
 * season's race when that race has results (live on race day, from its first finisher).
 */
export function seasonSources(
  sets: readonly PublicResultSet[],
  races: readonly RaceRecord[],
  year: number,
  finishers: FinisherCounts = new Map(),
): SeasonResults["sources"] {
  const sources: SeasonResults["sources"] = {};
  for (const race of races) {
    if (partYear(race.part) !== year || !raceHasResults(race, finishers)) continue;
    const d = distanceFromMeters(race.distance);
    if (d) sources[d] = { kind: "race", part: race.part };
  }
  return { ...sources, ...fileSources(sets, year) };
}

/**
 * The season the results page shows first: the current season as soon as one of its races has results (each
 * distance from its imported file if there is one, else from the race); otherwise the latest year with imported
 * results. Null when there are no results at all.
 */
export function latestSeason(
  sets: readonly PublicResultSet[],
  races: readonly RaceRecord[],
  seasonYear: number,
  finishers: FinisherCounts = new Map(),
): SeasonResults | null {
  const current = seasonSources([], races, seasonYear, finishers);
  const latestFileYear = sets.reduce<number | null>((max, s) => (max === null || s.year > max ? s.year : max), null);
  if (Object.keys(current).length > 0 && (latestFileYear === null || latestFileYear <= seasonYear)) {
    return { year: seasonYear, sources: seasonSources(sets, races, seasonYear, finishers) };
  }
  if (latestFileYear === null) return null;
  return { year: latestFileYear, sources: fileSources(sets, latestFileYear) };
}

/** The distances a season's sources name, shortest first. */
export function sourceDistances(sources: SeasonResults["sources"]): DistanceKm[] {
  return DISTANCES.filter((d) => sources[d] !== undefined);
}

/**
 * Every year with results except `shown`, newest first (the links to other years): the imported years, and
 * `seasonYear` when the current season has results from its races (`seasonHasResults`).
 */
export function otherYears(
  sets: readonly PublicResultSet[],
  shown: number | null,
  current: { seasonYear: number; seasonHasResults: boolean } | null = null,
): number[] {
  const years = new Set(sets.map((s) => s.year));
  if (current?.seasonHasResults) years.add(current.seasonYear);
  return [...years].filter((y) => y !== shown).sort((a, b) => b - a);
}

export interface ResultLine {
  key: string;
  place: string;
  name: string;
  time: string;
  /** ± to the winner: '+00:00.000' for the winner (time-format's formatDiff). */
  diff: string;
  klass: string;
  bib: string;
  club: string;
}

/**
 * The table's lines, in the given order, with ± to the fastest time. A withheld line (child-safe publishing) has
 * no placing, 'Fullföljt' for its time and no ±.
 */
export function resultLines(rows: readonly PublishedRow[]): ResultLine[] {
  const best = rows.reduce((min, r) => (r.timeMs === null ? min : Math.min(min, r.timeMs)), Infinity);
  return rows.map((r, i) => ({
    key: String(i),
    place: r.place === null ? "" : String(r.place),
    name: r.name,
    time: r.timeMs === null ? WITHHELD_TEXT : formatResult(r.timeMs),
    diff: r.timeMs === null ? "" : formatDiff(r.timeMs - best),
    klass: r.klass,
    bib: r.bib === null ? "" : String(r.bib),
    club: r.club,
  }));
}

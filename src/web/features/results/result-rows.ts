/**
 * The results page's rules, as plain functions (spec, public site "Results"): which season is the latest and
 * where each of its distances comes from (an imported results file, or for a race of the current season that has
 * ended, the race itself), the older years to link, and the table's lines with ± to the winner.
 */
import { DISTANCES, distanceFromMeters, type DistanceKm } from "../../../shared/distances";
import { partYear } from "../../../shared/race-id";
import type { PublicRaceSnapshot, RaceRecord } from "../../../shared/race-protocol";
import type { ResultRow } from "../../../shared/results-file";
import { formatDiff, formatResult, parseResult } from "../../../shared/time-format";

/** `GET /api/results`: which years and distances have an imported results file. */
export interface ResultSet {
  year: number;
  distance: DistanceKm;
  runners: number;
  /** The file's name under /resultat/ (resultat-2023-56.csv). */
  file: string;
}

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

/** One year's imported files per distance. */
export function fileSources(sets: readonly ResultSet[], year: number): SeasonResults["sources"] {
  const sources: SeasonResults["sources"] = {};
  for (const s of sets) if (s.year === year) sources[s.distance] = { kind: "file", file: s.file };
  return sources;
}

/**
 * The season the results page shows first. The current season once one of its races has ended: each distance
 * from its imported file if the organiser has imported one, else from the ended race. Otherwise the latest year
 * with imported results. Null when there are no results at all.
 */
export function latestSeason(
  sets: readonly ResultSet[],
  races: readonly RaceRecord[],
  seasonYear: number,
): SeasonResults | null {
  const ended = races.filter((r) => r.state === "ended" && partYear(r.part) === seasonYear);
  const latestFileYear = sets.reduce<number | null>((max, s) => (max === null || s.year > max ? s.year : max), null);
  if (ended.length > 0 && (latestFileYear === null || latestFileYear <= seasonYear)) {
    const sources: SeasonResults["sources"] = {};
    for (const race of ended) {
      const d = distanceFromMeters(race.distance);
      if (d) sources[d] = { kind: "race", part: race.part };
    }
    return { year: seasonYear, sources: { ...sources, ...fileSources(sets, seasonYear) } };
  }
  if (latestFileYear === null) return null;
  return { year: latestFileYear, sources: fileSources(sets, latestFileYear) };
}

/** Every year with imported results except `shown`, newest first (the links to older years). */
export function otherYears(sets: readonly ResultSet[], shown: number | null): number[] {
  return [...new Set(sets.map((s) => s.year))].filter((y) => y !== shown).sort((a, b) => b - a);
}

/** The distances a year has results on, shortest first. */
export function yearDistances(sets: readonly ResultSet[], year: number): DistanceKm[] {
  return DISTANCES.filter((d) => sets.some((s) => s.year === year && s.distance === d));
}

/**
 * A race's results as result rows: its finishers in order of time, places 1, 2, 3 … (equal times share a place).
 * Runners without a time (still out, did not start) are not results.
 */
export function rowsFromRace(snapshot: PublicRaceSnapshot): ResultRow[] {
  const [, ...runners] = snapshot;
  const timed = runners
    .map((r) => ({ r, ms: r.time === undefined ? null : parseResult(r.time) }))
    .filter((x): x is { r: (typeof runners)[number]; ms: number } => x.ms !== null)
    .sort((a, b) => a.ms - b.ms || (a.r.bib ?? Infinity) - (b.r.bib ?? Infinity));
  let place = 0;
  return timed.map(({ r, ms }, i) => {
    if (i === 0 || ms !== timed[i - 1]!.ms) place = i + 1;
    return {
      place,
      // A result changed after the results were official says so (issue 26).
      name: `${r.firstname} ${r.lastname}`.trim() + (r.corrected ? " (korrigerad)" : ""),
      timeMs: ms,
      klass: r.group === "Ingen" ? "" : r.group,
      bib: r.bib !== null && r.bib > 0 ? r.bib : null,
      club: r.company,
    };
  });
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

/** The table's lines, in the given order, with ± to the fastest time. */
export function resultLines(rows: readonly ResultRow[]): ResultLine[] {
  const best = rows.reduce((min, r) => Math.min(min, r.timeMs), Infinity);
  return rows.map((r, i) => ({
    key: String(i),
    place: String(r.place),
    name: r.name,
    time: formatResult(r.timeMs),
    diff: formatDiff(r.timeMs - best),
    klass: r.klass,
    bib: r.bib === null ? "" : String(r.bib),
    club: r.club,
  }));
}

/**
 * The start-list page's rules, as plain functions (spec, public site "Start lists" and §4 "Race states for start
 * lists"): races grouped under one heading per year, newest first; tabs per distance labelled in tenths divided
 * by 10 ('5.6K'); result times, DNS and TBD only once a race is started or ended.
 */
import { distanceFromMeters, distanceTabLabel } from "../../../shared/distances";
import { partYear } from "../../../shared/race-id";
import type { PublicRaceSnapshot, PublicRunnerRecord, RaceRecord, RaceState } from "../../../shared/race-protocol";
import { stockholmParts } from "../../../shared/stockholm";
import { parseResult } from "../../../shared/time-format";
import { WITHHELD_TEXT } from "../../../shared/child-safe";
import { COMPANION_MARK } from "../../../shared/companion";
import type { PublicCompanionRecord } from "../../../shared/public-view";

export interface RaceYear {
  year: number;
  /** Shortest distance first, like the results tabs. */
  races: RaceRecord[];
}

/** One heading per year, newest first; a race whose id names no year goes under its date's year. */
export function groupRacesByYear(races: readonly RaceRecord[]): RaceYear[] {
  const byYear = new Map<number, RaceRecord[]>();
  for (const race of races) {
    const year = partYear(race.part) ?? Number(race.date.slice(0, 4));
    if (!Number.isInteger(year)) continue;
    byYear.set(year, [...(byYear.get(year) ?? []), race]);
  }
  return [...byYear]
    .sort(([a], [b]) => b - a)
    .map(([year, list]) => ({
      year,
      races: list.sort((a, b) => a.distance - b.distance || (a.part < b.part ? -1 : a.part > b.part ? 1 : 0)),
    }));
}

/** 800 → '0.8K', 5600 → '5.6K', 10000 → '10K' (spec: the distance in tenths divided by 10). */
export function raceTabLabel(meters: number): string {
  const distance = distanceFromMeters(meters);
  // Integer tenths divided by 10 prints as written ('5.6', never '5.6000000001').
  return distance ? distanceTabLabel(distance) : `${Math.round(meters / 100) / 10}K`;
}

/**
 * The tab labels of one year's races. Two races of the same length in a year (one an organiser added by hand)
 * would read the same, so those two say their day too: '5.6K (13/9)'.
 */
export function raceTabLabels(races: readonly RaceRecord[]): Map<string, string> {
  const plain = new Map(races.map((r) => [r.part, raceTabLabel(r.distance)]));
  const counts = new Map<string, number>();
  for (const label of plain.values()) counts.set(label, (counts.get(label) ?? 0) + 1);
  return new Map(
    races.map((r) => {
      const label = plain.get(r.part)!;
      if (counts.get(label) === 1) return [r.part, label];
      const [, month = "", day = ""] = r.date.split("-");
      return [r.part, `${label} (${Number(day)}/${Number(month)})`];
    }),
  );
}

/** Spec: "started and ended show result times and the labels DNS/TBD for missing bib; other states hide results". */
export function showsResults(state: RaceState): boolean {
  return state === "started" || state === "ended";
}

export interface StartListRow {
  key: string;
  /** The number, or for a runner without one 'TBD' (before the start) or 'DNS' (after it, without a time). */
  bib: string;
  name: string;
  /** The group, empty for 'Ingen' (spec: "'Ingen' means none"). */
  klass: string;
  club: string;
  /** Only when the race shows results: the time, 'DNS', '–' (ended without a time) or '' (still out there). */
  result: string;
  finished: boolean;
  dns: boolean;
  /** An adult running with a child without competing (shared/companion.ts): no bib, no result, not counted. */
  companion?: true;
}

/**
 * The race's companions as rows after its runners, by name: no bib, 'Med barn' where the class goes, no result.
 * The page counts them apart, never as runners of the race.
 */
export function companionRows(companions: readonly PublicCompanionRecord[]): StartListRow[] {
  return companions.map((c) => ({
    key: c.sort,
    bib: "",
    name: `${c.firstname} ${c.lastname}`.trim(),
    klass: COMPANION_MARK,
    club: c.company,
    result: "",
    finished: false,
    dns: false,
    companion: true,
  }));
}

/** '2 springer med barn (ej tävlande).', or nothing without companions. */
export function companionsText(count: number): string {
  return count === 0 ? "" : `${count} ${count === 1 ? "vuxen springer" : "vuxna springer"} med barn (ej tävlande).`;
}

function resultMsOf(r: PublicRunnerRecord): number | null {
  return r.time === undefined ? null : parseResult(r.time);
}

function bibText(r: PublicRunnerRecord, withResults: boolean): string {
  if (r.bib !== null && r.bib > 0) return String(r.bib);
  // A missing number is still to be decided before the start; after it, a runner without one never started.
  if (!withResults) return "TBD";
  return r.time !== undefined || r.resultWithheld ? "–" : "DNS";
}

function resultText(r: PublicRunnerRecord, state: RaceState): string {
  if (r.time !== undefined) return r.corrected ? `${r.time} (korrigerad)` : r.time;
  // Child-safe publishing: finished, time and placing not published.
  if (r.resultWithheld) return WITHHELD_TEXT;
  if (r.dns || !(r.bib !== null && r.bib > 0)) return "DNS";
  return state === "ended" ? "–" : "";
}

const hasBib = (r: PublicRunnerRecord) => r.bib !== null && r.bib > 0;

/**
 * Before the start: by number (runners without one last), then by name. Started or ended: finishers by time,
 * then the runners still out by number, then those who did not start.
 */
export function compareStartList(withResults: boolean) {
  const byName = (a: PublicRunnerRecord, b: PublicRunnerRecord) =>
    a.lastname.localeCompare(b.lastname, "sv") ||
    a.firstname.localeCompare(b.firstname, "sv") ||
    (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0);
  const byBib = (a: PublicRunnerRecord, b: PublicRunnerRecord) => {
    if (hasBib(a) !== hasBib(b)) return hasBib(a) ? -1 : 1;
    return (hasBib(a) ? a.bib! - b.bib! : 0) || byName(a, b);
  };
  if (!withResults) return byBib;
  // Finishers with a time, then those whose result is withheld (child-safe publishing; by number, never in finish
  // order), then the runners still out, then those who did not start.
  const rank = (r: PublicRunnerRecord) =>
    resultMsOf(r) !== null ? 0 : r.resultWithheld ? 1 : r.dns || !hasBib(r) ? 3 : 2;
  return (a: PublicRunnerRecord, b: PublicRunnerRecord) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra - rb;
    if (ra === 0) return resultMsOf(a)! - resultMsOf(b)! || byBib(a, b);
    return byBib(a, b);
  };
}

export interface StartListView {
  race: RaceRecord;
  withResults: boolean;
  rows: StartListRow[];
}

export function startListView(snapshot: PublicRaceSnapshot): StartListView {
  const [race, ...runners] = snapshot;
  const withResults = showsResults(race.state);
  const rows = runners
    .filter((r) => r.type === "runner")
    .sort(compareStartList(withResults))
    .map((r): StartListRow => ({
      key: r.sort,
      bib: bibText(r, withResults),
      name: `${r.firstname} ${r.lastname}`.trim(),
      klass: r.group === "Ingen" ? "" : r.group,
      club: r.company,
      result: withResults ? resultText(r, race.state) : "",
      finished: r.time !== undefined || r.resultWithheld === true,
      dns: withResults && r.time === undefined && !r.resultWithheld && (r.dns === true || !hasBib(r)),
    }));
  return { race, withResults, rows };
}

/** How often an open start list asks again: every 5 s while its race runs, every 30 s on race day before it. */
export const LIVE_REFRESH_MS = 5_000;
export const RACE_DAY_REFRESH_MS = 30_000;

export function refreshInterval(race: RaceRecord | undefined, today: string): number | false {
  if (!race) return false;
  if (race.state === "started") return LIVE_REFRESH_MS;
  if (race.state === "" && race.date === today) return RACE_DAY_REFRESH_MS;
  return false;
}

/** '11:32:05': a moment as Stockholm wall-clock time with seconds (when a live list was last refreshed). */
export function clockText(ms: number): string {
  const p = stockholmParts(ms);
  return `${p.time}:${String(p.second).padStart(2, "0")}`;
}

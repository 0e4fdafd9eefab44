/**
 * The federation export (issue 28): a race's results for reporting to a district or to Svensk Friidrott. Their
 * template cannot be fetched from here, so the columns are ours and said in docs/back-office.md: placing, name, birth year
 * (derived: the race's year minus the age given at registration, which is the age in the race's year), club, class,
 * time (h:mm:ss, rounded up to the whole second as athletics rounds hand times), status (DNS where the runner did
 * not start). Finishers first in finish order (equal times share a placing), then those who did not start.
 * Child-safe publishing does not apply: this is the organiser's own report.
 */
import type { RunnerRecord } from "./race-protocol";
import { resultMs, roundUpToSecond } from "./time-format";

export const FEDERATION_HEADER = [
  "Placering",
  "Namn",
  "Födelseår (beräknat)",
  "Förening",
  "Klass",
  "Tid",
  "Status",
] as const;

export type FederationRow = [number | "", string, number | "", string, string, string, string];

/** 3723000 ms → '1:02:03'. */
export function formatHours(ms: number): string {
  const total = Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

export function federationRows(
  started: number | null,
  raceYear: number,
  runners: readonly Pick<RunnerRecord, "firstname" | "lastname" | "age" | "company" | "group" | "finished" | "dns">[],
): FederationRow[] {
  const timed = runners
    .map((r) => ({ r, ms: resultMs(started, r.finished) }))
    .filter((x): x is { r: (typeof runners)[number]; ms: number } => x.ms !== null)
    .sort((a, b) => a.ms - b.ms || a.r.lastname.localeCompare(b.r.lastname, "sv"));
  const rows: FederationRow[] = [];
  let placing = 0;
  let previous = -1;
  timed.forEach(({ r, ms }, index) => {
    const rounded = roundUpToSecond(ms);
    if (rounded !== previous) placing = index + 1;
    previous = rounded;
    rows.push([placing, name(r), birthYear(raceYear, r.age), r.company, r.group, formatHours(rounded), ""]);
  });
  for (const r of runners) {
    if (resultMs(started, r.finished) !== null) continue;
    rows.push(["", name(r), birthYear(raceYear, r.age), r.company, r.group, "", r.dns ? "DNS" : ""]);
  }
  return rows;
}

function name(r: Pick<RunnerRecord, "firstname" | "lastname">): string {
  return `${r.firstname} ${r.lastname}`.trim();
}

function birthYear(raceYear: number, age: number): number | "" {
  return Number.isInteger(age) && age >= 0 && age < 130 ? raceYear - age : "";
}

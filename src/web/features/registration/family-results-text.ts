/**
 * What the family's page says about each runner on race day (issue 28, item 3), as plain functions: the state or
 * the time, and the placings in the distance and in the class ('Plats 2 av 14 · 2 av 7 i Herr'). A runner whose
 * result the public does not see (child-safe publishing) has their time and no placing, and the page says why.
 */
import { distanceFromMeters, distanceLabel } from "../../../shared/distances";
import type { FamilyRace, FamilyRunnerResult } from "../../../shared/family-results";

export interface FamilyResultLine {
  id: string;
  /** '1,6km'. */
  distance: string;
  /** The time ('05:10.123') or the state ('Väntar på start', 'Springer', 'Startade inte'). */
  result: string;
  finished: boolean;
  /** 'Plats 2 av 14 · 2 av 7 i Herr'; '' when not placed. */
  placing: string;
  /** Why there is no placing for a finisher: the season's child-safe publishing. */
  note: string;
  /** 'Officiella resultat', 'Preliminära resultat', or '' before a finish. */
  status: string;
}

export const FAMILY_TEXT = {
  heading: "Resultat",
  waiting: "Väntar på start",
  running: "Springer",
  dns: "Startade inte",
  withheld: "Tiden visas bara för er: barn 11 år och yngre placeras inte och syns som 'Fullföljt' i resultatlistan.",
  official: "Officiella resultat",
  preliminary: "Preliminära resultat",
  diploma: "Diplom",
  allDiplomas: "Skriv ut alla diplom",
} as const;

export function familyResultLine(r: FamilyRunnerResult, race: FamilyRace | undefined): FamilyResultLine {
  const d = race ? distanceFromMeters(race.distance) : null;
  const finished = r.state === "finished" && r.time !== null;
  const result = finished
    ? r.time!
    : r.state === "dns"
      ? FAMILY_TEXT.dns
      : r.state === "running"
        ? FAMILY_TEXT.running
        : FAMILY_TEXT.waiting;
  let placing = "";
  if (finished && r.place !== null) {
    placing = `Plats ${r.place} av ${r.placedInDistance}`;
    if (r.klass && r.classPlace !== null) placing += ` · ${r.classPlace} av ${r.placedInClass} i ${r.klass}`;
  }
  const status = !finished
    ? ""
    : race?.resultsStatus === "official" || race?.resultsStatus === "corrected"
      ? FAMILY_TEXT.official
      : FAMILY_TEXT.preliminary;
  return {
    id: r.id,
    distance: d ? distanceLabel(d) : "",
    result,
    finished,
    placing,
    note: finished && r.withheld ? FAMILY_TEXT.withheld : "",
    status,
  };
}

/** Whether the page shows the results part at all: once one of the family's races has started. */
export function showsFamilyResults(races: readonly FamilyRace[]): boolean {
  return races.some((r) => r.state === "started" || r.state === "ended");
}

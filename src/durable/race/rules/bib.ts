/**
 * Bibs: unique within the race (a UNIQUE column), any positive integer an admin types; "next" takes the first
 * free number of the season's range for the race's distance (from 1 for a distance the season does not run).
 */
import { distanceFromMeters } from "../../../shared/distances";
import { RaceError, type RunnerRecord } from "../../../shared/race-protocol";
import { SEASON } from "../../../shared/season";
import type { MetaRow, RaceStore } from "../storage";
import { MAX_BIB } from "./checks";
import type { Decision, RuleContext } from "./decision";
import { updateRunner } from "./runners";

/** Spec "register-bib": a positive integer, unique within the race, or "next". */
export function registerBib(context: RuleContext, id: string, bib: number | "next"): Decision<RunnerRecord> {
  const meta = context.store.requireMeta();
  const number = bib === "next" ? nextFreeBib(context.store, meta) : bib;
  return updateRunner(context, id, { bib: number });
}

function nextFreeBib(store: RaceStore, meta: MetaRow): number {
  const km = distanceFromMeters(meta.distance);
  const [low, high] = SEASON.races.find((r) => r.distance === km)?.bibRange ?? [1, MAX_BIB];
  const taken = new Set(
    store.sql<{ bib: number }>("SELECT bib FROM runners WHERE bib BETWEEN ? AND ?", low, high).map((r) => r.bib),
  );
  for (let bib = low; bib <= high; bib += 1) if (!taken.has(bib)) return bib;
  throw new RaceError(409, `Alla startnummer ${low}–${high} är upptagna.`);
}

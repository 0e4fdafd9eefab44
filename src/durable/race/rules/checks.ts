/**
 * Input checks of the race's rules. The Worker validates first; these keep the writer of record safe from any
 * caller (a test, a future route, a replayed call).
 */
import { MAX_AGE } from "../../../shared/age";
import { toGroup } from "../../../shared/distances";
import {
  FUTURE_TAP_TOLERANCE_MS,
  isTapId,
  MAX_CLOCK_ERROR_MS,
  MAX_TAP_AGE_MS,
  RaceError,
} from "../../../shared/race-protocol";
import type { RunnerRow } from "../storage";
import type { RunnerOwner } from "../types";

const MAX_ID_LENGTH = 100;
const MAX_TEXT_LENGTH = 100;
export const MAX_BIB = 99_999;

export function checkId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new RaceError(400, "Ogiltigt deltagar-id.");
  }
  return id;
}

export function checkTapId(tapId: unknown): string {
  if (!isTapId(tapId)) throw new RaceError(400, "Ogiltigt tryck-id.");
  return tapId;
}

export function checkName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) throw new RaceError(400, "Ange namn");
  if (trimmed.length > MAX_TEXT_LENGTH) throw new RaceError(400, "Namnet är för långt.");
  return trimmed;
}

export function checkAge(age: unknown): number {
  if (typeof age !== "number" || !Number.isInteger(age) || age < 0 || age > MAX_AGE) {
    throw new RaceError(400, "felaktig ålder");
  }
  return age;
}

export function checkCompany(company: unknown): string {
  if (typeof company !== "string") throw new RaceError(400, "Ogiltig förening.");
  const trimmed = company.trim();
  if (trimmed.length > MAX_TEXT_LENGTH) throw new RaceError(400, "Föreningens namn är för långt.");
  return trimmed;
}

export function checkGroup(group: unknown): string {
  const g = toGroup(group);
  if (!g) throw new RaceError(400, "Ogiltig grupp (Ingen, Dam eller Herr).");
  return g;
}

/** Spec: "0 or missing means no number". */
export function checkBib(bib: unknown): number | null {
  if (bib === null || bib === 0) return null;
  if (typeof bib !== "number" || !Number.isInteger(bib) || bib < 1 || bib > MAX_BIB) {
    throw new RaceError(400, `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}.`);
  }
  return bib;
}

export function bibTaken(bib: number, holder: RunnerRow): RaceError {
  return new RaceError(409, `Startnummer ${bib} används redan av ${holder.firstname} ${holder.lastname}.`);
}

/**
 * The moment of a tap on the server's clock. Ahead of the server by less than the clock-sync error (at least
 * FUTURE_TAP_TOLERANCE_MS, at most MAX_CLOCK_ERROR_MS): clamped to now. Further ahead, or longer ago than any
 * race lasts: refused (to the review list when it is a tap).
 */
export function tapMoment(at: number | undefined, now: number, err: number | undefined): number {
  if (at === undefined) return now;
  if (!Number.isSafeInteger(at)) throw new RaceError(400, "Ogiltig tidpunkt.");
  const allowance = Math.min(Math.max(FUTURE_TAP_TOLERANCE_MS, err ?? 0), MAX_CLOCK_ERROR_MS);
  if (at > now + allowance) {
    throw new RaceError(422, "Tidpunkten ligger i framtiden. Kontrollera telefonens klocka och försök igen.");
  }
  if (at < now - MAX_TAP_AGE_MS) throw new RaceError(422, "Tidpunkten är för gammal.");
  return Math.min(at, now);
}

/** A pick-up moment carried with a runner (a box-office sale, a change of distance): epoch ms, or none. */
export function checkPickedUpAt(at: unknown): number | null {
  if (at === undefined || at === null) return null;
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at <= 0) throw new RaceError(400, "Ogiltig tidpunkt.");
  return at;
}

/** A runner's owner as given, or null when it is not one of the three (a caller outside the type system). */
export function checkOwner(owner: unknown): RunnerOwner | null {
  if (owner === "box-office" || owner === "race") return owner;
  return typeof owner === "string" && /^registration:[\w-]{1,120}$/.test(owner) ? (owner as RunnerOwner) : null;
}

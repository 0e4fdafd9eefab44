/**
 * Parents running with their children without competing (issue 28, item 6; the spec's overview: "Parents may run
 * with their children without competing"): the one rule, read by the registration form, the Worker's saves and the
 * box office alike.
 *
 * A companion ('Springer med barn (ej tävlande)') is a runner row with `companion` set. It is valid when:
 * - the runner is an adult (age ≥ the season's adultAge): a child always competes;
 * - a child of the same family (the registration's runners, or the box office's sale) runs the same distance as a
 *   competing runner and has not been deregistered.
 *
 * At the box office a companion runs with a child of the same sale, or (issue 39, item 3) is sold to a parent whose
 * child registered online (box-office/companion-sale.ts): it is written as a box-office row naming the child's
 * registration, and becomes a paid runner of that registration in the very statement that makes its payment PAID;
 * from then on it is the family's like any companion, and this rule reads it with the family's runners. Until then
 * (a Swish payment waiting, or one that ended unpaid) it is the box office's own and no family's.
 *
 * States and invariants:
 * - A companion costs the season's `companionPrice` (default 0 kr), is counted as neither child nor adult in a
 *   price or a payment's counts (shared/pricing.ts), and a campaign code does not change that price.
 * - A companion is never a runner of a race object: no bib, no time, no placing, never DNS, never holds back
 *   'Avsluta lopp'. Paid, it is listed in its distance's public start list as 'Med barn' and counted apart in the
 *   organiser's lists.
 * - A save that would leave a companion without a child on its distance (the last child removed or moved to
 *   another distance, or the companion moved to a distance no child runs) is refused as a whole with the message
 *   below on the companion (400): the family moves or removes the companion in the same save. A refund that
 *   deregisters the child is the organiser's decision and leaves the companion as it is.
 * - Whether a runner is a companion is part of its price class: a paid runner cannot become one, nor a paid
 *   companion a competing runner (registration-view.ts changesPriceClass).
 *
 * Interleavings: two tabs of a family, one adding a companion and one removing the child it needs, both save the
 * whole runner map from the same version: the version guard (registrations-db.ts saveRunners) lets one win and
 * answers the other 409 with the current list, which the rule then checks again on its next save; so no stored
 * family ever has a companion without its child through a save. Two desks marking a companion's pick-up: one
 * conditional D1 statement each, the first moment kept (checkin-db.ts markCompanionsPickedUp).
 */
import { isAdult } from "./age";
import { SEASON, type Season } from "./season";

/** The choice in the runner dialog and the box office, and the start list's marking. */
export const COMPANION_LABEL = "Springer med barn (ej tävlande)";
export const COMPANION_MARK = "Med barn";

export const COMPANION_MESSAGES = {
  notAdult: (season: Season = SEASON) =>
    `Bara en vuxen (${season.adultAge} år eller äldre) kan springa med barn utan att tävla.`,
  noChild: (distance: string) =>
    `Inget barn i anmälan springer ${distance.replace(".", ",")} km. Den som springer med barn måste välja samma distans som ett barn.`,
  companionNotAllowed: "Den här löparen springer med barn och kan inte få nummerlapp eller tid.",
} as const;

export interface CompanionCandidate {
  age: number;
  distance: string;
  companion?: boolean;
  /** A deregistered child runs no more (a refund took it out), so it carries no companion. */
  deregistered?: boolean | string | number | null;
}

/** Whether the runner is an adult running with a child (the stored flag, read the same everywhere). */
export function isCompanion(r: { companion?: boolean | null }): boolean {
  return r.companion === true;
}

/** The distances a competing, not deregistered child of the family runs. */
export function childDistances(runners: readonly CompanionCandidate[], season: Season = SEASON): Set<string> {
  return new Set(
    runners.filter((r) => !isCompanion(r) && !r.deregistered && !isAdult(r.age, season)).map((r) => r.distance),
  );
}

/**
 * Why `runner` cannot be a companion in this family (all of the family's runners, `runner` among them or not), or
 * null when it can (or is no companion at all).
 */
export function companionError(
  runner: CompanionCandidate,
  family: readonly CompanionCandidate[],
  season: Season = SEASON,
): string | null {
  if (!isCompanion(runner)) return null;
  if (!isAdult(runner.age, season)) return COMPANION_MESSAGES.notAdult(season);
  if (!childDistances(family, season).has(runner.distance)) return COMPANION_MESSAGES.noChild(runner.distance);
  return null;
}

/** Every companion's error in a family keyed by the runner's key (empty when all are valid). */
export function companionErrors<K extends string>(
  family: readonly (CompanionCandidate & { key: K })[],
  season: Season = SEASON,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const r of family) {
    const error = companionError(r, family, season);
    if (error !== null) errors[r.key] = error;
  }
  return errors;
}

/**
 * Parents running with their children without competing (issue 28, item 6; the spec's overview: "Parents may run
 * with their children without competing"): the one rule, read by the registration form, the Worker's saves, the
 * refund dialog and the box office alike.
 *
 * A companion ('Springer med barn (ej tävlande)') is a runner row with `companion` set. It is valid when:
 * - the runner is an adult (age ≥ the season's adultAge): a child always competes;
 * - a child of the same family (the registration's runners, or the box office's sale) runs the same distance as a
 *   competing runner and has not been deregistered. "Runs with" means exactly this: a companion runs with the
 *   family's children on its distance, with no link to one child of its own.
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
 *   another distance, or the companion moved to a distance no child runs) is refused as a whole, 400, with a message
 *   on the companion that names it and says what makes the save valid (`companionSaveErrors`): the family moves the
 *   companion with the child, or removes it, in the same save.
 * - A paid child and the paid companions that run with it change distance together in one save (issue 39, item 1).
 *   "One paid runner per save" (registration/runner-changes.ts) counts the paid competing runner the save changes
 *   plus every paid companion that does not follow a child: a paid companion follows when it moves from the
 *   distance a competing child of the save leaves to the one that child moves to (same old → same new distance).
 *   So a save may move one paid child and its companions, or change one paid companion alone (its names, or a
 *   move to a distance where a child runs), never two paid runners that each change on their own. The price rules
 *   are the same for each of them (a companion stays a companion; shared/registration-view.ts changesPriceClass).
 * - Stranded: a refund that deregisters the child is the organiser's decision, and can leave a companion without a
 *   child on its distance (`strandedCompanions`). Such a companion never makes the family's other changes invalid:
 *   a save checks only the companions it adds or changes, and those that were not stranded before it (so a save
 *   cannot strand one). Unchanged, a stranded companion is kept as it is; changed, it must be made valid (moved to
 *   a child's distance). Unpaid, the family may remove it (and cannot pay for it while it is stranded: /book-v2
 *   refuses, naming it); paid, it cannot be removed by the family: their page says it stays registered and that they
 *   write to the season's contact e-mail for a refund, or the organiser takes it out from the refund dialog.
 * - The refund dialog (issue 39, item 2): when a refund deregisters children, the paid companions of the family
 *   that would be left without any child (`companionsLeftWithoutChild`) are listed, each with 'Ta också bort …'
 *   (on by default). Those paid by the refunded payment are among its runners (their price is in the amount);
 *   those paid by another payment leave once the refund is PAID, with a refund of their booked price from their own
 *   payment when it was more than 0 kr (payments/deregistration.ts). An unpaid one is left to the family.
 *
 * Interleavings: two tabs of a family, one adding a companion and one removing the child it needs, both save the
 * whole runner map from the same version: the version guard (registrations-db.ts saveRunners) lets one win and
 * answers the other 409 with the current list, which the rule then checks again on its next save; so no save ever
 * leaves a companion without its child (only a refund can). A refund that takes a companion out while the family
 * saves a change to it: the save's guard sees the runner deregistered and refuses it (409), and the page reloads.
 * Two desks marking a companion's pick-up: one conditional D1 statement each, the first moment kept
 * (checkin-db.ts markCompanionsPickedUp).
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

/** '0,8 km'. */
export function companionKm(distance: string): string {
  return `${distance.replace(".", ",")} km`;
}

function kmList(distances: Iterable<string>): string {
  return [...distances]
    .sort((a, b) => Number(a) - Number(b))
    .map(companionKm)
    .join(" eller ");
}

/** The family's companions (not deregistered) with no competing, not deregistered child on their distance. */
export function strandedCompanions<T extends CompanionCandidate>(family: readonly T[], season: Season = SEASON): T[] {
  const children = childDistances(family, season);
  return family.filter((r) => isCompanion(r) && !r.deregistered && !children.has(r.distance));
}

/**
 * The companions of the family (not deregistered, not leaving themselves) that the runners in `leaving` leave
 * without any child: on the distance of a leaving child, where no other competing, not deregistered child runs.
 * A child moving to another distance leaves its old one the same way.
 */
export function companionsLeftWithoutChild<T extends CompanionCandidate & { key: string }>(
  leaving: ReadonlySet<string>,
  family: readonly T[],
  season: Season = SEASON,
): T[] {
  const left = new Set(
    family
      .filter((r) => leaving.has(r.key) && !isCompanion(r) && !r.deregistered && !isAdult(r.age, season))
      .map((r) => r.distance),
  );
  const remaining = childDistances(
    family.filter((r) => !leaving.has(r.key)),
    season,
  );
  return family.filter(
    (r) =>
      isCompanion(r) && !r.deregistered && !leaving.has(r.key) && left.has(r.distance) && !remaining.has(r.distance),
  );
}

/** A runner of a save as the save rule reads it (the family after the save, or as stored before it). */
export interface SaveCandidate<K extends string = string> extends CompanionCandidate {
  key: K;
  firstname: string;
  lastname: string;
  /** Paid (then the family cannot remove it); read from what is stored. */
  paid?: boolean;
}

/**
 * The save rule (see the module comment): every companion of `after` the save adds or changes (`unchanged` says
 * which it leaves as stored), and every one that had a child before the save, must have a child after it. Answers
 * each refusal keyed by the runner's key, naming the runner and what makes the save valid; empty when it is valid.
 * A companion already stranded before the save (a refund took its child out) and left unchanged is not asked.
 */
export function companionSaveErrors<K extends string>(
  after: readonly SaveCandidate<K>[],
  before: readonly SaveCandidate<K>[],
  unchanged: (key: K) => boolean,
  season: Season = SEASON,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  const strandedBefore = new Set(strandedCompanions(before, season).map((r) => r.key));
  const childrenAfter = childDistances(after, season);
  const afterByKey = new Map(after.map((r) => [r.key, r]));
  const isChild = (r: CompanionCandidate) => !isCompanion(r) && !r.deregistered && !isAdult(r.age, season);
  for (const r of after) {
    if (!isCompanion(r)) continue;
    if (!isAdult(r.age, season)) {
      errors[r.key] = COMPANION_MESSAGES.notAdult(season);
      continue;
    }
    if (childrenAfter.has(r.distance)) continue;
    if (unchanged(r.key) && strandedBefore.has(r.key)) continue;
    const name = `${r.firstname} ${r.lastname}`.trim();
    const km = companionKm(r.distance);
    const elsewhere = kmList(childrenAfter);
    const stayed = before.find((b) => b.key === r.key)?.distance === r.distance;
    // The children of the companion's distance before the save, and where the save takes them.
    const gone = stayed ? before.filter((b) => isChild(b) && b.distance === r.distance) : [];
    const movedTo = gone
      .map((b) => afterByKey.get(b.key))
      .filter((a): a is SaveCandidate<K> => a !== undefined && isChild(a) && a.distance !== r.distance)
      .map((a) => a.distance);
    if (movedTo.length > 0) {
      errors[r.key] =
        `Inget barn i anmälan springer ${km} efter ändringen, och ${name} springer med barn där. ` +
        `Flytta ${r.firstname} med till ${kmList(new Set(movedTo))} i samma ändring` +
        `${r.paid ? "" : `, eller ta bort ${r.firstname}`}.`;
    } else if (gone.length > 0) {
      const remedy = r.paid
        ? elsewhere
          ? `Flytta ${r.firstname} till ${elsewhere} i samma ändring, där ett barn springer, eller behåll barnet.`
          : `${r.firstname} är betald och kan inte tas bort här: behåll barnet, eller skriv till ${season.contactEmail}.`
        : `Ta bort ${r.firstname} i samma ändring${elsewhere ? `, eller flytta ${r.firstname} till ${elsewhere}` : ""}.`;
      errors[r.key] =
        `Inget barn i anmälan springer ${km} efter ändringen, och ${name} springer med barn där. ${remedy}`;
    } else {
      errors[r.key] =
        `Inget barn i anmälan springer ${km}. ${name} springer med barn och måste välja samma distans som ett barn` +
        (elsewhere ? ` (${elsewhere}).` : ": lägg till barnet först.");
    }
  }
  return errors;
}

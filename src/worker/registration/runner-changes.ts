/**
 * A save of the family's runner map (`POST /update`) once paid status is each runner's (issue 24). What the save
 * may do is decided from what is stored now, never from what the page believes:
 *
 * - Unpaid runners are added, edited and removed as before. A change to (or removal of) an unpaid runner first
 *   withdraws a Swish payment still waiting for the old list, so a payment always covers the runners it was made
 *   for; if that payment turns out to be paid, nothing is saved (409) and the page reloads to show it.
 * - Adding a runner while a payment is waiting in Swish is refused (409): the family pays it or withdraws it
 *   (`POST /cancel-payment`) first, so no runner is ever added beside a payment whose outcome is open.
 * - A paid runner can be edited while registration is open (names, club, group, distance, and an age that keeps its
 *   price class: the price it was booked at never changes; a move between child and adult price is refused with
 *   whom to contact). It cannot be removed, and a deregistered runner cannot be changed. One paid runner per save,
 *   where the paid companions that follow a child's move (same old → same new distance; shared/companion.ts) go
 *   with it: a paid child and the parents running with it change distance in one save. Two paid runners that each
 *   change on their own are refused (400), naming both.
 * - Companions (shared/companion.ts companionSaveErrors): the save checks the companions it adds or changes and
 *   those that have a child before it; a companion a refund already left without a child, unchanged, is no reason
 *   to refuse the family's other changes.
 * - A paid competing runner is in a race object: the change goes there first (`changeRunnerInRace`: a new distance
 *   is the object's move), then to D1 in the guarded batch (registrations-db.ts saveRunners). Should the batch be
 *   refused (another tab saved first, a refund deregistered the runner meanwhile), D1's details are put back into
 *   the race (`syncRunnerFromD1`), so race day and D1 never disagree. A paid runner not yet in its race (the payment
 *   settled a moment ago and its runners are being placed) is refused for that moment (409), so a change never
 *   overtakes the placement. Paid companions are in no race: their change is D1's alone, in the same batch, under
 *   the same guard (each must still be paid and not deregistered), so a child and its companions move together or
 *   not at all.
 *
 * Interleavings: two tabs saving from the same version → one wins, the other gets 409 with the current list (the
 * version guard). When the loser had moved a paid child in its race object already (the object mirrors the new
 * distance to D1 itself), the paid companions that were to follow it are moved after it (`keepCompanionsWithChild`,
 * bumping the version), so a child and its companions never end on different distances through a save. A payment that settles while a save is on its way → the save's guard sees any runner it touches
 * as unpaid turn paid, and refuses it (409 'paid-meanwhile'); runners it does not touch are written unchanged. A
 * refund that deregisters while a save is on its way → the race object refuses the change (the runner left it), or
 * the save reads the deregistration once its change is done, or the guard refuses it (deregistered_at is set, on
 * the child or on a companion moving with it). A refund's deregistration is written before it takes the runner out of
 * the races, so either the refund's scan of the season's races finds the moved runner, or the save's read after its
 * move sees the deregistration and takes the runner out itself (`takeRunnerOutOfRaces`, idempotent); then 409.
 */
import { SEASON } from "../../shared/season";
import { changesPriceClass } from "../../shared/registration-view";
import type { RunnerFields } from "../../shared/registration-schema";
import { isAdult } from "../../shared/age";
import { companionSaveErrors, type SaveCandidate } from "../../shared/companion";
import type { Db } from "../db/client";
import { ApiError, badRequest, conflict } from "../lib/errors";
import { withdrawOpenPayments } from "../payments/payments";
import { participantsByIds } from "../db/participants-db";
import { listOpenSwishPayments } from "../payments/payments-db";
import { changeRunnerInRace, syncRunnerFromD1, takeRunnerOutOfRaces } from "../race-day/race-runners";
import {
  moveCompanionsWithChild,
  runnerFields,
  saveRunners,
  type RegistrationRow,
  type SaveResult,
  type StoredRunner,
} from "../db/registrations-db";

/** Who the race objects' audit trail names for a change made by the family. */
const FAMILY = { actor: "anmälan" };

const name = (r: { firstname: string; lastname: string }) => `${r.firstname} ${r.lastname}`.trim();

export const CHANGE_MSG = {
  openPayment:
    "En betalning väntar i Swish. Betala den klart, eller tryck på Avbryt betalningen, innan du lägger till fler löpare.",
  paidMeanwhile: "En betalning blev klar samtidigt. Listan har uppdaterats – gör din ändring igen.",
  onePaidAtATime: (runners: readonly StoredRunner[]) =>
    `Ändra en betald löpare i taget: spara först ändringen av ${name(runners[0]!)} och ändra sedan ` +
    `${runners.slice(1).map(name).join(" och ")}.`,
  closedPaid: `Anmälan är stängd, så löparna kan inte längre ändras här. Skriv till ${SEASON.contactEmail} om något behöver ändras.`,
  paidNotRemovable: (r: StoredRunner) =>
    `${name(r)} är betald och kan inte tas bort här. Skriv till ${SEASON.contactEmail} om ${r.firstname} inte kan springa, så hjälper vi dig.`,
  deregistered: (r: StoredRunner) => `${name(r)} är avregistrerad och kan inte ändras.`,
  priceClass: (r: StoredRunner, age: number) =>
    `Med åldern ${age} år blir ${name(r)} ${isAdult(age) ? "vuxen" : "barn"} och får ett annat pris än det som betalades. ` +
    `Det kan inte ändras här – skriv till ${SEASON.contactEmail} så hjälper vi dig.`,
  companionClass: (r: StoredRunner) =>
    `${name(r)} är betald ${r.companion ? "som medföljande vuxen (springer med barn)" : "som tävlande löpare"} och kan inte byta till ` +
    `${r.companion ? "tävlande löpare" : "att springa med barn"} här – skriv till ${SEASON.contactEmail} så hjälper vi dig.`,
  notPlaced: (r: StoredRunner) =>
    `${name(r)} läggs just nu in i startlistan efter betalningen. Försök igen om en liten stund.`,
} as const;

function sameFields(a: RunnerFields, b: RunnerFields): boolean {
  return (
    a.firstname === b.firstname &&
    a.lastname === b.lastname &&
    a.age === b.age &&
    a.company === b.company &&
    a.distance === b.distance &&
    a.group === b.group &&
    (a.companion === true) === (b.companion === true)
  );
}

/** Whether the map changes or leaves out a paid (or deregistered) runner. */
export function touchesPaidRunner(stored: readonly StoredRunner[], next: Record<string, RunnerFields>): boolean {
  return stored.some((r) => r.paidBy !== null && (next[r.id] === undefined || !sameFields(r, next[r.id]!)));
}

/**
 * The companion rule of a save (shared/companion.ts companionSaveErrors) against what is stored: errors keyed
 * '<id>.companion', or null when the save may go on.
 */
export function companionErrorsOfSave(
  stored: readonly StoredRunner[],
  next: Record<string, RunnerFields>,
): Record<string, string> | null {
  const byId = new Map(stored.map((r) => [r.id, r]));
  const candidate = (id: string, r: RunnerFields, s: StoredRunner | undefined): SaveCandidate => ({
    ...r,
    key: id,
    deregistered: s?.deregisteredAt ?? null,
    paid: s !== undefined && s.paidBy !== null,
  });
  const after = Object.entries(next).map(([id, r]) => candidate(id, r, byId.get(id)));
  const before = stored.map((s) => candidate(s.id, s, s));
  const unchanged = (id: string) => byId.has(id) && sameFields(byId.get(id)!, next[id]!);
  const errors = Object.entries(companionSaveErrors(after, before, unchanged)).map(([id, message]) => [
    `${id}.companion`,
    message as string,
  ]);
  return errors.length > 0 ? Object.fromEntries(errors) : null;
}

export interface PaidChange {
  runner: StoredRunner;
  next: RunnerFields;
}

export interface RunnerMapChanges {
  added: string[];
  /** Stored unpaid runners the map changes or leaves out. */
  unpaidTouched: string[];
  /**
   * The stored paid runners the map changes, with their new details: at most one that changes on its own (a
   * competing runner, or a companion), plus the paid companions that follow a child's move.
   */
  paidChanged: PaidChange[];
}

/** A competing runner of the family's children: not a companion, under the season's adult age. */
function isCompetingChild(r: RunnerFields): boolean {
  return r.companion !== true && !isAdult(r.age);
}

/**
 * What the map changes against what is stored, and the refusals that need nothing but the two: a paid runner left
 * out, a deregistered runner changed, a paid runner's age moved across the price line, more than one paid runner
 * changing on its own.
 */
export function runnerMapChanges(
  stored: readonly StoredRunner[],
  next: Record<string, RunnerFields>,
): RunnerMapChanges {
  const byId = new Map(stored.map((r) => [r.id, r]));
  const added = Object.keys(next).filter((id) => !byId.has(id));
  const unpaidTouched: string[] = [];
  const paid: PaidChange[] = [];
  // The moves of the family's competing children in this save ('0.8>1.6'): a companion making the same one follows.
  const childMoves = new Set<string>();
  for (const r of stored) {
    const wanted = next[r.id];
    if (wanted && r.deregisteredAt === null && isCompetingChild(r) && isCompetingChild(wanted)) {
      if (r.distance !== wanted.distance) childMoves.add(`${r.distance}>${wanted.distance}`);
    }
  }
  for (const r of stored) {
    const wanted = next[r.id];
    const changed = wanted === undefined || !sameFields(r, wanted);
    if (!changed) continue;
    if (r.paidBy === null) {
      unpaidTouched.push(r.id);
      continue;
    }
    if (wanted === undefined) throw conflict(CHANGE_MSG.paidNotRemovable(r));
    if (r.deregisteredAt !== null) throw conflict(CHANGE_MSG.deregistered(r));
    if (changesPriceClass(r.age, wanted.age, SEASON, { before: r.companion, after: wanted.companion })) {
      throw conflict(
        r.companion === true || wanted.companion === true
          ? CHANGE_MSG.companionClass(r)
          : CHANGE_MSG.priceClass(r, wanted.age),
      );
    }
    paid.push({ runner: r, next: wanted });
  }
  const follows = (p: PaidChange) =>
    p.runner.companion === true &&
    p.runner.distance !== p.next.distance &&
    childMoves.has(`${p.runner.distance}>${p.next.distance}`);
  const onTheirOwn = paid.filter((p) => !follows(p));
  if (onTheirOwn.length > 1) throw badRequest(CHANGE_MSG.onePaidAtATime(onTheirOwn.map((p) => p.runner)));
  return { added, unpaidTouched, paidChanged: paid };
}

export interface ApplyRunnerMapInput {
  registration: RegistrationRow;
  stored: readonly StoredRunner[];
  changes: RunnerMapChanges;
  runners: Record<string, RunnerFields>;
  expectedVersion: number;
  now: number;
}

/**
 * After a refused batch: the race object has moved the child (and mirrored its new distance to D1) before D1 refused
 * the rest, so the paid companions that were to follow it are moved after it, where they still are where the child
 * left (registrations-db.ts moveCompanionsWithChild). A move that did not stand (the child is not on its new
 * distance in D1) moves nobody.
 */
async function keepCompanionsWithChild(
  db: Db,
  registrationId: string,
  raced: PaidChange,
  paid: readonly PaidChange[],
  now: number,
): Promise<void> {
  const { distance: from } = raced.runner;
  const { distance: to } = raced.next;
  if (from === to) return;
  const [child] = await participantsByIds(db, [raced.runner.id]);
  if (child?.distance !== to) return;
  const followers = paid
    .filter((p) => p.runner.companion === true && p.runner.distance === from && p.next.distance === to)
    .map((p) => p.runner.id);
  await moveCompanionsWithChild(db, registrationId, followers, from, to, now);
}

/** Runs a checked save (see the module comment); the caller answers its result. */
export async function applyRunnerMap(env: Env, db: Db, input: ApplyRunnerMapInput): Promise<SaveResult> {
  const { registration, changes } = input;
  const { open } = await listOpenSwishPayments(db, registration.id);
  if (changes.added.length > 0 && open.length > 0) throw conflict(CHANGE_MSG.openPayment);

  // A payment still waiting in Swish is for the old list of unpaid runners: withdraw it before they change (409 if
  // it was paid meanwhile, 502 while Swish cannot be asked). A change to a paid runner alone leaves it waiting.
  let withdrawn = 0;
  if (changes.unpaidTouched.length > 0) {
    withdrawn = await withdrawOpenPayments(env, db, registration.id, registration.payid);
  }

  // At most one paid competing runner (runnerMapChanges): the one in a race object. Paid companions are in none
  // (shared/companion.ts): their change is D1's alone.
  const raced = changes.paidChanged.find((p) => p.runner.companion !== true) ?? null;
  if (raced) {
    if (!raced.runner.raceId) throw conflict(CHANGE_MSG.notPlaced(raced.runner));
    try {
      await changeRunnerInRace(
        env,
        db,
        { id: raced.runner.id, raceId: raced.runner.raceId, distance: raced.runner.distance },
        raced.next,
        SEASON,
        FAMILY,
      );
    } catch (err) {
      // The runner left its race since it was read: a refund deregistered it (the race's own 404 says too little).
      // A move half done may have put it in the new race before the refund took it out of the old one.
      const [now] = err instanceof ApiError && err.status === 404 ? await participantsByIds(db, [raced.runner.id]) : [];
      if (now?.deregisteredAt) {
        await takeRunnerOutOfRaces(env, db, raced.runner.id, FAMILY);
        throw conflict(CHANGE_MSG.deregistered(raced.runner));
      }
      throw err;
    }
    // A refund that deregistered the runner while the change was on its way took it out of the races it found; a
    // move that landed after that scan put it into its new race. Read again now the change is done: deregistered
    // means out, so the save takes it out of the races itself (idempotent) and refuses.
    const [after] = await participantsByIds(db, [raced.runner.id]);
    if (after?.deregisteredAt) {
      await takeRunnerOutOfRaces(env, db, raced.runner.id, FAMILY);
      throw conflict(CHANGE_MSG.deregistered(raced.runner));
    }
  }

  const saved = await saveRunners(db, {
    registrationId: registration.id,
    season: SEASON.year,
    expectedVersion: input.expectedVersion,
    expectedPayid: registration.payid,
    clearPayid: withdrawn > 0,
    runners: Object.fromEntries(Object.entries(input.runners).map(([id, r]) => [id, runnerFields(r)])),
    unpaidTouched: changes.unpaidTouched,
    paidTouched: Object.fromEntries(changes.paidChanged.map((p) => [p.runner.id, p.runner.paidBy!])),
    now: input.now,
  });
  if (saved.status !== "saved" && raced) {
    await syncRunnerFromD1(env, db, raced.runner.id, FAMILY);
    await keepCompanionsWithChild(db, registration.id, raced, changes.paidChanged, input.now);
  }
  return saved;
}

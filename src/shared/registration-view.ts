/**
 * What `GET /get` (and every answer that carries the registration) tells the family's page beyond the spec's
 * fields, and the rules the page and the Worker both read from it (issue 24):
 *
 * - Paid status is each runner's: a runner is paid by the payment that booked it (`paidBy`, at `price`), and a
 *   registration may have several payments (`swishtory`; `payid` is the latest one). A runner added after a
 *   payment is unpaid until a payment of its own (a second Swish payment on the same registration) is PAID.
 * - A refund may deregister runners (`deregistered`): they stay in the list for the record, out of their races.
 * - While registration is open a paid runner can still be edited (names, club, group, distance, and an age that
 *   keeps the same price), not removed; an unpaid runner can be edited or removed, and runners can be added unless
 *   a payment is waiting in Swish.
 */
import { isAdult } from "./age";
import type { PaymentRecord } from "./payment-protocol";
import type { RunnerFields } from "./registration-schema";
import { SEASON, type Season } from "./season";

/** A runner of the family's registration (spec: a deltagare entry) with its paid status. */
export interface RegistrationRunner extends RunnerFields {
  id: string;
  bib: number | null;
  /** The payid of the payment that booked the runner; null while unpaid. */
  paidBy: string | null;
  /** Whole kronor the runner was booked at (not today's tier); null while unpaid, or when it cannot be told. */
  price: number | null;
  /** ISO moment a refund deregistered the runner; null while the runner runs. */
  deregistered: string | null;
}

/** A refund of one of the family's payments, as the family sees it. */
export interface FamilyRefund {
  amount: number;
  /** CREATED (on its way), PAID (the money went back) or ERROR (it did not happen). */
  status: "CREATED" | "PAID" | "ERROR";
  /** ISO: when Swish paid it back; null until then. */
  datePaid: string | null;
}

/** A swishtory entry as the family's page gets it: the payment record, its campaign code and its refunds. */
export interface FamilyPayment extends PaymentRecord {
  kampanj: string | null;
  refunds: FamilyRefund[];
}

export type RunnerState = "paid" | "unpaid" | "deregistered";

export function runnerState(r: Pick<RegistrationRunner, "paidBy" | "deregistered">): RunnerState {
  if (r.deregistered) return "deregistered";
  return r.paidBy ? "paid" : "unpaid";
}

/** The runners that a booking pays for now: neither paid nor deregistered. */
export function unpaidRunners<T extends Pick<RegistrationRunner, "paidBy" | "deregistered">>(
  runners: readonly T[],
): T[] {
  return runners.filter((r) => runnerState(r) === "unpaid");
}

/** A Swish payment of the registration still waiting for the payer (at most one is ever open). */
export function openPayment<T extends Pick<PaymentRecord, "status">>(swishtory: Record<string, T>): T | null {
  return Object.values(swishtory).find((p) => p.status === "CREATED") ?? null;
}

/** Kronor Swish has paid back of a payment. */
export function refundedOf(p: { refunds: readonly FamilyRefund[] }): number {
  return p.refunds.reduce((sum, r) => (r.status === "PAID" ? sum + r.amount : sum), 0);
}

/**
 * A paid runner's new age moves it between the child and the adult price, or the runner becomes (or stops being) an
 * adult running with a child: refused (the price a runner was booked
 * at never changes after payment; the organiser sorts out the difference by hand).
 */
export function changesPriceClass(
  before: number,
  after: number,
  season: Season = SEASON,
  companion: { before?: boolean; after?: boolean } = {},
): boolean {
  // Running with a child (shared/companion.ts) is a price of its own: becoming or ceasing to be one changes it too.
  if ((companion.before === true) !== (companion.after === true)) return true;
  return isAdult(before, season) !== isAdult(after, season);
}

/** The family's registration as /get, /code, /update and the receipt page read it (spec §7). */
export interface Registration {
  email: string;
  deltagare: Record<string, RegistrationRunner>;
  /** The latest payment. */
  payid: string | null;
  /** Every payment of the registration, each with its campaign code and refunds. */
  swishtory: Record<string, FamilyPayment>;
  /** Optimistic-concurrency version: a save based on an older one is refused (409), never silently applied. */
  version: number;
  /** The list can no longer change (registration has closed); while open, paid runners can be edited too. */
  locked: boolean;
  registrationOpen: boolean;
  /** The season (year) the registration is for. */
  season: number;
  previousRunners: RunnerFields[];
  /** The server's counts and list price of the runners not paid yet (what a booking charges; the page recomputes). */
  barn?: number;
  vuxna?: number;
  /** Adults running with a child (shared/companion.ts), priced apart at the season's companionPrice. */
  medBarn?: number;
  listPrice?: number;
  /** The family's check-in code for the bib desk, once paid (the QR on this page and on the receipt). */
  checkinCode?: string | null;
}

/** The wire shapes of the registration calls (spec §7; DESIGN.md: wire names as the spec). */
import type { RunnerFields } from "../../../../shared/registration-schema";
import type { FamilyPayment, RegistrationRunner } from "../../../../shared/registration-view";

/** A runner with its paid status (paid by its payment, booked price, deregistered by a refund). */
export type Runner = RegistrationRunner;

/** A runner of the family's last season, offered back with the age already moved on by the server. */
export type PreviousRunner = RunnerFields;

export interface Registration {
  email: string;
  deltagare: Record<string, Runner>;
  /** The latest payment. */
  payid: string | null;
  /** Every payment of the registration, each with its campaign code and refunds. */
  swishtory: Record<string, FamilyPayment>;
  /** Optimistic-concurrency version: a save based on an older one is refused (409), never silently applied. */
  version: number;
  /** The list can no longer change (registration has closed); while open, paid runners can be edited too. */
  locked: boolean;
  registrationOpen: boolean;
  previousRunners: PreviousRunner[];
  /** The server's counts and list price of the runners not paid yet (what a booking charges; the page recomputes). */
  barn?: number;
  vuxna?: number;
  listPrice?: number;
  /** The family's check-in code for the bib desk, once paid (the QR on this page and on the receipt). */
  checkinCode?: string | null;
}

/** The runner map as /update takes it: the spec's fields only (ids, bibs and prices are the server's). */
export type RunnerMap = Record<string, RunnerFields>;

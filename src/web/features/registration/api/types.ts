/** The wire shapes of the registration calls (spec §7; DESIGN.md: wire names as the spec). */
import type { PaymentRecord } from "../../../../shared/payment-protocol";
import type { RunnerFields } from "../../../../shared/registration-schema";

export interface Runner extends RunnerFields {
  id: string;
  bib: number | null;
}

/** A runner of the family's last season, offered back with the age already moved on by the server. */
export type PreviousRunner = RunnerFields;

export interface Registration {
  email: string;
  deltagare: Record<string, Runner>;
  payid: string | null;
  swishtory: Record<string, PaymentRecord>;
  /** Optimistic-concurrency version: a save based on an older one is refused (409), never silently applied. */
  version: number;
  /** Locked: a payment is PAID, the runner list can no longer change. */
  locked: boolean;
  registrationOpen: boolean;
  previousRunners: PreviousRunner[];
  /** The server's counts and list price of the stored runners (extras beyond the spec; the page recomputes). */
  barn?: number;
  vuxna?: number;
  listPrice?: number;
  /** The family's check-in code for the bib desk, once paid (the QR on this page and on the receipt). */
  checkinCode?: string | null;
}

/** The runner map as /update takes it: the spec's fields only (ids, bibs and prices are the server's). */
export type RunnerMap = Record<string, RunnerFields>;

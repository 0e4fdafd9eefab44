/** What the personal-data calls answer (src/worker/personal-data/routes.ts), shared with /admin/personuppgifter. */

export interface StoredRunner {
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  race: string | null;
}

/** How many rows of each kind name the address. */
export interface PersonalDataCounts {
  registrations: number;
  runners: number;
  payments: number;
  refunds: number;
  emails: number;
  loginCodes: number;
  loginFailures: number;
  sessions: number;
  unsubscribes: number;
  mailings: number;
  epassiInvitations: number;
  campaignCodes: number;
  auditRows: number;
}

/** `GET /admin/api/personal-data?email=…` (404 when nothing is stored). */
export interface PersonalDataSummary {
  email: string;
  registrations: { season: number; payid: string | null; paid: boolean; runners: StoredRunner[] }[];
  counts: PersonalDataCounts;
  /** A Swish payment still waiting: erasure has to wait for it. */
  openPayment: boolean;
  admin: boolean;
}

/** The rows one erasure changed in D1 (refunds hold nothing about the payer and are kept as they are). */
export type ErasureCounts = Omit<PersonalDataCounts, "refunds">;

/** `POST /admin/api/personal-data/erase`: the D1 counts, and the runners anonymised in races not yet ended. */
export interface ErasedCounts extends ErasureCounts {
  raceRunners: number;
}

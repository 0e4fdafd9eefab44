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

/** Whom a personal-data call is about: a family's address, a phone number (box office), one box-office runner. */
export type PersonalDataKey = { email: string } | { phone: string } | { runner: string };

/** The key as the calls' query (`email=…`, `phone=…` or `runner=…`). */
export function personalDataQuery(key: PersonalDataKey): string {
  const [name, value] = Object.entries(key)[0] as [string, string];
  return `${name}=${encodeURIComponent(value)}`;
}

/** A runner signed up at the box office (no address): found by phone or name. */
export interface BoxOfficeRunner {
  id: string;
  season: number;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  /** Null once the cron removed it (30 days after its season's race day). */
  phone: string | null;
  race: string | null;
}

/** `GET /admin/api/personal-data?email=…|phone=…|runner=…` (404 when nothing is stored). */
export interface PersonalDataSummary {
  /** The address asked about; null for box-office runners. */
  email: string | null;
  /** The phone number asked about (box office). */
  phone?: string | null;
  /** Box-office runners (a phone or runner lookup). */
  boxOffice?: BoxOfficeRunner[];
  registrations: { season: number; payid: string | null; paid: boolean; runners: StoredRunner[] }[];
  counts: PersonalDataCounts;
  /** A Swish payment still waiting: erasure has to wait for it. */
  openPayment: boolean;
  admin: boolean;
}

/** The rows one erasure changed in D1 (refunds hold nothing about the payer and are kept as they are). */
export type ErasureCounts = Omit<PersonalDataCounts, "refunds">;

/** `POST /admin/api/personal-data/erase`: the D1 counts, and in how many (race, runner) pairs a race had the runner. */
export interface ErasedCounts extends ErasureCounts {
  raceRunners: number;
}

/** `GET /admin/api/personal-data/box-office?q=`: the box-office runners a name or phone number finds. */
export interface BoxOfficeRunnersAnswer {
  runners: BoxOfficeRunner[];
}

/** `POST /admin/api/personal-data/erase`: what the erasure took away. */
export interface ErasedAnswer {
  erased: ErasedCounts;
}

/**
 * Personal data on request (issue 8, issue 29): everything D1 holds about one person, read for the admin's summary
 * and the JSON export, and its erasure. A person is an e-mail address (a family) or box-office runners found by
 * phone number or picked by id (they have no address): db/erasure.ts has the two scopes.
 *
 * What belongs to an address: its registrations of every season with their runners and payments (and the refunds
 * of those payments), e-mails sent to it (`email_log`), login codes and wrong tries, sessions, the unsubscribe row,
 * mass-mail recipient rows, Epassi invitations, campaign codes whose note names it, whether it is an admin, and
 * audit rows about it (by it, about it or one of its payments/registrations, or naming it in their detail).
 * What belongs to box-office runners: the runners, their payments and refunds, the audit rows about those payments.
 *
 * Erasure is one D1 batch (a transaction: all of it or nothing) of every resource's erasure statements (each
 * resource's `…Erasure` function says what it does to its rows), after a guard that aborts it while one of the
 * person's payments is still CREATED (a Swish request that may yet be paid, whose receipt would go to the
 * address); the caller then answers 409. The batch ends with one audit row for the erasure itself, naming the
 * person only by the hash of the address or phone number. Everything is found again by the address (or the runners'
 * ids), so a repeated erasure finds nothing and changes nothing. The race objects are not part of the batch: the
 * route erases there first (race-day/race-runners.ts eraseFromRaces), so a failure there leaves D1 untouched and the
 * erasure can simply be repeated.
 */
import type { ErasureCounts } from "../../shared/personal-data";
import { boxOfficeRunnersByPhone } from "../box-office/box-office-db";
import { campaignNoteErasure } from "../campaigns/campaigns-db";
import { auditErasure } from "../db/audit";
import type { Db } from "../db/client";
import { emailLogErasure } from "../db/email-log";
import {
  boxOfficeScope,
  emailScope,
  scoped,
  type ErasureCountKey,
  type ErasureScope,
  type ErasureStatement,
} from "../db/erasure";
import { epassiErasure } from "../epassi/epassi-db";
import { mailingErasure } from "../mass-email/mailings-db";
import { paymentErasure } from "../payments/payments-db";
import { registrationErasure } from "../db/registrations-db";
import { resultsMailErasure } from "../registration/results-mails";
import { sessionErasure } from "../session/sessions-db";

export { ANONYMOUS_RUNNER, ERASED_ADDRESS, ERASED_DOMAIN, ERASED_TEXT } from "../db/erasure";

/** 'sha256:<hex>' of the (lower-case) address or phone digits: how audit rows name a person once erased. */
export async function emailHash(email: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email)));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Whom the call is about: an address, a phone number (box-office runners) or one box-office runner's id. */
export type PersonKey = { email: string } | { phone: string } | { runner: string };

/** The scope of a person; box-office runners are looked up first (by number, or the one id). */
export async function scopeOf(db: Db, key: PersonKey): Promise<ErasureScope> {
  if ("email" in key) return emailScope(key.email);
  if ("phone" in key) {
    const runners = await boxOfficeRunnersByPhone(db, key.phone);
    return boxOfficeScope(
      runners.map((r) => r.id),
      [...new Set(runners.map((r) => r.phone).filter((p): p is string => p !== null))],
    );
  }
  const row = await db.$client
    .prepare("SELECT id, phone FROM participants WHERE id = ?1 AND registration_id IS NULL")
    .bind(key.runner)
    .first<{ id: string; phone: string | null }>();
  return boxOfficeScope(row ? [row.id] : [], row?.phone ? [row.phone] : []);
}

type Row = Record<string, unknown>;

export interface StoredPersonalData {
  registrations: Row[];
  participants: Row[];
  payments: Row[];
  refunds: Row[];
  emails: Row[];
  loginCodes: Row[];
  loginFailures: Row[];
  sessions: Row[];
  unsubscribes: Row[];
  mailings: Row[];
  epassiInvitations: Row[];
  campaignCodes: Row[];
  admins: Row[];
  audit: Row[];
  /** What the family's results mails said about their runners (registration/results-mails.ts). */
  resultsMails: Row[];
}

async function hasTable(d1: D1Database, name: string): Promise<boolean> {
  const row = await d1
    .prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(name)
    .first();
  return row !== null;
}

const KINDS = [
  "registrations",
  "participants",
  "payments",
  "refunds",
  "emails",
  "loginCodes",
  "loginFailures",
  "sessions",
  "unsubscribes",
  "mailings",
  "epassiInvitations",
  "campaignCodes",
  "admins",
  "audit",
  "resultsMails",
] as const satisfies readonly (keyof StoredPersonalData)[];

/** Every row stored about the person (secrets left out: login-code hashes, session ids), in one read batch. */
export async function storedPersonalData(db: Db, scope: ErasureScope): Promise<StoredPersonalData> {
  const d1 = db.$client;
  const withRefunds = await hasTable(d1, "refunds");
  const q = (sql: string) => scoped(d1, scope, sql);
  const byEmail = scope.email !== null;
  const reads: Partial<Record<keyof StoredPersonalData, D1PreparedStatement>> = {
    registrations: q(`SELECT * FROM registrations WHERE id IN (${scope.registrations}) ORDER BY season, id`),
    participants: q(`SELECT * FROM participants WHERE id IN (${scope.participants}) ORDER BY season, created_at, id`),
    payments: q(`SELECT * FROM payments WHERE id IN (${scope.payments}) ORDER BY date_created, id`),
    ...(withRefunds
      ? { refunds: q(`SELECT * FROM refunds WHERE payid IN (${scope.payments}) ORDER BY created_at, id`) }
      : {}),
    resultsMails: q(`SELECT * FROM results_mails WHERE registration_id IN (${scope.registrations}) ORDER BY race_id`),
    ...(byEmail
      ? {
          emails: q(`SELECT * FROM email_log WHERE "to" = ?1 ORDER BY id`),
          loginCodes: q(
            `SELECT id, email, created_at, expires_at, attempts, used_at, replaced_at, client_key FROM login_codes
              WHERE email = ?1 ORDER BY created_at`,
          ),
          loginFailures: q("SELECT email, at FROM login_failures WHERE email = ?1 ORDER BY at"),
          sessions: q(
            "SELECT kind, email, created_at, expires_at, revoked_at FROM sessions WHERE email = ?1 ORDER BY created_at",
          ),
          unsubscribes: q("SELECT * FROM unsubscribes WHERE email = ?1"),
          mailings: q(
            `SELECT r.*, m.audience, m.subject, m.created_at AS mailing_created_at FROM mailing_recipients r
               LEFT JOIN mailings m ON m.id = r.mailing_id WHERE r.email = ?1 ORDER BY r.mailing_id`,
          ),
          epassiInvitations: q("SELECT * FROM epassi_invitations WHERE email = ?1 ORDER BY id"),
          campaignCodes: q("SELECT * FROM campaign_codes WHERE instr(lower(note), ?1) > 0 ORDER BY code"),
          admins: q("SELECT * FROM admins WHERE email = ?1"),
          audit: q(
            `SELECT * FROM audit_log WHERE actor = ?1 OR subject = ?1 OR subject IN (${scope.registrations})
                OR subject IN (${scope.payments}) OR instr(detail, ?1) > 0
              ORDER BY id`,
          ),
        }
      : {
          audit: q(`SELECT * FROM audit_log WHERE subject IN (${scope.payments}) ORDER BY id`),
        }),
  };
  const kinds = KINDS.filter((k) => reads[k] !== undefined);
  const results = await d1.batch<Row>(kinds.map((k) => reads[k]!));
  const data = Object.fromEntries(KINDS.map((k) => [k, [] as Row[]])) as unknown as StoredPersonalData;
  kinds.forEach((k, i) => (data[k] = results[i]!.results));
  return data;
}

/** Whether anything at all is stored about the person. */
export function isEmpty(data: StoredPersonalData): boolean {
  return Object.values(data).every((rows) => rows.length === 0);
}

/** A payment of the person still waiting in Swish: erasure waits for it (see the module comment). */
export function hasOpenPayment(data: StoredPersonalData): boolean {
  return data.payments.some((p) => p.status === "CREATED");
}

export type ErasureResult = { status: "erased"; counts: ErasureCounts } | { status: "open-payment" };

export interface ErasureAuthor {
  actor: string;
  device: string | null;
  /** emailHash of the address (or the phone digits) */
  hash: string;
  now: number;
  /** The erasure's own audit line's detail (what was found); it must not name the person. */
  detail: Record<string, unknown>;
}

/**
 * Every resource's erasure, in the order the batch runs them: the rows that lead to the person (registrations,
 * runners) last, since the others find their rows through them. A resource that stores something about a person
 * adds its function here (db/erasure.ts).
 */
function erasureStatements(
  d1: D1Database,
  scope: ErasureScope,
  campaignNotes: readonly Row[],
  by: ErasureAuthor,
): ErasureStatement[] {
  return [
    ...paymentErasure(d1, scope),
    ...emailLogErasure(d1, scope),
    ...sessionErasure(d1, scope),
    ...mailingErasure(d1, scope),
    ...resultsMailErasure(d1, scope),
    ...epassiErasure(d1, scope),
    ...campaignNoteErasure(
      d1,
      scope,
      campaignNotes.map((c) => ({ code: c.code, note: c.note })),
    ),
    ...auditErasure(d1, scope, by.hash),
    ...registrationErasure(d1, scope, by.now),
  ];
}

/**
 * Erases the person in one batch (module comment). `found` is what storedPersonalData read: the campaign notes
 * found then are rewritten only if unchanged since.
 */
export async function erasePersonalData(
  db: Db,
  scope: ErasureScope,
  found: StoredPersonalData,
  by: ErasureAuthor,
): Promise<ErasureResult> {
  const d1 = db.$client;
  const openPayment = `SELECT 1 FROM payments WHERE id IN (${scope.payments}) AND status = 'CREATED'`;
  const parts = erasureStatements(d1, scope, found.campaignCodes, by);
  const statements = [
    // json('open-payment') raises "malformed JSON", which aborts the batch and rolls everything back.
    scoped(d1, scope, `SELECT json(CASE WHEN EXISTS (${openPayment}) THEN 'open-payment' ELSE '1' END)`),
    ...parts.map((p) => p.statement),
    d1
      .prepare("INSERT INTO audit_log (at, actor, device, action, subject, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(by.now, by.actor, by.device, "personal-data.erase", by.hash, JSON.stringify(by.detail)),
  ];
  let results: D1Result[];
  try {
    results = await d1.batch(statements);
  } catch (err) {
    if (await scoped(d1, scope, openPayment).first()) return { status: "open-payment" };
    throw err;
  }
  const counts = Object.fromEntries(
    (
      [
        "registrations",
        "runners",
        "payments",
        "emails",
        "loginCodes",
        "loginFailures",
        "sessions",
        "unsubscribes",
        "mailings",
        "epassiInvitations",
        "campaignCodes",
        "auditRows",
      ] as const satisfies readonly ErasureCountKey[]
    ).map((k) => [k, 0]),
  ) as Record<ErasureCountKey, number>;
  parts.forEach((part, i) => {
    if (part.count) counts[part.count] += results[i + 1]!.meta.changes;
  });
  return { status: "erased", counts };
}

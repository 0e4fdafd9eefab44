/**
 * Personal data on request (issue 8): everything D1 holds about one e-mail address, read for the admin's summary
 * and the JSON export, and its erasure.
 *
 * What belongs to an address: its registrations of every season with their runners and payments (and the refunds
 * of those payments), e-mails sent to it (`email_log`), login codes and wrong tries, sessions, the unsubscribe row,
 * mass-mail recipient rows, Epassi invitations, campaign codes whose note names it, whether it is an admin, and
 * audit rows about it (by it, about it or one of its payments/registrations, or naming it in their detail).
 * Box-office runners have no address and are not found here.
 *
 * Erasure, one D1 batch (a transaction: all of it or nothing):
 * - registrations stay (their payments need them) but their address becomes `raderad-<id>@raderad.invalid`, a
 *   reserved domain that never receives mail, and that placeholder is put on the unsubscribe list so no mass
 *   mailing ever picks it; runners are anonymised ('Anonym Löpare', no club, no phone) keeping age, distance,
 *   group, bib and race, which the season's figures (analytics, goodie bags) need and which name nobody; the
 *   registration's check-in code for the bib desk is erased (its QR then finds nobody);
 * - payments keep what bookkeeping needs (amount, currency, dates, status, payment and payee reference, campaign,
 *   child/adult counts, which runners it covered); the payer's phone number (`payer_alias`), the message sent to
 *   Swish and the Swish token/callback identifier are removed. Refund rows hold nothing about the payer and stay;
 * - e-mails sent to it keep kind, subject, time and status; the address and bodies are removed;
 * - login codes, wrong tries and visitor sessions are deleted (a deleted session is signed out at once);
 * - unsubscribe and mass-mail recipient rows are deleted; Epassi invitations lose name and address;
 *   the address in a campaign code's note becomes '[raderad]';
 * - audit rows: the address as actor or subject becomes its hash (`sha256:<hex>`), in a detail it becomes
 *   '[raderad]'; rows about its payments keep the payid (a bookkeeping reference);
 * - one audit row for the erasure itself, naming the address only by its hash.
 * The batch starts with a guard that aborts it while one of the address's payments is still CREATED (a Swish
 * request that may yet be paid, whose receipt would go to the address); the caller then answers 409.
 * Everything is found by the address, so a repeated erasure finds nothing and changes nothing. The race objects
 * are not part of the batch: the route anonymises runners of races not yet ended first (routes/
 * admin-personal-data.ts), so a failure there leaves D1 untouched and the erasure can simply be repeated.
 *
 * Lookups use the e-mail indexes of each table; the audit log's detail can only be searched whole (`instr`),
 * acceptable for an action taken a few times a year.
 */
import type { ErasureCounts } from "../../shared/personal-data";
import type { Db } from "../db/client";

export const ERASED_DOMAIN = "raderad.invalid";
/** What an erased address becomes where a row must keep some address (e-mail log, Epassi invitations). */
export const ERASED_ADDRESS = `raderad@${ERASED_DOMAIN}`;
/** What an erased runner is called, in D1 and in a race not yet ended. */
export const ANONYMOUS_RUNNER = { firstname: "Anonym", lastname: "Löpare", company: "" } as const;
/** What replaces the address inside free text (a campaign note, an audit detail). */
export const ERASED_TEXT = "[raderad]";

/** 'sha256:<hex>' of the (lower-case) address: how audit rows name an address once it is erased. */
export async function emailHash(email: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email)));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
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
}

const OWN_REGISTRATIONS = "SELECT id FROM registrations WHERE email = ?1";
const OWN_PAYMENTS = `SELECT id FROM payments WHERE registration_id IN (${OWN_REGISTRATIONS})`;

async function hasTable(d1: D1Database, name: string): Promise<boolean> {
  const row = await d1
    .prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(name)
    .first();
  return row !== null;
}

/** Every row stored about the address (secrets left out: login-code hashes, session ids), in one read batch. */
export async function storedPersonalData(db: Db, email: string): Promise<StoredPersonalData> {
  const d1 = db.$client;
  const withRefunds = await hasTable(d1, "refunds");
  const q = (sql: string) => d1.prepare(sql).bind(email);
  const reads = [
    q("SELECT * FROM registrations WHERE email = ?1 ORDER BY season, id"),
    q(`SELECT * FROM participants WHERE registration_id IN (${OWN_REGISTRATIONS}) ORDER BY season, created_at, id`),
    q(`SELECT * FROM payments WHERE registration_id IN (${OWN_REGISTRATIONS}) ORDER BY date_created, id`),
    q(`SELECT * FROM email_log WHERE "to" = ?1 ORDER BY id`),
    q(
      `SELECT id, email, created_at, expires_at, attempts, used_at, replaced_at, client_key FROM login_codes
        WHERE email = ?1 ORDER BY created_at`,
    ),
    q("SELECT email, at FROM login_failures WHERE email = ?1 ORDER BY at"),
    q("SELECT kind, email, created_at, expires_at, revoked_at FROM sessions WHERE email = ?1 ORDER BY created_at"),
    q("SELECT * FROM unsubscribes WHERE email = ?1"),
    q(
      `SELECT r.*, m.audience, m.subject, m.created_at AS mailing_created_at FROM mailing_recipients r
         LEFT JOIN mailings m ON m.id = r.mailing_id WHERE r.email = ?1 ORDER BY r.mailing_id`,
    ),
    q("SELECT * FROM epassi_invitations WHERE email = ?1 ORDER BY id"),
    q("SELECT * FROM campaign_codes WHERE instr(lower(note), ?1) > 0 ORDER BY code"),
    q("SELECT * FROM admins WHERE email = ?1"),
    q(
      `SELECT * FROM audit_log WHERE actor = ?1 OR subject = ?1 OR subject IN (${OWN_REGISTRATIONS})
          OR subject IN (${OWN_PAYMENTS}) OR instr(detail, ?1) > 0
        ORDER BY id`,
    ),
    ...(withRefunds ? [q(`SELECT * FROM refunds WHERE payid IN (${OWN_PAYMENTS}) ORDER BY created_at, id`)] : []),
  ];
  const results = (await d1.batch<Row>(reads)).map((r) => r.results);
  const [
    registrations = [],
    participants = [],
    payments = [],
    emails = [],
    loginCodes = [],
    loginFailures = [],
    sessions = [],
    unsubscribes = [],
    mailings = [],
    epassiInvitations = [],
    campaignCodes = [],
    admins = [],
    audit = [],
    refunds = [],
  ] = results;
  return {
    registrations,
    participants,
    payments,
    refunds,
    emails,
    loginCodes,
    loginFailures,
    sessions,
    unsubscribes,
    mailings,
    epassiInvitations,
    campaignCodes,
    admins,
    audit,
  };
}

/** Whether anything at all is stored about the address. */
export function isEmpty(data: StoredPersonalData): boolean {
  return Object.values(data).every((rows) => rows.length === 0);
}

/** A payment of the address still waiting in Swish: erasure waits for it (see the module comment). */
export function hasOpenPayment(data: StoredPersonalData): boolean {
  return data.payments.some((p) => p.status === "CREATED");
}

/** The address's runners in races whose index row is not 'ended': the race objects anonymise those. */
export async function runnersInOpenRaces(db: Db, email: string): Promise<{ id: string; part: string }[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT p.id, p.race_id AS part FROM participants p
         JOIN registrations r ON r.id = p.registration_id
         JOIN races ON races.part = p.race_id
        WHERE r.email = ?1 AND races.state <> 'ended'
        ORDER BY p.race_id, p.id`,
    )
    .bind(email)
    .all<{ id: string; part: string }>();
  return results;
}

function replaceIgnoringCase(text: string, needle: string, by: string): string {
  return text.replace(new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), by);
}

export type ErasureResult = { status: "erased"; counts: ErasureCounts } | { status: "open-payment" };

export interface ErasureAuthor {
  actor: string;
  device: string | null;
  /** emailHash(email) */
  hash: string;
  now: number;
  /** The erasure's own audit line's detail (what was found); it must not name the address. */
  detail: Record<string, unknown>;
}

/**
 * Erases the address in one batch (module comment). `campaignCodes` are the rows storedPersonalData found: their
 * notes are rewritten only if unchanged since.
 */
export async function erasePersonalData(
  db: Db,
  email: string,
  campaignCodes: readonly Row[],
  by: ErasureAuthor,
): Promise<ErasureResult> {
  const d1 = db.$client;
  const q = (sql: string, ...more: unknown[]) => d1.prepare(sql).bind(email, ...more);
  const placeholder = `'raderad-' || lower(id) || '@${ERASED_DOMAIN}'`;
  const statements = [
    // json('open-payment') raises "malformed JSON", which aborts the batch and rolls everything back.
    q(
      `SELECT json(CASE WHEN EXISTS (SELECT 1 FROM payments WHERE registration_id IN (${OWN_REGISTRATIONS})
         AND status = 'CREATED') THEN 'open-payment' ELSE '1' END)`,
    ),
    q(
      `UPDATE participants SET firstname = ?2, lastname = ?3, company = '', phone = NULL
        WHERE registration_id IN (${OWN_REGISTRATIONS})`,
      ANONYMOUS_RUNNER.firstname,
      ANONYMOUS_RUNNER.lastname,
    ),
    q(
      `UPDATE payments SET payer_alias = NULL, message = NULL, token = NULL, callback_identifier = NULL
        WHERE registration_id IN (${OWN_REGISTRATIONS})`,
    ),
    q(`UPDATE email_log SET "to" = ?2, html = '', text = '' WHERE "to" = ?1`, ERASED_ADDRESS),
    q("DELETE FROM login_codes WHERE email = ?1"),
    q("DELETE FROM login_failures WHERE email = ?1"),
    q("DELETE FROM sessions WHERE email = ?1 AND kind = 'visitor'"),
    q("DELETE FROM unsubscribes WHERE email = ?1"),
    q("DELETE FROM mailing_recipients WHERE email = ?1"),
    q("UPDATE epassi_invitations SET name = ?2, email = ?3 WHERE email = ?1", ERASED_TEXT, ERASED_ADDRESS),
    ...campaignCodes.map((c) =>
      d1
        .prepare("UPDATE campaign_codes SET note = ?1 WHERE code = ?2 AND note = ?3")
        .bind(replaceIgnoringCase(String(c.note), email, ERASED_TEXT), c.code, c.note),
    ),
    q(
      `UPDATE audit_log SET actor = CASE WHEN actor = ?1 THEN ?2 ELSE actor END,
          subject = CASE WHEN subject = ?1 THEN ?2 ELSE subject END,
          detail = replace(detail, ?1, ?3)
        WHERE actor = ?1 OR subject = ?1 OR instr(detail, ?1) > 0`,
      by.hash,
      ERASED_TEXT,
    ),
    // Mass mailings skip unsubscribed addresses: the placeholder goes there before it replaces the address.
    q(
      `INSERT OR IGNORE INTO unsubscribes (email, at) SELECT ${placeholder}, ?2 FROM registrations WHERE email = ?1`,
      by.now,
    ),
    // The check-in code goes with the address: a QR kept from an old receipt then finds nobody at the bib desk.
    q(
      `UPDATE registrations SET email = ${placeholder}, checkin_token = NULL, updated_at = ?2 WHERE email = ?1`,
      by.now,
    ),
    d1
      .prepare("INSERT INTO audit_log (at, actor, device, action, subject, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(by.now, by.actor, by.device, "personal-data.erase", by.hash, JSON.stringify(by.detail)),
  ];
  let results: D1Result[];
  try {
    results = await d1.batch(statements);
  } catch (err) {
    const open = await d1
      .prepare(`SELECT 1 AS x FROM payments WHERE registration_id IN (${OWN_REGISTRATIONS}) AND status = 'CREATED'`)
      .bind(email)
      .first();
    if (open) return { status: "open-payment" };
    throw err;
  }
  const changes = (i: number) => results[i]!.meta.changes;
  const notes = campaignCodes.length;
  const counts: ErasureCounts = {
    runners: changes(1),
    payments: changes(2),
    emails: changes(3),
    loginCodes: changes(4),
    loginFailures: changes(5),
    sessions: changes(6),
    unsubscribes: changes(7),
    mailings: changes(8),
    epassiInvitations: changes(9),
    campaignCodes: results.slice(10, 10 + notes).reduce((n, r) => n + r.meta.changes, 0),
    auditRows: changes(10 + notes),
    registrations: changes(12 + notes),
  };
  return { status: "erased", counts };
}

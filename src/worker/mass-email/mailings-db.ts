/**
 * Mass e-mail in D1: who a mailing goes to (previous season's or this season's paid registrations, minus the
 * unsubscribed), the mailing and its recipients, each recipient's state (see src/worker/mass-email/mailings.ts for the
 * states and their invariants), the progress the admin page polls, and the unsubscribe list.
 *
 * Every state change of a recipient is one conditional UPDATE on (mailing_id, email) whose WHERE names the state
 * it leaves, so two deliveries of the same queue message can never both win the claim.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lt, max, sql } from "drizzle-orm";
import { raceIdForSeason } from "../../shared/race-id";
import { toDistance } from "../../shared/distances";
import type { Db } from "../db/client";
import { sha256Hex } from "../lib/crypto";
import { mailingRecipients, mailings, participants, registrations, unsubscribes } from "../db/schema";
import { scoped, type ErasureScope, type ErasureStatement } from "../db/erasure";
import type { WaitingMailing, WaitingMailings, WaitingResultsMails } from "../../shared/mailings";

export type Audience = "previous" | "current";
/** Who a mailing row went to: a mass mailing's audience, or one family's results mail (registration/results-mails.ts). */
export type MailingAudience = Audience | "results";

/** A recipient as the lists show it (spec: previous runner {name, email}; current runner {name, email, race}). */
export interface Recipient {
  email: string;
  /** The registration's runners, "Anna Berg, Olle Berg". */
  name: string;
  /** Current runners only: the race ids of the registration's runners, "race-250913-56, race-250913-08". */
  race: string | null;
}

export type RecipientStatus = "queued" | "claimed" | "sent" | "failed" | "unknown" | "skipped";

/** The newest season before `season` that has registrations: "last year's race", even after a year without one. */
export async function previousSeason(db: Db, season: number): Promise<number | null> {
  const row = await db
    .select({ season: max(registrations.season) })
    .from(registrations)
    .where(lt(registrations.season, season))
    .get();
  return row?.season ?? null;
}

/**
 * The paid runners of `season` (paid by their payment and not deregistered by a refund, as the admin lists count
 * "paid"), one row per address (an address has one registration per season) naming those runners, minus
 * unsubscribed addresses, ordered by e-mail.
 */
export async function paidRecipients(db: Db, season: number, withRace: boolean): Promise<Recipient[]> {
  const rows = await db
    .select({
      email: registrations.email,
      firstname: participants.firstname,
      lastname: participants.lastname,
      distance: participants.distance,
      raceId: participants.raceId,
    })
    .from(registrations)
    .innerJoin(participants, eq(participants.registrationId, registrations.id))
    .where(
      and(
        eq(registrations.season, season),
        isNotNull(participants.paidBy),
        isNull(participants.deregisteredAt),
        sql`NOT EXISTS (SELECT 1 FROM ${unsubscribes} WHERE ${unsubscribes.email} = ${registrations.email})`,
      ),
    )
    .orderBy(registrations.email, participants.createdAt, participants.id)
    .all();
  const byEmail = new Map<string, { names: string[]; races: Set<string> }>();
  for (const row of rows) {
    let entry = byEmail.get(row.email);
    if (!entry) byEmail.set(row.email, (entry = { names: [], races: new Set() }));
    entry.names.push(`${row.firstname} ${row.lastname}`.trim());
    const distance = toDistance(row.distance);
    const race = row.raceId ?? (distance ? raceIdForSeason(distance) : null);
    if (race) entry.races.add(race);
  }
  return [...byEmail].map(([email, { names, races }]) => ({
    email,
    name: names.join(", "),
    race: withRace ? [...races].join(", ") : null,
  }));
}

/** Previous runners: last season's paid registrations; current runners: this season's. */
export async function audienceRecipients(db: Db, audience: Audience, season: number): Promise<Recipient[]> {
  if (audience === "current") return paidRecipients(db, season, true);
  const previous = await previousSeason(db, season);
  return previous === null ? [] : paidRecipients(db, previous, false);
}

/** Recipients per INSERT: one JSON parameter each, well below D1's 2 MB value limit. */
const RECIPIENTS_PER_INSERT = 1000;

export interface NewMailing {
  audience: MailingAudience;
  subject: string;
  message: string;
  createdBy: string;
  recipients: Recipient[];
}

/** The recipients ('queued') of the mailing just inserted, one JSON parameter per RECIPIENTS_PER_INSERT. */
function recipientInserts(d1: D1Database, recipients: readonly Recipient[], when?: MailingCondition) {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < recipients.length; i += RECIPIENTS_PER_INSERT) {
    const json = JSON.stringify(recipients.slice(i, i + RECIPIENTS_PER_INSERT));
    statements.push(
      d1
        .prepare(
          `INSERT INTO mailing_recipients (mailing_id, email, name, race, status)
           SELECT (SELECT max(id) FROM mailings), value ->> '$.email', value ->> '$.name', value ->> '$.race', 'queued'
           FROM json_each(?) WHERE ${when?.sql ?? "1"}`,
        )
        .bind(json, ...(when?.params ?? [])),
    );
  }
  return statements;
}

/**
 * The mailing and all its recipients ('queued') in one D1 batch (a transaction): a mailing never exists with only
 * part of its recipients. The recipients take the new mailing's id from `max(id)` inside the same transaction
 * (D1 runs one writer at a time), and come in as one JSON parameter per statement.
 *
 * The same mailing (audience, subject and text) is sent once within `doubleSendWindowMs`, however many clicks,
 * tabs or replayed requests ask for it: the mailing row claims `send_key` (a digest of the three), which is unique,
 * in the same batch that writes it, and releases an older mailing's claim once its window has passed. Of two sends
 * at the same moment, D1 writes one and refuses the other's whole batch; that one answers null (nothing written),
 * not a check-then-insert that both could pass.
 */
export async function createMailing(
  db: Db,
  input: NewMailing,
  now: number,
  doubleSendWindowMs: number,
): Promise<number | null> {
  const d1 = db.$client;
  const sendKey = await sha256Hex(`${input.audience}\u0000${input.subject}\u0000${input.message}`);
  const releaseOld = d1
    .prepare(`UPDATE mailings SET send_key = NULL WHERE send_key = ? AND created_at < ?`)
    .bind(sendKey, now - doubleSendWindowMs);
  const insertMailing = d1
    .prepare(
      `INSERT INTO mailings (audience, subject, message, created_by, created_at, total_recipients, send_key)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(input.audience, input.subject, input.message, input.createdBy, now, input.recipients.length, sendKey);
  const insertRecipients = recipientInserts(d1, input.recipients);
  let inserted: D1Result<{ id: number }> | undefined;
  try {
    [, inserted] = await d1.batch<{ id: number }>([releaseOld, insertMailing, ...insertRecipients]);
  } catch (err) {
    // The unique send_key: another send of this mailing holds the claim (read after the refusal, so not a guess).
    if (await sameMailingSince(db, input, now - doubleSendWindowMs)) return null;
    throw err;
  }
  const id = inserted?.results[0]?.id;
  if (id === undefined) throw new Error("mailing insert returned no id");
  return id;
}

/** A condition in SQL, with its values, that each write of a mailing's batch is made on (`createMailingIf`). */
export interface MailingCondition {
  sql: string;
  params: unknown[];
}

/**
 * A mailing written only if `when` holds, in one D1 batch with `also` (statements of the caller's own, run after
 * the mailing and its recipients; they may name the new mailing as `(SELECT max(id) FROM mailings)`). Every
 * statement of the mailing is made on `when`, evaluated inside the batch's transaction, so the mailing, its
 * recipients and what `also` writes on the same condition are all written or none: a claim that the caller's last
 * statement makes (and so turns `when` false for anyone after it) cannot exist without its mailing, nor the other
 * way round (registration/results-mails.ts). No double-send key: the condition is the claim. `id` is null when
 * `when` did not hold; `also` holds the results of the caller's statements, in order.
 */
export async function createMailingIf(
  db: Db,
  input: NewMailing,
  now: number,
  when: MailingCondition,
  also: readonly D1PreparedStatement[],
): Promise<{ id: number | null; also: D1Result[] }> {
  const d1 = db.$client;
  const insertMailing = d1
    .prepare(
      `INSERT INTO mailings (audience, subject, message, created_by, created_at, total_recipients)
       SELECT ?, ?, ?, ?, ?, ? WHERE ${when.sql} RETURNING id`,
    )
    .bind(input.audience, input.subject, input.message, input.createdBy, now, input.recipients.length, ...when.params);
  const insertRecipients = recipientInserts(d1, input.recipients, when);
  const results = await d1.batch([insertMailing, ...insertRecipients, ...also]);
  const inserted = results[0] as D1Result<{ id: number }>;
  return { id: inserted.results[0]?.id ?? null, also: results.slice(1 + insertRecipients.length) };
}

export type MailingRow = typeof mailings.$inferSelect;

export async function findMailing(db: Db, id: number): Promise<MailingRow | null> {
  return (await db.select().from(mailings).where(eq(mailings.id, id)).get()) ?? null;
}

/** The newest mailing to the same audience with the same subject and text made since `since` (a double send). */
export async function sameMailingSince(
  db: Db,
  input: Pick<NewMailing, "audience" | "subject" | "message">,
  since: number,
): Promise<MailingRow | null> {
  const row = await db
    .select()
    .from(mailings)
    .where(
      and(
        eq(mailings.audience, input.audience),
        eq(mailings.subject, input.subject),
        eq(mailings.message, input.message),
        sql`${mailings.createdAt} >= ${since}`,
      ),
    )
    .orderBy(desc(mailings.id))
    .limit(1)
    .get();
  return row ?? null;
}

export interface MailingProgress {
  id: number;
  audience: string;
  subject: string;
  createdAt: number;
  totalRecipients: number;
  sentCount: number;
  /** Failed for good, or 'unknown' (a claim that never finished: maybe sent, not resent). */
  failedCount: number;
  /** Unsubscribed after the mailing was made: not sent. */
  skippedCount: number;
  /** Queued or being sent. */
  pending: number;
  done: boolean;
  errors: { email: string; error: string }[];
}

export async function mailingProgress(db: Db, mailing: MailingRow): Promise<MailingProgress> {
  const counts = await db
    .select({ status: mailingRecipients.status, n: sql<number>`count(*)` })
    .from(mailingRecipients)
    .where(eq(mailingRecipients.mailingId, mailing.id))
    .groupBy(mailingRecipients.status)
    .all();
  const count = (...statuses: RecipientStatus[]) =>
    counts.filter((c) => statuses.includes(c.status as RecipientStatus)).reduce((sum, c) => sum + c.n, 0);
  const errors = await db
    .select({ email: mailingRecipients.email, error: mailingRecipients.error })
    .from(mailingRecipients)
    .where(and(eq(mailingRecipients.mailingId, mailing.id), inArray(mailingRecipients.status, ["failed", "unknown"])))
    .orderBy(mailingRecipients.email)
    .all();
  const pending = count("queued", "claimed");
  return {
    id: mailing.id,
    audience: mailing.audience,
    subject: mailing.subject,
    createdAt: mailing.createdAt,
    totalRecipients: mailing.totalRecipients,
    sentCount: count("sent"),
    failedCount: count("failed", "unknown"),
    skippedCount: count("skipped"),
    pending,
    done: pending === 0,
    errors: errors.map((e) => ({ email: e.email, error: e.error ?? "" })),
  };
}

export type RecipientRow = typeof mailingRecipients.$inferSelect;

export async function findRecipient(db: Db, mailingId: number, email: string): Promise<RecipientRow | null> {
  const row = await db
    .select()
    .from(mailingRecipients)
    .where(and(eq(mailingRecipients.mailingId, mailingId), eq(mailingRecipients.email, email)))
    .get();
  return row ?? null;
}

/** One conditional UPDATE from the states in `from` to `to`; true when this call made the change. */
async function transition(
  db: Db,
  mailingId: number,
  email: string,
  from: RecipientStatus[],
  set: Partial<Pick<RecipientRow, "status" | "claimedAt" | "sentAt" | "error">>,
  extra?: ReturnType<typeof sql>,
): Promise<boolean> {
  const result = await db
    .update(mailingRecipients)
    .set(set)
    .where(
      and(
        eq(mailingRecipients.mailingId, mailingId),
        eq(mailingRecipients.email, email),
        inArray(mailingRecipients.status, from),
        extra,
      ),
    )
    .run();
  return result.meta.changes === 1;
}

/** queued → claimed, unless the address unsubscribed meanwhile. */
export function claimRecipient(db: Db, mailingId: number, email: string, now: number): Promise<boolean> {
  return transition(
    db,
    mailingId,
    email,
    ["queued"],
    { status: "claimed", claimedAt: now },
    sql`NOT EXISTS (SELECT 1 FROM ${unsubscribes} WHERE ${unsubscribes.email} = ${mailingRecipients.email})`,
  );
}

/** claimed (or reported 'unknown' by a redelivery while this send ran) → sent. */
export function markSent(db: Db, mailingId: number, email: string, now: number): Promise<boolean> {
  return transition(db, mailingId, email, ["claimed", "unknown"], { status: "sent", sentAt: now, error: null });
}

/** The provider refused: nothing left, so the claim goes back to queued for the retry. */
export function releaseClaim(db: Db, mailingId: number, email: string, error: string): Promise<boolean> {
  return transition(db, mailingId, email, ["claimed", "unknown"], { status: "queued", claimedAt: null, error });
}

/** The last attempt failed: failed for good, with the provider's error (the dead-letter record). */
export function markFailed(db: Db, mailingId: number, email: string, error: string): Promise<boolean> {
  return transition(db, mailingId, email, ["claimed", "queued", "unknown"], { status: "failed", error });
}

/** A claim nobody finished (the sender crashed between claim and send): reported, never resent blindly. */
export function markUnknown(db: Db, mailingId: number, email: string, error: string): Promise<boolean> {
  return transition(db, mailingId, email, ["claimed"], { status: "unknown", error });
}

/** Still queued but the address has unsubscribed since the mailing was made. */
export function markSkipped(db: Db, mailingId: number, email: string): Promise<boolean> {
  return transition(
    db,
    mailingId,
    email,
    ["queued"],
    { status: "skipped", error: null },
    sql`EXISTS (SELECT 1 FROM ${unsubscribes} WHERE ${unsubscribes.email} = ${mailingRecipients.email})`,
  );
}

/** A list of ids as one SQL parameter (`IN (SELECT value FROM json_each(?))`). */
const IDS = "SELECT value FROM json_each(?)";

/**
 * The resume lease (mailings.resuming_at) of each of `ids` that no resume holds now, or whose holder started before
 * `staleBefore` (it died: a resume takes seconds): one conditional UPDATE, so of two resumes at once each mailing
 * goes to one. The ids taken.
 */
export async function takeResumeLease(
  db: Db,
  ids: readonly number[],
  now: number,
  staleBefore: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { results } = await db.$client
    .prepare(
      `UPDATE mailings SET resuming_at = ?1
        WHERE id IN (${IDS.replace("?", "?2")}) AND (resuming_at IS NULL OR resuming_at < ?3) RETURNING id`,
    )
    .bind(now, JSON.stringify(ids), staleBefore)
    .all<{ id: number }>();
  return results.map((r) => r.id).sort((a, b) => a - b);
}

/** Gives back the leases taken at `takenAt` (a lease taken over since by another resume is that one's). */
export async function releaseResumeLease(db: Db, ids: readonly number[], takenAt: number): Promise<void> {
  if (ids.length === 0) return;
  await db.$client
    .prepare(`UPDATE mailings SET resuming_at = NULL WHERE id IN (${IDS}) AND resuming_at = ?`)
    .bind(JSON.stringify(ids), takenAt)
    .run();
}

/** The queue took the mailings' recipients (the send, a results mail, a resume): their `handed_at`. */
export async function markHanded(db: Db, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.$client
    .prepare(`UPDATE mailings SET handed_at = ? WHERE id IN (${IDS})`)
    .bind(now, JSON.stringify(ids))
    .run();
}

/** The mailings' recipients still queued (to enqueue again when they are resumed), by mailing. */
export async function queuedRecipients(
  db: Db,
  ids: readonly number[],
): Promise<{ mailingId: number; email: string }[]> {
  if (ids.length === 0) return [];
  const { results } = await db.$client
    .prepare(
      `SELECT mailing_id AS mailingId, email FROM mailing_recipients
        WHERE mailing_id IN (${IDS}) AND status = 'queued' ORDER BY mailing_id, email`,
    )
    .bind(JSON.stringify(ids))
    .all<{ mailingId: number; email: string }>();
  return results;
}

/** Claims older than `before` can no longer be running (a consumer's wall-clock limit): reported as unknown. */
export async function reportStaleClaims(
  db: Db,
  ids: readonly number[],
  before: number,
  error: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .update(mailingRecipients)
    .set({ status: "unknown", error })
    .where(
      and(
        sql`${mailingRecipients.mailingId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(mailingRecipients.status, "claimed"),
        lt(mailingRecipients.claimedAt, before),
      ),
    )
    .run();
  return result.meta.changes;
}

/**
 * failed → queued, an admin's resume: the provider refused these (every attempt, or the message was dead-lettered
 * before any claim), so nothing of them left and trying again sends each at most once. The error stays until the
 * next verdict. 'unknown' is never put back: that mail may have left.
 */
export async function requeueFailed(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.$client
    .prepare(
      `UPDATE mailing_recipients SET status = 'queued', claimed_at = NULL WHERE mailing_id IN (${IDS}) AND status = 'failed'`,
    )
    .bind(JSON.stringify(ids))
    .run();
  return result.meta.changes;
}

/** Recipients the mass e-mail screen lists a mailing for: waiting (queued, being sent) or refused for good. */
const OPEN = "('queued', 'claimed', 'failed')";

/**
 * The mailings with someone still waiting or failed (the mass e-mail screen's list): each mass mailing on a line of
 * its own, newest first; the results mails (one mailing per family: registration/results-mails.ts) by race, each
 * race counting its families (addresses) that wait and that failed.
 */
export async function waitingMailings(db: Db): Promise<WaitingMailings> {
  const d1 = db.$client;
  const [mass, results] = await d1.batch<Record<string, unknown>>([
    d1.prepare(
      `SELECT m.id, m.audience, m.subject, m.created_at AS createdAt, m.total_recipients AS totalRecipients,
              sum(r.status IN ('queued', 'claimed')) AS waiting, sum(r.status = 'failed') AS failed
         FROM mailing_recipients r JOIN mailings m ON m.id = r.mailing_id
        WHERE r.status IN ${OPEN} AND m.audience <> 'results'
        GROUP BY m.id ORDER BY m.id DESC`,
    ),
    d1.prepare(
      `SELECT coalesce(r.race, '') AS race,
              count(DISTINCT CASE WHEN r.status IN ('queued', 'claimed') THEN r.email END) AS waiting,
              count(DISTINCT CASE WHEN r.status = 'failed' THEN r.email END) AS failed,
              min(m.created_at) AS since
         FROM mailing_recipients r JOIN mailings m ON m.id = r.mailing_id
        WHERE r.status IN ${OPEN} AND m.audience = 'results'
        GROUP BY r.race ORDER BY r.race`,
    ),
  ]);
  return {
    mailings: mass!.results as unknown as WaitingMailing[],
    results: results!.results as unknown as WaitingResultsMails[],
  };
}

/** The race's results mailings with someone waiting or failed (what resuming the race's line resumes). */
export async function waitingResultsMailings(db: Db, race: string): Promise<number[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT DISTINCT r.mailing_id AS id FROM mailing_recipients r JOIN mailings m ON m.id = r.mailing_id
        WHERE r.status IN ${OPEN} AND m.audience = 'results' AND r.race = ? ORDER BY r.mailing_id`,
    )
    .bind(race)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** Adds the address to the unsubscribe list (idempotent: the first unsubscribe's time and mailing are kept). */
export async function addUnsubscribe(db: Db, email: string, mailingId: number | null, now: number): Promise<void> {
  await db.insert(unsubscribes).values({ email, at: now, mailingId }).onConflictDoNothing();
}

export async function isUnsubscribed(db: Db, email: string): Promise<boolean> {
  return (
    (await db.select({ email: unsubscribes.email }).from(unsubscribes).where(eq(unsubscribes.email, email)).get()) !==
    undefined
  );
}

/**
 * Erasure (db/erasure.ts): the address's unsubscribe row and its rows among mailings' recipients (address, name,
 * race) are deleted; the mailings themselves name nobody and stay with their counts.
 */
export function mailingErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  if (scope.email === null) return [];
  return [
    { count: "unsubscribes", statement: scoped(d1, scope, "DELETE FROM unsubscribes WHERE email = ?1") },
    { count: "mailings", statement: scoped(d1, scope, "DELETE FROM mailing_recipients WHERE email = ?1") },
  ];
}

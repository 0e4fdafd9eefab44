/**
 * Payments in D1. A payment is written once as CREATED (before Swish hears of it) and settled at most once,
 * by a conditional write that only the first of the racing settlers (callback, socket poll, cron) wins.
 */
import { and, asc, eq, gte, isNotNull, lte, ne, notLike, or, sql } from "drizzle-orm";
import type { PaymentRecord, PaymentStatus, SettledStatus } from "../../shared/payment-protocol";
import { isPaymentStatus } from "../../shared/payment-protocol";
import { campaignUsable, claimCampaignUseStatement } from "../campaigns/campaigns-db";
import type { Db } from "../db/client";
import { findRegistrationById } from "../db/registrations-db";
import { auditLog, payments, registrations } from "../db/schema";
import { scoped, type ErasureScope, type ErasureStatement } from "../db/erasure";

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

export async function insertPayment(db: Db, row: NewPaymentRow): Promise<void> {
  await db.insert(payments).values(row);
}

/** Inserts unless the id exists; true when this call wrote the row. */
export async function insertPaymentOnce(db: Db, row: NewPaymentRow): Promise<boolean> {
  const written = await db
    .insert(payments)
    .values(row)
    .onConflictDoNothing({ target: payments.id })
    .returning({ id: payments.id });
  return written.length > 0;
}

export async function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  return db.select().from(payments).where(eq(payments.id, id)).get();
}

export async function storePaymentToken(db: Db, id: string, token: string | null): Promise<void> {
  await db.update(payments).set({ token }).where(eq(payments.id, id));
}

/** Makes this payment the one the registration shows (spec: payid). */
export async function selectRegistrationPayment(db: Db, registrationId: string, payid: string, now: number) {
  await db.update(registrations).set({ payid, updatedAt: now }).where(eq(registrations.id, registrationId));
}

/** At most this many payments of one registration may be open or failed; then booking is refused. */
export const MAX_UNPAID_ATTEMPTS = 20;

export type OrderWrite =
  | "inserted"
  /** The payment row was there already (a free order booked again for the same runners). */
  | "existed"
  /** The registration's payid or version is no longer what the caller read. */
  | "stale"
  /** The campaign code can no longer be used by this registration (used up, disabled or expired). */
  | "campaign"
  /** The registration has had its MAX_UNPAID_ATTEMPTS open or failed payments. */
  | "attempts";

/**
 * The one guard both kinds of order take, a Swish booking and a free campaign order: in one D1 batch (one
 * transaction), and only while the registration's payid and version are still what the caller read, the
 * registration has fewer than MAX_UNPAID_ATTEMPTS open or failed payments, and the row's campaign code (if any)
 * can still be used by it, the code's use is claimed, the payment row written and made the registration's payid.
 * Otherwise nothing of it is written: no use is consumed without a payment, and of two orders booked at the same
 * moment from what one read showed, only one is written.
 */
export async function insertOrderPayment(
  db: Db,
  row: NewPaymentRow & { registrationId: string },
  expected: { payid: string | null; version: number },
  now: number,
): Promise<OrderWrite> {
  const code = row.kampanj ?? null;
  // The runners this order pays for: an open or paid order of theirs already holds the code's use (campaigns-db.ts).
  const holder = { registrationId: row.registrationId, runnerIds: parseParticipantIds(row.participantIds ?? "[]") };
  // json('stale') raises "malformed JSON", which aborts the batch (see saveRunners in src/worker/db/registrations-db.ts).
  const guard = db
    .select({
      ok: sql`json(CASE WHEN ${registrations.version} = ${expected.version}
        AND ${registrations.payid} IS ${expected.payid}
        AND (SELECT count(*) FROM ${payments} WHERE ${payments.registrationId} = ${row.registrationId}
          AND ${payments.status} <> 'PAID') < ${MAX_UNPAID_ATTEMPTS}
        AND ${code === null ? sql`1` : campaignUsable(code, holder, now)}
      THEN '1' ELSE 'stale' END)`,
    })
    .from(registrations)
    .where(eq(registrations.id, row.registrationId));
  const insert = db
    .insert(payments)
    .values(row)
    .onConflictDoNothing({ target: payments.id })
    .returning({ id: payments.id });
  const select = db
    .update(registrations)
    .set({ payid: row.id, updatedAt: now })
    .where(eq(registrations.id, row.registrationId));
  try {
    const inserted =
      code === null
        ? (await db.batch([guard, insert, select]))[1]
        : (await db.batch([guard, claimCampaignUseStatement(db, code, now, holder), insert, select]))[2];
    return inserted.length > 0 ? "inserted" : "existed";
  } catch (err) {
    const current = await findRegistrationById(db, row.registrationId);
    if (!current) throw err;
    if (current.version !== expected.version || current.payid !== expected.payid) return "stale";
    const unpaid = await db
      .select({ n: sql<number>`count(*)` })
      .from(payments)
      .where(and(eq(payments.registrationId, row.registrationId), ne(payments.status, "PAID")))
      .get();
    if ((unpaid?.n ?? 0) >= MAX_UNPAID_ATTEMPTS) return "attempts";
    if (code !== null) return "campaign";
    throw err;
  }
}

export interface Settlement {
  status: SettledStatus;
  datePaid: number | null;
  paymentReference: string | null;
  payerAlias: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  settledAt: number;
}

/**
 * The one settling write: `UPDATE … WHERE id = ? AND status = 'CREATED'`. Exactly one caller sees `true` for a
 * payment; every other (a replayed callback, a poll, the cron) sees `false` and must do nothing more.
 */
export async function settlePaymentRow(db: Db, id: string, s: Settlement): Promise<boolean> {
  const changed = await db
    .update(payments)
    .set({
      status: s.status,
      datePaid: s.datePaid,
      paymentReference: s.paymentReference,
      payerAlias: s.payerAlias,
      errorCode: s.errorCode,
      errorMessage: s.errorMessage,
      settledAt: s.settledAt,
    })
    .where(and(eq(payments.id, id), eq(payments.status, "CREATED")))
    .returning({ id: payments.id });
  return changed.length > 0;
}

/**
 * A registration's Swish payments still waiting for the payer, and the payid the registration has selected, read
 * together (one batch, one snapshot): a payment newer than what a caller read is always the selected one.
 */
export async function listOpenSwishPayments(db: Db, registrationId: string) {
  const [open, registration] = await db.batch([
    db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.registrationId, registrationId),
          eq(payments.status, "CREATED"),
          notLike(payments.id, "kampanj%"),
        ),
      ),
    db.select({ payid: registrations.payid }).from(registrations).where(eq(registrations.id, registrationId)),
  ]);
  return { open, selected: registration[0]?.payid ?? null };
}

/** Swish payments still waiting, created within [from, to], oldest first. */
export async function listCreatedSwishPayments(db: Db, from: number, to: number, limit: number) {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, "CREATED"),
        gte(payments.dateCreated, from),
        lte(payments.dateCreated, to),
        notLike(payments.id, "kampanj%"),
      ),
    )
    .orderBy(asc(payments.dateCreated))
    .limit(limit)
    .all();
}

/**
 * PAID payments settled within [from, to] whose after-payment steps are not all recorded in the audit log:
 * `runnersStep` always, `receiptStep` when there is a registration to write to.
 */
export async function listPaidNeedingFollowUp(
  db: Db,
  runnersStep: string,
  receiptStep: string,
  from: number,
  to: number,
  limit: number,
) {
  const missing = (action: string) =>
    sql`NOT EXISTS (SELECT 1 FROM ${auditLog} WHERE ${auditLog.action} = ${action} AND ${auditLog.subject} = ${payments.id})`;
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, "PAID"),
        isNotNull(payments.settledAt),
        gte(payments.settledAt, from),
        lte(payments.settledAt, to),
        or(missing(runnersStep), and(isNotNull(payments.registrationId), missing(receiptStep))),
      ),
    )
    .orderBy(asc(payments.settledAt))
    .limit(limit)
    .all();
}

export async function hasAuditStep(db: Db, action: string, subject: string): Promise<boolean> {
  const row = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subject, subject)))
    .limit(1)
    .get();
  return row !== undefined;
}

export function parseParticipantIds(json: string): string[] {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The wire shape of one payment (spec: a swishtory entry). */
export function paymentRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: isPaymentStatus(row.status) ? row.status : ("ERROR" as PaymentStatus),
    dateCreated: iso(row.dateCreated)!,
    datePaid: iso(row.datePaid),
    paymentReference: row.paymentReference,
    payerAlias: row.payerAlias,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    kampanj: row.kampanj,
  };
}

/** Spec: `swishtory`, every payment of a registration keyed by payid. */
export async function swishtoryOf(db: Db, registrationId: string): Promise<Record<string, PaymentRecord>> {
  const rows = await db
    .select()
    .from(payments)
    .where(eq(payments.registrationId, registrationId))
    .orderBy(asc(payments.dateCreated))
    .all();
  return Object.fromEntries(rows.map((row) => [row.id, paymentRecord(row)]));
}

/**
 * Erasure (db/erasure.ts): a payment keeps what bookkeeping needs (bokföringslagen 7 kap. 2 §: amount, currency,
 * dates, status, Swish and payee reference, campaign code, child/adult counts, which runners it paid for and at
 * what price); the payer's phone number (`payer_alias`), the message sent to Swish and the Swish token and
 * callback identifier are removed. Refunds hold nothing about the payer and stay as they are.
 */
export function paymentErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  return [
    {
      count: "payments",
      statement: scoped(
        d1,
        scope,
        `UPDATE payments SET payer_alias = NULL, message = NULL, token = NULL, callback_identifier = NULL
          WHERE id IN (${scope.payments})`,
      ),
    },
  ];
}

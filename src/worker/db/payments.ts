/**
 * Payments in D1. A payment is written once as CREATED (before Swish hears of it) and settled at most once,
 * by a conditional write that only the first of the racing settlers (callback, socket poll, cron) wins.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, notLike, or, sql } from "drizzle-orm";
import type { PaymentRecord, PaymentStatus, SettledStatus } from "../../shared/payment-protocol";
import { isPaymentStatus } from "../../shared/payment-protocol";
import type { Db } from "./client";
import { findRegistrationById } from "./registrations";
import { auditLog, participants, payments, registrations } from "./schema";

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;
export type ParticipantRow = typeof participants.$inferSelect;

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

/**
 * Makes this payment the registration's payid only if payid and version are still what the caller read: the
 * compare-and-set that keeps two bookings of one family (or a booking and a runner save) from both winning.
 */
export async function selectRegistrationPaymentIf(
  db: Db,
  registrationId: string,
  payid: string,
  expected: { payid: string | null; version: number },
  now: number,
): Promise<boolean> {
  const changed = await db
    .update(registrations)
    .set({ payid, updatedAt: now })
    .where(
      and(
        eq(registrations.id, registrationId),
        expected.payid === null ? isNull(registrations.payid) : eq(registrations.payid, expected.payid),
        eq(registrations.version, expected.version),
      ),
    )
    .returning({ id: registrations.id });
  return changed.length > 0;
}

/**
 * A settled-at-once payment (a free campaign order) for a registration, made its payid, in one transaction that
 * aborts unless the registration's version is still the one its runners were read at: a runner saved in
 * between must not end up locked in without being paid for. "existed" when the payment was there already.
 */
export async function insertSettledPayment(
  db: Db,
  row: NewPaymentRow & { registrationId: string },
  expectedVersion: number,
  now: number,
): Promise<"inserted" | "existed" | "stale"> {
  // json('stale') raises "malformed JSON", which aborts the batch (see saveRunners in db/registrations.ts).
  const guard = db
    .select({ ok: sql`json(CASE WHEN ${registrations.version} = ${expectedVersion} THEN '1' ELSE 'stale' END)` })
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
    const [, inserted] = await db.batch([guard, insert, select]);
    return inserted.length > 0 ? "inserted" : "existed";
  } catch (err) {
    const current = await findRegistrationById(db, row.registrationId);
    if (current && current.version !== expectedVersion) return "stale";
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

/** A registration's Swish payments still waiting for the payer. */
export async function listOpenSwishPayments(db: Db, registrationId: string) {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.registrationId, registrationId),
        eq(payments.status, "CREATED"),
        notLike(payments.id, "kampanj%"),
      ),
    )
    .all();
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

/** The runners a payment covers, in the order they were given (unknown ids are skipped). */
export async function participantsByIds(db: Db, ids: string[]): Promise<ParticipantRow[]> {
  if (ids.length === 0) return [];
  const rows: ParticipantRow[] = [];
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < ids.length; i += 90) {
    rows.push(
      ...(await db
        .select()
        .from(participants)
        .where(inArray(participants.id, ids.slice(i, i + 90)))
        .all()),
    );
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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

/**
 * Refunds in D1 (the lifecycle is src/worker/payments/refunds.ts). Two writes decide everything:
 * - `insertRefundWithinPaid`: one INSERT … SELECT that writes the refund CREATED only while the payment is a paid
 *   Swish payment and its refunds that are not ERROR, plus this one, stay within its amount, and only once per
 *   idempotency key. D1 runs one statement at a time, so of two concurrent requests at most the amount paid passes.
 * - `settleRefundRow`: `UPDATE … WHERE status = 'CREATED'`, so a refund is settled (PAID or ERROR) once, whoever
 *   of the request, the check and the callback gets there first.
 */
import { and, asc, eq, gte, ne, sql } from "drizzle-orm";
import type { RefundRecord, RefundStatus } from "../../shared/registrations-overview";
import type { Db } from "../db/client";
import { auditLog, refunds } from "../db/schema";

export type RefundRow = typeof refunds.$inferSelect;

/** The wire shape of one refund. */
export function refundRecord(row: RefundRow): RefundRecord {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status as RefundStatus,
    date: new Date(row.createdAt).toISOString(),
    datePaid: row.datePaid === null ? null : new Date(row.datePaid).toISOString(),
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
  };
}

export interface NewRefund {
  id: string;
  payid: string;
  amount: number;
  idempotencyKey: string;
  callbackIdentifier: string;
  createdBy: string;
  createdAt: number;
  /** The runners the refund deregisters once PAID (sorted ids); empty for a refund that keeps them. */
  deregister: string[];
}

/** The row as written, or null when nothing was written (key used, payment not refundable, or not enough left). */
export async function insertRefundWithinPaid(db: Db, r: NewRefund): Promise<RefundRow | null> {
  // A Swish payment's id is 32 upper-case hex: campaign orders (kampanj_…) never qualify.
  const written = await db.$client
    .prepare(
      `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by,
         created_at, deregister)
       SELECT ?1, p.id, p.season, ?3, 'CREATED', ?4, ?5, ?6, ?7, ?8
       FROM payments p
       WHERE p.id = ?2 AND p.status = 'PAID' AND p.amount > 0 AND ?3 > 0
         AND length(p.id) = 32 AND p.id NOT GLOB '*[^0-9A-F]*'
         AND p.payment_reference IS NOT NULL
         AND (SELECT COALESCE(SUM(x.amount), 0) FROM refunds x WHERE x.payid = p.id AND x.status <> 'ERROR') + ?3
           <= p.amount
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING id`,
    )
    .bind(
      r.id,
      r.payid,
      r.amount,
      r.idempotencyKey,
      r.callbackIdentifier,
      r.createdBy,
      r.createdAt,
      JSON.stringify(r.deregister),
    )
    .first<{ id: string }>();
  return written ? ((await findRefund(db, written.id)) ?? null) : null;
}

export async function findRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  return db.select().from(refunds).where(eq(refunds.id, id)).get();
}

export async function findRefundByKey(db: Db, idempotencyKey: string): Promise<RefundRow | undefined> {
  return db.select().from(refunds).where(eq(refunds.idempotencyKey, idempotencyKey)).get();
}

/**
 * PAID refunds asked for since `from` that deregister runners but whose deregistration is not recorded in the audit
 * log: the cron finishes them (payments/deregistration.ts).
 */
export async function listUnfinishedDeregistrations(db: Db, from: number, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.status, "PAID"),
        gte(refunds.createdAt, from),
        ne(refunds.deregister, "[]"),
        sql`NOT EXISTS (SELECT 1 FROM ${auditLog} WHERE ${auditLog.action} = 'refund.deregistered' AND ${auditLog.subject} = ${refunds.id})`,
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(limit)
    .all();
}

/** Refunds still CREATED, oldest first: the cron's sweep (refunds_status_created). */
export async function listOpenRefunds(db: Db, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(eq(refunds.status, "CREATED"))
    .orderBy(asc(refunds.createdAt))
    .limit(limit)
    .all();
}

/** A payment's refunds, oldest first. */
export async function refundsOfPayment(db: Db, payid: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.payid, payid)).orderBy(asc(refunds.createdAt)).all();
}

/** Kronor of a payment taken by refunds that have not failed (PAID, or still on their way). */
export async function refundedOrPending(db: Db, payid: string): Promise<number> {
  const row = await db
    .select({ total: sql<number>`COALESCE(SUM(${refunds.amount}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.payid, payid), ne(refunds.status, "ERROR")))
    .get();
  return row?.total ?? 0;
}

export interface RefundSettlement {
  status: "PAID" | "ERROR";
  datePaid: number | null;
  paymentReference: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  settledAt: number;
}

/** Settles a CREATED refund; true only for the one call that did. */
export async function settleRefundRow(db: Db, id: string, s: RefundSettlement): Promise<boolean> {
  const changed = await db
    .update(refunds)
    .set(s)
    .where(and(eq(refunds.id, id), eq(refunds.status, "CREATED")))
    .returning({ id: refunds.id });
  return changed.length > 0;
}

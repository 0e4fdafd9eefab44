/**
 * The reads and the one write of a companion sold at the box office for a child registered online (the rules:
 * ./companion-sale.ts). Every query goes through an index: participants by id, by registration and by the
 * registration they join; payments by id and by status and creation time.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { participants, payments, registrations } from "../db/schema";
import type { PaymentRow } from "../payments/payments-db";

/** The child a companion is sold for, as D1 has it now. */
export interface ChildRow {
  id: string;
  registrationId: string | null;
  season: number;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  companion: number;
  paidBy: string | null;
  deregisteredAt: number | null;
}

export async function childRow(db: Db, id: string): Promise<ChildRow | null> {
  return db.$client
    .prepare(
      `SELECT id, registration_id AS registrationId, season, firstname, lastname, age, distance, companion,
         paid_by AS paidBy, deregistered_at AS deregisteredAt
       FROM participants WHERE id = ?1`,
    )
    .bind(id)
    .first<ChildRow>();
}

/** Payments of the box office that ended unpaid, naming the runner and made since `since`. */
const ENDED_UNPAID = `SELECT 1 FROM payments pay, json_each(pay.participant_ids) j
  WHERE pay.status IN ('DECLINED', 'ERROR', 'CANCELLED') AND pay.date_created >= ?2 AND pay.origin = 'kassa'
    AND j.value = p.id`;

/**
 * Who the family has now, and who is being sold to it at the box office: the registration's runners not
 * deregistered, and the box-office companions made since `since` that are to join it, not paid yet, whose payment
 * has not ended unpaid (waiting in Swish, or being written).
 */
export async function familyNames(
  db: Db,
  registrationId: string,
  since: number,
): Promise<{ id: string; firstname: string; lastname: string; pending: number }[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT p.id, p.firstname, p.lastname, 0 AS pending FROM participants p
         WHERE p.registration_id = ?1 AND p.deregistered_at IS NULL
       UNION ALL
       SELECT p.id, p.firstname, p.lastname, 1 AS pending FROM participants p
         WHERE p.joins_registration_id = ?1 AND p.registration_id IS NULL AND p.paid_by IS NULL
           AND p.created_at >= ?2 AND NOT EXISTS (${ENDED_UNPAID})`,
    )
    .bind(registrationId, since)
    .all<{ id: string; firstname: string; lastname: string; pending: number }>();
  return results;
}

export interface GuardInput {
  registrationId: string;
  childId: string;
  season: number;
  distance: string;
  adultAge: number;
  firstname: string;
  lastname: string;
  since: number;
}

/**
 * The first statement of the sale's batch: it aborts the batch (json('stale') is malformed JSON, which rolls back
 * everything in it) unless, at that moment, the child is still a paid, not deregistered, competing child of the
 * registration on the distance, and no runner of the family nor a companion being sold to it has the name (as
 * typed, trimmed, ASCII letters in any case; the page's check before it compares all letters in any case).
 */
export function saleGuard(db: Db, g: GuardInput) {
  const sameName = (alias: "f" | "p") =>
    sql`lower(trim(${sql.raw(alias)}.firstname)) = lower(trim(${g.firstname}))
      AND lower(trim(${sql.raw(alias)}.lastname)) = lower(trim(${g.lastname}))`;
  return db
    .select({
      ok: sql`json(CASE WHEN EXISTS (SELECT 1 FROM participants c WHERE c.id = ${g.childId}
          AND c.registration_id = ${g.registrationId} AND c.season = ${g.season} AND c.distance = ${g.distance}
          AND c.companion = 0 AND c.age < ${g.adultAge} AND c.paid_by IS NOT NULL AND c.deregistered_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM participants f WHERE f.registration_id = ${g.registrationId}
          AND f.deregistered_at IS NULL AND ${sameName("f")})
        AND NOT EXISTS (SELECT 1 FROM participants p WHERE p.joins_registration_id = ${g.registrationId}
          AND p.registration_id IS NULL AND p.paid_by IS NULL AND p.created_at >= ${g.since} AND ${sameName("p")}
          AND NOT EXISTS (SELECT 1 FROM payments pay, json_each(pay.participant_ids) j
            WHERE pay.status IN ('DECLINED', 'ERROR', 'CANCELLED') AND pay.date_created >= ${g.since}
              AND pay.origin = 'kassa' AND j.value = p.id))
      THEN '1' ELSE 'stale' END)`,
    })
    .from(registrations)
    .where(eq(registrations.id, g.registrationId));
}

/** The companion row a sale id names, if a sale with it was made. */
export async function saleRunner(db: Db, id: string) {
  return (await db.select().from(participants).where(eq(participants.id, id)).get()) ?? null;
}

/**
 * The payment of a box-office runner that is not paid (yet): made by the same request right after the row, so
 * between its creation and `until`.
 */
export async function unpaidSalePayment(
  db: Db,
  runnerId: string,
  from: number,
  until: number,
): Promise<PaymentRow | null> {
  const found = await db.$client
    .prepare(
      `SELECT pay.id FROM payments pay, json_each(pay.participant_ids) j
       WHERE pay.status IN ('CREATED', 'DECLINED', 'ERROR', 'CANCELLED') AND pay.date_created >= ?1
         AND pay.date_created <= ?2 AND pay.origin = 'kassa' AND j.value = ?3
       LIMIT 1`,
    )
    .bind(from, until, runnerId)
    .first<{ id: string }>();
  if (!found) return null;
  return (await db.select().from(payments).where(eq(payments.id, found.id)).get()) ?? null;
}

/** The e-mail of each registration in `ids` (the families box-office companions join). */
export async function familyEmails(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { results } = await db.$client
    .prepare("SELECT id, email FROM registrations WHERE id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: string; email: string }>();
  return new Map(results.map((r) => [r.id, r.email]));
}

/**
 * The admin overview of one season (`GET /admin/registrations`): every registration with its runners (deltagare),
 * its payments (swishtory) and their refunds. Four queries in one D1 batch, one per table, each served by an index
 * on the season (or the registration), so the answer costs the same four statements at 20 or 2,000 registrations.
 * Only the columns shown are read, as D1 hands them over (drizzle's row mapping cost as much again as the reads at
 * 2,000 registrations).
 * Registrations without runners are dropped (spec §4); box-office payments (no registration) are not part of it.
 */
import { isPaymentStatus, type PaymentRecord } from "../../shared/payment-protocol";
import type { DistanceKm } from "../../shared/season";
import {
  refundableAmount,
  type OverviewPayment,
  type OverviewRegistration,
  type OverviewRunner,
  type RefundRecord,
  type RefundStatus,
} from "../../shared/registrations-overview";
import type { Db } from "../db/client";
import type { RefundRow } from "../payments/refunds-db";

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The wire shape of one refund. */
export function refundRecord(row: RefundRow): RefundRecord {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status as RefundStatus,
    date: new Date(row.createdAt).toISOString(),
    datePaid: iso(row.datePaid),
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
  };
}

interface RegistrationCols {
  id: string;
  email: string;
  payid: string | null;
  created_at: number;
}
interface RunnerCols {
  id: string;
  registration_id: string;
  firstname: string;
  lastname: string;
  bib: number | null;
  company: string;
  distance: string;
  age: number;
  group: string;
  picked_up_at: number | null;
}
interface RefundCols {
  id: string;
  payid: string;
  amount: number;
  status: string;
  created_at: number;
  date_paid: number | null;
  error_code: string | null;
  error_message: string | null;
}
interface PaymentCols {
  id: string;
  registration_id: string;
  amount: number;
  currency: string;
  status: string;
  date_created: number;
  date_paid: number | null;
  payment_reference: string | null;
  payer_alias: string | null;
  error_code: string | null;
  error_message: string | null;
}

function refundFromCols(row: RefundCols): RefundRecord {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status as RefundStatus,
    date: new Date(row.created_at).toISOString(),
    datePaid: iso(row.date_paid),
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
}

/** A payment record (spec: a swishtory entry) with its refunds, what Swish has paid back and what is left. */
function payment(row: PaymentCols, refunds: RefundRecord[]): OverviewPayment {
  const record: PaymentRecord = {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: isPaymentStatus(row.status) ? row.status : "ERROR",
    dateCreated: new Date(row.date_created).toISOString(),
    datePaid: iso(row.date_paid),
    paymentReference: row.payment_reference,
    payerAlias: row.payer_alias,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
  return {
    ...record,
    refunds,
    refunded: refunds.reduce((sum, r) => (r.status === "PAID" ? sum + r.amount : sum), 0),
    refundable: refundableAmount(record, refunds),
  };
}

export async function seasonOverview(db: Db, season: number): Promise<OverviewRegistration[]> {
  const d1 = db.$client;
  const [regRows, runnerRows, paymentRows, refundRows] = await d1.batch<
    RegistrationCols | RunnerCols | PaymentCols | RefundCols
  >([
    d1.prepare(`SELECT id, email, payid, created_at FROM registrations WHERE season = ?1`).bind(season),
    d1
      .prepare(
        `SELECT id, registration_id, firstname, lastname, bib, company, distance, age, "group", picked_up_at
         FROM participants
         WHERE season = ?1 AND registration_id IS NOT NULL ORDER BY created_at, id`,
      )
      .bind(season),
    // Through the registrations, so box-office payments (no registration) are never read.
    d1
      .prepare(
        `SELECT id, registration_id, amount, currency, status, date_created, date_paid, payment_reference,
           payer_alias, error_code, error_message
         FROM payments WHERE registration_id IN (SELECT id FROM registrations WHERE season = ?1)
         ORDER BY date_created, id`,
      )
      .bind(season),
    d1
      .prepare(
        `SELECT id, payid, amount, status, created_at, date_paid, error_code, error_message FROM refunds
         WHERE season = ?1 ORDER BY created_at, id`,
      )
      .bind(season),
  ]);

  const runnersByRegistration = new Map<string, Record<string, OverviewRunner>>();
  for (const r of runnerRows!.results as RunnerCols[]) {
    let map = runnersByRegistration.get(r.registration_id);
    if (!map) runnersByRegistration.set(r.registration_id, (map = {}));
    map[r.id] = {
      id: r.id,
      firstname: r.firstname,
      lastname: r.lastname,
      bib: r.bib,
      company: r.company,
      distance: r.distance as DistanceKm,
      age: r.age,
      group: r.group,
      ...(r.picked_up_at !== null ? { pickedUpAt: r.picked_up_at } : {}),
    };
  }

  const refundsByPayment = new Map<string, RefundRecord[]>();
  for (const r of refundRows!.results as RefundCols[]) {
    const list = refundsByPayment.get(r.payid);
    if (list) list.push(refundFromCols(r));
    else refundsByPayment.set(r.payid, [refundFromCols(r)]);
  }

  const swishtories = new Map<string, Record<string, OverviewPayment>>();
  for (const p of paymentRows!.results as PaymentCols[]) {
    let history = swishtories.get(p.registration_id);
    if (!history) swishtories.set(p.registration_id, (history = {}));
    history[p.id] = payment(p, refundsByPayment.get(p.id) ?? []);
  }

  const list: OverviewRegistration[] = [];
  for (const r of regRows!.results as RegistrationCols[]) {
    const deltagare = runnersByRegistration.get(r.id);
    if (!deltagare) continue;
    list.push({
      id: r.id,
      email: r.email,
      payid: r.payid,
      createdAt: new Date(r.created_at).toISOString(),
      swishtory: swishtories.get(r.id) ?? {},
      deltagare,
    });
  }
  return list;
}

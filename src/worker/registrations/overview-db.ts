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
  type BoxOfficeSale,
  type OverviewPayment,
  type OverviewRegistration,
  type OverviewRunner,
  type RefundRecord,
  type RefundStatus,
} from "../../shared/registrations-overview";
import type { Db } from "../db/client";

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
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
  paid_by: string | null;
  paid_price: number | null;
  deregistered_at: number | null;
  picked_up_at: number | null;
  /** 1 for an adult running with a child without competing (shared/companion.ts). */
  companion?: number;
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
  kampanj: string | null;
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
    kampanj: row.kampanj,
    refunds,
    refunded: refunds.reduce((sum, r) => (r.status === "PAID" ? sum + r.amount : sum), 0),
    refundable: refundableAmount(record, refunds),
  };
}

function runnerFromCols(r: Omit<RunnerCols, "registration_id">): OverviewRunner {
  return {
    id: r.id,
    firstname: r.firstname,
    lastname: r.lastname,
    bib: r.bib,
    company: r.company,
    distance: r.distance as DistanceKm,
    age: r.age,
    group: r.group,
    paidBy: r.paid_by,
    price: r.paid_price,
    deregistered: iso(r.deregistered_at),
    ...(r.picked_up_at !== null ? { pickedUpAt: r.picked_up_at } : {}),
    ...(r.companion ? { companion: true as const } : {}),
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
        `SELECT id, registration_id, firstname, lastname, bib, company, distance, age, "group", paid_by, paid_price,
           deregistered_at, picked_up_at, companion
         FROM participants WHERE season = ?1 AND registration_id IS NOT NULL ORDER BY created_at, id`,
      )
      .bind(season),
    // Through the registrations, so box-office payments (no registration) are never read.
    d1
      .prepare(
        `SELECT id, registration_id, amount, currency, status, date_created, date_paid, payment_reference,
           payer_alias, error_code, error_message, kampanj
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
    map[r.id] = runnerFromCols(r);
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

type SaleCols = PaymentCols & {
  method: string;
  runner_id: string | null;
  firstname: string | null;
  lastname: string | null;
  bib: number | null;
  company: string | null;
  distance: string | null;
  age: number | null;
  group: string | null;
  paid_by: string | null;
  paid_price: number | null;
  deregistered_at: number | null;
  picked_up_at: number | null;
};

/**
 * The season's box-office sales, newest first: each payment of origin 'kassa' with the runner it signed up (its
 * one participant) and its refunds, so a Swish sale can be refunded (and its runner deregistered) from the admin
 * screens. Two statements in one batch on the season's indexes.
 */
export async function boxOfficeSales(db: Db, season: number): Promise<BoxOfficeSale[]> {
  const d1 = db.$client;
  const [saleRows, refundRows] = await d1.batch<SaleCols | RefundCols>([
    d1
      .prepare(
        `SELECT pay.id, pay.registration_id, pay.amount, pay.currency, pay.status, pay.date_created, pay.date_paid,
           pay.payment_reference, pay.payer_alias, pay.error_code, pay.error_message, pay.kampanj, pay.method,
           p.id AS runner_id, p.firstname, p.lastname, p.bib, p.company, p.distance, p.age, p."group", p.paid_by,
           p.paid_price, p.deregistered_at, p.picked_up_at
         FROM payments pay LEFT JOIN participants p ON p.id = pay.participant_ids ->> '$[0]'
         WHERE pay.season = ?1 AND pay.origin = 'kassa'
         ORDER BY pay.date_created DESC, pay.id`,
      )
      .bind(season),
    d1
      .prepare(
        `SELECT f.id, f.payid, f.amount, f.status, f.created_at, f.date_paid, f.error_code, f.error_message
         FROM refunds f JOIN payments pay ON pay.id = f.payid
         WHERE f.season = ?1 AND pay.origin = 'kassa' ORDER BY f.created_at, f.id`,
      )
      .bind(season),
  ]);
  const refundsByPayment = new Map<string, RefundRecord[]>();
  for (const r of refundRows!.results as RefundCols[]) {
    refundsByPayment.set(r.payid, [...(refundsByPayment.get(r.payid) ?? []), refundFromCols(r)]);
  }
  return (saleRows!.results as SaleCols[]).map((row) => ({
    payment: {
      ...payment(row, refundsByPayment.get(row.id) ?? []),
      method: row.method as BoxOfficeSale["payment"]["method"],
    },
    runner:
      row.runner_id === null
        ? null
        : runnerFromCols({
            id: row.runner_id,
            firstname: row.firstname ?? "",
            lastname: row.lastname ?? "",
            bib: row.bib,
            company: row.company ?? "",
            distance: row.distance ?? "",
            age: row.age ?? 0,
            group: row.group ?? "Ingen",
            paid_by: row.paid_by,
            paid_price: row.paid_price,
            deregistered_at: row.deregistered_at,
            picked_up_at: row.picked_up_at,
          }),
  }));
}

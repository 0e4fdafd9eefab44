/**
 * The registration as the family's page gets it (`GET /get`, and every answer that carries it): the spec's fields
 * (email, deltagare, payid, swishtory) with each runner's paid status and booked price, each payment's campaign
 * code and refunds (issue 24), and what step 3 needs to render without asking again.
 */
import { countAges } from "../../shared/age";
import { listTotal, orderPrices } from "../../shared/pricing";
import type { CampaignRule } from "../../shared/season";
import { CAMPAIGN_RULES, SEASON } from "../../shared/season";
import { isRegistrationOpen } from "../../shared/season-rules";
import {
  unpaidRunners,
  type FamilyPayment,
  type FamilyRefund,
  type RegistrationRunner,
  type Registration,
} from "../../shared/registration-view";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { campaignCodes, payments, refunds } from "../db/schema";
import { parseParticipantIds, paymentRecord, type PaymentRow } from "../payments/payments-db";
import { ensureCheckinCode } from "../db/checkin-db";
import { previousRunners, registrationRunners, type RegistrationRow, type StoredRunner } from "../db/registrations-db";

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

interface PaymentWithRule extends PaymentRow {
  /** The rule of the payment's campaign code (from campaign_codes), if it had one. */
  rule: string | null;
}

/** A registration's payments (oldest first) with their campaign rules, and their refunds; one D1 batch. */
async function paymentsAndRefunds(db: Db, registrationId: string) {
  const [paymentRows, refundRows] = await db.batch([
    db
      .select({ payment: payments, rule: campaignCodes.rule })
      .from(payments)
      .leftJoin(campaignCodes, eq(campaignCodes.code, payments.kampanj))
      .where(eq(payments.registrationId, registrationId))
      .orderBy(asc(payments.dateCreated), asc(payments.id)),
    db
      .select({ payid: refunds.payid, amount: refunds.amount, status: refunds.status, datePaid: refunds.datePaid })
      .from(refunds)
      .where(
        inArray(
          refunds.payid,
          db.select({ id: payments.id }).from(payments).where(eq(payments.registrationId, registrationId)),
        ),
      )
      .orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);
  const rows = paymentRows.map((r): PaymentWithRule => ({ ...r.payment, rule: r.rule }));
  const refundsByPayment = new Map<string, FamilyRefund[]>();
  for (const r of refundRows) {
    const refund: FamilyRefund = {
      amount: r.amount,
      status: r.status as FamilyRefund["status"],
      datePaid: iso(r.datePaid),
    };
    refundsByPayment.set(r.payid, [...(refundsByPayment.get(r.payid) ?? []), refund]);
  }
  return { rows, refundsByPayment };
}

function isCampaignRule(x: string | null): x is CampaignRule {
  return x !== null && (CAMPAIGN_RULES as readonly string[]).includes(x);
}

/**
 * A runner's booked price when the row has none: a payment made before prices were stored per runner. It is worked
 * out again from the payment (its runners, its campaign rule and the tier of the day it was made), and trusted only
 * when the shares add up to what was paid; otherwise it stays unknown (null).
 */
function derivedPrices(payment: PaymentWithRule, runners: readonly StoredRunner[]): Record<string, number> | null {
  // The runners it covered: as it named them, or (a payment that named none) those it paid for.
  const ids = parseParticipantIds(payment.participantIds);
  const byId = new Map(runners.map((r) => [r.id, r]));
  const covered =
    ids.length > 0
      ? ids.map((id) => byId.get(id)).filter((r): r is StoredRunner => r !== undefined)
      : runners.filter((r) => r.paidBy === payment.id);
  if (covered.length === 0 || (ids.length > 0 && covered.length !== ids.length)) return null;
  if (payment.kampanj !== null && !isCampaignRule(payment.rule)) return null;
  const prices = orderPrices(
    covered,
    payment.kampanj === null ? null : (payment.rule as CampaignRule),
    payment.dateCreated,
  );
  const sum = Object.values(prices).reduce((a, b) => a + b, 0);
  return sum === payment.amount ? prices : null;
}

export async function registrationView(
  db: Db,
  email: string,
  registration: RegistrationRow | null,
  now: number,
): Promise<Registration> {
  const open = isRegistrationOpen(now);
  const stored = registration ? await registrationRunners(db, registration.id) : [];
  const { rows, refundsByPayment } = registration
    ? await paymentsAndRefunds(db, registration.id)
    : { rows: [], refundsByPayment: new Map<string, FamilyRefund[]>() };

  const paymentsById = new Map(rows.map((p) => [p.id, p]));
  const derived = new Map<string, Record<string, number> | null>();
  const priceOf = (r: StoredRunner): number | null => {
    if (r.paidBy === null) return null;
    if (r.paidPrice !== null) return r.paidPrice;
    const payment = paymentsById.get(r.paidBy);
    if (!payment) return null;
    if (!derived.has(payment.id)) derived.set(payment.id, derivedPrices(payment, stored));
    return derived.get(payment.id)?.[r.id] ?? null;
  };
  const runners: RegistrationRunner[] = stored.map((r) => ({
    id: r.id,
    firstname: r.firstname,
    lastname: r.lastname,
    age: r.age,
    company: r.company,
    distance: r.distance,
    group: r.group,
    bib: r.bib,
    paidBy: r.paidBy,
    price: priceOf(r),
    deregistered: iso(r.deregisteredAt),
    ...(r.companion === true ? { companion: true as const } : {}),
  }));
  const swishtory: Record<string, FamilyPayment> = Object.fromEntries(
    rows.map((p) => [p.id, { ...paymentRecord(p), kampanj: p.kampanj, refunds: refundsByPayment.get(p.id) ?? [] }]),
  );
  // What a booking would charge now: the runners not paid yet, at today's tier.
  const counts = countAges(unpaidRunners(runners));
  return {
    email,
    deltagare: Object.fromEntries(runners.map((r) => [r.id, r])),
    payid: registration?.payid ?? null,
    swishtory,
    version: registration?.version ?? 0,
    // The list can no longer change (registration closed); while open, paid runners can be edited too.
    locked: !open,
    registrationOpen: open,
    season: SEASON.year,
    barn: counts.barn,
    vuxna: counts.vuxna,
    // Adults running with a child, priced apart at the season's companionPrice (shared/companion.ts).
    medBarn: counts.medBarn ?? 0,
    listPrice: listTotal(counts, now),
    // The QR for the bib desk once a runner is paid (made on first need, so older registrations get one too).
    checkinCode:
      registration && runners.some((r) => r.paidBy !== null && r.deregistered === null)
        ? await ensureCheckinCode(db, registration.id)
        : null,
    previousRunners: open ? await previousRunners(db, email, SEASON.year, runners) : [],
  };
}

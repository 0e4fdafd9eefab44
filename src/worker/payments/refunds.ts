/**
 * Refunds of Swish payments, asked for by an admin from the payment dialog (issue 8 item 2), through Swish's refund
 * API (adapters/swish.ts: v2 create, v1 retrieve; the development simulator implements both, RF08 included).
 *
 * States of a refund row (refunds-db.ts):
 *   CREATED ── Swish paid it back ──▶ PAID
 *      └────── Swish refused it, or it never reached Swish ──▶ ERROR
 * CREATED covers "being sent", "sent, Swish not done yet" (Swish's own CREATED and DEBITED) and "Swish's answer was
 * lost". A refund is settled once (`UPDATE … WHERE status = 'CREATED'`), by whichever comes first: the request
 * itself, a check (`checkRefund`: the dialog's "Kontrollera", a repeated request), or Swish's callback (only a hint,
 * the refund is re-fetched), or the cron's sweep (`reconcileRefunds`, every five minutes), so no refund stays open
 * because an answer or a callback was lost. The payment row itself is never changed by a refund.
 *
 * Invariants:
 * - The amount is whole kronor > 0, and the refunds of a payment that are not ERROR never add up to more than it:
 *   the row is written in one conditional INSERT that checks this, so two concurrent clicks cannot both pass.
 * - The row (with its Swish id) is written before Swish is called; one idempotency key (made by the dialog) is one
 *   refund: a repeated request with the key answers the first refund and calls Swish no second time.
 * - Only a paid Swish payment of more than 0 kr can be refunded (never a campaign order or a 0 kr order).
 * - Every refund asked for and every settlement is in the audit log ('refund.create', 'refund.settled').
 * - A refund may deregister runners of its payment ('Återbetala och avregistrera', payments/deregistration.ts): they
 *   are named on the row when it is written (checked: booked by that payment, not deregistered) and leave once the
 *   refund is PAID, by whoever sees it PAID first; a refund that ends ERROR deregisters nobody. With them it may
 *   take out the companions their leaving leaves without any child (`companions`, optional; shared/companion.ts),
 *   named on the same row: one booked by another payment at more than 0 kr is refunded from that payment by a
 *   refund of its own (this module, asked once this refund is PAID, with a key made of both), which deregisters it.
 *
 * Failure cases:
 * - unknown payment → 404; not paid → 409; campaign or 0 kr payment → 422; amount above what is left → 422 naming
 *   what is left; a runner to deregister that the payment did not book, or already deregistered → 422; a companion
 *   that is not one of the family's paid companions left without a child by this refund, or whose own payment
 *   cannot pay its price back → 422 naming it; key used for another payment, amount or runners → 409. Nothing is
 *   written for any of these.
 * - Swish refuses (a 4xx such as RF08, or the refund ends as ERROR) → the row is ERROR with Swish's code and text,
 *   the payment is as it was, and the answer is 422 with a Swedish message saying why.
 * - Swish does not answer (5xx, network, time-out) → the row stays CREATED (Swish may have it) and still counts
 *   against the amount; the answer is 502. A later check settles it from Swish, or as ERROR once it is clear that it
 *   never reached Swish (unknown to Swish after NEVER_REACHED_SWISH_AFTER_MS).
 */
import type { CompanionRefund, Deregistration } from "../../shared/api-answers";
import { swishClientFor, SwishError, type SwishRefund } from "../adapters/swish";
import { sameSecret } from "../lib/crypto";
import { audit } from "../db/audit";
import { database, type Db } from "../db/client";
import { findPayment } from "./payments-db";
import { checkCompanions, checkDeregistration, deregisterRefundRunners } from "./deregistration";
import {
  findRefund,
  findRefundByKey,
  insertRefundWithinPaid,
  listOpenRefunds,
  listUnfinishedDeregistrations,
  refundedOrPending,
  settleRefundRow,
  type RefundRow,
  type RefundSettlement,
} from "./refunds-db";
import { ApiError } from "../lib/errors";
import { newInstructionId, swishAmount, swishMessage } from "./payments";
import { isCampaignPayid } from "../../shared/campaign";
import type { Clock } from "../../shared/clock";
import { isSwishPaymentId } from "../../shared/payment-protocol";
import { SEASON } from "../../shared/season";

export const REFUND_MSG = {
  unknownPayment: "Betalningen finns inte.",
  unknownRefund: "Återbetalningen finns inte.",
  notPaid: "Bara en betald betalning kan återbetalas.",
  campaign: "En kampanjbetalning kan inte återbetalas: den gick inte genom Swish.",
  zero: "En betalning på 0 kr kan inte återbetalas.",
  noReference: "Betalningen gick inte genom Swish (den saknar Swish-referens) och kan inte återbetalas härifrån.",
  fullyRefunded: "Betalningen är redan helt återbetald.",
  keyReused: "Den här återbetalningen gjordes redan med andra uppgifter. Stäng dialogen och börja om.",
  noAnswer:
    "Swish svarade inte. Återbetalningen är registrerad och kontrolleras mot Swish; gör ingen ny förrän den är klar.",
} as const;

export function tooMuchMessage(left: number): string {
  return left <= 0 ? REFUND_MSG.fullyRefunded : `Beloppet är större än vad som finns kvar att återbetala (${left} kr).`;
}

/** What Swish's refund error codes mean, for the admin (reference/swish.md §3). */
const SWISH_REFUND_REASONS: Record<string, string> = {
  RF08: "beloppet är större än vad som finns kvar av den ursprungliga betalningen efter tidigare återbetalningar",
  RF02: "Swish hittar inte den ursprungliga betalningen, eller så är den äldre än 13 månader",
  RF03: "Swish-numret stämmer inte med betalningens mottagare",
  RF07: "banken avvisade återbetalningen",
  FF10: "fel i bankens system",
  PA02: "beloppet är ogiltigt",
  AM03: "valutan är ogiltig",
  RP01: "Swish-numret saknas eller är ogiltigt",
  RP02: "meddelandet är ogiltigt",
  RP03: "callback-adressen är ogiltig",
  RP04: "en återbetalning med samma id finns redan",
};

/** Our code for a refund Swish never received (a create call lost on the way). */
export const NOT_AT_SWISH = "NOT_AT_SWISH";

export function refusalMessage(code: string | null): string {
  if (code === NOT_AT_SWISH) return "Återbetalningen nådde aldrig Swish. Betalningen är oförändrad; gör en ny.";
  const reason = code ? SWISH_REFUND_REASONS[code] : undefined;
  const tail = code ? ` (${code})` : "";
  return reason
    ? `Swish nekade återbetalningen: ${reason}${tail}. Betalningen är oförändrad.`
    : `Swish nekade återbetalningen${tail}. Betalningen är oförändrad.`;
}

/** A refund this old that Swish has never heard of was cut off before it reached Swish (the client gives up at 10 s). */
const NEVER_REACHED_SWISH_AFTER_MS = 2 * 60_000;
/** After the create, how long the request waits for Swish to finish (it takes seconds; the simulator none). */
const SETTLE_WAITS_MS = [0, 400, 800, 1600];

export interface RefundRequest {
  payid: string;
  /** Whole kronor. */
  amount: number;
  idempotencyKey: string;
  /** The admin's e-mail. */
  admin: string;
  /** The site's origin as the browser sees it (development callbacks go there). */
  requestOrigin: string;
  /** Runners of the payment to deregister once the refund is PAID ('Återbetala och avregistrera'). */
  deregister?: string[];
  /** Companions of the family these runners leave without a child, to take out too ('Ta också bort …'). */
  companions?: string[];
}

/** The runners a request names for the refund row: its runners and companions, once each, sorted. */
function namedRunners(req: RefundRequest): string[] {
  return [...new Set([...(req.deregister ?? []), ...(req.companions ?? [])])].sort();
}

export interface RefundResult {
  refund: RefundRow;
  /** True when the key had been used already and this is the first request's refund. */
  repeated: boolean;
  /** What the refund's deregistration did, once the refund is PAID; null when it deregisters nobody or is not PAID. */
  deregistration: Deregistration | null;
}

/** Asks Swish to refund part or all of a paid payment; see the module comment for every outcome. */
export async function requestRefund(env: Env, clock: Clock, req: RefundRequest): Promise<RefundResult> {
  const db = database(env.DB);
  if (!Number.isInteger(req.amount) || req.amount <= 0) throw new ApiError(400, "Ange beloppet i hela kronor.");

  const earlier = await findRefundByKey(db, req.idempotencyKey);
  if (earlier) return withDeregistration(env, clock, await repeated(env, clock, earlier, req), true);

  const payment = await findPayment(db, req.payid);
  if (!payment) throw new ApiError(404, REFUND_MSG.unknownPayment);
  if (isCampaignPayid(payment.id)) throw new ApiError(422, REFUND_MSG.campaign);
  if (payment.status !== "PAID") throw new ApiError(409, REFUND_MSG.notPaid);
  if (payment.amount === 0) throw new ApiError(422, REFUND_MSG.zero);
  if (!isSwishPaymentId(payment.id) || !payment.paymentReference) throw new ApiError(422, REFUND_MSG.noReference);
  const runners = await checkDeregistration(db, payment.id, req.deregister ?? []);
  const companions = await checkCompanions(db, payment, runners, req.companions ?? []);
  const deregister = [...new Set([...runners, ...companions])].sort();

  const now = clock.now();
  const id = newInstructionId();
  const callbackIdentifier = crypto.randomUUID();
  const row = await insertRefundWithinPaid(db, {
    id,
    payid: payment.id,
    amount: req.amount,
    idempotencyKey: req.idempotencyKey,
    callbackIdentifier,
    createdBy: req.admin,
    createdAt: now,
    deregister,
  });
  if (!row) {
    // A concurrent request with the same key got there first: that one is the refund.
    const winner = await findRefundByKey(db, req.idempotencyKey);
    if (winner) return withDeregistration(env, clock, await repeated(env, clock, winner, req), true);
    const left = payment.amount - (await refundedOrPending(db, payment.id));
    throw new ApiError(422, tooMuchMessage(left), { amount: tooMuchMessage(left) });
  }
  await audit(
    db,
    {
      actor: req.admin,
      action: "refund.create",
      subject: payment.id,
      detail: { refund: id, amount: req.amount, idempotencyKey: req.idempotencyKey, deregister },
    },
    now,
  );

  // Production always names its public origin; development follows the browser (its port may vary).
  const callbackUrl = new URL(
    "/swish/callback/refund",
    env.DEV_MODE === "true" ? req.requestOrigin : env.PUBLIC_ORIGIN,
  );
  const message = swishMessage(`Återbetalning ${SEASON.siteName}`);
  try {
    await swishClientFor(env).createRefund(id, {
      originalPaymentReference: payment.paymentReference,
      callbackUrl: callbackUrl.toString(),
      callbackIdentifier,
      payerAlias: payment.payeeAlias ?? env.SWISH_PAYEE_ALIAS,
      payerPaymentReference: id,
      amount: swishAmount(req.amount),
      currency: "SEK",
      ...(message ? { message } : {}),
    });
  } catch (err) {
    const refused = err instanceof SwishError && err.status >= 400 && err.status < 500;
    if (!refused) {
      // Swish may hold it anyway: the row stays CREATED (and counts) until a check finds out.
      console.error("swish refund create unanswered", id, err instanceof Error ? err.message : err);
      throw new ApiError(502, REFUND_MSG.noAnswer);
    }
    const code = err.code;
    await settle(db, row, refusal(code, err.errors[0]?.errorMessage ?? err.message, clock.now()), "create", clock);
    throw new ApiError(422, refusalMessage(code));
  }

  let current = row;
  for (const wait of SETTLE_WAITS_MS) {
    if (wait > 0) await sleep(wait);
    current = await checkRefund(env, clock, id, "request");
    if (current.status !== "CREATED") break;
  }
  if (current.status === "ERROR") throw new ApiError(422, refusalMessage(current.errorCode));
  return withDeregistration(env, clock, current, false);
}

/** The result with the refund's deregistration, done now if it is PAID and was not done yet. */
async function withDeregistration(env: Env, clock: Clock, refund: RefundRow, repeat: boolean): Promise<RefundResult> {
  return { refund, repeated: repeat, deregistration: await deregistrationOf(env, clock, refund) };
}

/**
 * The refund's deregistration once it is PAID (idempotent). A race object out of reach is logged, not thrown: the
 * refund stands, the answer says nothing was deregistered yet, and the cron finishes it.
 */
export async function deregistrationOf(env: Env, clock: Clock, refund: RefundRow): Promise<Deregistration | null> {
  try {
    return await deregisterRefundRunners(env, clock, refund, (c) => refundCompanion(env, clock, refund, c));
  } catch (err) {
    console.error("deregistering a refund's runners failed; the cron tries again", refund.id, err);
    return null;
  }
}

/**
 * A companion booked by another payment, taken out with the refund `from` (payments/deregistration.ts): its booked
 * price refunded from its own payment, which deregisters it once PAID. One key per refund and companion
 * (deregistration.ts companionRefundKey), so the step run again (a check, the cron) finds this refund instead of
 * asking Swish twice. Swish refusing it is answered as a value (the companion stays registered); a lost answer
 * leaves the refund CREATED for the cron to settle.
 */
async function refundCompanion(
  env: Env,
  clock: Clock,
  from: RefundRow,
  c: { id: string; payid: string; amount: number; key: string },
): Promise<CompanionRefund> {
  const idempotencyKey = c.key;
  try {
    const { refund } = await requestRefund(env, clock, {
      payid: c.payid,
      amount: c.amount,
      idempotencyKey,
      admin: from.createdBy,
      // No browser asked for this one: Swish's callback goes to the site's own address (it is only a hint).
      requestOrigin: env.PUBLIC_ORIGIN,
      deregister: [c.id],
    });
    return { id: c.id, refund: refund.id, amount: c.amount, status: refund.status as CompanionRefund["status"] };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const row = await findRefundByKey(database(env.DB), idempotencyKey);
    if (err.status === 502) return { id: c.id, refund: row?.id ?? null, amount: c.amount, status: "CREATED" };
    return { id: c.id, refund: row?.id ?? null, amount: c.amount, status: "ERROR", error: err.message };
  }
}

/** The first refund of a key, re-checked at Swish while open; a key sent again with other details is refused. */
async function repeated(env: Env, clock: Clock, earlier: RefundRow, req: RefundRequest): Promise<RefundRow> {
  const deregister = JSON.stringify(namedRunners(req));
  if (earlier.payid !== req.payid || earlier.amount !== req.amount || earlier.deregister !== deregister) {
    throw new ApiError(409, REFUND_MSG.keyReused);
  }
  return earlier.status === "CREATED" ? checkRefund(env, clock, earlier.id, "repeat") : earlier;
}

function refusal(code: string | null, text: string, now: number): RefundSettlement {
  return {
    status: "ERROR",
    datePaid: null,
    paymentReference: null,
    errorCode: code,
    errorMessage: text.slice(0, 500),
    settledAt: now,
  };
}

export type RefundCheckSource = "request" | "repeat" | "check" | "callback" | "cron";

/**
 * Re-fetches an open (CREATED) refund from Swish and settles it when Swish is done with it. Never throws for
 * Swish trouble: the refund stays CREATED and the next check tries again. Answers the row as it now is.
 */
export async function checkRefund(env: Env, clock: Clock, id: string, source: RefundCheckSource): Promise<RefundRow> {
  const db = database(env.DB);
  const row = await findRefund(db, id);
  if (!row) throw new ApiError(404, REFUND_MSG.unknownRefund);
  if (row.status !== "CREATED") return row;

  let remote: SwishRefund | null;
  try {
    remote = await swishClientFor(env).retrieveRefund(id);
  } catch (err) {
    console.warn("swish refund retrieve failed", id, source, err instanceof Error ? err.message : err);
    return row;
  }
  const now = clock.now();
  if (!remote) {
    if (now - row.createdAt < NEVER_REACHED_SWISH_AFTER_MS) return row;
    return settle(db, row, refusal(NOT_AT_SWISH, "Återbetalningen nådde aldrig Swish.", now), source, clock);
  }
  if (remote.status === "PAID") {
    if (Math.round(remote.amount * 100) !== row.amount * 100 || remote.currency !== "SEK") {
      // Swish reports another refund than ours: settle nothing, tell the organiser once per check.
      console.error("swish refund does not match ours", id, remote.amount, remote.currency);
      return row;
    }
    const paidAt = remote.datePaid ? Date.parse(remote.datePaid) : Number.NaN;
    const paid = await settle(
      db,
      row,
      {
        status: "PAID",
        datePaid: Number.isNaN(paidAt) ? now : paidAt,
        paymentReference: remote.paymentReference,
        errorCode: null,
        errorMessage: null,
        settledAt: now,
      },
      source,
      clock,
    );
    await deregistrationOf(env, clock, paid);
    return paid;
  }
  if (remote.status === "ERROR") {
    return settle(db, row, refusal(remote.errorCode, remote.errorMessage ?? "", now), source, clock);
  }
  return row;
}

/**
 * The one settling write; only its winner writes the audit line. Answers the row as stored afterwards. (A PAID
 * refund's deregistration is run by checkRefund, which has the environment the race objects need.)
 */
async function settle(
  db: Db,
  row: RefundRow,
  s: RefundSettlement,
  source: RefundCheckSource | "create",
  clock: Clock,
): Promise<RefundRow> {
  if (await settleRefundRow(db, row.id, s)) {
    await audit(
      db,
      {
        actor: "system",
        action: "refund.settled",
        subject: row.payid,
        detail: { refund: row.id, status: s.status, amount: row.amount, source, errorCode: s.errorCode },
      },
      clock.now(),
    );
  }
  return (await findRefund(db, row.id)) ?? row;
}

/** How many open refunds one cron run checks with Swish (oldest first; the next run takes the rest). */
const RECONCILE_BATCH = 50;

/** How far back the cron looks for a PAID refund whose deregistration was cut off. */
const DEREGISTRATION_REPAIR_MS = 30 * 24 * 60 * 60_000;

/**
 * The cron's sweep: every refund still open is checked with Swish, and a PAID refund whose deregistration was cut
 * off half-way (a race object out of reach) is finished. Answers how many refunds it settled.
 */
export async function reconcileRefunds(env: Env, clock: Clock): Promise<number> {
  let settled = 0;
  const db = database(env.DB);
  for (const open of await listOpenRefunds(db, RECONCILE_BATCH)) {
    if ((await checkRefund(env, clock, open.id, "cron")).status !== "CREATED") settled++;
  }
  for (const unfinished of await listUnfinishedDeregistrations(db, clock.now() - DEREGISTRATION_REPAIR_MS, 20)) {
    await deregistrationOf(env, clock, unfinished);
  }
  return settled;
}

/** Swish's refund callback: only a hint. True when the identifier matched and the refund was checked. */
export async function refundCallback(env: Env, clock: Clock, id: string, identifier: string): Promise<boolean> {
  const row = await findRefund(database(env.DB), id);
  if (!row || !(await sameSecret(identifier, row.callbackIdentifier))) return false;
  if (row.status === "CREATED") await checkRefund(env, clock, id, "callback");
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

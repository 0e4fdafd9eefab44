/**
 * The payment lifecycle (DESIGN.md §7, reference/swish.md §4): start a Swish payment, settle it exactly once,
 * and do what a paid registration needs (runners into their races, the receipt e-mail).
 *
 * A payment is written as CREATED before Swish hears of it. Three settlers race to finish it: the Swish callback
 * (only a hint: unsigned, so the payment is re-fetched from Swish), the payment Durable Object's poll while a
 * page waits, and the cron sweep. Whoever wins the one conditional write does the after-payment work; the others
 * do nothing. The after-payment steps are recorded in the audit log, so the cron can finish one a crash cut off.
 */
import { markCompanionsPickedUp } from "../db/checkin-db";
import { campaignPayid, payidForLog } from "../../shared/campaign";
import { clockFromSettings, type Clock } from "../../shared/clock";
import {
  isSettledStatus,
  isSwishPaymentId,
  type PaymentStatus,
  type SettledStatus,
} from "../../shared/payment-protocol";
import { SEASON } from "../../shared/season";
import { emailSender } from "../adapters/email";
import { swishClientFor, SwishError, type SwishPayment } from "../adapters/swish";
import { randomHex, sha256Hex } from "../lib/crypto";
import { audit, auditOnce } from "../db/audit";
import { database, type Db } from "../db/client";
import { participantsByIds } from "../db/participants-db";
import {
  findPayment,
  hasAuditStep,
  insertOrderPayment,
  insertPayment,
  insertPaymentOnce,
  listCreatedSwishPayments,
  listOpenSwishPayments,
  listPaidNeedingFollowUp,
  parseParticipantIds,
  selectRegistrationPayment,
  settlePaymentRow,
  storePaymentToken,
  type NewPaymentRow,
  type PaymentRow,
  type Settlement,
} from "./payments-db";
import { builtinCampaigns } from "../campaigns/builtin-campaigns";
import { ensureCampaignRow } from "../campaigns/campaigns-db";
import { findRegistrationById } from "../db/registrations-db";
import { receiptEmail } from "./receipt-email";
import { ensureCheckinCode } from "../db/checkin-db";
import { ApiError } from "../lib/errors";
import { addParticipantsToRaces } from "../race-day/race-runners";

export const SWISH_FAILED = "Swish svarade inte som väntat. Försök igen om en stund.";
/** A payment the family was about to replace or withdraw turned out to be paid just now. */
export const ALREADY_PAID =
  "En betalning gick igenom just nu. Sidan visar nu vad som är betalt – gör din ändring igen om den behövs.";
export const PAYMENT_RACE = "En annan betalning startades samtidigt. Ladda om sidan.";
export const RUNNERS_CHANGED = "Listan ändrades samtidigt i ett annat fönster. Ladda om sidan och försök igen.";
export const CAMPAIGN_INVALID = "Kampanjkoden gäller inte. Ta bort den eller skriv en annan.";
export const TOO_MANY_ATTEMPTS = `För många betalningsförsök för den här anmälan. Skriv till ${SEASON.contactEmail} så hjälper vi dig.`;

/** Audit actions that mark the after-payment steps as done (the cron redoes a missing one). */
export const RUNNERS_ADDED = "payment.runners-added";
export const RECEIPT_SENT = "payment.receipt-sent";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Longer than any create call can take (the Swish client gives up after 10 s): a payment row this old that
 * Swish has never heard of and that got no token was cut off before it reached Swish. */
const NEVER_REACHED_SWISH_AFTER_MS = 2 * MINUTE;

export interface StartSwishPaymentInput {
  registrationId: string | null;
  season: number;
  /** Whole kronor, > 0. */
  amount: number;
  barn: number;
  vuxna: number;
  kampanj: string | null;
  participantIds: string[];
  /** Each covered runner's share of `amount` (shared/pricing.ts orderPrices); '{}' when not given. */
  runnerPrices?: Record<string, number>;
  origin: "registration" | "kassa";
  /** Shown to the payer in the Swish app; cut to Swish's 50 characters and safe character set. */
  message: string;
  /** The site's origin as the browser sees it (development callbacks go there). */
  requestOrigin: string;
  /**
   * What the caller read before deciding what to charge: the registration's payid and version. The new payment
   * only becomes the registration's payment if neither changed meanwhile (another tab booking, or a runner
   * save); otherwise it is never written and the call fails with 409. Read here when not given.
   */
  expected?: { payid: string | null; version: number };
}

/** A Swish instruction id: 32 upper-case hex (reference/swish.md §1). It is also our payid. */
export function newInstructionId(): string {
  return randomHex(16).toUpperCase();
}

/** Whole kronor as Swish's amount string: 150 → "150.00". */
export function swishAmount(kronor: number): string {
  return `${kronor}.00`;
}

const SWISH_MESSAGE_CHARS = /[^a-zA-Z0-9åäöÅÄÖ:;.,?!()" ]/g;
const TRANSLITERATE: Record<string, string> = { é: "e", è: "e", ü: "u", æ: "ä", ø: "ö", "–": " ", "-": " " };

/** Swish's message: at most 50 characters of the old, always-accepted set (others become spaces or go). */
export function swishMessage(text: string): string {
  return text
    .replace(/[éèüæø–-]/g, (ch) => TRANSLITERATE[ch] ?? " ")
    .replace(SWISH_MESSAGE_CHARS, "")
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, 50)
    .trim();
}

/**
 * Creates the payment row (CREATED), makes it the registration's payid, then asks Swish for an m-commerce
 * payment request. Returns the payid and Swish's token (the QR encodes "D" + token).
 *
 * One live payment per registration: open ones are withdrawn first, and the new row is only written, together
 * with its campaign code's use and as the registration's payid, while payid and version are as the caller read
 * them (writeOrder, the guard a free order takes too). Of two tabs booking at the same moment, or a free order and
 * a Swish booking, only one is written; the other never reaches Swish.
 */
export async function startSwishPayment(
  env: Env,
  clock: Clock,
  input: StartSwishPaymentInput,
): Promise<{ payid: string; token: string }> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new ApiError(400, "Ogiltigt belopp.");
  const db = database(env.DB);
  let expected = input.expected;
  if (input.registrationId) {
    if (!expected) {
      const registration = await findRegistrationById(db, input.registrationId);
      expected = { payid: registration?.payid ?? null, version: registration?.version ?? 0 };
    }
    await withdrawOpenPayments(env, db, input.registrationId, expected.payid);
  }
  const payid = newInstructionId();
  const callbackIdentifier = crypto.randomUUID();
  const now = clock.now();
  const message = swishMessage(input.message);
  // Production always names its public origin; development follows the browser (its port may vary).
  const callbackUrl = new URL("/swish/callback", env.DEV_MODE === "true" ? input.requestOrigin : env.PUBLIC_ORIGIN);

  const row = {
    id: payid,
    registrationId: input.registrationId,
    season: input.season,
    origin: input.origin,
    amount: input.amount,
    currency: "SEK",
    status: "CREATED",
    dateCreated: now,
    payeeAlias: env.SWISH_PAYEE_ALIAS,
    callbackIdentifier,
    payeePaymentReference: payid,
    message,
    kampanj: input.kampanj,
    barn: input.barn,
    vuxna: input.vuxna,
    participantIds: JSON.stringify(input.participantIds),
    runnerPrices: JSON.stringify(input.runnerPrices ?? {}),
  };
  if (input.registrationId && expected) {
    // Another booking (free or Swish) or a runner save that got in between means this one never reaches Swish.
    await writeOrder(env, db, { ...row, registrationId: input.registrationId }, expected, now);
  } else {
    await insertPayment(db, row);
  }

  try {
    const { token } = await swishClientFor(env).createPaymentRequest(payid, {
      payeePaymentReference: payid,
      callbackUrl: callbackUrl.toString(),
      callbackIdentifier,
      payeeAlias: env.SWISH_PAYEE_ALIAS,
      amount: swishAmount(input.amount),
      currency: "SEK",
      ...(message ? { message } : {}),
    });
    if (!token) throw new SwishError(201, [], "Swish answered 201 without a PaymentRequestToken");
    await storePaymentToken(db, payid, token);
    return { payid, token };
  } catch (err) {
    const code = err instanceof SwishError ? err.code : "INTERNAL";
    const text = err instanceof Error ? err.message : String(err);
    console.error("swish create failed", payid, text);
    // Settled here first, so nothing (a callback, a poll) can settle it as anything else; the family can book
    // again at once.
    await settlePaymentRow(db, payid, unpaidSettlement("ERROR", code, text.slice(0, 500), clock.now()));
    // Without a clear refusal (4xx) Swish may hold the request anyway: it answered 201 without a token, or the
    // answer was lost (5xx, timeout, network). Withdraw it there too; a refusal of that is the expected outcome.
    const refused = err instanceof SwishError && err.status >= 400 && err.status < 500;
    if (!refused) {
      await swishClientFor(env)
        .cancelPaymentRequest(payid)
        .catch((cancelErr: unknown) => console.warn("withdrawing a failed create at Swish", payid, cancelErr));
    }
    await audit(db, { actor: "system", action: "payment.create-failed", subject: payid, detail: { code } }, now);
    throw new ApiError(502, SWISH_FAILED);
  }
}

/** The end of a payment that moved no money, decided here rather than read from Swish. */
function unpaidSettlement(
  status: Exclude<SettledStatus, "PAID">,
  errorCode: string | null,
  errorMessage: string,
  settledAt: number,
): Settlement {
  return { status, datePaid: null, paymentReference: null, payerAlias: null, errorCode, errorMessage, settledAt };
}

/** Settles a payment Swish never heard of as CANCELLED here, so it can never be paid or block anything. */
async function withdrawLocally(db: Db, payid: string, why: string, clock: Clock): Promise<void> {
  await settlePaymentRow(db, payid, unpaidSettlement("CANCELLED", null, why, clock.now()));
}

/**
 * One open payment per registration: a QR shown earlier (another tab, an older runner list) could otherwise be
 * paid as well, for runners that are no longer the ones stored. Every open Swish payment is withdrawn at Swish
 * and settled here; nothing may go on while one is still open. Throws 409 ALREADY_PAID when one turns out to
 * be paid, 409 PAYMENT_RACE when one is still being created by another request, and 502 when Swish could not
 * be asked (the payment stays open and the caller changes nothing). Returns how many were withdrawn.
 *
 * `readPayid` is the registration's payid as the caller read it. A payment selected since then was booked after
 * that read by another request (a tab, a free order) that won: the caller's own write will be refused, so it must
 * not withdraw the winner's payment on its way out. That is a 409 PAYMENT_RACE before anything is withdrawn.
 */
export async function withdrawOpenPayments(
  env: Env,
  db: Db,
  registrationId: string,
  readPayid?: string | null,
): Promise<number> {
  const { open: openPayments, selected } = await listOpenSwishPayments(db, registrationId);
  if (readPayid !== undefined && selected !== readPayid && openPayments.some((p) => p.id === selected)) {
    throw new ApiError(409, PAYMENT_RACE);
  }
  let withdrawn = 0;
  let paid = false;
  let creating = false;
  let unanswered = false;
  for (const open of openPayments) {
    const result = await cancelSwishPayment(env, open.id);
    if (result.status === "PAID") paid = true;
    else if (result.status !== "CREATED") withdrawn++;
    else {
      if ((await findPayment(db, open.id))?.token) unanswered = true;
      else creating = true;
    }
  }
  if (paid) throw new ApiError(409, ALREADY_PAID);
  if (creating) throw new ApiError(409, PAYMENT_RACE);
  if (unanswered) throw new ApiError(502, SWISH_FAILED);
  return withdrawn;
}

export interface FreePaymentInput {
  registrationId: string | null;
  season: number;
  /**
   * The campaign code that makes the order free; null for an order free without one (only adults running with a
   * child at a companionPrice of 0 kr, shared/companion.ts): its payid then says MEDBARN where the code would be,
   * and no code's use is claimed.
   */
  kampanj: string | null;
  barn: number;
  vuxna: number;
  participantIds: string[];
  /** Each covered runner's share (0 kr each for a free order); '{}' when not given. */
  runnerPrices?: Record<string, number>;
  /**
   * The registration's payid and version as its runners and price were read; the order is refused (409) if either
   * changed since: the same guard a Swish booking takes, so a free order and a Swish booking made at the same
   * moment can never both be written.
   */
  expected?: { payid: string | null; version: number };
}

/**
 * Writes an order's payment through the one guard both kinds of order take (payments-db.ts insertOrderPayment),
 * claiming its campaign code's use in the same transaction; throws the answer for each refusal.
 */
async function writeOrder(
  env: Env,
  db: Db,
  row: NewPaymentRow & { registrationId: string },
  expected: { payid: string | null; version: number },
  now: number,
): Promise<"inserted" | "existed"> {
  if (row.kampanj) await ensureCampaignRow(db, row.kampanj, now, builtinCampaigns(env));
  const result = await insertOrderPayment(db, row, expected, now);
  switch (result) {
    case "inserted":
    case "existed":
      return result;
    case "stale": {
      const current = await findRegistrationById(db, row.registrationId);
      throw new ApiError(409, current && current.version !== expected.version ? RUNNERS_CHANGED : PAYMENT_RACE);
    }
    case "campaign":
      throw new ApiError(400, CAMPAIGN_INVALID, { kampanj: CAMPAIGN_INVALID });
    case "attempts":
      throw new ApiError(429, TOO_MANY_ATTEMPTS);
  }
}

/**
 * An order a campaign code makes free: a PAID payment of 0 kr with payid `kampanj_<CODE>_<tail>`. The tail comes
 * from the registration and its runners, so booking the same runners again returns the same payid and does
 * nothing twice.
 */
/** The payid's label of a 0 kr order of companions only (no campaign code). */
export const FREE_COMPANIONS_LABEL = "MEDBARN";

export async function recordFreePayment(env: Env, clock: Clock, input: FreePaymentInput): Promise<string> {
  const db = database(env.DB);
  if (input.registrationId) await withdrawOpenPayments(env, db, input.registrationId, input.expected?.payid);
  const owner = input.registrationId ?? crypto.randomUUID();
  const tail = (await sha256Hex(`${input.season}|${owner}|${[...input.participantIds].sort().join(",")}`)).slice(0, 16);
  const payid = campaignPayid(input.kampanj ?? FREE_COMPANIONS_LABEL, tail);
  const now = clock.now();
  const row = {
    id: payid,
    registrationId: input.registrationId,
    season: input.season,
    origin: "registration",
    amount: 0,
    currency: "SEK",
    status: "PAID",
    dateCreated: now,
    datePaid: now,
    settledAt: now,
    kampanj: input.kampanj,
    barn: input.barn,
    vuxna: input.vuxna,
    participantIds: JSON.stringify(input.participantIds),
    runnerPrices: JSON.stringify(input.runnerPrices ?? {}),
  };
  let inserted: boolean;
  if (input.registrationId && input.expected) {
    inserted =
      (await writeOrder(env, db, { ...row, registrationId: input.registrationId }, input.expected, now)) === "inserted";
  } else {
    inserted = await insertPaymentOnce(db, row);
    if (input.registrationId) await selectRegistrationPayment(db, input.registrationId, payid, now);
  }
  if (inserted) {
    await audit(db, { actor: "system", action: "payment.settled", subject: payid, detail: { status: "PAID" } }, now);
    await afterPaid(env, payid, clock);
  }
  return payid;
}

export type SettleSource = "callback" | "poll" | "cron" | "cancel";

export interface SettleResult {
  /** True only for the one call whose write settled the payment. */
  settled: boolean;
  /** The payment's status after the call; UNKNOWN when there is no such payment. */
  status: PaymentStatus | "UNKNOWN";
  /** Swish reports a payment that does not match ours (amount, currency, payee, id): nothing was settled. */
  mismatch?: string[];
  /** Swish answered that it does not know the payment (it never got there, or not yet). */
  unknownToSwish?: boolean;
}

export interface SettleOptions {
  clock?: Clock;
  /**
   * 'caller': the settlement tells no payment object, because the caller is the payment's own object (its poll,
   * src/worker/objects/object-services.ts), which answers its waiting page from the result. Otherwise the winner of the
   * settlement tells the payment object, which answers the page.
   */
  notify?: "payment-object" | "caller";
  /**
   * Where what a PAID payment leads to (afterPaid: runners into races, the receipt) goes instead of being awaited
   * before the answer: a waitUntil. Its failures are logged; the cron's repair does what is missing.
   */
  afterAnswer?: (work: Promise<void>) => void;
}

/** What Swish says that differs from what we asked for; any difference means we settle nothing. */
function mismatches(row: PaymentRow, remote: SwishPayment, payeeAlias: string): string[] {
  const problems: string[] = [];
  if (remote.id.toUpperCase() !== row.id) problems.push("id");
  if (Math.round(remote.amount * 100) !== row.amount * 100) problems.push("amount");
  if (remote.currency !== row.currency) problems.push("currency");
  if (remote.payeeAlias !== (row.payeeAlias ?? payeeAlias)) problems.push("payeeAlias");
  return problems;
}

function parseSwishDate(x: string | null): number | null {
  if (!x) return null;
  const ms = Date.parse(x);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Re-fetches the payment from Swish and, if Swish has finished it and it matches ours, settles it with the one
 * conditional write. Only the winner of that write notifies the waiting page and (on PAID) runs afterPaid.
 * Never throws for Swish trouble: the payment stays CREATED and the next poll or cron tries again.
 */
export async function settlePayment(
  env: Env,
  payid: string,
  source: SettleSource,
  options: SettleOptions = {},
): Promise<SettleResult> {
  const db = database(env.DB);
  const clock = options.clock ?? clockFromSettings(env);
  const row = await findPayment(db, payid);
  if (!row) return { settled: false, status: "UNKNOWN" };
  if (row.status !== "CREATED" || !isSwishPaymentId(row.id))
    return { settled: false, status: row.status as PaymentStatus };

  let remote: SwishPayment | null;
  try {
    remote = await swishClientFor(env).retrievePaymentRequest(payid);
  } catch (err) {
    console.warn("swish retrieve failed", payid, source, err instanceof Error ? err.message : err);
    return { settled: false, status: "CREATED" };
  }
  if (!remote) return { settled: false, status: "CREATED", unknownToSwish: true };
  if (!isSettledStatus(remote.status)) return { settled: false, status: "CREATED" };

  const problems = mismatches(row, remote, env.SWISH_PAYEE_ALIAS);
  if (problems.length) {
    console.error("swish payment does not match ours; not settled", payid, source, problems);
    // One audit line per payment is enough for the organiser; polls and sweeps keep finding the same thing.
    await auditOnce(
      db,
      {
        actor: "system",
        action: "payment.mismatch",
        subject: payid,
        detail: {
          source,
          problems,
          swish: {
            status: remote.status,
            amount: remote.amount,
            currency: remote.currency,
            payee: remote.payeeAlias,
          },
          ours: { amount: row.amount, currency: row.currency, payee: row.payeeAlias },
        },
      },
      clock.now(),
    );
    return { settled: false, status: "CREATED", mismatch: problems };
  }

  const now = clock.now();
  const paid = remote.status === "PAID";
  const settlement: Settlement = {
    status: remote.status,
    datePaid: paid ? (parseSwishDate(remote.datePaid) ?? now) : null,
    // Swish fills paymentReference only for PAID (MSS sometimes earlier); keep it only when it means money moved.
    paymentReference: paid ? remote.paymentReference : null,
    payerAlias: remote.payerAlias,
    errorCode: paid ? null : remote.errorCode,
    errorMessage: paid ? null : remote.errorMessage,
    settledAt: now,
  };
  return finishSettlement(env, db, row.id, settlement, source, clock, options);
}

/** The conditional write and, for its winner only, the consequences. */
async function finishSettlement(
  env: Env,
  db: Db,
  payid: string,
  settlement: Settlement,
  source: SettleSource,
  clock: Clock,
  options: SettleOptions,
): Promise<SettleResult> {
  const won = await settlePaymentRow(db, payid, settlement);
  if (!won) {
    const now = await findPayment(db, payid);
    return { settled: false, status: (now?.status as PaymentStatus | undefined) ?? "UNKNOWN" };
  }
  await audit(
    db,
    {
      actor: "system",
      action: "payment.settled",
      subject: payid,
      detail: { status: settlement.status, source, errorCode: settlement.errorCode },
    },
    clock.now(),
  );
  if (options.notify !== "caller") await notifyWaitingPage(env, payid, settlement.status);
  if (settlement.status === "PAID") {
    const work = afterPaid(env, payid, clock);
    if (options.afterAnswer) {
      options.afterAnswer(work.catch((err: unknown) => console.error("after a paid payment", payidForLog(payid), err)));
    } else await work;
  }
  return { settled: true, status: settlement.status };
}

async function notifyWaitingPage(env: Env, payid: string, status: SettledStatus): Promise<void> {
  try {
    await env.PAYMENT.getByName(payid).notifySettled(status, payid);
  } catch (err) {
    // The page's own poll (/verify) and the object's alarm read the settled row from D1; nothing is lost.
    console.error("payment object notify failed", payidForLog(payid), err);
  }
}

/**
 * What a paid payment leads to: its runners join their races, and the family gets a receipt. Each step is
 * recorded in the audit log once done, so a repeat (the cron's repair) only does what is missing.
 */
export async function afterPaid(env: Env, payid: string, clock: Clock = clockFromSettings(env)): Promise<void> {
  const db = database(env.DB);
  const row = await findPayment(db, payid);
  if (!row || row.status !== "PAID") return;
  const runners = await participantsByIds(db, parseParticipantIds(row.participantIds));

  if (!(await hasAuditStep(db, RUNNERS_ADDED, payid))) {
    try {
      // A box-office sale hands the bibs over at the table: its runners join their races checked in.
      const pickedUpAt = row.origin === "kassa" ? (row.datePaid ?? clock.now()) : null;
      const added = await addParticipantsToRaces(env, db, runners, SEASON, { actor: "betalning" }, pickedUpAt);
      // Its adults running with a child are in no race: checked in on D1's row (the desk's write; an earlier
      // moment is kept, so a repeat changes nothing).
      const companions = runners.filter((r) => r.companion === true).map((r) => r.id);
      if (pickedUpAt !== null && companions.length > 0) {
        await markCompanionsPickedUp(db, companions, true, pickedUpAt);
      }
      await audit(
        db,
        {
          actor: "system",
          action: RUNNERS_ADDED,
          subject: payid,
          detail: { runners: added.map((a) => ({ id: a.runner.id, part: a.part, added: a.added })) },
        },
        clock.now(),
      );
    } catch (err) {
      console.error("adding paid runners to races failed", payidForLog(payid), err);
    }
  }

  if (row.registrationId && !(await hasAuditStep(db, RECEIPT_SENT, payid))) {
    try {
      const registration = await findRegistrationById(db, row.registrationId);
      if (registration) {
        const checkinCode = await ensureCheckinCode(db, registration.id);
        const mail = receiptEmail({
          payid,
          runners,
          amount: row.amount,
          datePaid: row.datePaid ?? clock.now(),
          paymentReference: row.paymentReference,
          kampanj: row.kampanj,
          siteUrl: env.PUBLIC_ORIGIN,
          additional: await paidBefore(db, row),
          checkinCode,
        });
        await emailSender(env, db, clock).send({ to: registration.email, ...mail, kind: "receipt" });
        await audit(
          db,
          { actor: "system", action: RECEIPT_SENT, subject: payid, detail: { to: registration.email } },
          clock.now(),
        );
      }
    } catch (err) {
      console.error("receipt e-mail failed", payidForLog(payid), err);
    }
  }
}

/** The payment's registration had a payment PAID before it: this one paid for runners added since. */
async function paidBefore(db: Db, row: PaymentRow): Promise<boolean> {
  if (!row.registrationId) return false;
  const earlier = await db.$client
    .prepare(
      `SELECT 1 FROM payments WHERE registration_id = ?1 AND status = 'PAID' AND id <> ?2
         AND coalesce(date_paid, date_created) <= ?3 LIMIT 1`,
    )
    .bind(row.registrationId, row.id, row.datePaid ?? row.dateCreated)
    .first();
  return earlier !== null;
}

/**
 * Withdraws a payment that has not been paid (e.g. the family books again with other runners). If Swish
 * refuses because it has already finished, the payment settles as Swish says instead. A payment that was cut
 * off before it reached Swish (no token, unknown to Swish, older than any create call) is withdrawn here.
 */
export async function cancelSwishPayment(env: Env, payid: string): Promise<SettleResult> {
  try {
    await swishClientFor(env).cancelPaymentRequest(payid);
  } catch (err) {
    if (!(err instanceof SwishError) || err.status !== 422) console.warn("swish cancel failed", payid, err);
  }
  const result = await settlePayment(env, payid, "cancel");
  if (result.status !== "CREATED" || !result.unknownToSwish) return result;
  const db = database(env.DB);
  const clock = clockFromSettings(env);
  const row = await findPayment(db, payid);
  if (!row || row.token || clock.now() - row.dateCreated < NEVER_REACHED_SWISH_AFTER_MS) return result;
  await withdrawLocally(db, payid, "Betalningen nådde aldrig Swish", clock);
  const after = await findPayment(db, payid);
  return { settled: after?.status === "CANCELLED", status: (after?.status as PaymentStatus | undefined) ?? "UNKNOWN" };
}

export interface ReconcileReport {
  checked: number;
  settled: number;
  expired: number;
  followedUp: number;
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

/**
 * The cron sweep: callbacks may never come (reference/swish.md §4, §6), so every Swish payment still CREATED
 * after a minute is re-fetched; one still CREATED after a day is given up as TM01 (Swish times out after
 * minutes). PAID payments whose after-payment steps did not finish get them done.
 */
export async function reconcilePayments(env: Env, clock: Clock): Promise<ReconcileReport> {
  const db = database(env.DB);
  const now = clock.now();
  const report: ReconcileReport = { checked: 0, settled: 0, expired: 0, followedUp: 0 };

  const waiting = await listCreatedSwishPayments(db, now - DAY, now - MINUTE, 200);
  await eachLimited(waiting, 4, async (p) => {
    report.checked++;
    if ((await settlePayment(env, p.id, "cron", { clock })).settled) report.settled++;
  });

  const abandoned = await listCreatedSwishPayments(db, 0, now - DAY, 100);
  await eachLimited(abandoned, 4, async (p) => {
    report.checked++;
    const result = await settlePayment(env, p.id, "cron", { clock });
    if (result.settled) {
      report.settled++;
      return;
    }
    if (result.status !== "CREATED") return;
    const [errorCode, errorMessage] = result.mismatch
      ? ["MISMATCH", `Swish-betalningen stämmer inte med vår (${result.mismatch.join(", ")})`]
      : ["TM01", "Betalningen blev aldrig genomförd"];
    const settlement = unpaidSettlement("ERROR", errorCode, errorMessage, clock.now());
    const expired = await finishSettlement(env, db, p.id, settlement, "cron", clock, {});
    if (expired.settled) report.expired++;
  });

  const unfinished = await listPaidNeedingFollowUp(
    db,
    RUNNERS_ADDED,
    RECEIPT_SENT,
    now - 7 * DAY,
    now - 5 * MINUTE,
    50,
  );
  for (const p of unfinished) {
    await afterPaid(env, p.id, clock);
    report.followedUp++;
  }
  return report;
}

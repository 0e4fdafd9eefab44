/**
 * The payment wire shapes shared by the browser, the Worker and the payment Durable Object: the payment record
 * (spec: swishtory entries, admin "Payment record"), the `wait-pay` socket frames and the Swish token helpers.
 */
import { parseJsonObject } from "./json-object";

/** A payment's life: CREATED until Swish (or a campaign code) settles it once, for good. */
export type PaymentStatus = "CREATED" | "PAID" | "DECLINED" | "ERROR" | "CANCELLED";
export type SettledStatus = Exclude<PaymentStatus, "CREATED">;

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ["CREATED", "PAID", "DECLINED", "ERROR", "CANCELLED"];

export function isPaymentStatus(x: unknown): x is PaymentStatus {
  return typeof x === "string" && (PAYMENT_STATUSES as readonly string[]).includes(x);
}

export function isSettledStatus(x: unknown): x is SettledStatus {
  return isPaymentStatus(x) && x !== "CREATED";
}

/** One entry of `swishtory` (keyed by its id). Dates are ISO 8601 strings (UTC). */
export interface PaymentRecord {
  id: string;
  /** Whole kronor. */
  amount: number;
  currency: string;
  status: PaymentStatus;
  dateCreated: string;
  datePaid: string | null;
  /** Swish's (bank) reference of a paid payment. */
  paymentReference: string | null;
  /** The payer's phone number, once Swish tells us. */
  payerAlias: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** The campaign code the order was booked with (the family's own /get and /verify carry it). */
  kampanj?: string | null;
}

/**
 * GET /verify?id={payid}'s answer (the receipt page's poll): the payment record with its payid, 202 while
 * CREATED, 200 once settled.
 */
export type VerifiedPayment = PaymentRecord & { payid: string };

/** A Swish instruction id (our payid): 32 upper-case hex characters, no dashes. */
export function isSwishPaymentId(x: string): boolean {
  return /^[0-9A-F]{32}$/.test(x);
}

/** A campaign order's payid: `kampanj_<CODE>_<unique>` (the spec reads 'kampanj' and the second '_' part). */
export function isCampaignPaymentId(x: string): boolean {
  return /^kampanj_[^_\s]+_[0-9a-z]+$/.test(x);
}

export function isPaymentId(x: string): boolean {
  return isSwishPaymentId(x) || isCampaignPaymentId(x);
}

/** A Swish m-commerce token as Swish hands it out: 32 hex characters (lower-case in practice). */
export function isSwishToken(x: string): boolean {
  return /^[0-9a-fA-F]{32}$/.test(x);
}

/** What a locally rendered Swish QR code encodes for a token (reference/swish.md §2). */
export function swishQrContent(token: string): string {
  return `D${token}`;
}

/** The link that opens the Swish app on the same phone; `returnUrl` is where the app sends the payer back. */
export function swishAppLink(token: string, returnUrl: string): string {
  return `swish://paymentrequest?token=${encodeURIComponent(token)}&callbackurl=${encodeURIComponent(returnUrl)}`;
}

/** The socket path under `/api/config`'s wsUrl (DESIGN.md "Live connections"). */
export function paymentSocketPath(payid: string): string {
  return `/pay/${encodeURIComponent(payid)}`;
}

/** Browser → payment object. The spec's only frame: wait until this payment settles. */
export type PaymentClientFrame = { action: "wait-pay"; payid: string };

/**
 * Payment object → browser. The spec's page reloads on `{payment: 'ok'}` and only logs anything else, so a
 * failure is a different `payment` value, and the socket closes (1000) after either.
 */
export type PaymentServerFrame =
  { payment: "ok" } | { payment: "failed"; status: Exclude<SettledStatus, "PAID"> } | { error: string };

export function settledFrame(status: SettledStatus): PaymentServerFrame {
  return status === "PAID" ? { payment: "ok" } : { payment: "failed", status };
}

/**
 * The payment frame a socket message is, or null for anything else (not JSON, an unknown `payment` value, a
 * failure without its settled status): the browser checks every frame before it acts on one.
 */
export function parsePaymentFrame(text: string): PaymentServerFrame | null {
  const frame = parseJsonObject(text);
  if (!frame) return null;
  if (frame.payment === "ok") return { payment: "ok" };
  const status = frame.status;
  if (frame.payment === "failed" && isSettledStatus(status) && status !== "PAID") return { payment: "failed", status };
  if (!("payment" in frame) && typeof frame.error === "string") return { error: frame.error };
  return null;
}

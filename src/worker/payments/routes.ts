/**
 * Payment endpoints of the spec: the QR image (`/qr-v2`), the receipt page's poll (`/verify`), the waiting page's
 * socket (`{wsUrl}/pay/{payid}`), and the Swish callback, which is only a hint to re-fetch the payment. Refunds
 * (the admin guard in app.ts covers /admin/api/*):
 * - `POST /admin/api/refunds {payid, amount, idempotencyKey, deregister?, companions?}`: refund a paid Swish payment
 *   in full or in part (src/worker/payments/refunds.ts); `deregister` names runners of the payment to take out once
 *   the money is back ('Återbetala och avregistrera', src/worker/payments/deregistration.ts), and `companions` the
 *   family's paid companions those runners leave without a child, to take out too ('Ta också bort …'; refunded
 *   from their own payment when another one booked them above 0 kr). 201 refunded, 202 sent to Swish and not yet
 *   confirmed, 200 the key's earlier refund.
 * - `POST /admin/api/refunds/{id}/check`: ask Swish again about a refund that is not settled yet.
 * - `POST /swish/callback/refund`: Swish's refund callback, only a hint that makes the server re-fetch the refund
 *   (exempt from the same-origin and JSON-body guards like every `/swish/callback…` path).
 */
import { Hono } from "hono";
import { z } from "zod";
import { isPaymentId, isSwishPaymentId, isSwishToken, type VerifiedPayment } from "../../shared/payment-protocol";
import { MAX_RUNNERS } from "../../shared/registration-schema";
import { refundableAmount } from "../../shared/registrations-overview";
import { tokenQrSvg } from "../adapters/swish";
import { auditOnce } from "../db/audit";
import { database, type Db } from "../db/client";
import { sameSecret } from "../lib/crypto";
import { findPayment, parseParticipantIds, paymentRecord } from "./payments-db";
import { refundedOrPending, refundRecord, type RefundRow } from "./refunds-db";
import { checkRefund, deregistrationOf, refundCallback, refusalMessage, requestRefund } from "./refunds";
import { findRegistrationById } from "../db/registrations-db";
import type { AppEnv } from "../env";
import { ApiError, forbidden, notFound } from "../lib/errors";
import { isSiteOrigin } from "../middleware/same-origin";
import { visitorLimits } from "../middleware/rate-limit";
import { validate, wireSchema } from "../middleware/validate";
import { settlePayment } from "./payments";
import type { NewRefund, RefundAnswer } from "../../shared/api-answers";

export const paymentRoutes = new Hono<AppEnv>();
export const swishCallbackRoutes = new Hono<AppEnv>();
export const paymentSocketRoutes = new Hono<AppEnv>();
export const refundRoutes = new Hono<AppEnv>();

const tokenQuery = z.object({
  token: z.string({ message: "Ogiltig token" }).refine(isSwishToken, "Ogiltig token"),
});

// Spec: "GET /qr-v2?token={token} — Image of the payment QR". Rendered here: "D" + token (reference/swish.md §2).
paymentRoutes.get("/qr-v2", validate("query", tokenQuery), (c) => {
  const { token } = c.req.valid("query");
  return c.body(tokenQrSvg(token), 200, {
    "content-type": "image/svg+xml; charset=utf-8",
    // A token is single-use and the image never changes; only this browser needs it.
    "cache-control": "private, max-age=3600, immutable",
    "x-content-type-options": "nosniff",
  });
});

const CALLBACK_REFUSED = "payment.callback-refused";

const callbackBody = z.object({ id: z.string().min(1).max(64) });

/**
 * Swish's callback: unsigned, so it settles nothing by itself. A known payment with the right callbackIdentifier
 * makes the server re-fetch the payment from Swish and settle it from that answer. Swish asks merchants to answer
 * fast (reference/swish.md §4), so the answer only waits for the identifier check: the re-fetch, settlement,
 * runner placement and receipt run after it (`waitUntil`), and the page's poll and the cron remain the safety net
 * if that work is cut off. Swish gets a 200 whatever we make of it (it has nothing to retry); only a body that is
 * not a Swish payment object is a 400.
 */
swishCallbackRoutes.post("/", async (c) => {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  const parsed = callbackBody.safeParse(body);
  if (!parsed.success) return c.json({ error: "Ogiltigt anrop" }, 400);
  const { id } = parsed.data;
  const db = database(c.env.DB);
  const row = isSwishPaymentId(id) ? await findPayment(db, id) : undefined;
  const given = c.req.header("callbackIdentifier") ?? "";
  if (!row) {
    // Nothing of ours to attach it to; a log line is enough (and a flood of these fills no table).
    console.warn("swish callback for an unknown payment", id);
    return c.json({ ok: true });
  }
  if (!row.callbackIdentifier || !(await sameSecret(given, row.callbackIdentifier))) {
    const device = c.req.header("cf-connecting-ip") ?? null;
    const now = c.var.clock.now();
    // One audit line per payment tells the organiser; a flood of forgeries must not fill the log.
    c.executionCtx.waitUntil(
      auditOnce(
        db,
        { actor: "swish", device, action: CALLBACK_REFUSED, subject: id, detail: { reason: "callbackIdentifier" } },
        now,
      ).then(
        (written) => written || console.warn("swish callback refused again", id),
        (err: unknown) => console.error("auditing a refused callback failed", id, err),
      ),
    );
    return c.json({ ok: true });
  }
  if (row.status === "CREATED") {
    c.executionCtx.waitUntil(
      settlePayment(c.env, row.id, "callback").catch((err: unknown) => {
        // Poll and cron settle it later; Swish must not be told to retry something we will fetch anyway.
        console.error("settling after callback failed", row.id, err);
      }),
    );
  }
  return c.json({ ok: true });
});

// The waiting page's socket: `{wsUrl}/pay/{payid}`, answered by the payment's own Durable Object.
paymentSocketRoutes.get("/:payid", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "Förväntade en WebSocket-anslutning" }, 426);
  }
  // Browsers send Origin on socket upgrades; another site must not open our sockets (cross-site hijacking).
  const origin = c.req.header("origin");
  if (origin && !isSiteOrigin(origin, c.req.raw, c.env.PUBLIC_ORIGIN)) {
    return c.json({ error: "Anslutningen kom inte från sajten." }, 403);
  }
  const payid = c.req.param("payid");
  if (!isPaymentId(payid) || !(await findPayment(database(c.env.DB), payid))) {
    return c.json({ error: "Betalningen finns inte" }, 404);
  }
  // Returned as is: the 101 response's headers are immutable, so no middleware may touch it.
  return c.env.PAYMENT.getByName(payid).fetch(c.req.raw);
});

const verifyQuery = z.object({ id: z.string({ message: "Ange betalningens id" }).min(1).max(100) });

/**
 * The receipt page's poll (spec: /kvitto/{id} polls with a growing delay): 202 while the payment waits, 200 with
 * the payment record once settled. 403 means "logged out" to the page, 404 an unknown payment.
 */
paymentRoutes.get("/verify", visitorLimits("verify"), validate("query", verifyQuery), async (c) => {
  const session = c.var.session;
  if (!session) throw forbidden("Du är utloggad. Logga in igen för att se betalningen.");
  const { id } = c.req.valid("query");
  const db = database(c.env.DB);
  let row = isPaymentId(id) ? await findPayment(db, id) : undefined;
  if (!row) throw notFound("Betalningen finns inte");
  const registration = row.registrationId ? await findRegistrationById(db, row.registrationId) : null;
  if (!registration || registration.email !== session.email) {
    throw forbidden("Betalningen hör inte till din anmälan.");
  }
  if (row.status === "CREATED") {
    // The payer may be back before Swish's callback (or the callback may never come): ask Swish now.
    const result = await settlePayment(c.env, row.id, "poll");
    if (result.status === "CREATED")
      return c.json({ ...paymentRecord(row), payid: row.id } satisfies VerifiedPayment, 202);
    row = (await findPayment(db, row.id)) ?? row;
  }
  return c.json({ ...paymentRecord(row), payid: row.id } satisfies VerifiedPayment);
});

// ---- Refunds -------------------------------------------------------------------------------------------------

const REFUND_MSG = {
  payid: "Ogiltigt betalnings-id.",
  amount: "Ange beloppet som ett helt antal kronor större än 0.",
  key: "Återbetalningen saknar giltig nyckel. Ladda om sidan och försök igen.",
  refundId: "Ogiltigt id för återbetalningen.",
  body: "Ange betalning och belopp.",
  runner: "Ogiltig löpare att avregistrera.",
} as const;

const runnerIds = z
  .array(z.string({ error: REFUND_MSG.runner }).regex(/^[A-Za-z0-9_-]{1,60}$/, REFUND_MSG.runner), {
    error: REFUND_MSG.runner,
  })
  .max(MAX_RUNNERS, REFUND_MSG.runner)
  .optional();

const refundBody = wireSchema<NewRefund>()(
  z.object(
    {
      payid: z.string({ error: REFUND_MSG.payid }).max(100, REFUND_MSG.payid).refine(isPaymentId, REFUND_MSG.payid),
      amount: z
        .number({ error: REFUND_MSG.amount })
        .int(REFUND_MSG.amount)
        .positive(REFUND_MSG.amount)
        .max(1_000_000, REFUND_MSG.amount),
      idempotencyKey: z.string({ error: REFUND_MSG.key }).regex(/^[A-Za-z0-9-]{16,64}$/, REFUND_MSG.key),
      deregister: runnerIds,
      companions: runnerIds,
    },
    { error: REFUND_MSG.body },
  ),
);

/** What the dialog needs after a refund: the refund, and what is left to refund of its payment. */
async function refundAnswer(db: Db, refund: RefundRow) {
  const payment = await findPayment(db, refund.payid);
  const taken = await refundedOrPending(db, refund.payid);
  // Every refund that has not failed, as one: what refundableAmount subtracts.
  const left = payment ? refundableAmount(paymentRecord(payment), [{ amount: taken, status: "PAID" }]) : 0;
  return {
    payid: refund.payid,
    refund: refundRecord(refund),
    refundable: left,
    /** The runners the refund deregisters (once PAID). */
    deregister: parseParticipantIds(refund.deregister),
  };
}

refundRoutes.post("/", validate("json", refundBody), async (c) => {
  const body = c.req.valid("json");
  const { refund, repeated, deregistration } = await requestRefund(c.env, c.var.clock, {
    payid: body.payid,
    amount: body.amount,
    idempotencyKey: body.idempotencyKey,
    admin: c.var.admin?.email ?? "okänd",
    requestOrigin: new URL(c.req.url).origin,
    deregister: body.deregister ?? [],
    companions: body.companions ?? [],
  });
  // The key's earlier request was refused: this one is the same request, refused the same way.
  if (refund.status === "ERROR") throw new ApiError(422, refusalMessage(refund.errorCode));
  const answer = { ...(await refundAnswer(database(c.env.DB), refund)), repeated, deregistration };
  return c.json(answer satisfies RefundAnswer, refund.status === "CREATED" ? 202 : repeated ? 200 : 201);
});

const refundParam = z.object({ id: z.string().regex(/^[0-9A-F]{32}$/, REFUND_MSG.refundId) });

refundRoutes.post("/:id/check", validate("param", refundParam), async (c) => {
  const refund = await checkRefund(c.env, c.var.clock, c.req.valid("param").id, "check");
  const deregistration = await deregistrationOf(c.env, c.var.clock, refund);
  return c.json({
    ...(await refundAnswer(database(c.env.DB), refund)),
    repeated: false,
    deregistration,
  } satisfies RefundAnswer);
});

const refundCallbackBody = z.object({ id: z.string().min(1).max(64) });

/** Swish gets a 200 whatever we make of it (it has nothing to retry); only a body that is not a refund is a 400. */
swishCallbackRoutes.post("/refund", async (c) => {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  const parsed = refundCallbackBody.safeParse(body);
  if (!parsed.success) return c.json({ error: "Ogiltigt anrop" }, 400);
  const id = parsed.data.id.toUpperCase();
  if (!/^[0-9A-F]{32}$/.test(id)) return c.json({ ok: true });
  const identifier = c.req.header("callbackIdentifier") ?? "";
  c.executionCtx.waitUntil(
    refundCallback(c.env, c.var.clock, id, identifier).then(
      (checked) => checked || console.warn("swish refund callback not ours", id),
      (err: unknown) => console.error("refund callback failed", id, err),
    ),
  );
  return c.json({ ok: true });
});

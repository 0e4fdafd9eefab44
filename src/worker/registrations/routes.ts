/**
 * The registrations overview and refunds of the admin area (the admin guard in app.ts covers /admin/registrations
 * and /admin/api/*):
 * - `GET /admin/registrations?season=YYYY`: the season's registrations (spec: email, payid, swishtory, deltagare),
 *   each payment with its refunds; the current season by default.
 * - `POST /admin/api/refunds {payid, amount, idempotencyKey, deregister?, companions?}`: refund a paid Swish payment
 *   in full or in part (src/worker/payments/refunds.ts); `deregister` names runners of the payment to take out once
 *   the money is back ('Återbetala och avregistrera', src/worker/payments/deregistration.ts), and `companions` the
 *   family's paid companions those runners leave without a child, to take out too ('Ta också bort …'; refunded
 *   from their own payment when another one booked them above 0 kr). 201 refunded, 202 sent to Swish and not yet
 *   confirmed, 200 the key's earlier refund.
 * - `GET /admin/api/box-office-sales?season=YYYY`: the season's box-office sales (payment, runner, refunds), so a
 *   Swish sale can be refunded from the admin screens too.
 * - `POST /admin/api/refunds/{id}/check`: ask Swish again about a refund that is not settled yet.
 * - `POST /swish/callback/refund`: Swish's refund callback, only a hint that makes the server re-fetch the refund
 *   (exempt from the same-origin and JSON-body guards like every `/swish/callback…` path).
 */
import { Hono } from "hono";
import { z } from "zod";
import { isPaymentId } from "../../shared/payment-protocol";
import { refundableAmount } from "../../shared/registrations-overview";
import { SEASON } from "../../shared/season";
import { boxOfficeSales, refundRecord, seasonOverview } from "./overview-db";
import { database, type Db } from "../db/client";
import { findPayment, parseParticipantIds, paymentRecord } from "../payments/payments-db";
import { refundedOrPending, type RefundRow } from "../payments/refunds-db";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { validate } from "../middleware/validate";
import { checkRefund, deregistrationOf, refundCallback, refusalMessage, requestRefund } from "../payments/refunds";
import { MAX_RUNNERS } from "../../shared/registration-schema";

export const adminRegistrationRoutes = new Hono<AppEnv>();

const MSG = {
  season: "Ange säsongen som ett årtal med fyra siffror, till exempel 2025.",
  payid: "Ogiltigt betalnings-id.",
  amount: "Ange beloppet som ett helt antal kronor större än 0.",
  key: "Återbetalningen saknar giltig nyckel. Ladda om sidan och försök igen.",
  refundId: "Ogiltigt id för återbetalningen.",
  body: "Ange betalning och belopp.",
  runner: "Ogiltig löpare att avregistrera.",
} as const;

const overviewQuery = z.object({
  season: z
    .string({ error: MSG.season })
    .regex(/^\d{4}$/, MSG.season)
    .transform(Number)
    .pipe(z.number().min(2000, MSG.season).max(2100, MSG.season))
    .optional(),
});

adminRegistrationRoutes.get("/admin/registrations", validate("query", overviewQuery), async (c) => {
  const season = c.req.valid("query").season ?? SEASON.year;
  return c.json(await seasonOverview(database(c.env.DB), season));
});

adminRegistrationRoutes.get("/admin/api/box-office-sales", validate("query", overviewQuery), async (c) => {
  const season = c.req.valid("query").season ?? SEASON.year;
  return c.json(await boxOfficeSales(database(c.env.DB), season));
});

const runnerIds = z
  .array(z.string({ error: MSG.runner }).regex(/^[A-Za-z0-9_-]{1,60}$/, MSG.runner), { error: MSG.runner })
  .max(MAX_RUNNERS, MSG.runner)
  .optional();

const refundBody = z.object(
  {
    payid: z.string({ error: MSG.payid }).max(100, MSG.payid).refine(isPaymentId, MSG.payid),
    amount: z.number({ error: MSG.amount }).int(MSG.amount).positive(MSG.amount).max(1_000_000, MSG.amount),
    idempotencyKey: z.string({ error: MSG.key }).regex(/^[A-Za-z0-9-]{16,64}$/, MSG.key),
    deregister: runnerIds,
    companions: runnerIds,
  },
  { error: MSG.body },
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

adminRegistrationRoutes.post("/admin/api/refunds", validate("json", refundBody), async (c) => {
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
  return c.json(answer, refund.status === "CREATED" ? 202 : repeated ? 200 : 201);
});

const refundParam = z.object({ id: z.string().regex(/^[0-9A-F]{32}$/, MSG.refundId) });

adminRegistrationRoutes.post("/admin/api/refunds/:id/check", validate("param", refundParam), async (c) => {
  const refund = await checkRefund(c.env, c.var.clock, c.req.valid("param").id, "check");
  const deregistration = await deregistrationOf(c.env, c.var.clock, refund);
  return c.json({ ...(await refundAnswer(database(c.env.DB), refund)), repeated: false, deregistration });
});

const callbackBody = z.object({ id: z.string().min(1).max(64) });

/** Swish gets a 200 whatever we make of it (it has nothing to retry); only a body that is not a refund is a 400. */
adminRegistrationRoutes.post("/swish/callback/refund", async (c) => {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  const parsed = callbackBody.safeParse(body);
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

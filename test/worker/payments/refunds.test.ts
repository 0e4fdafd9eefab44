/**
 * Refunds through the Worker against the Swish simulator (src/worker/payments/refunds.ts): full and partial refunds, what
 * Swish refuses (RF08) and what we refuse ourselves (more than is left, campaign and 0 kr payments, unpaid, unknown,
 * wrong types), a repeated request with the same key, concurrent clicks, the callback, and the record in swishtory
 * and the audit log. Every refusal leaves the payment row as it was.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "../../../src/shared/clock";
import type { OverviewRegistration, RefundRecord } from "../../../src/shared/registrations-overview";
import { SEASON } from "../../../src/shared/season";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { newInstructionId, recordFreePayment } from "../../../src/worker/payments/payments";
import { reconcileRefunds, REFUND_MSG, tooMuchMessage } from "../../../src/worker/payments/refunds";
import { call, CookieJar, get, loginAdmin, post, storedState } from "../helpers";
import { at } from "../registration-helpers";
import { auditCount, payOnPhone, paymentRow, seedFamily, setCallbacks, startPayment } from "../swish-helpers";

interface RefundAnswer {
  payid: string;
  refund: RefundRecord;
  refundable: number;
  repeated: boolean;
  error?: string;
}

let admin: CookieJar;

beforeEach(async () => {
  await setCallbacks("normal");
  admin = await loginAdmin();
});

/** A family that paid `amount` kr through the simulator; returns its registration and the paid payid. */
async function paidFamily(amount = 250) {
  const family = await seedFamily();
  const { payid, token } = await startPayment(family, amount);
  await payOnPhone(token, "PAID");
  const row = await paymentRow(payid);
  expect(row).toMatchObject({ status: "PAID", amount });
  expect(row!.payment_reference).toMatch(/^[0-9A-F]{32}$/);
  return { family, payid };
}

function key() {
  return crypto.randomUUID();
}

async function refund(payid: string, amount: unknown, idempotencyKey: unknown = key()) {
  const res = await post("/admin/api/refunds", { payid, amount, idempotencyKey }, { jar: admin });
  return { status: res.status, body: (await res.json()) as RefundAnswer };
}

async function refundRows(payid: string) {
  return (
    await env.DB.prepare(`SELECT * FROM refunds WHERE payid = ? ORDER BY created_at`)
      .bind(payid)
      .all<{ id: string; amount: number; status: string; error_code: string | null; idempotency_key: string }>()
  ).results;
}

/** What Swish itself holds: the simulator's refunds of that payment. */
async function swishRefunds(payid: string) {
  const ref = (await paymentRow(payid))!.payment_reference;
  return (
    await env.DB.prepare(`SELECT id, amount_ore, status FROM dev_swish_refunds WHERE original_payment_reference = ?`)
      .bind(ref)
      .all<{ id: string; amount_ore: number; status: string }>()
  ).results;
}

async function swishtoryEntry(registrationId: string, payid: string) {
  const res = await get(`/admin/registrations?season=${SEASON.year}`, { jar: admin });
  expect(res.status).toBe(200);
  const list = (await res.json()) as OverviewRegistration[];
  return list.find((r) => r.id === registrationId)!.swishtory[payid]!;
}

describe("refunds", () => {
  it("refunds a paid payment in full: Swish pays it back, swishtory and the audit log record it", async () => {
    const { family, payid } = await paidFamily(250);
    const before = await paymentRow(payid);
    const { status, body } = await refund(payid, 250);
    expect(status).toBe(201);
    expect(body).toMatchObject({ payid, refundable: 0, repeated: false });
    expect(body.refund).toMatchObject({ amount: 250, status: "PAID", errorCode: null });
    expect(body.refund.datePaid).not.toBeNull();

    expect(await swishRefunds(payid)).toEqual([{ id: body.refund.id, amount_ore: 25_000, status: "PAID" }]);
    // The payment itself is as it was (it was paid; the refund is its own record).
    expect(await paymentRow(payid)).toEqual(before);
    const entry = await swishtoryEntry(family.registrationId, payid);
    expect(entry).toMatchObject({ status: "PAID", amount: 250, refunded: 250, refundable: 0 });
    expect(entry.refunds).toEqual([body.refund]);
    expect(await auditCount("refund.create", payid)).toBe(1);
    expect(await auditCount("refund.settled", payid)).toBe(1);
    const line = await env.DB.prepare(
      `SELECT actor, detail FROM audit_log WHERE action = 'refund.create' AND subject = ?`,
    )
      .bind(payid)
      .first<{ actor: string; detail: string }>();
    expect(line!.actor).toBe("arrangor@example.se");
    expect(JSON.parse(line!.detail)).toMatchObject({ refund: body.refund.id, amount: 250 });

    // Nothing is left: one more krona is refused by us, before Swish.
    const more = await refund(payid, 1);
    expect(more.status).toBe(422);
    expect(more.body.error).toBe(REFUND_MSG.fullyRefunded);
    expect(await refundRows(payid)).toHaveLength(1);
  });

  it("refunds in parts, never more than what is left", async () => {
    const { family, payid } = await paidFamily(400);
    expect((await refund(payid, 150)).body).toMatchObject({ refundable: 250, refund: { status: "PAID" } });
    expect((await refund(payid, 100)).body).toMatchObject({ refundable: 150, refund: { status: "PAID" } });

    const before = await storedState();
    const tooMuch = await refund(payid, 151);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error).toBe(tooMuchMessage(150));
    expect(tooMuch.body.error).toBe("Beloppet är större än vad som finns kvar att återbetala (150 kr).");
    expect(await storedState()).toEqual(before);

    expect((await refund(payid, 150)).body).toMatchObject({ refundable: 0, refund: { amount: 150, status: "PAID" } });
    const entry = await swishtoryEntry(family.registrationId, payid);
    expect(entry.refunds.map((r) => [r.amount, r.status])).toEqual([
      [150, "PAID"],
      [100, "PAID"],
      [150, "PAID"],
    ]);
    expect(entry).toMatchObject({ refunded: 400, refundable: 0, status: "PAID" });
    expect((await swishRefunds(payid)).reduce((s, r) => s + r.amount_ore, 0)).toBe(40_000);
  });

  it("a refusal from Swish (RF08) marks the refund ERROR, keeps the payment and says why", async () => {
    const { family, payid } = await paidFamily(250);
    // Someone refunded 200 kr at Swish directly (the bank's app): Swish has 50 kr left, we think 250.
    const ref = (await paymentRow(payid))!.payment_reference!;
    await swishClientFor(env).createRefund(newInstructionId(), {
      originalPaymentReference: ref,
      callbackUrl: "http://localhost/swish/callback/refund",
      payerAlias: env.SWISH_PAYEE_ALIAS,
      amount: "200.00",
      currency: "SEK",
    });
    const before = await paymentRow(payid);

    const { status, body } = await refund(payid, 250);
    expect(status).toBe(422);
    expect(body.error).toBe(
      "Swish nekade återbetalningen: beloppet är större än vad som finns kvar av den ursprungliga betalningen efter tidigare återbetalningar (RF08). Betalningen är oförändrad.",
    );
    expect(await paymentRow(payid)).toEqual(before);
    const [row] = await refundRows(payid);
    expect(row).toMatchObject({ amount: 250, status: "ERROR", error_code: "RF08" });
    const entry = await swishtoryEntry(family.registrationId, payid);
    // The failed refund is shown, and takes nothing from what may still be refunded.
    expect(entry).toMatchObject({ refunded: 0, refundable: 250 });
    expect(entry.refunds).toEqual([
      expect.objectContaining({ amount: 250, status: "ERROR", errorCode: "RF08", errorMessage: expect.any(String) }),
    ]);
    expect(await auditCount("refund.settled", payid)).toBe(1);

    // The same request again (same key) is the same refusal, and Swish is not asked twice.
    const again = await refund(payid, 250, row!.idempotency_key);
    expect(again.status).toBe(422);
    expect(again.body.error).toBe(body.error);
    expect(await refundRows(payid)).toHaveLength(1);
    // What Swish has left can still be refunded.
    expect((await refund(payid, 50)).body.refund).toMatchObject({ amount: 50, status: "PAID" });
  });

  it("a repeated request with the same key answers the first refund and refunds once", async () => {
    const { payid } = await paidFamily(250);
    const k = key();
    const first = await refund(payid, 100, k);
    expect(first.status).toBe(201);
    const second = await refund(payid, 100, k);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ repeated: true, refund: first.body.refund, refundable: 150 });
    expect(await refundRows(payid)).toHaveLength(1);
    expect(await swishRefunds(payid)).toHaveLength(1);
    expect(await auditCount("refund.create", payid)).toBe(1);

    // The key belongs to that refund: another amount or payment with it is refused, nothing written.
    const before = await storedState();
    const other = await refund(payid, 50, k);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe(REFUND_MSG.keyReused);
    expect(await storedState()).toEqual(before);
  });

  it("a double click (two requests at once with the dialog's key) makes one refund", async () => {
    const { payid } = await paidFamily(250);
    const k = key();
    const answers = await Promise.all([refund(payid, 250, k), refund(payid, 250, k), refund(payid, 250, k)]);
    expect(answers.map((a) => a.status).every((s) => s === 200 || s === 201 || s === 202)).toBe(true);
    expect(new Set(answers.map((a) => a.body.refund.id)).size).toBe(1);
    expect(await refundRows(payid)).toHaveLength(1);
    expect(await swishRefunds(payid)).toHaveLength(1);
  });

  it("two different refunds at once of the whole amount: only one passes the conditional write", async () => {
    const { payid } = await paidFamily(250);
    const answers = await Promise.all([refund(payid, 250), refund(payid, 250), refund(payid, 200)]);
    const passed = answers.filter((a) => a.status === 201);
    expect(passed).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatch(/^(Betalningen är redan helt återbetald\.|Beloppet är större)/);
    }
    expect(await refundRows(payid)).toHaveLength(1);
    expect((await swishRefunds(payid)).reduce((s, r) => s + r.amount_ore, 0)).toBe(passed[0]!.body.refund.amount * 100);
  });

  it("refuses a campaign payment, a 0 kr payment and an unpaid one; nothing changes", async () => {
    const family = await seedFamily();
    const kampanj = await recordFreePayment(env, systemClock, {
      registrationId: family.registrationId,
      season: SEASON.year,
      kampanj: "FRIBILJETT",
      barn: 1,
      vuxna: 1,
      participantIds: family.participantIds,
    });
    expect(kampanj).toMatch(/^kampanj_FRIBILJETT_/);
    const zero = newInstructionId();
    await env.DB.prepare(
      `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, payment_reference)
       VALUES (?, NULL, ?, 0, 'PAID', ?, ?, ?)`,
    )
      .bind(zero, SEASON.year, Date.now(), Date.now(), newInstructionId())
      .run();
    const open = await startPayment(await seedFamily(), 250);

    const before = await storedState();
    const campaign = await refund(kampanj, 1);
    expect(campaign.status).toBe(422);
    expect(campaign.body.error).toBe(REFUND_MSG.campaign);
    const nothing = await refund(zero, 1);
    expect(nothing.status).toBe(422);
    expect(nothing.body.error).toBe(REFUND_MSG.zero);
    const unpaid = await refund(open.payid, 100);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error).toBe(REFUND_MSG.notPaid);
    expect(await storedState()).toEqual(before);
  });

  it("refuses wrong types, unknown ids and oversized values with Swedish messages; nothing changes", async () => {
    const { payid } = await paidFamily(250);
    const before = await storedState();
    const cases: [unknown, number, string][] = [
      [{ payid, amount: "250", idempotencyKey: key() }, 400, "Ange beloppet som ett helt antal kronor större än 0."],
      [{ payid, amount: 12.5, idempotencyKey: key() }, 400, "Ange beloppet som ett helt antal kronor större än 0."],
      [{ payid, amount: 0, idempotencyKey: key() }, 400, "Ange beloppet som ett helt antal kronor större än 0."],
      [{ payid, amount: -5, idempotencyKey: key() }, 400, "Ange beloppet som ett helt antal kronor större än 0."],
      [{ payid, amount: 1e9, idempotencyKey: key() }, 400, "Ange beloppet som ett helt antal kronor större än 0."],
      [{ payid, amount: 10 }, 400, "Återbetalningen saknar giltig nyckel. Ladda om sidan och försök igen."],
      [
        { payid, amount: 10, idempotencyKey: "x" },
        400,
        "Återbetalningen saknar giltig nyckel. Ladda om sidan och försök igen.",
      ],
      [{ payid: 42, amount: 10, idempotencyKey: key() }, 400, "Ogiltigt betalnings-id."],
      [{ payid: "nope", amount: 10, idempotencyKey: key() }, 400, "Ogiltigt betalnings-id."],
      [{ payid: "A".repeat(5000), amount: 10, idempotencyKey: key() }, 400, "Ogiltigt betalnings-id."],
      [{ payid: newInstructionId(), amount: 10, idempotencyKey: key() }, 404, "Betalningen finns inte."],
      [[], 400, "Ange betalning och belopp."],
      ["250", 400, "Ange betalning och belopp."],
    ];
    for (const [body, status, message] of cases) {
      const res = await post("/admin/api/refunds", body, { jar: admin });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    const check = await post(`/admin/api/refunds/${newInstructionId()}/check`, {}, { jar: admin });
    expect(check.status).toBe(404);
    expect(((await check.json()) as { error: string }).error).toBe(REFUND_MSG.unknownRefund);
    expect((await post(`/admin/api/refunds/not-an-id/check`, {}, { jar: admin })).status).toBe(400);
    expect(await storedState()).toEqual(before);
  });

  it("is for admins only, and only from the site", async () => {
    const { payid } = await paidFamily(250);
    const before = await storedState();
    expect((await post("/admin/api/refunds", { payid, amount: 250, idempotencyKey: key() })).status).toBe(401);
    const crossSite = await call("/admin/api/refunds", {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ payid, amount: 250, idempotencyKey: key() }),
    });
    expect(crossSite.status).toBe(403);
    expect(await storedState()).toEqual(before);
  });

  it("settles a refund Swish finishes later through the callback, and a check finds the same", async () => {
    const { payid } = await paidFamily(250);
    // A refund row still open, as after a lost answer from Swish, then created at Swish.
    const k = key();
    const id = newInstructionId();
    const callbackIdentifier = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by,
         created_at) VALUES (?, ?, ?, 80, 'CREATED', ?, ?, 'arrangor@example.se', ?)`,
    )
      .bind(id, payid, SEASON.year, k, callbackIdentifier, Date.now())
      .run();
    // While it is open it counts: only 170 kr are left.
    expect((await refund(payid, 171)).status).toBe(422);

    await swishClientFor(env).createRefund(id, {
      originalPaymentReference: (await paymentRow(payid))!.payment_reference!,
      callbackUrl: "http://localhost/swish/callback/refund",
      payerAlias: env.SWISH_PAYEE_ALIAS,
      amount: "80.00",
      currency: "SEK",
    });
    // Swish has paid it back; a callback with the wrong identifier settles nothing all the same.
    const forged = await call("/swish/callback/refund", {
      method: "POST",
      headers: { "content-type": "application/json", callbackIdentifier: crypto.randomUUID() },
      body: JSON.stringify({ id }),
      env: {},
    });
    expect(forged.status).toBe(200);
    expect((await refundRows(payid))[0]).toMatchObject({ status: "CREATED" });

    const res = await call("/swish/callback/refund", {
      method: "POST",
      headers: { "content-type": "application/json", callbackIdentifier },
      body: JSON.stringify({ id }),
      env: {},
    });
    expect(res.status).toBe(200);
    expect((await refundRows(payid))[0]).toMatchObject({ id, status: "PAID" });
    expect(await auditCount("refund.settled", payid)).toBe(1);

    const check = await post(`/admin/api/refunds/${id}/check`, {}, { jar: admin });
    expect(check.status).toBe(200);
    expect(((await check.json()) as RefundAnswer).refund).toMatchObject({ id, status: "PAID", amount: 80 });
    expect(await auditCount("refund.settled", payid)).toBe(1);
    expect((await call("/swish/callback/refund", { method: "POST", body: "nej", env: {} })).status).toBe(400);
  });

  it("when Swish does not answer: 502, the refund stays open and counts, and is marked ERROR once clearly lost", async () => {
    const { payid } = await paidFamily(250);
    const before = await paymentRow(payid);
    const k = key();
    // A Swish nobody listens on: the create call fails without an answer.
    const unreachable = { SWISH_BASE_URL: "http://127.0.0.1:9/swish-cpcapi/api/" };
    const res = await post(
      "/admin/api/refunds",
      { payid, amount: 200, idempotencyKey: k },
      { jar: admin, env: unreachable },
    );
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toBe(REFUND_MSG.noAnswer);
    const [open] = await refundRows(payid);
    expect(open).toMatchObject({ amount: 200, status: "CREATED" });
    expect(await paymentRow(payid)).toEqual(before);
    // It may have reached Swish, so it still counts: only 50 kr are left.
    expect((await refund(payid, 51)).body.error).toBe(tooMuchMessage(50));
    // Asked again with the key (the dialog's retry): the same refund, still open, Swish asked about it, not twice.
    const again = await refund(payid, 200, k);
    expect(again.status).toBe(202);
    expect(again.body.refund).toMatchObject({ id: open!.id, status: "CREATED" });
    expect(await swishRefunds(payid)).toEqual([]);
    // Three minutes on, Swish still does not know it: it never got there. ERROR, and the amount is free again.
    const later = at(new Date(Date.now() + 3 * 60_000).toISOString());
    const check = await post(`/admin/api/refunds/${open!.id}/check`, {}, { jar: admin, env: later });
    expect(check.status).toBe(200);
    expect(((await check.json()) as RefundAnswer).refund).toMatchObject({ status: "ERROR", errorCode: "NOT_AT_SWISH" });
    const retried = await refund(payid, 200, k);
    expect(retried.status).toBe(422);
    expect(retried.body.error).toBe("Återbetalningen nådde aldrig Swish. Betalningen är oförändrad; gör en ny.");
    expect((await refund(payid, 250)).body.refund).toMatchObject({ amount: 250, status: "PAID" });
    expect(await paymentRow(payid)).toEqual(before);
  });

  it("the cron's sweep settles a refund left open once it is clear that it never reached Swish", async () => {
    const { payid } = await paidFamily(150);
    const unreachable = { SWISH_BASE_URL: "http://127.0.0.1:9/swish-cpcapi/api/" };
    const res = await post(
      "/admin/api/refunds",
      { payid, amount: 150, idempotencyKey: key() },
      { jar: admin, env: unreachable },
    );
    expect(res.status).toBe(502);
    const [open] = await refundRows(payid);
    // A minute on Swish may still be about to show it: left open.
    await reconcileRefunds(env, fixedClock(Date.now() + 60_000));
    expect((await refundRows(payid))[0]).toMatchObject({ id: open!.id, status: "CREATED" });
    // Three minutes on, Swish does not know it: ERROR, recorded once, and the amount is free again.
    await reconcileRefunds(env, fixedClock(Date.now() + 3 * 60_000));
    expect((await refundRows(payid))[0]).toMatchObject({ id: open!.id, status: "ERROR", error_code: "NOT_AT_SWISH" });
    expect(await auditCount("refund.settled", payid)).toBe(1);
    await reconcileRefunds(env, fixedClock(Date.now() + 4 * 60_000));
    expect(await auditCount("refund.settled", payid)).toBe(1);
    expect((await refund(payid, 150)).body.refund).toMatchObject({ amount: 150, status: "PAID" });
  });
});

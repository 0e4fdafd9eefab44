/**
 * Settling Swish payments: the callback is only a hint (the payment is re-fetched, checked and settled once),
 * the cron sweep settles what callbacks never reported, and the payment endpoints (/verify, /qr-v2, the socket
 * route, free campaign orders).
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { offsetClock, systemClock } from "../../../src/shared/clock";
import { SEASON } from "../../../src/shared/season";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { swishtoryOf } from "../../../src/worker/payments/payments-db";
import { database } from "../../../src/worker/db/client";
import worker from "../../../src/worker/index";
import {
  newInstructionId,
  reconcilePayments,
  settlePayment,
  recordFreePayment,
  RECEIPT_SENT,
  RUNNERS_ADDED,
  SWISH_FAILED,
} from "../../../src/worker/payments/payments";
import { call, get, post, storedState, visitorJar, waitFor } from "../helpers";
import { decodeQr, modulesFromSvg } from "../qr-decode";
import {
  auditCount,
  callback,
  openPaymentSocket,
  payOnPhone,
  paymentRow,
  receiptsTo,
  seedFamily,
  setCallbacks,
  startPayment,
} from "../swish-helpers";
import { testRace } from "../race-calls";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function swishObject(payid: string) {
  return (await swishClientFor(env).retrievePaymentRequest(payid))!;
}

beforeEach(async () => {
  await setCallbacks("normal");
});

describe("start", () => {
  it("stores the payment CREATED before Swish, selects it on the registration, keeps the token", async () => {
    const family = await seedFamily();
    const { payid, token } = await startPayment(family, 250);
    expect(payid).toMatch(/^[0-9A-F]{32}$/);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    const row = await paymentRow(payid);
    expect(row).toMatchObject({ status: "CREATED", amount: 250, token });
    expect(row!.callback_identifier).toMatch(/^[0-9a-f-]{36}$/);
    const registration = await env.DB.prepare(`SELECT payid FROM registrations WHERE id = ?`)
      .bind(family.registrationId)
      .first<{ payid: string }>();
    expect(registration!.payid).toBe(payid);
    const remote = await swishObject(payid);
    expect(remote).toMatchObject({ amount: 250, currency: "SEK", payeeAlias: env.SWISH_PAYEE_ALIAS });
    expect(remote.callbackUrl).toBe("http://localhost/swish/callback");
    expect(remote.payeePaymentReference).toBe(payid);
  });

  it("a Swish refusal marks the payment ERROR and answers 502 in Swedish", async () => {
    const family = await seedFamily();
    // The simulator fails a create whose message is a create-time error code, like MSS.
    const err = await startPayment(family, 250, "RP06").then(
      () => null,
      (e: unknown) => e as { status: number; message: string },
    );
    expect(err).toMatchObject({ status: 502, message: SWISH_FAILED });
    const swishtory = await swishtoryOf(database(env.DB), family.registrationId);
    const [record] = Object.values(swishtory);
    expect(record).toMatchObject({ status: "ERROR", errorCode: "RP06", amount: 250 });
  });
});

describe("one open payment per registration", () => {
  it("starting a new payment withdraws the open one at Swish and here", async () => {
    const family = await seedFamily();
    const first = await startPayment(family, 250);
    const second = await startPayment(family, 200);
    expect(second.payid).not.toBe(first.payid);
    expect((await swishObject(first.payid)).status).toBe("CANCELLED");
    expect(await paymentRow(first.payid)).toMatchObject({ status: "CANCELLED", error_code: "RP08" });
    expect((await paymentRow(second.payid))!.status).toBe("CREATED");
    // The old QR can no longer be paid.
    expect((await post(`/dev/swish/pay/${first.token}`, { status: "PAID" })).status).toBe(409);
  });

  it("refuses to start another payment when the open one turns out to be paid", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const first = await startPayment(family, 250);
    await payOnPhone(first.token);
    const err = await startPayment(family, 250).then(
      () => null,
      (e: unknown) => e as { status: number },
    );
    expect(err).toMatchObject({ status: 409 });
    expect((await paymentRow(first.payid))!.status).toBe("PAID");
    const count = await env.DB.prepare(`SELECT count(*) AS n FROM payments WHERE registration_id = ?`)
      .bind(family.registrationId)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });
});

describe("callback", () => {
  it("a normal callback settles PAID, adds the runners to their races and sends one receipt", async () => {
    const family = await seedFamily();
    const { payid, token } = await startPayment(family, 250);
    const answer = await payOnPhone(token);
    expect(answer.callbackStatuses).toEqual([200]);

    const row = await paymentRow(payid);
    expect(row).toMatchObject({ status: "PAID", payer_alias: "46701234567" });
    expect(row!.payment_reference).toBe(answer.payment.paymentReference);
    expect(row!.date_paid).toBe(Date.parse(String(answer.payment.datePaid)));

    const raced = await env.DB.prepare(`SELECT id, race_id FROM participants WHERE registration_id = ? ORDER BY id`)
      .bind(family.registrationId)
      .all<{ id: string; race_id: string }>();
    expect(raced.results.map((p) => p.race_id)).toEqual([
      raceIdForSeason("5.6", SEASON),
      raceIdForSeason("1.6", SEASON),
    ]);
    const runner = await testRace(raceIdForSeason("5.6", SEASON)).getRunner(family.participantIds[0]!);
    expect(runner).toMatchObject({ firstname: "Anna", lastname: "Berg" });

    const receipts = await receiptsTo(family.email);
    expect(receipts).toHaveLength(1);
    const text = receipts[0]!.text;
    expect(text).toContain("Anna Berg, 5,6km");
    expect(text).toContain("Olle Berg, 1,6km");
    expect(text).toContain("250 kr");
    expect(text).toContain(String(answer.payment.paymentReference));
    expect(text).toContain("13 september 2025");
    expect(text).toContain("Nummerlappshämtning sker från 10:00");
    expect(text).toContain("11:45");

    const swishtory = await swishtoryOf(database(env.DB), family.registrationId);
    expect(swishtory[payid]).toEqual({
      id: payid,
      amount: 250,
      currency: "SEK",
      status: "PAID",
      dateCreated: expect.stringMatching(/Z$/),
      datePaid: answer.payment.datePaid,
      paymentReference: answer.payment.paymentReference,
      payerAlias: "46701234567",
      errorCode: null,
      errorMessage: null,
      kampanj: null,
    });
  });

  it("100 replays of one callback, 10 at a time, settle once and wake the waiting page once", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family, 250);
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await payOnPhone(token);
    const body = await swishObject(payid);
    const { callback_identifier: identifier } = (await paymentRow(payid))!;

    const started = performance.now();
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => callback(body, identifier)));
      statuses.push(...answers.map((r) => r.status));
    }
    const elapsed = performance.now() - started;
    console.log(`100 callback replays (10 at a time): ${elapsed.toFixed(0)} ms`);

    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(statuses).toHaveLength(100);
    expect((await paymentRow(payid))!.status).toBe("PAID");
    expect(await auditCount("payment.settled", payid)).toBe(1);
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(1);
    expect(await auditCount(RECEIPT_SENT, payid)).toBe(1);
    expect(await receiptsTo(family.email)).toHaveLength(1);
    const part = raceIdForSeason("5.6", SEASON);
    const snapshot = (await testRace(part).snapshot()) as unknown as { id?: string }[];
    expect(snapshot.filter((r) => r.id === family.participantIds[0])).toHaveLength(1);

    expect(await socket.next()).toEqual({ payment: "ok" });
    await waitFor(() => socket.closeCode() !== null, 2000, "the socket to close");
    expect(socket.closeCode()).toBe(1000);
    expect(socket.messages).toEqual([{ payment: "ok" }]);
  });

  it("a forged callback (wrong callbackIdentifier) settles nothing, and is audited once per payment", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);
    const body = await swishObject(payid);

    const forgeries = [crypto.randomUUID(), null, "", ...Array.from({ length: 20 }, () => crypto.randomUUID())];
    for (const identifier of forgeries) {
      expect((await callback(body, identifier)).status).toBe(200);
    }
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    // A flood of forgeries must not fill the audit log: one line tells the organiser.
    expect(await auditCount("payment.callback-refused", payid)).toBe(1);
    expect(await receiptsTo(family.email)).toHaveLength(0);

    // The same body with the right identifier does settle: the refusals were about the identifier alone.
    expect((await callback(body, (await paymentRow(payid))!.callback_identifier)).status).toBe(200);
    expect((await paymentRow(payid))!.status).toBe("PAID");
  });

  it("a callback whose body lies settles from Swish's own answer, not from the body", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid } = await startPayment(family);
    const identifier = (await paymentRow(payid))!.callback_identifier;
    // Swish still says CREATED: a body claiming PAID changes nothing.
    const body = { ...(await swishObject(payid)), status: "PAID", datePaid: new Date().toISOString() };
    expect((await callback(body, identifier)).status).toBe(200);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    expect(await auditCount("payment.settled", payid)).toBe(0);
  });

  it("a payment Swish reports with another amount settles nothing (and is audited)", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family, 250);
    await payOnPhone(token);
    await env.DB.prepare(`UPDATE dev_swish_payments SET amount_ore = 100 WHERE id = ?`).bind(payid).run();
    const body = await swishObject(payid);
    expect(body).toMatchObject({ status: "PAID", amount: 1 });

    const identifier = (await paymentRow(payid))!.callback_identifier;
    expect((await callback(body, identifier)).status).toBe(200);
    expect((await callback(body, identifier)).status).toBe(200);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    expect(await auditCount("payment.mismatch", payid)).toBe(1);
    expect(await auditCount("payment.settled", payid)).toBe(0);
    expect(await receiptsTo(family.email)).toHaveLength(0);
  });

  it("a callback for an unknown payment settles nothing; garbage is a 400", async () => {
    const unknown = newInstructionId();
    const res = await callback({ id: unknown, status: "PAID", amount: 250 }, crypto.randomUUID());
    expect(res.status).toBe(200);
    expect(await paymentRow(unknown)).toBeNull();
    expect(await auditCount("payment.callback-refused", unknown)).toBe(0);

    const garbage = await call("/swish/callback", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: string }).error).toBe("Ogiltigt anrop");
    expect((await callback({ status: "PAID" }, null)).status).toBe(400);
  });

  it("a DECLINED payment settles DECLINED with no receipt and no runners added", async () => {
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token, "DECLINED");
    expect((await paymentRow(payid))!.status).toBe("DECLINED");
    expect(await receiptsTo(family.email)).toHaveLength(0);
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(0);
  });

  it("duplicated callbacks from the simulator settle once", async () => {
    await setCallbacks("duplicate");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    const answer = await payOnPhone(token, "ERROR", "FF10");
    expect(answer.callbackStatuses).toEqual([200, 200]);
    expect(await paymentRow(payid)).toMatchObject({ status: "ERROR", error_code: "FF10" });
    expect(await auditCount("payment.settled", payid)).toBe(1);
  });

  it("a delayed callback settles after the delay", async () => {
    await setCallbacks("delay", 300);
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    await waitFor(async () => (await paymentRow(payid))!.status === "PAID", 5000, "the delayed callback");
  });
});

describe("cron", () => {
  it("settles a paid payment whose callback was dropped", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);

    // Younger than a minute: left alone (its callback may still come).
    const early = await reconcilePayments(env, systemClock);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    expect(early.settled).toBe(0);

    const later = await reconcilePayments(env, offsetClock(Date.now() + 2 * MINUTE));
    expect(later.settled).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(payid))!.status).toBe("PAID");
    expect(await receiptsTo(family.email)).toHaveLength(1);
    expect(await auditCount("payment.settled", payid)).toBe(1);
  });

  it("runs from the Worker's scheduled handler", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);
    await env.DB.prepare(`UPDATE payments SET date_created = date_created - ? WHERE id = ?`)
      .bind(5 * MINUTE, payid)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await paymentRow(payid))!.status).toBe("PAID");
  });

  it("gives up a payment still CREATED after a day as ERROR TM01", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid } = await startPayment(family);
    const report = await reconcilePayments(env, offsetClock(Date.now() + DAY + MINUTE));
    expect(report.expired).toBeGreaterThanOrEqual(1);
    expect(await paymentRow(payid)).toMatchObject({ status: "ERROR", error_code: "TM01" });
  });

  it("finishes the after-payment steps a crash cut off", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);
    // As if the process died right after the settling write: PAID, but no runners added and no receipt.
    await env.DB.prepare(
      `UPDATE payments SET status = 'PAID', date_paid = ?, settled_at = ?, payment_reference = 'X' WHERE id = ?`,
    )
      .bind(Date.now(), Date.now(), payid)
      .run();
    expect(await receiptsTo(family.email)).toHaveLength(0);
    await reconcilePayments(env, offsetClock(Date.now() + 10 * MINUTE));
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(1);
    expect(await receiptsTo(family.email)).toHaveLength(1);
    // Done means done: the next sweep sends nothing more.
    await reconcilePayments(env, offsetClock(Date.now() + 15 * MINUTE));
    expect(await receiptsTo(family.email)).toHaveLength(1);
  });
});

describe("the cron's repair of the after-payment steps", () => {
  it("after a failed runner placement it places the runners and sends no second receipt", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    // The first runner is linked to a race the index does not have: placing the runners fails.
    await env.DB.prepare("UPDATE participants SET race_id = 'race-250913-99' WHERE id = ?")
      .bind(family.participantIds[0])
      .run();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token);
    const settled = await settlePayment(env, payid, "poll");
    expect(settled).toMatchObject({ settled: true, status: "PAID" });
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(0);
    expect(await auditCount(RECEIPT_SENT, payid)).toBe(1);
    expect(await receiptsTo(family.email)).toHaveLength(1);

    // The link is put right (an admin moves the runner); the next sweeps finish the step that failed, only that.
    await env.DB.prepare("UPDATE participants SET race_id = NULL WHERE id = ?").bind(family.participantIds[0]).run();
    const report = await reconcilePayments(env, offsetClock(Date.now() + 10 * MINUTE));
    expect(report.followedUp).toBeGreaterThanOrEqual(1);
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(1);
    const raced = await env.DB.prepare(`SELECT race_id FROM participants WHERE id IN (?, ?) ORDER BY id`)
      .bind(...family.participantIds)
      .all<{ race_id: string | null }>();
    expect(raced.results.map((r) => r.race_id)).toEqual([raceIdForSeason("5.6"), raceIdForSeason("1.6")]);
    await reconcilePayments(env, offsetClock(Date.now() + 15 * MINUTE));
    expect(await receiptsTo(family.email)).toHaveLength(1);
    expect(await auditCount(RECEIPT_SENT, payid)).toBe(1);
  });
});

describe("free campaign orders", () => {
  it("records a PAID 0 kr payment once, with the spec's kampanj payid, runners and a receipt", async () => {
    const family = await seedFamily();
    const input = {
      registrationId: family.registrationId,
      season: SEASON.year,
      kampanj: "FRIBILJETT",
      barn: 1,
      vuxna: 1,
      participantIds: family.participantIds,
    };
    const payid = await recordFreePayment(env, systemClock, input);
    expect(payid).toMatch(/^kampanj_FRIBILJETT_[0-9a-f]{16}$/);
    expect(payid.split("_")[1]).toBe("FRIBILJETT");
    expect(await recordFreePayment(env, systemClock, input)).toBe(payid);
    expect(await paymentRow(payid)).toMatchObject({ status: "PAID", amount: 0 });
    expect(await auditCount(RUNNERS_ADDED, payid)).toBe(1);
    const receipts = await receiptsTo(family.email);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain("kampanjkod FRIBILJETT");
  });
});

describe("/verify", () => {
  it("403 without a session, 404 for an unknown id, 403 for another family's payment", async () => {
    const family = await seedFamily();
    const { payid } = await startPayment(family);
    expect((await get(`/verify?id=${payid}`)).status).toBe(403);
    const jar = await visitorJar(family.email);
    const unknown = await get(`/verify?id=${newInstructionId()}`, { jar });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("Betalningen finns inte");
    const other = await visitorJar((await seedFamily()).email);
    expect((await get(`/verify?id=${payid}`, { jar: other })).status).toBe(403);
    expect((await get(`/verify`, { jar })).status).toBe(400);
  });

  it("202 while the payment waits; 200 with the record once Swish has it paid, even without a callback", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    const jar = await visitorJar(family.email);
    const waiting = await get(`/verify?id=${payid}`, { jar });
    expect(waiting.status).toBe(202);
    expect(await waiting.json()).toMatchObject({ status: "CREATED", payid });

    await payOnPhone(token);
    const paid = await get(`/verify?id=${payid}`, { jar });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ status: "PAID", payid, amount: 250 });
    expect(await auditCount("payment.settled", payid)).toBe(1);
  });

  it("200 for a failed payment too (the page shows the failure)", async () => {
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    await payOnPhone(token, "ERROR", "TM01");
    const jar = await visitorJar(family.email);
    const res = await get(`/verify?id=${payid}`, { jar });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ERROR", errorCode: "TM01" });
  });
});

describe("bad input", () => {
  it("answers 4xx with a Swedish message and changes nothing stored", async () => {
    const family = await seedFamily();
    const { payid, token } = await startPayment(family);
    const jar = await visitorJar(family.email);
    const before = await storedState();
    const cases: [string, Response][] = [
      ["qr without token", await call("/qr-v2")],
      ["qr with a long token", await call(`/qr-v2?token=${"a".repeat(5000)}`)],
      ["verify without id", await get("/verify", { jar })],
      ["verify with a huge id", await get(`/verify?id=${"A".repeat(500)}`, { jar })],
      ["verify with nonsense", await get("/verify?id=%00%01", { jar })],
      ["callback not json", await call("/swish/callback", { method: "POST", body: "\u0000" })],
      ["callback array", await callback([1, 2, 3], null)],
      ["callback id number", await callback({ id: 42 }, null)],
      ["callback id too long", await callback({ id: "A".repeat(100) }, null)],
      ["socket without upgrade", await call(`/ws/pay/${payid}`)],
      ["socket for nonsense", await call(`/ws/pay/${"%20".repeat(10)}`, { headers: { upgrade: "websocket" } })],
      ["phone with bad status", await post(`/dev/swish/pay/${token}`, { status: 7 })],
      ["phone with bad code", await post(`/dev/swish/pay/${token}`, { status: "ERROR", errorCode: "<x>" })],
      ["phone not json", await call(`/dev/swish/pay/${token}`, { method: "POST", body: "x" })],
      ["settings unknown mode", await post("/dev/swish/settings", { callbacks: "sometimes" })],
      ["settings huge delay", await post("/dev/swish/settings", { callbacks: "delay", delayMs: 1e12 })],
    ];
    for (const [what, res] of cases) {
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      const body = (await res.json()) as { error?: unknown };
      expect(typeof body.error, what).toBe("string");
      expect(String(body.error), what).toMatch(/[a-zåäö]/i);
    }
    expect(await storedState()).toEqual(before);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
  });
});

describe("/qr-v2 and the socket route", () => {
  it("renders the QR of a token as SVG and refuses anything that is not a token", async () => {
    const token = "d2b79b764fb94905a3e7271ce55ee62e";
    const res = await call(`/qr-v2?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg).toMatch(/^<svg[^>]*viewBox/);
    // Read as an image, the way a phone's camera reads it: "D" + token (reference/swish.md §2).
    expect(decodeQr(modulesFromSvg(svg))).toBe(`D${token}`);
    const other = "0123456789abcdef0123456789abcdef";
    expect(decodeQr(modulesFromSvg(await (await call(`/qr-v2?token=${other}`)).text()))).toBe(`D${other}`);
    for (const bad of ["", "kampanj", "xyz", `${token}0`, "G" + token.slice(1), "<script>"]) {
      const refused = await call(`/qr-v2?token=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe("Ogiltig token");
    }
    expect((await call("/qr-v2")).status).toBe(400);
  });

  it("the socket route wants an upgrade (426), a known payment (404) and our origin (403)", async () => {
    const family = await seedFamily();
    const { payid } = await startPayment(family);
    expect((await call(`/ws/pay/${payid}`)).status).toBe(426);
    expect((await call(`/ws/pay/${newInstructionId()}`, { headers: { upgrade: "websocket" } })).status).toBe(404);
    expect((await call(`/ws/pay/nonsense`, { headers: { upgrade: "websocket" } })).status).toBe(404);
    const foreign = await call(`/ws/pay/${payid}`, {
      headers: { upgrade: "websocket", origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const ours = await call(`/ws/pay/${payid}`, { headers: { upgrade: "websocket", origin: "http://localhost" } });
    expect(ours.status).toBe(101);
    ours.webSocket!.accept();
    ours.webSocket!.close(1000);
  });
});

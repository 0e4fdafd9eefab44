/**
 * The payment Durable Object through real sockets: a waiting page is answered once when the payment settles,
 * a page that arrives later is answered at once, hibernation loses nothing, and the alarm polls Swish when the
 * callback never comes.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { POLL_FIRST_MS, POLL_MAX_MS, RECENT_WAIT_MS, type PaymentDO } from "../../src/durable/payment";
import { newInstructionId } from "../../src/worker/payments/payments";
import { call, sleep, waitFor } from "../worker/helpers";
import {
  auditCount,
  openPaymentSocket,
  payOnPhone,
  paymentRow,
  seedFamily,
  setCallbacks,
  startPayment,
} from "../worker/swish-helpers";

interface Meta {
  payid: string | null;
  status: string | null;
  poll_started: number | null;
  poll_delay: number;
  last_wait: number | null;
}

function meta(payid: string) {
  return runInDurableObject(env.PAYMENT.getByName(payid), (_instance: PaymentDO, state) => {
    const row = state.storage.sql
      .exec<Meta & Record<string, SqlStorageValue>>(`SELECT * FROM meta WHERE id = 1`)
      .toArray()[0];
    return row ? { ...row } : null;
  });
}

function alarmAt(payid: string) {
  return runInDurableObject(env.PAYMENT.getByName(payid), (_instance: PaymentDO, state) => state.storage.getAlarm());
}

async function newPayment() {
  const family = await seedFamily();
  return { family, ...(await startPayment(family, 250)) };
}

beforeEach(async () => {
  await setCallbacks("normal");
});

describe("waiting page", () => {
  it("a socket waiting before settlement gets {payment: 'ok'} once and is closed with 1000", async () => {
    const { payid, token } = await newPayment();
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await meta(payid))?.last_wait != null, 2000, "the wait to register");
    expect(socket.messages).toEqual([]);

    await payOnPhone(token);
    expect(await socket.next()).toEqual({ payment: "ok" });
    await waitFor(() => socket.closeCode() !== null, 2000, "close");
    expect(socket.closeCode()).toBe(1000);
    expect(socket.messages).toHaveLength(1);
    expect(await meta(payid)).toMatchObject({ status: "PAID", poll_started: null });
    expect(await alarmAt(payid)).toBeNull();
  });

  it("a socket connecting after settlement is answered at once", async () => {
    const { payid, token } = await newPayment();
    await payOnPhone(token);
    expect((await paymentRow(payid))!.status).toBe("PAID");
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    expect(await socket.next()).toEqual({ payment: "ok" });
    await waitFor(() => socket.closeCode() === 1000, 2000, "close");
  });

  it("learns a settlement from D1 even if it was never told (an object that never heard of the payment)", async () => {
    await setCallbacks("drop");
    const { payid, token } = await newPayment();
    await payOnPhone(token);
    // Settled by the cron, say, whose notification got lost: write the row as the settler would.
    await env.DB.prepare(`UPDATE payments SET status = 'PAID', settled_at = ? WHERE id = ?`)
      .bind(Date.now(), payid)
      .run();
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    expect(await socket.next()).toEqual({ payment: "ok" });
  });

  it("a declined payment answers {payment: 'failed', status: 'DECLINED'}", async () => {
    const { payid, token } = await newPayment();
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await payOnPhone(token, "DECLINED");
    expect(await socket.next()).toEqual({ payment: "failed", status: "DECLINED" });
  });

  it("several tabs waiting on one payment each get exactly one answer", async () => {
    const { payid, token } = await newPayment();
    const sockets = await Promise.all([1, 2, 3].map(() => openPaymentSocket(payid)));
    for (const s of sockets) s.send({ action: "wait-pay", payid });
    await waitFor(async () => (await meta(payid))?.last_wait != null, 2000, "the waits");
    await payOnPhone(token);
    for (const s of sockets) expect(await s.next()).toEqual({ payment: "ok" });
    // A second notification (e.g. the cron's repair) must not answer anyone again.
    await env.PAYMENT.getByName(payid).notifySettled("PAID", payid);
    await sleep(100);
    for (const s of sockets) expect(s.messages).toEqual([{ payment: "ok" }]);
  });

  it("answers bad frames with an error, keeps ping/pong, and refuses a frame for another payment", async () => {
    const { payid } = await newPayment();
    const socket = await openPaymentSocket(payid);
    socket.send("not json");
    expect(await socket.next()).toEqual({ error: "Okänt meddelande" });
    socket.send({ action: "subscribe-to-race" });
    expect(await socket.next()).toEqual({ error: "Okänt meddelande" });
    socket.send({ action: "wait-pay", payid: newInstructionId() });
    expect(await socket.next()).toEqual({ error: "Fel betalning för den här anslutningen" });

    const pongs: string[] = [];
    socket.ws.addEventListener("message", (e) => {
      if (e.data === "pong") pongs.push(e.data);
    });
    socket.ws.send("ping");
    await waitFor(() => pongs.length === 1, 2000, "pong");
    socket.ws.close(1000);
  });

  it("fetch only upgrades sockets", async () => {
    const { payid } = await newPayment();
    const res = await env.PAYMENT.getByName(payid).fetch(`http://localhost/ws/pay/${payid}`);
    expect(res.status).toBe(426);
    // Through the Worker an unknown payment never reaches an object.
    expect((await call(`/ws/pay/${newInstructionId()}`, { headers: { upgrade: "websocket" } })).status).toBe(404);
  });
});

describe("hibernation", () => {
  it("a parked socket is still answered after the object is evicted, and its state comes back from storage", async () => {
    const { payid, token } = await newPayment();
    const stub = env.PAYMENT.getByName(payid);
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await meta(payid))?.last_wait != null, 2000, "the wait to register");
    await evictDurableObject(stub);

    // The object is gone from memory; the socket hibernates with its attachment.
    await payOnPhone(token);
    expect(await socket.next()).toEqual({ payment: "ok" });
    await waitFor(() => socket.closeCode() === 1000, 2000, "close");

    await evictDurableObject(stub);
    expect(await stub.status()).toBe("PAID");
    const late = await openPaymentSocket(payid);
    late.send({ action: "wait-pay", payid });
    expect(await late.next()).toEqual({ payment: "ok" });
  });

  it("a frame sent after eviction is handled from the attachment", async () => {
    const { payid, token } = await newPayment();
    const stub = env.PAYMENT.getByName(payid);
    const socket = await openPaymentSocket(payid);
    await stub.init(payid);
    await evictDurableObject(stub);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await meta(payid))?.last_wait != null, 2000, "the wait to register");
    await payOnPhone(token);
    expect(await socket.next()).toEqual({ payment: "ok" });
  });
});

describe("alarm polling", () => {
  it("settles a payment whose callback was dropped, and wakes the page", async () => {
    await setCallbacks("drop");
    const { family, payid, token } = await newPayment();
    const stub = env.PAYMENT.getByName(payid);
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await alarmAt(payid)) !== null, 2000, "the alarm");
    await payOnPhone(token);
    expect((await paymentRow(payid))!.status).toBe("CREATED");

    await runDurableObjectAlarm(stub);
    expect(await socket.next()).toEqual({ payment: "ok" });
    expect((await paymentRow(payid))!.status).toBe("PAID");
    expect(await auditCount("payment.settled", payid)).toBe(1);
    const settled = await env.DB.prepare(
      `SELECT detail FROM audit_log WHERE action = 'payment.settled' AND subject = ?`,
    )
      .bind(payid)
      .first<{ detail: string }>();
    expect(JSON.parse(settled!.detail)).toMatchObject({ status: "PAID", source: "poll" });
    // The runners and the receipt follow the answer (the settlement's afterPaid runs after it: object-services.ts).
    const receipts = async () =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM email_log WHERE kind = 'receipt' AND "to" = ?`)
        .bind(family.email)
        .first<{ n: number }>())!.n;
    await waitFor(async () => (await receipts()) === 1, 5000, "the receipt");
    expect(await alarmAt(payid)).toBeNull();
  });

  it("backs off from 2 s by 1.5 up to 30 s while the payment waits", async () => {
    await setCallbacks("drop");
    const { payid } = await newPayment();
    const stub = env.PAYMENT.getByName(payid);
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await alarmAt(payid)) !== null, 2000, "the alarm");
    expect((await meta(payid))!.poll_delay).toBe(POLL_FIRST_MS);

    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      delays.push((await meta(payid))!.poll_delay);
    }
    expect(delays).toEqual([3000, 4500, 6750, 10125, 15188, 22782, POLL_MAX_MS, POLL_MAX_MS, POLL_MAX_MS]);
    const next = (await alarmAt(payid))!;
    expect(next - Date.now()).toBeGreaterThan(POLL_MAX_MS - 5000);
    expect((await paymentRow(payid))!.status).toBe("CREATED");
    socket.ws.close(1000);
  });

  it("stops polling once nobody has waited for a while; a new wait starts it again", async () => {
    await setCallbacks("drop");
    const { payid } = await newPayment();
    const stub = env.PAYMENT.getByName(payid);
    const socket = await openPaymentSocket(payid);
    socket.send({ action: "wait-pay", payid });
    await waitFor(async () => (await alarmAt(payid)) !== null, 2000, "the alarm");
    socket.ws.close(1000);
    await sleep(50);
    await runInDurableObject(stub, (_i: PaymentDO, state) => {
      state.storage.sql.exec(`UPDATE meta SET last_wait = ? WHERE id = 1`, Date.now() - RECENT_WAIT_MS - 1000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await alarmAt(payid)).toBeNull();
    expect((await meta(payid))!.poll_started).toBeNull();

    const again = await openPaymentSocket(payid);
    again.send({ action: "wait-pay", payid });
    await waitFor(async () => (await alarmAt(payid)) !== null, 2000, "the alarm again");
    expect((await meta(payid))!.poll_delay).toBe(POLL_FIRST_MS);
    again.ws.close(1000);
    await runInDurableObject(stub, (_i: PaymentDO, state) => state.storage.deleteAlarm());
  });
});

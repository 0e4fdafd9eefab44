/**
 * Helpers for the Swish tests: a family in D1 (registration + runners), a payment started through the real
 * lifecycle against the simulator, the simulator's phone and switches, the payment socket, and counters for
 * "exactly once" checks.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { systemClock } from "../../src/shared/clock";
import { SEASON } from "../../src/shared/season";
import { database } from "../../src/worker/db/client";
import { participants, registrations } from "../../src/worker/db/schema";
import { RECEIPT_SENT, RUNNERS_ADDED, startSwishPayment } from "../../src/worker/payments/payments";
import { BASE, call, openSocket, post, waitFor, type TestSocket } from "./helpers";

let families = 0;

export interface Family {
  registrationId: string;
  email: string;
  participantIds: string[];
}

export async function seedFamily(
  runners: { firstname: string; lastname: string; age: number; distance: string }[] = [
    { firstname: "Anna", lastname: "Berg", age: 34, distance: "5.6" },
    { firstname: "Olle", lastname: "Berg", age: 8, distance: "1.6" },
  ],
): Promise<Family> {
  families++;
  const tag = `${Date.now().toString(36)}${families}${Math.random().toString(36).slice(2, 6)}`;
  const registrationId = `reg-${tag}`;
  const email = `swish-${tag}@example.se`;
  const now = systemClock.now();
  const db = database(env.DB);
  await db
    .insert(registrations)
    .values({ id: registrationId, season: SEASON.year, email, createdAt: now, updatedAt: now });
  const participantIds = runners.map((_, i) => `p-${tag}-${i}`);
  await db.insert(participants).values(
    runners.map((r, i) => ({
      id: participantIds[i]!,
      registrationId,
      season: SEASON.year,
      firstname: r.firstname,
      lastname: r.lastname,
      age: r.age,
      distance: r.distance,
      group: "Ingen",
      createdAt: now,
    })),
  );
  return { registrationId, email, participantIds };
}

export async function startPayment(family: Family, amount = 250, message = "Byloppet 2025: 1 barn, 1 vuxen") {
  return startSwishPayment(env, systemClock, {
    registrationId: family.registrationId,
    season: SEASON.year,
    amount,
    barn: 1,
    vuxna: 1,
    kampanj: null,
    participantIds: family.participantIds,
    origin: "registration",
    message,
    requestOrigin: BASE,
  });
}

/** The simulator's callback mode; every other switch back to its default (Swish answers at once). */
export async function setCallbacks(callbacks: "normal" | "drop" | "duplicate" | "delay", delayMs?: number) {
  const res = await post("/dev/swish/settings", {
    callbacks,
    apiDelayMs: 0,
    ...(delayMs === undefined ? {} : { delayMs }),
  });
  expect(res.status).toBe(200);
}

/** How long every Swish API call of the simulator takes to answer. */
export async function setSwishDelay(apiDelayMs: number) {
  expect((await post("/dev/swish/settings", { apiDelayMs })).status).toBe(200);
}

/**
 * The payer's phone: PAID, DECLINED or ERROR; returns the simulator's answer (settled object, callback result).
 * The Worker answers a callback before it settles (src/worker/payments/routes.ts), so when a callback was delivered this
 * waits until the settlement and, for a paid payment, the after-payment steps are done.
 */
export async function payOnPhone(token: string, status: "PAID" | "DECLINED" | "ERROR" = "PAID", errorCode?: string) {
  const res = await post(`/dev/swish/pay/${token}`, { status, ...(errorCode ? { errorCode } : {}) });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as {
    payment: Record<string, unknown>;
    callbacks: string;
    callbackStatuses: number[];
  };
  if (answer.callbackStatuses.includes(200)) await callbackWorkDone(token);
  return answer;
}

async function callbackWorkDone(token: string) {
  const ours = await env.DB.prepare(`SELECT id, registration_id FROM payments WHERE token = ?`)
    .bind(token)
    .first<{ id: string; registration_id: string | null }>();
  if (!ours) return;
  const steps = [RUNNERS_ADDED, ...(ours.registration_id ? [RECEIPT_SENT] : [])];
  await waitFor(
    async () => {
      const row = await paymentRow(ours.id);
      if (row?.status === "CREATED") return false;
      if (row?.status !== "PAID") return true;
      for (const step of steps) if ((await auditCount(step, ours.id)) === 0) return false;
      return true;
    },
    5000,
    "the callback's settlement",
  );
}

export async function paymentRow(payid: string) {
  return env.DB.prepare(`SELECT * FROM payments WHERE id = ?`).bind(payid).first<{
    id: string;
    status: string;
    amount: number;
    token: string | null;
    callback_identifier: string;
    date_paid: number | null;
    payment_reference: string | null;
    payer_alias: string | null;
    error_code: string | null;
    error_message: string | null;
    settled_at: number | null;
  }>();
}

export async function auditCount(action: string, subject: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM audit_log WHERE action = ? AND subject = ?`)
    .bind(action, subject)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export async function receiptsTo(email: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM email_log WHERE kind = 'receipt' AND "to" = ?`)
    .bind(email)
    .all<{ subject: string; text: string; html: string }>();
  return results;
}

/**
 * A callback as Swish sends it: the payment object, with the callbackIdentifier header. The Worker answers before
 * it settles; this resolves once that work is done too (the request runs in its own execution context, which is
 * waited for), unless `answerOnly`, which resolves with the answer itself, as Swish sees it.
 */
export function callback(body: unknown, callbackIdentifier: string | null, options: { answerOnly?: boolean } = {}) {
  return call("/swish/callback", {
    method: "POST",
    headers: { "content-type": "application/json", ...(callbackIdentifier ? { callbackIdentifier } : {}) },
    body: JSON.stringify(body),
    ...(options.answerOnly ? {} : { env: {} }),
  });
}

/** Opens `{wsUrl}/pay/{payid}` through the Worker, like the payment page. */
export function openPaymentSocket(payid: string): Promise<TestSocket> {
  return openSocket(`/ws/pay/${payid}`);
}

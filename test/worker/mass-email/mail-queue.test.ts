/**
 * The mail queue's consumer (src/worker/mass-email/mailings.ts) on workerd: batches made with `createMessageBatch` go through
 * the Worker's own queue() handler, and `getQueueResult` shows what it acknowledged and retried (with which delay).
 * A provider error comes from the real 'resend' transport of the e-mail adapter talking to a stand-in HTTP
 * provider that refuses on demand; otherwise the development outbox receives the mail. The resume case goes through
 * the real queue binding end to end.
 */
import { createExecutionContext, createMessageBatch, getQueueResult, type MessageBatchMessage } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { clockFromSettings } from "../../../src/shared/clock";
import { emailSender } from "../../../src/worker/adapters/email";
import { database } from "../../../src/worker/db/client";
import { createMailing } from "../../../src/worker/mass-email/mailings-db";
import { DOUBLE_SEND_WINDOW_MS } from "../../../src/worker/mass-email/routes";
import worker from "../../../src/worker/index";
import { ERRORS, handleMailBatch, MAIL_MAX_RETRIES, type MailMessage } from "../../../src/worker/mass-email/mailings";
import { get, loginAdmin, post, waitFor } from "../helpers";
import {
  clearMailingData,
  emailLogTo,
  mailAddress,
  outboxTo,
  recipientRows,
  recipientStatus,
  unsubscribe,
} from "./mailing-fixtures";

const QUEUE = "loppet-mail";
const DLQ = "loppet-mail-dlq";

let mailingSeq = 0;
async function mailing(emails: string[]): Promise<number> {
  const id = await createMailing(
    database(env.DB),
    {
      audience: "current",
      // Each its own text: the same mailing is made once within the double-send window.
      subject: `Loppdagen närmar sig (${++mailingSeq})`,
      message: "Hej!\nVi ses på lördag.",
      createdBy: "arrangor@example.se",
      recipients: emails.map((email, i) => ({ email, name: `Löpare ${i}`, race: "race-250913-56" })),
    },
    Date.now(),
    DOUBLE_SEND_WINDOW_MS,
  );
  if (id === null) throw new Error("the same mailing was made already");
  return id;
}

let msgSeq = 0;
function message(mailingId: number, email: string, attempts = 1, id?: string): MessageBatchMessage<MailMessage> {
  return { id: id ?? `msg-${++msgSeq}`, timestamp: Date.now(), attempts, body: { mailingId, email } };
}

/** The Worker's own queue() handler with the configured transport (the development outbox). */
async function runWorker(queue: string, messages: MessageBatchMessage<unknown>[]) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, env, ctx);
  return getQueueResult(batch, ctx);
}

/**
 * A stand-in for the bulk provider's HTTP API (Resend's shape): answers 503 while `failing` holds for the address,
 * 200 otherwise, and keeps every accepted mail.
 */
function provider(failing: (to: string) => boolean) {
  const accepted: { to: string; subject: string; text: string; headers?: Record<string, string> }[] = [];
  const fetcher = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as {
      to: string[];
      subject: string;
      text: string;
      headers?: Record<string, string>;
    };
    const to = body.to[0]!;
    if (failing(to)) return new Response("service unavailable", { status: 503 });
    accepted.push({ to, subject: body.subject, text: body.text, headers: body.headers });
    return Response.json({ id: crypto.randomUUID() });
  }) as typeof fetch;
  const providerEnv = { ...env, EMAIL_TRANSPORT: "resend", EMAIL_API_KEY: "test-key" } as Env;
  const sender = emailSender(providerEnv, database(env.DB), clockFromSettings(env), { fetch: fetcher });
  return {
    accepted,
    async run(messages: MessageBatchMessage<unknown>[], queue = QUEUE) {
      const batch = createMessageBatch(queue, messages);
      const ctx = createExecutionContext();
      const { observed, delays } = observeRetries(batch as MessageBatch<unknown>);
      await handleMailBatch(observed, providerEnv, { sender });
      return { ...(await getQueueResult(batch, ctx)), delays };
    },
  };
}

/**
 * `getQueueResult` lists retried messages but not the delay they asked for, so the batch is handed over with each
 * message's retry() passing through a recorder to the real one.
 */
function observeRetries(batch: MessageBatch<unknown>) {
  const delays = new Map<string, number | undefined>();
  const messages = batch.messages.map((m) => ({
    id: m.id,
    timestamp: m.timestamp,
    body: m.body,
    attempts: m.attempts,
    ack: () => m.ack(),
    retry: (options?: QueueRetryOptions) => {
      delays.set(m.id, options?.delaySeconds);
      m.retry(options);
    },
  }));
  const observed = {
    queue: batch.queue,
    messages,
    ackAll: () => batch.ackAll(),
    retryAll: (options?: QueueRetryOptions) => batch.retryAll(options),
  } as unknown as MessageBatch<unknown>;
  return { observed, delays };
}

describe("mail queue consumer", () => {
  beforeEach(clearMailingData);

  it("retries a provider error with exponential back-off, the claim released each time; then sends once", async () => {
    const to = mailAddress();
    const id = await mailing([to]);
    let failuresLeft = 4;
    const p = provider(() => failuresLeft-- > 0);
    const delays: (number | undefined)[] = [];
    for (let attempts = 1; attempts <= 4; attempts++) {
      const msg = message(id, to, attempts);
      const result = await p.run([msg]);
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages.map((r) => r.msgId)).toEqual([msg.id]);
      delays.push(result.delays.get(msg.id));
      expect(await recipientStatus(id, to)).toMatchObject({ status: "queued", claimed_at: null });
      expect((await recipientStatus(id, to))!.error).toMatch(/^Resend 503/);
    }
    expect(delays).toEqual([15, 30, 60, 120]);
    const last = message(id, to, 5);
    const result = await p.run([last]);
    expect(result.explicitAcks).toEqual([last.id]);
    expect(result.retryMessages).toEqual([]);
    expect(await recipientStatus(id, to)).toMatchObject({ status: "sent", error: null });
    expect(p.accepted.map((m) => m.to)).toEqual([to]);
    // The provider gets the one-click unsubscribe headers (RFC 2369, RFC 8058) naming the link in the text.
    const [mail] = p.accepted;
    const link = mail!.headers?.["List-Unsubscribe"]?.match(/^<(.+)>$/)?.[1];
    expect(link).toMatch(/\/unsubscribe\//);
    expect(mail!.text).toContain(link);
    expect(mail!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect((await emailLogTo(to)).map((l) => l.status)).toEqual(["failed", "failed", "failed", "failed", "sent"]);
  });

  it.each([
    ["the connection breaks after the provider took the mail", "lost"],
    ["the provider answers only after the send's time-out", "late"],
  ] as const)("no answer (%s): reported as uncertain, never resent", async (_, kind) => {
    const to = mailAddress(kind);
    const id = await mailing([to]);
    const accepted: string[] = [];
    const fetcher = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      accepted.push((JSON.parse(String(init?.body)) as { to: string[] }).to[0]!);
      if (kind === "lost") throw new TypeError("Network connection lost.");
      // Answers long after the deadline (or when the send gives up and aborts it).
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        init?.signal?.addEventListener("abort", () => (clearTimeout(timer), resolve(null)));
      });
      return Response.json({ id: crypto.randomUUID() });
    }) as typeof fetch;
    const providerEnv = { ...env, EMAIL_TRANSPORT: "resend", EMAIL_API_KEY: "test-key" } as Env;
    const sender = emailSender(providerEnv, database(env.DB), clockFromSettings(env), {
      fetch: fetcher,
      timeoutMs: 200,
    });
    const run = async (msg: MessageBatchMessage<MailMessage>) => {
      const batch = createMessageBatch(QUEUE, [msg]);
      const ctx = createExecutionContext();
      await handleMailBatch(batch as MessageBatch<unknown>, providerEnv, { sender });
      return getQueueResult(batch, ctx);
    };

    const first = message(id, to, 1);
    const result = await run(first);
    // Acknowledged, not retried: a retry could give the family a second copy.
    expect(result.explicitAcks).toEqual([first.id]);
    expect(result.retryMessages).toEqual([]);
    const row = await recipientStatus(id, to);
    expect(row!.status).toBe("unknown");
    expect(row!.error).toMatch(/^Leverantören svarade inte; mejlet kan ha skickats\. Skickas inte igen automatiskt\./);
    expect((await emailLogTo(to)).map((l) => l.status)).toEqual(["unknown"]);
    // A redelivery of the same message, and resuming the mailing, send nothing more.
    expect((await run(message(id, to, 2, first.id))).explicitAcks).toEqual([first.id]);
    const admin = await loginAdmin();
    expect((await post(`/admin/api/mailings/${id}/resume`, {}, { jar: admin })).status).toBe(200);
    expect(accepted).toEqual([to]);
    const progress = await (await get(`/admin/api/mailings/${id}`, { jar: admin })).json();
    expect(progress).toMatchObject({
      sentCount: 0,
      failedCount: 1,
      done: true,
      errors: [{ email: to, error: row!.error }],
    });
  });

  it("after the last retry: failed with the provider's error, handed on to the dead-letter queue", async () => {
    const [to, other] = [mailAddress("dod"), mailAddress("ok")];
    const id = await mailing([to, other]);
    const p = provider((address) => address === to);
    const final = message(id, to, MAIL_MAX_RETRIES + 1);
    const fine = message(id, other, 1);
    const result = await p.run([final, fine]);
    // Retried without a delay past max_retries: the platform moves it to the dead-letter queue.
    expect(result.retryMessages).toEqual([{ msgId: final.id }]);
    expect(result.delays.get(final.id)).toBeUndefined();
    expect(result.delays.has(final.id)).toBe(true);
    expect(result.explicitAcks).toEqual([fine.id]);
    const row = await recipientStatus(id, to);
    expect(row).toMatchObject({ status: "failed" });
    expect(row!.error).toMatch(/^Resend 503: service unavailable/);

    const admin = await loginAdmin();
    const progress = await (await get(`/admin/api/mailings/${id}`, { jar: admin })).json();
    expect(progress).toMatchObject({
      totalRecipients: 2,
      sentCount: 1,
      failedCount: 1,
      pending: 0,
      done: true,
      errors: [{ email: to, error: row!.error }],
    });

    // The dead-letter queue's consumer keeps the verdict and acknowledges.
    const dead = await runWorker(DLQ, [message(id, to, 1, final.id)]);
    expect(dead.explicitAcks).toEqual([final.id]);
    expect(await recipientStatus(id, to)).toEqual(row);
    expect(p.accepted.map((m) => m.to)).toEqual([other]);
  });

  it("the dead-letter consumer gives a verdict to recipients the consumer never settled", async () => {
    const [queued, claimed] = [mailAddress("koad"), mailAddress("tagen")];
    const id = await mailing([queued, claimed]);
    await env.DB.prepare("UPDATE mailing_recipients SET status = 'claimed', claimed_at = ? WHERE email = ?")
      .bind(Date.now(), claimed)
      .run();
    const result = await runWorker(DLQ, [message(id, queued), message(id, claimed), { ...message(id, "x"), body: 7 }]);
    expect(result.explicitAcks).toHaveLength(3);
    expect(await recipientStatus(id, queued)).toMatchObject({ status: "failed", error: ERRORS.deadLettered });
    expect(await recipientStatus(id, claimed)).toMatchObject({ status: "unknown", error: ERRORS.crashed });
    expect(await outboxTo(queued)).toEqual([]);
    expect(await outboxTo(claimed)).toEqual([]);
  });

  it("a redelivered batch, or a message enqueued twice, sends nothing twice", async () => {
    const emails = [mailAddress("ett"), mailAddress("tva"), mailAddress("tre")];
    const id = await mailing(emails);
    const messages = emails.map((e) => message(id, e));
    const first = await runWorker(QUEUE, [...messages, message(id, emails[0]!)]);
    expect(first.explicitAcks).toHaveLength(4);
    expect(first.retryMessages).toEqual([]);
    const redelivered = await runWorker(
      QUEUE,
      messages.map((m) => ({ ...m, attempts: 2 })),
    );
    expect(redelivered.explicitAcks).toEqual(messages.map((m) => m.id));
    for (const email of emails) {
      const mails = await outboxTo(email);
      expect(mails, email).toHaveLength(1);
      expect(mails[0]).toMatchObject({
        subject: expect.stringMatching(/^Loppdagen närmar sig \(\d+\)$/),
        kind: "mailing",
        mailing_id: id,
      });
      expect((await emailLogTo(email)).map((l) => l.status)).toEqual(["sent"]);
    }
    expect((await recipientRows(id)).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
  });

  it("a claim that never finished (a crash between claim and send) is reported as unknown, never resent", async () => {
    const [crashed, fine] = [mailAddress("krasch"), mailAddress("fin")];
    const id = await mailing([crashed, fine]);
    await env.DB.prepare("UPDATE mailing_recipients SET status = 'claimed', claimed_at = ? WHERE email = ?")
      .bind(Date.now() - 60_000, crashed)
      .run();
    for (const attempts of [2, 3]) {
      const msg = message(id, crashed, attempts);
      const result = await runWorker(QUEUE, [msg]);
      expect(result.explicitAcks).toEqual([msg.id]);
      expect(result.retryMessages).toEqual([]);
    }
    await runWorker(QUEUE, [message(id, fine)]);
    expect(await recipientStatus(id, crashed)).toMatchObject({ status: "unknown", error: ERRORS.crashed });
    expect(await outboxTo(crashed)).toEqual([]);
    const admin = await loginAdmin();
    expect(await (await get(`/admin/api/mailings/${id}`, { jar: admin })).json()).toMatchObject({
      sentCount: 1,
      failedCount: 1,
      done: true,
      errors: [{ email: crashed, error: ERRORS.crashed }],
    });
  });

  it("skips an address that unsubscribed after the mailing was made", async () => {
    const [gone, stays] = [mailAddress("avslutad"), mailAddress("kvar")];
    const id = await mailing([gone, stays]);
    await unsubscribe(gone);
    const result = await runWorker(QUEUE, [message(id, gone), message(id, stays)]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(await recipientStatus(id, gone)).toMatchObject({ status: "skipped" });
    expect(await outboxTo(gone)).toEqual([]);
    expect(await outboxTo(stays)).toHaveLength(1);
  });

  it("acknowledges malformed messages and messages for unknown mailings or recipients, sending nothing", async () => {
    const to = mailAddress();
    const id = await mailing([to]);
    const bad: MessageBatchMessage<unknown>[] = [
      { id: "m1", timestamp: Date.now(), attempts: 1, body: "text" },
      { id: "m2", timestamp: Date.now(), attempts: 1, body: { mailingId: "1", email: to } },
      { id: "m3", timestamp: Date.now(), attempts: 1, body: { mailingId: id + 1000, email: to } },
      { id: "m4", timestamp: Date.now(), attempts: 1, body: { mailingId: id, email: "inte-med@example.se" } },
    ];
    const result = await runWorker(QUEUE, bad);
    expect(result.explicitAcks).toEqual(["m1", "m2", "m3", "m4"]);
    expect(result.retryMessages).toEqual([]);
    expect(await outboxTo(to)).toEqual([]);
    expect(await outboxTo("inte-med@example.se")).toEqual([]);
    expect(await recipientStatus(id, to)).toMatchObject({ status: "queued" });
  });

  it("an interrupted mailing resumes through the queue without sending anyone a second copy", async () => {
    const [sentBefore, lost, staleClaim, freshClaim] = [
      mailAddress("redan"),
      mailAddress("borttappad"),
      mailAddress("gammal-claim"),
      mailAddress("ny-claim"),
    ];
    const id = await mailing([sentBefore, lost, staleClaim, freshClaim]);
    // Half-way: one was sent, one message was lost, one sender died 30 minutes ago, one is sending right now.
    await runWorker(QUEUE, [message(id, sentBefore)]);
    const claim = env.DB.prepare("UPDATE mailing_recipients SET status = 'claimed', claimed_at = ? WHERE email = ?");
    await claim.bind(Date.now() - 30 * 60_000, staleClaim).run();
    await claim.bind(Date.now() - 60_000, freshClaim).run();

    const admin = await loginAdmin();
    const res = await post(`/admin/api/mailings/${id}/resume`, {}, { jar: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ requeued: 1, reported: 1 });
    await waitFor(async () => (await recipientStatus(id, lost))?.status === "sent", 15_000, "the lost one to be sent");
    // Resuming again re-enqueues nobody: nothing is queued any more.
    const again = await post(`/admin/api/mailings/${id}/resume`, {}, { jar: admin });
    expect(await again.json()).toMatchObject({ requeued: 0, reported: 0 });

    expect(await outboxTo(sentBefore)).toHaveLength(1);
    expect(await outboxTo(lost)).toHaveLength(1);
    expect(await outboxTo(staleClaim)).toEqual([]);
    expect(await outboxTo(freshClaim)).toEqual([]);
    expect(await recipientStatus(id, staleClaim)).toMatchObject({ status: "unknown", error: ERRORS.crashed });
    expect(await recipientStatus(id, freshClaim)).toMatchObject({ status: "claimed" });
  });
});

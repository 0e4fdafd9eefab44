/**
 * Mailings left waiting or failed (issue 39, item 4), through the Worker's routes: `GET /admin/api/mailings/waiting`
 * lists each mass mailing on its own line and the results mails one line per race (families waiting, failed);
 * `POST /admin/api/mailings/results/{race}/resume` resumes a race's results mails, trying the failed ones again;
 * a resume racing another resume of the same mailing is refused (409), and resumes one after the other hand the
 * recipients to the queue twice but the Worker's consumer sends each of them once.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { RESUME_MSG, type WaitingMailings } from "../../../src/shared/mailings";
import { OUTBOX_REFUSES } from "../../../src/worker/adapters/outbox";
import { database } from "../../../src/worker/db/client";
import worker from "../../../src/worker/index";
import type { MailMessage } from "../../../src/worker/mass-email/mailings";
import { createMailing, type MailingAudience } from "../../../src/worker/mass-email/mailings-db";
import { DOUBLE_SEND_WINDOW_MS } from "../../../src/worker/mass-email/routes";
import { call, get, loginAdmin, post, type CookieJar } from "../helpers";
import { clearMailingData, emailLogTo, mailAddress, outboxTo, recipientRows } from "./mailing-fixtures";

beforeEach(clearMailingData);

let seq = 0;
async function mailing(audience: MailingAudience, emails: string[], race: string | null = null): Promise<number> {
  const id = await createMailing(
    database(env.DB),
    {
      audience,
      subject: `Utskick ${++seq}`,
      message: "Hej!",
      createdBy: audience === "results" ? "system" : "arrangor@example.se",
      recipients: emails.map((email) => ({ email, name: "", race })),
    },
    Date.now(),
    DOUBLE_SEND_WINDOW_MS,
  );
  if (id === null) throw new Error("the same mailing was made already");
  return id;
}

async function setStatus(mailingId: number, email: string, status: string) {
  await env.DB.prepare("UPDATE mailing_recipients SET status = ?, error = ? WHERE mailing_id = ? AND email = ?")
    .bind(status, status === "failed" ? "Resend 503: service unavailable" : null, mailingId, email)
    .run();
}

async function waiting(admin: CookieJar): Promise<WaitingMailings> {
  const res = await get("/admin/api/mailings/waiting", { jar: admin });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as WaitingMailings;
}

/** The Worker's env with a queue that keeps what it takes. */
function recordingQueue() {
  const sent: MailMessage[] = [];
  const queue = {
    sendBatch: async (messages: { body: MailMessage }[]) => void sent.push(...messages.map((m) => m.body)),
  };
  return { queue: queue as unknown as Queue, sent };
}

/** Every message, delivered through the Worker's own queue consumer (the development outbox receives the mail). */
async function deliver(messages: MailMessage[]) {
  const batch = createMessageBatch(
    "loppet-mail",
    messages.map((body, i) => ({
      id: `m${i}-${body.mailingId}-${body.email}`,
      timestamp: new Date(),
      attempts: 1,
      body,
    })),
  );
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, env, ctx);
  return getQueueResult(batch, ctx);
}

/**
 * `env.DB`, but the first statement whose SQL matches `at` waits for `meanwhile` before it runs: another call
 * landing at that moment of this one.
 */
function pausingDb(at: RegExp, meanwhile: () => Promise<void>): D1Database {
  let fired = false;
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (prop === "run" || prop === "all" || prop === "raw" || prop === "first") {
          return async (...args: unknown[]) => {
            if (!fired) {
              fired = true;
              await meanwhile();
            }
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => (at.test(sql) ? wrap(target.prepare(sql)) : target.prepare(sql));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe("GET /admin/api/mailings/waiting", () => {
  it("lists each mass mailing with someone waiting or failed, and the results mails one line per race", async () => {
    const admin = await loginAdmin();
    expect(await waiting(admin)).toEqual({ mailings: [], results: [] });

    const [a, b, c] = [mailAddress("a"), mailAddress("b"), mailAddress("c")];
    const stalled = await mailing("current", [a, b, c]);
    await setStatus(stalled, a, "sent");
    await setStatus(stalled, b, "failed");
    const done = await mailing("previous", [a, b]);
    await setStatus(done, a, "sent");
    await setStatus(done, b, "unknown");
    const untouched = await mailing("previous", [c]);
    // Results mails: one mailing per family. Race 16: two families waiting (one with its official mail and its
    // correction both waiting: one family), one refused for good, one sent. Race 56: one family waiting.
    const [f1, f2, f3, f4] = [mailAddress("f1"), mailAddress("f2"), mailAddress("f3"), mailAddress("f4")];
    await mailing("results", [f1], "race-250913-16");
    await mailing("results", [f1], "race-250913-16");
    await mailing("results", [f2], "race-250913-16");
    const refused = await mailing("results", [f3], "race-250913-16");
    await setStatus(refused, f3, "failed");
    const sent = await mailing("results", [f4], "race-250913-16");
    await setStatus(sent, f4, "sent");
    await mailing("results", [f4], "race-250913-56");

    const list = await waiting(admin);
    // Newest first; the mailing whose recipients are all sent or unknown (maybe sent: never resent) is not listed.
    expect(list.mailings).toEqual([
      expect.objectContaining({ id: untouched, audience: "previous", totalRecipients: 1, waiting: 1, failed: 0 }),
      expect.objectContaining({ id: stalled, audience: "current", totalRecipients: 3, waiting: 1, failed: 1 }),
    ]);
    expect(list.mailings.map((m) => m.id)).not.toContain(done);
    expect(list.mailings[1]).toMatchObject({
      subject: expect.stringMatching(/^Utskick /),
      createdAt: expect.any(Number),
    });
    expect(list.results).toEqual([
      { race: "race-250913-16", waiting: 2, failed: 1, since: expect.any(Number) },
      { race: "race-250913-56", waiting: 1, failed: 0, since: expect.any(Number) },
    ]);
  });
});

describe("POST /admin/api/mailings/results/{race}/resume", () => {
  it("hands the race's waiting results mails to the queue again and tries the refused ones again, once each", async () => {
    const admin = await loginAdmin();
    const [f1, f2, other] = [mailAddress("r1"), mailAddress("r2"), mailAddress("annat")];
    const lost = await mailing("results", [f1], "race-250913-28");
    const refused = await mailing("results", [f2], "race-250913-28");
    await setStatus(refused, f2, "failed");
    const elsewhere = await mailing("results", [other], "race-250913-08");
    const q = recordingQueue();

    const res = await call("/admin/api/mailings/results/race-250913-28/resume", {
      method: "POST",
      headers: { "x-loppet-client": "1" },
      jar: admin,
      env: { MAIL_QUEUE: q.queue },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ requeued: 2, retried: 1, reported: 0 });
    expect(q.sent).toEqual([
      { mailingId: lost, email: f1 },
      { mailingId: refused, email: f2 },
    ]);
    // The other race's mail is not this line's.
    expect(q.sent.map((m) => m.mailingId)).not.toContain(elsewhere);

    await deliver(q.sent);
    for (const [id, email] of [
      [lost, f1],
      [refused, f2],
    ] as const) {
      expect((await recipientRows(id)).map((r) => r.status)).toEqual(["sent"]);
      expect(await outboxTo(email)).toHaveLength(1);
    }
    expect((await waiting(admin)).results.map((r) => r.race)).toEqual(["race-250913-08"]);
  });

  it("bad input: a race with nothing waiting is a 404, something that is no race id a 400", async () => {
    const admin = await loginAdmin();
    const none = await post("/admin/api/mailings/results/race-250913-56/resume", {}, { jar: admin });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: RESUME_MSG.noneWaiting });
    const bad = await post("/admin/api/mailings/results/inte-ett-lopp/resume", {}, { jar: admin });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: RESUME_MSG.badRace });
  });
});

describe("a resume racing another resume of the same mailing", () => {
  const RESUME = /status = 'queued' ORDER BY mailing_id/;

  it("at the same moment: one hands the recipients on, the other is told it is already going on; each is sent once", async () => {
    const admin = await loginAdmin();
    const emails = [mailAddress("x"), mailAddress("y"), mailAddress("z")];
    const id = await mailing("current", emails);
    const q = recordingQueue();
    const resume = (DB: D1Database) =>
      call(`/admin/api/mailings/${id}/resume`, {
        method: "POST",
        headers: { "x-loppet-client": "1" },
        jar: admin,
        env: { DB, MAIL_QUEUE: q.queue },
      });

    // The second click lands while the first has taken its lease and is reading whom to hand on.
    let second: Response | null = null;
    const db = pausingDb(RESUME, async () => {
      second = await resume(db);
    });
    const first = await resume(db);
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({ requeued: 3, retried: 0, reported: 0 });
    expect(second!.status).toBe(409);
    expect(await second!.json()).toMatchObject({ error: RESUME_MSG.busy });
    expect(q.sent).toHaveLength(3);

    // One after the other (the lease is given back): both hand the queued recipients on …
    const third = await resume(env.DB);
    expect(third.status).toBe(200);
    expect(q.sent).toHaveLength(6);
    // … and the consumer sends each of them once.
    const result = await deliver(q.sent);
    expect(result.explicitAcks).toHaveLength(6);
    for (const email of emails) {
      expect((await outboxTo(email)).map((m) => m.mailing_id)).toEqual([id]);
      expect((await emailLogTo(email)).map((l) => l.status)).toEqual(["sent"]);
    }
    expect((await recipientRows(id)).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    // A resume of the finished mailing hands nobody on.
    const fourth = await resume(env.DB);
    expect(await fourth.json()).toMatchObject({ requeued: 0 });
    expect(q.sent).toHaveLength(6);
  });

  it("a lease left by a resume that died (over a minute old) is taken over", async () => {
    const admin = await loginAdmin();
    const email = mailAddress("kvar");
    const id = await mailing("previous", [email]);
    await env.DB.prepare("UPDATE mailings SET resuming_at = ? WHERE id = ?")
      .bind(Date.now() - 5_000, id)
      .run();
    expect((await post(`/admin/api/mailings/${id}/resume`, {}, { jar: admin })).status).toBe(409);
    await env.DB.prepare("UPDATE mailings SET resuming_at = ? WHERE id = ?")
      .bind(Date.now() - 61_000, id)
      .run();
    const q = recordingQueue();
    const res = await call(`/admin/api/mailings/${id}/resume`, {
      method: "POST",
      headers: { "x-loppet-client": "1" },
      jar: admin,
      env: { MAIL_QUEUE: q.queue },
    });
    expect(res.status).toBe(200);
    expect(q.sent).toEqual([{ mailingId: id, email }]);
    const row = await env.DB.prepare("SELECT resuming_at, handed_at FROM mailings WHERE id = ?")
      .bind(id)
      .first<{ resuming_at: number | null; handed_at: number | null }>();
    expect(row).toEqual({ resuming_at: null, handed_at: expect.any(Number) });
  });
});

describe("development's refusing outbox (POST /dev/outbox/settings {refuse})", () => {
  it("while on, the queue's consumer gets an error answer: the recipient waits for a retry; off again, it is sent", async () => {
    const admin = await loginAdmin();
    const email = mailAddress("vantar");
    const id = await mailing("current", [email]);
    expect((await post("/dev/outbox/settings", { refuse: "ja" })).status).toBe(400);
    expect(await (await post("/dev/outbox/settings", { refuse: true })).json()).toEqual({ refuse: true });
    try {
      const refused = await deliver([{ mailingId: id, email }]);
      expect(refused.retryMessages).toHaveLength(1);
      expect(await recipientRows(id)).toEqual([expect.objectContaining({ status: "queued", error: OUTBOX_REFUSES })]);
      expect(await outboxTo(email)).toEqual([]);
      expect((await waiting(admin)).mailings).toEqual([expect.objectContaining({ id, waiting: 1 })]);
    } finally {
      await post("/dev/outbox/settings", { refuse: false });
    }
    expect((await deliver([{ mailingId: id, email }])).explicitAcks).toHaveLength(1);
    expect(await outboxTo(email)).toHaveLength(1);
    expect(await waiting(admin)).toEqual({ mailings: [], results: [] });
  });
});

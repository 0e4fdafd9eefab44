/**
 * Mass e-mail's calls (admin area §7): counts and lists of previous and current runners, sending through the mail
 * queue (the real Queue on workerd delivers to this Worker's consumer), the mailing's progress, and bad input.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { createMailing } from "../../../src/worker/mass-email/mailings-db";
import { DOUBLE_SEND_WINDOW_MS } from "../../../src/worker/mass-email/routes";
import { call, get, loginAdmin, post, rawPost, storedState, visitorJar, waitFor } from "../helpers";
import {
  clearMailingData,
  emailLogTo,
  mailAddress,
  outboxTo,
  recipientRows,
  registration,
  unsubscribe,
} from "./mailing-fixtures";

const PATHS = {
  previousCount: "/admin/api/previous-runners-count",
  previous: "/admin/api/previous-runners",
  sendPrevious: "/admin/api/send-email-previous-runners",
  currentCount: "/admin/api/get_current_runners_count_handler",
  current: "/admin/api/get_current_runners_handler",
  sendCurrent: "/admin/api/send-email-current-runners",
} as const;

interface Progress {
  id: number;
  totalRecipients: number;
  sentCount: number;
  failedCount: number;
  skippedCount: number;
  pending: number;
  done: boolean;
  errors: { email: string; error: string }[];
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function progress(jar: Awaited<ReturnType<typeof loginAdmin>>, id: number): Promise<Progress> {
  return json<Progress>(await get(`/admin/api/mailings/${id}`, { jar }));
}

async function untilDone(jar: Awaited<ReturnType<typeof loginAdmin>>, id: number): Promise<Progress> {
  let last: Progress | null = null;
  await waitFor(
    async () => {
      last = await progress(jar, id);
      return last.done;
    },
    20_000,
    `mailing ${id} to finish`,
  );
  return last!;
}

/** Last season (2024) and the one before, this season (2025): paid, unpaid, several runners. */
async function seasons() {
  const a = mailAddress("a-forra");
  const b = mailAddress("b-forra");
  const unpaid2024 = mailAddress("obetald");
  const only2023 = mailAddress("tidigare");
  const current = mailAddress("c-nu");
  const unpaid2025 = mailAddress("obetald-nu");
  await registration(2024, a, [
    { firstname: "Anna", lastname: "Berg" },
    { firstname: "Olle", lastname: "Berg", distance: "0.8" },
  ]);
  await registration(2024, b, [{ firstname: "Bo", lastname: "Ek" }]);
  await registration(2024, unpaid2024, [{ firstname: "Ej", lastname: "Betalt" }], false);
  await registration(2023, only2023, [{ firstname: "Gammal", lastname: "Löpare" }]);
  await registration(2025, current, [
    { firstname: "Cia", lastname: "Lund", distance: "5.6", raceId: "race-250913-56" },
    { firstname: "Max", lastname: "Lund", distance: "0.8", raceId: null },
  ]);
  await registration(2025, unpaid2025, [{ firstname: "Nej", lastname: "Inte" }], false);
  return { a, b, unpaid2024, only2023, current, unpaid2025 };
}

describe("mass e-mail calls", () => {
  beforeEach(clearMailingData);

  it("are for admins only: 401 for a visitor or nobody, 403 from another site, nothing stored", async () => {
    const visitor = await visitorJar("besokare@example.se");
    const before = await storedState();
    for (const path of [
      PATHS.previousCount,
      PATHS.previous,
      PATHS.currentCount,
      PATHS.current,
      "/admin/api/mailings/1",
    ]) {
      expect((await get(path)).status, path).toBe(401);
      expect((await get(path, { jar: visitor })).status, path).toBe(401);
    }
    for (const path of [PATHS.sendPrevious, PATHS.sendCurrent, "/admin/api/mailings/1/resume"]) {
      expect((await post(path, { subject: "Hej", message: "Hej" })).status, path).toBe(401);
      expect((await post(path, { subject: "Hej", message: "Hej" }, { jar: visitor })).status, path).toBe(401);
    }
    const admin = await loginAdmin();
    await seasons();
    const seeded = await storedState();
    const crossSite = await call(PATHS.sendCurrent, {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ subject: "Hej", message: "Hej" }),
    });
    expect(crossSite.status).toBe(403);
    expect(await storedState()).toEqual(seeded);
    expect(before.mailings).toBe(seeded.mailings);
  });

  it("previous runners: last season's paid registrations, one row per address, name from its runners", async () => {
    const jar = await loginAdmin();
    const s = await seasons();
    expect(await json(await get(PATHS.previousCount, { jar }))).toEqual({ count: 2 });
    expect(await json(await get(PATHS.previous, { jar }))).toEqual([
      { name: "Anna Berg, Olle Berg", email: s.a },
      { name: "Bo Ek", email: s.b },
    ]);
  });

  it("previous runners: the newest earlier season with registrations, none at all gives 0 and []", async () => {
    const jar = await loginAdmin();
    expect(await json(await get(PATHS.previousCount, { jar }))).toEqual({ count: 0 });
    expect(await json(await get(PATHS.previous, { jar }))).toEqual([]);
    // No race in 2024: "last year's" runners are 2023's.
    const ran2023 = mailAddress("tjugotre");
    await registration(2023, ran2023, [{ firstname: "Tre", lastname: "Tre" }]);
    expect(await json(await get(PATHS.previous, { jar }))).toEqual([{ name: "Tre Tre", email: ran2023 }]);
  });

  it("current runners: this season's paid registrations with their races", async () => {
    const jar = await loginAdmin();
    const s = await seasons();
    expect(await json(await get(PATHS.currentCount, { jar }))).toEqual({ count: 1 });
    expect(await json(await get(PATHS.current, { jar }))).toEqual([
      { name: "Cia Lund, Max Lund", email: s.current, race: "race-250913-56, race-250913-08" },
    ]);
  });

  it("leaves unsubscribed addresses out of both lists and counts", async () => {
    const jar = await loginAdmin();
    const s = await seasons();
    await unsubscribe(s.a);
    await unsubscribe(s.current);
    expect(await json(await get(PATHS.previousCount, { jar }))).toEqual({ count: 1 });
    expect(await json(await get(PATHS.previous, { jar }))).toEqual([{ name: "Bo Ek", email: s.b }]);
    expect(await json(await get(PATHS.currentCount, { jar }))).toEqual({ count: 0 });
    expect(await json(await get(PATHS.current, { jar }))).toEqual([]);
  });

  it("refuses a missing or empty subject or message with the spec's text, and oversized text; nothing stored", async () => {
    const jar = await loginAdmin();
    await seasons();
    const before = await storedState();
    const required = "Please fill in both subject and message";
    const cases: [unknown, string][] = [
      [{}, required],
      [{ subject: "Hej" }, required],
      [{ message: "Hej" }, required],
      [{ subject: "", message: "Hej" }, required],
      [{ subject: "Hej", message: "   \n " }, required],
      [{ subject: 12, message: "Hej" }, required],
      [{ subject: "Hej", message: ["Hej"] }, required],
      [{ subject: null, message: null }, required],
      [[], required],
      ["Hej", required],
      [null, required],
      [{ subject: "x".repeat(201), message: "Hej" }, "Ämnet får vara högst 200 tecken."],
      // A subject is one header line: a line break could add headers (Bcc:) to every mail.
      ...[
        "Hej\r\nBcc: alla@example.se",
        "Hej\nBcc: alla@example.se",
        "Hej\r",
        "\nHej",
        "Hej\u2028Bcc: x@example.se",
      ].map((subject): [unknown, string] => [
        { subject, message: "Hej" },
        "Ämnet ska vara en rad: utan radbrytningar eller andra styrtecken.",
      ]),
      [{ subject: "Hej", message: "x".repeat(20_001) }, "Meddelandet får vara högst 20 000 tecken."],
    ];
    for (const path of [PATHS.sendPrevious, PATHS.sendCurrent]) {
      for (const [body, message] of cases) {
        const res = await post(path, body, { jar });
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(((await res.json()) as { error: string }).error).toBe(message);
      }
      expect((await rawPost(path, "{subject:", { jar })).status).toBe(400);
      expect((await rawPost(path, "subject=Hej&message=Hej", { jar, contentType: "text/plain" })).status).toBe(415);
      const huge = await post(path, { subject: "Hej", message: "x".repeat(70_000) }, { jar });
      expect(huge.status).toBe(413);
    }
    expect(await storedState()).toEqual(before);
  });

  it("refuses to send to nobody (409), and stores nothing", async () => {
    const jar = await loginAdmin();
    const before = await storedState();
    for (const path of [PATHS.sendPrevious, PATHS.sendCurrent]) {
      const res = await post(path, { subject: "Hej", message: "Välkomna!" }, { jar });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: "Det finns inga mottagare att skicka till." });
    }
    expect(await storedState()).toEqual(before);
  });

  it("sends to previous runners through the queue: answers at once, then every address gets one mail", async () => {
    const jar = await loginAdmin();
    const s = await seasons();
    const sent = await json<{ id: number; totalRecipients: number }>(
      await post(PATHS.sendPrevious, { subject: " Anmälan är öppen ", message: "Hej!\n\nVälkomna tillbaka." }, { jar }),
      202,
    );
    expect(sent.totalRecipients).toBe(2);
    const mailing = await env.DB.prepare("SELECT * FROM mailings WHERE id = ?").bind(sent.id).first();
    expect(mailing).toMatchObject({
      audience: "previous",
      subject: "Anmälan är öppen",
      message: "Hej!\n\nVälkomna tillbaka.",
      created_by: "arrangor@example.se",
      total_recipients: 2,
    });
    const done = await untilDone(jar, sent.id);
    expect(done).toMatchObject({
      totalRecipients: 2,
      sentCount: 2,
      failedCount: 0,
      pending: 0,
      done: true,
      errors: [],
    });
    expect((await recipientRows(sent.id)).map((r) => [r.email, r.status, r.name])).toEqual([
      [s.a, "sent", "Anna Berg, Olle Berg"],
      [s.b, "sent", "Bo Ek"],
    ]);
    for (const email of [s.a, s.b]) {
      const mails = await outboxTo(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ subject: "Anmälan är öppen", kind: "mailing", mailing_id: sent.id });
      expect(mails[0]!.text).toContain("Välkomna tillbaka.");
      expect(mails[0]!.text).toMatch(
        new RegExp(`${env.PUBLIC_ORIGIN}/unsubscribe/${sent.id}\\.[A-Za-z0-9_-]+\\.[0-9a-f]{64}`),
      );
      expect(mails[0]!.html).toContain("<p>Hej!</p>");
      expect(await emailLogTo(email)).toEqual([{ status: "sent", kind: "mailing", error: null, mailing_id: sent.id }]);
    }
    for (const email of [s.unpaid2024, s.only2023, s.current]) expect(await outboxTo(email)).toEqual([]);
  });

  it("sends to current runners; the organiser's text is never read as HTML", async () => {
    const jar = await loginAdmin();
    const s = await seasons();
    const sent = await json<{ id: number; totalRecipients: number }>(
      await post(PATHS.sendCurrent, { subject: "Loppdagen", message: "Ta med <b>nummerlapp</b> & vatten" }, { jar }),
      202,
    );
    expect(sent.totalRecipients).toBe(1);
    expect(await untilDone(jar, sent.id)).toMatchObject({ sentCount: 1, done: true });
    const [mail] = await outboxTo(s.current);
    expect(mail!.html).toContain("Ta med &lt;b&gt;nummerlapp&lt;/b&gt; &amp; vatten");
    expect((await recipientRows(sent.id))[0]).toMatchObject({ race: "race-250913-56, race-250913-08" });
  });

  it("refuses the same mailing again while it is recent (a double click), but not another text", async () => {
    const jar = await loginAdmin();
    await seasons();
    const body = { subject: "Påminnelse", message: "Glöm inte loppet!" };
    const first = await json<{ id: number }>(await post(PATHS.sendCurrent, body, { jar }), 202);
    const before = await storedState();
    const again = await post(PATHS.sendCurrent, body, { jar });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/Samma utskick/);
    await untilDone(jar, first.id);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM mailings").first<{ n: number }>())!.n).toBe(1);
    expect(before.mailings).toMatch(/^1 rows/);
    const other = await post(PATHS.sendCurrent, { ...body, message: "Glöm inte vattenflaskan!" }, { jar });
    expect(other.status).toBe(202);
    await untilDone(jar, ((await other.json()) as { id: number }).id);
  });

  it("the claim is the mailing's own write: two writes of one mailing that both passed the route's check make one", async () => {
    const { current } = await seasons();
    const input = {
      audience: "current" as const,
      subject: "Efter kontrollen",
      message: "Båda såg inget utskick.",
      createdBy: "arrangor@example.se",
      recipients: [{ email: current, name: "Cia Lund", race: null }],
    };
    const db = database(env.DB);
    const now = Date.now();
    const ids = await Promise.all([
      createMailing(db, input, now, DOUBLE_SEND_WINDOW_MS),
      createMailing(db, input, now, DOUBLE_SEND_WINDOW_MS),
    ]);
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(ids.filter((id) => id === null)).toHaveLength(1);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM mailings").first<{ n: number }>())!.n).toBe(1);
    expect(await recipientRows(ids.find((id) => id !== null)!)).toHaveLength(1);
    // Another audience or text is another mailing.
    expect(await createMailing(db, { ...input, audience: "previous" }, now, DOUBLE_SEND_WINDOW_MS)).not.toBeNull();
    expect(await createMailing(db, { ...input, message: "Annan text." }, now, DOUBLE_SEND_WINDOW_MS)).not.toBeNull();
  });

  it("the same mailing can be sent again once the double-send window (10 minutes) has passed", async () => {
    const jar = await loginAdmin();
    const { current } = await seasons();
    const body = { subject: "Igen", message: "Samma text, en ny dag." };
    const first = await json<{ id: number }>(await post(PATHS.sendCurrent, body, { jar }), 202);
    await untilDone(jar, first.id);
    const later = (minutes: number) => ({
      NOW: new Date(Date.now() + minutes * 60_000).toISOString(),
      NOW_SET_AT: String(Date.now()),
    });
    expect((await post(PATHS.sendCurrent, body, { jar, env: later(9) })).status).toBe(409);
    const again = await json<{ id: number }>(await post(PATHS.sendCurrent, body, { jar, env: later(11) }), 202);
    await untilDone(jar, again.id);
    expect(await outboxTo(current)).toHaveLength(2);
  });

  it("progress: 404 for an unknown mailing, 400-range for a malformed id", async () => {
    const jar = await loginAdmin();
    expect((await get("/admin/api/mailings/999", { jar })).status).toBe(404);
    expect(await (await get("/admin/api/mailings/999", { jar })).json()).toEqual({ error: "Utskicket finns inte." });
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999"]) {
      expect((await get(`/admin/api/mailings/${bad}`, { jar })).status, bad).toBe(400);
    }
    expect((await post("/admin/api/mailings/999/resume", {}, { jar })).status).toBe(404);
  });
});

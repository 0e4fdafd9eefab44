/**
 * Results mail to families (issue 28, item 3): when a race's results are marked official each family with a runner
 * in it gets one mail (once per race, also when asked twice at once); a correction afterwards mails only the
 * families whose own runner's time or status changed (a placing moved by another runner's correction mails
 * nobody); an unsubscribed family gets neither. The mails go through the mail queue as one-recipient mailings.
 * The functions are called directly, then through the race-day routes that call them (official, a correction).
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/worker/index";
import { outboxTo } from "../mass-email/mailing-fixtures";
import { afterEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { raceStub } from "../../../src/worker/race-day/race-runners";
import type { MailMessage } from "../../../src/worker/mass-email/mailings";
import { mailCorrectedResults, mailOfficialResults } from "../../../src/worker/registration/results-mails";
import { get, loginAdmin, post, waitFor } from "../helpers";
import { at, login, OPEN_AT, runner, update } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const PART = raceIdForSeason("0.8", SEASON);

afterEach(async () => {
  await setCallbacks("normal");
});

/** A paid family with one child on 0.8. */
async function family(firstname: string, lastname: string) {
  const v = await login();
  const id = `kid-${crypto.randomUUID().slice(0, 8)}`;
  const runners = { [id]: runner({ firstname, lastname, age: 7, distance: "0.8", group: "Ingen" }) };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const res = await post(
    "/book-v2",
    { barn: 1, vuxna: 0, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  expect(res.status).toBe(200);
  await payOnPhone(((await res.json()) as { token: string }).token, "PAID");
  return { email: v.email, id };
}

/** The Worker's env with a queue that keeps what it is given. */
function withQueue() {
  const sent: MailMessage[] = [];
  const queue = {
    send: async (body: MailMessage) => void sent.push(body),
    sendBatch: async (messages: { body: MailMessage }[]) => void sent.push(...messages.map((m) => m.body)),
  };
  return { env: { ...env, MAIL_QUEUE: queue } as unknown as Env, sent };
}

async function mailing(id: number) {
  return env.DB.prepare("SELECT audience, subject, message FROM mailings WHERE id = ?")
    .bind(id)
    .first<{ audience: string; subject: string; message: string }>();
}

async function messagesTo(sent: MailMessage[], email: string) {
  return Promise.all(sent.filter((m) => m.email === email).map((m) => mailing(m.mailingId)));
}

describe("results mail to families", () => {
  it("mails each family once when the results turn official, then only the family whose runner was corrected", async () => {
    const race = raceStub(env, PART);
    await race.reset().catch(() => undefined);
    const alva = await family("Alva", "Ek");
    const bo = await family("Bo", "Al");
    const cim = await family("Cim", "Ros");
    await env.DB.prepare("INSERT INTO unsubscribes (email, at) VALUES (?, ?)").bind(cim.email, Date.now()).run();
    const now = Date.now();
    await race.start({ tapId: crypto.randomUUID(), at: now - 600_000 });
    await race.finish(alva.id, { tapId: crypto.randomUUID(), at: now - 300_000 });
    await race.finish(cim.id, { tapId: crypto.randomUUID(), at: now - 200_000 });
    await race.setDns(bo.id, true);

    // Asked twice at once (the event repeated, a retry): each family is mailed once.
    const q = withQueue();
    const reports = await Promise.all([mailOfficialResults(q.env, PART), mailOfficialResults(q.env, PART)]);
    expect(reports.reduce((n, r) => n + r.mailed, 0)).toBe(2);
    expect(reports.reduce((n, r) => n + r.unsubscribed, 0)).toBe(1);
    expect(q.sent.filter((m) => m.email === cim.email)).toEqual([]);
    const [toAlva] = await messagesTo(q.sent, alva.email);
    expect(q.sent.filter((m) => m.email === alva.email)).toHaveLength(1);
    expect(toAlva!.audience).toBe("results");
    expect(toAlva!.subject).toBe("Officiella resultat: Byloppet 2025, 0,8km");
    expect(toAlva!.message).toContain("Alva Ek: 05:00,0 – plats 1 av 2");
    expect(toAlva!.message).toContain("/anmalan");
    const [toBo] = await messagesTo(q.sent, bo.email);
    expect(toBo!.message).toContain("Bo Al: startade inte");

    // The Worker's own queue consumer sends it, with the unsubscribe link, once however often it is delivered.
    const delivery = q.sent.find((m) => m.email === alva.email)!;
    for (let i = 0; i < 2; i++) {
      const batch = createMessageBatch("loppet-mail", [
        { id: `m-${i}-${delivery.mailingId}`, timestamp: new Date(), attempts: 1, body: delivery },
      ]);
      const ctx = createExecutionContext();
      await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, env, ctx);
      await getQueueResult(batch, ctx);
    }
    const inbox = (await outboxTo(alva.email)).filter((m) => m.mailing_id === delivery.mailingId);
    expect(inbox.map((m) => m.subject)).toEqual(["Officiella resultat: Byloppet 2025, 0,8km"]);
    expect(inbox[0]!.text).toContain("Alva Ek: 05:00,0");
    expect(inbox[0]!.text).toContain("/unsubscribe/");

    // Again later: nobody.
    const again = withQueue();
    expect(await mailOfficialResults(again.env, PART)).toMatchObject({ mailed: 0, unsubscribed: 0 });
    expect(again.sent).toEqual([]);

    // Bo did start after all and was faster than Alva: Bo's family is told; Alva's place moved, Alva is not mailed.
    await race.setDns(bo.id, false);
    await race.finish(bo.id, { tapId: crypto.randomUUID(), at: now - 400_000 });
    const fix = withQueue();
    const reportsFix = await Promise.all([mailCorrectedResults(fix.env, PART), mailCorrectedResults(fix.env, PART)]);
    expect(reportsFix.reduce((n, r) => n + r.mailed, 0)).toBe(1);
    expect(fix.sent.map((m) => m.email)).toEqual([bo.email]);
    const [fixed] = await messagesTo(fix.sent, bo.email);
    expect(fixed!.subject).toBe("Rättade resultat: Byloppet 2025, 0,8km");
    expect(fixed!.message).toContain("Bo Al: startade inte → 03:20,0");
    expect(fixed!.message).not.toContain("Alva");

    // Nothing changed since: nobody.
    const none = withQueue();
    expect((await mailCorrectedResults(none.env, PART)).mailed).toBe(0);
    expect(none.sent).toEqual([]);
  });
});

describe("marking a race's results official (POST /admin/api/races/official/{race})", () => {
  it("mails each family of the race once, after the answer", async () => {
    const race = raceStub(env, PART);
    await race.reset().catch(() => undefined);
    const dana = await family("Dana", "Berg");
    const now = Date.now();
    await race.start({ tapId: crypto.randomUUID(), at: now - 600_000 });
    for (const r of await race.listRunners()) {
      if (r.id === dana.id) await race.finish(r.id, { tapId: crypto.randomUUID(), at: now - 250_000 });
      else await race.setDns(r.id, true);
    }
    await race.end();
    const admin = await loginAdmin();
    const res = await post(`/admin/api/races/official/${PART}`, {}, { jar: admin });
    expect(res.status).toBe(200);
    const mailed = () =>
      env.DB.prepare(
        `SELECT m.subject, m.message FROM mailings m JOIN mailing_recipients r ON r.mailing_id = m.id
          WHERE m.audience = 'results' AND r.email = ?`,
      )
        .bind(dana.email)
        .all<{ subject: string; message: string }>();
    await waitFor(async () => (await mailed()).results.length > 0, 5000, "the results mail");
    const [mail] = (await mailed()).results;
    expect(mail!.subject).toBe("Officiella resultat: Byloppet 2025, 0,8km");
    expect(mail!.message).toContain("Dana Berg: 05:50,0 – plats 1 av 1");
    // A second call is the race's 409, and nobody is mailed again.
    expect((await post(`/admin/api/races/official/${PART}`, {}, { jar: admin })).status).toBe(409);
    expect((await mailed()).results).toHaveLength(1);

    // A correction after that (the admin re-records Dana's finish): Dana's family gets one more mail.
    const fix = await get(`/admin/api/races/finish/${PART}/runner-${dana.id}?rerecord=1`, { jar: admin });
    expect(fix.status).toBe(200);
    await waitFor(async () => (await mailed()).results.length === 2, 5000, "the correction mail");
    const correction = (await mailed()).results[1]!;
    expect(correction.subject).toBe("Rättade resultat: Byloppet 2025, 0,8km");
    expect(correction.message).toMatch(/Dana Berg: 05:50,0 → \d\d:\d\d,\d/);
    // A read of the race mails nobody.
    expect((await get(`/admin/api/races/get/${PART}`, { jar: admin })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mailed()).results).toHaveLength(2);
  });
});

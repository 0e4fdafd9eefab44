/**
 * Results mail to families (issue 28, item 3): when a race's results are marked official each family with a runner
 * in it gets one mail (once per race, also when asked twice at once); a correction afterwards mails only the
 * families whose own runner's time or status changed (a placing moved by another runner's correction mails
 * nobody); an unsubscribed family gets neither. The mails go through the mail queue as one-recipient mailings.
 * The functions are called directly, then through the race object that calls them (its alarm, after the route that
 * marks the results official and a correction).
 * An erasure of the family landing between a call's steps (a D1 wrapper runs it at a chosen statement) leaves
 * nothing of the family: no results row, no mailing naming it, no recipient row, and nothing sent to it.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/worker/index";
import { outboxTo } from "../mass-email/mailing-fixtures";
import { afterEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { raceSnapshot } from "../../../src/worker/race-day/race-runners";
import { testRace } from "../race-calls";
import type { MailMessage } from "../../../src/worker/mass-email/mailings";
import { mailCorrectedResults, mailOfficialResults } from "../../../src/worker/registration/results-mails";
import { get, loginAdmin, post, waitFor } from "../helpers";
import { paidChildFamily } from "../registration-helpers";
import { setCallbacks } from "../swish-helpers";

const PART = raceIdForSeason("0.8", SEASON);

/** The race as the race object has it now (what its alarm hands the mail functions). */
const snapshot = (part: string) => raceSnapshot(env, database(env.DB), part);

afterEach(async () => {
  await setCallbacks("normal");
});

/** A paid family with one child on 0.8 (or `distance`). */
function family(firstname: string, lastname: string, distance = "0.8") {
  return paidChildFamily({ firstname, lastname, distance });
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
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const alva = await family("Alva", "Ek");
    const bo = await family("Bo", "Al");
    const cim = await family("Cim", "Ros");
    await env.DB.prepare("INSERT INTO unsubscribes (email, at) VALUES (?, ?)").bind(cim.email, Date.now()).run();
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({ type: "finish", runnerId: alva.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
    await race.run({ type: "finish", runnerId: cim.id, tap: { tapId: crypto.randomUUID(), at: now - 200_000 } });
    await race.run({ type: "set-dns", runnerId: bo.id, dns: true });

    // Asked twice at once (the event repeated, a retry): each family is mailed once.
    const q = withQueue();
    const race0 = await snapshot(PART);
    const reports = await Promise.all([mailOfficialResults(q.env, race0), mailOfficialResults(q.env, race0)]);
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
    expect(await mailOfficialResults(again.env, await snapshot(PART))).toMatchObject({ mailed: 0, unsubscribed: 0 });
    expect(again.sent).toEqual([]);

    // Bo did start after all and was faster than Alva: Bo's family is told; Alva's place moved, Alva is not mailed.
    await race.run({ type: "set-dns", runnerId: bo.id, dns: false });
    await race.run({ type: "finish", runnerId: bo.id, tap: { tapId: crypto.randomUUID(), at: now - 400_000 } });
    const fix = withQueue();
    const race1 = await snapshot(PART);
    const reportsFix = await Promise.all([mailCorrectedResults(fix.env, race1), mailCorrectedResults(fix.env, race1)]);
    expect(reportsFix.reduce((n, r) => n + r.mailed, 0)).toBe(1);
    expect(fix.sent.map((m) => m.email)).toEqual([bo.email]);
    const [fixed] = await messagesTo(fix.sent, bo.email);
    expect(fixed!.subject).toBe("Rättade resultat: Byloppet 2025, 0,8km");
    expect(fixed!.message).toContain("Bo Al: startade inte → 03:20,0");
    expect(fixed!.message).not.toContain("Alva");

    // Nothing changed since: nobody.
    const none = withQueue();
    expect((await mailCorrectedResults(none.env, await snapshot(PART))).mailed).toBe(0);
    expect(none.sent).toEqual([]);
  });
});

describe("marking a race's results official (POST /admin/api/races/official/{race})", () => {
  it("mails each family of the race once, after the answer", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const dana = await family("Dana", "Berg");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    for (const r of await race.listRunners()) {
      if (r.id === dana.id)
        await race.run({ type: "finish", runnerId: r.id, tap: { tapId: crypto.randomUUID(), at: now - 250_000 } });
      else await race.run({ type: "set-dns", runnerId: r.id, dns: true });
    }
    await race.run({ type: "end" });
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

    // A correction after that (the admin re-records Dana's finish): Dana's family gets one more mail, once the race
    // has been still for a while (development's route lets it go now: test/durable/race/results-mail.test.ts waits).
    const fix = await get(`/admin/api/races/finish/${PART}/runner-${dana.id}?rerecord=1`, { jar: admin });
    expect(fix.status).toBe(200);
    expect((await mailed()).results).toHaveLength(1);
    expect((await post(`/dev/races/${PART}/results-mail`, {})).status).toBe(200);
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

/**
 * The Worker's env whose D1 runs `hook` once, just before the first statement whose SQL matches `at` (or, for
 * "batch", the first batch): an erasure landing at that moment of a results mail.
 */
function withHookedDb(at: RegExp | "batch", hook: () => Promise<void>) {
  const q = withQueue();
  let fired = false;
  const fire = async () => {
    if (fired) return;
    fired = true;
    await hook();
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (prop === "run" || prop === "all" || prop === "raw" || prop === "first") {
          return async (...args: unknown[]) => {
            await fire();
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => (at !== "batch" && at.test(sql) ? wrap(target.prepare(sql)) : target.prepare(sql));
      }
      if (prop === "batch" && at === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          await fire();
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { env: { ...q.env, DB: db } as unknown as Env, sent: q.sent };
}

describe("a results mail and the family's erasure at the same moment", () => {
  // mailOfficialResults reads the race and the families, then per family writes its claim, mailing and recipient
  // in one batch and hands the mailing to the queue. An erasure (personal-data) can land between any two of those
  // steps; whatever the order, nothing of the family is left: before the batch, the batch finds the address gone
  // and writes nothing; after it, the erasure removes what it wrote and the message on the queue sends nothing.
  for (const [when, at] of [
    ["before the family's claim batch", "batch"],
    ["after the claim and the queue hand-off, before it is marked handed", /update mailings set handed_at/i],
  ] as const) {
    it(`erased ${when}: no results row, mailing or recipient of the family, nothing sent to it`, async () => {
      const race = testRace(PART);
      await race.run({ type: "reset" }).catch(() => undefined);
      const tag = crypto.randomUUID().slice(0, 6);
      const fam = await family(`Erika${tag}`, `Samtidig${tag}`);
      const now = Date.now();
      await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
      await race.run({ type: "finish", runnerId: fam.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
      const admin = await loginAdmin();
      const hooked = withHookedDb(at, async () => {
        const res = await post(
          "/admin/api/personal-data/erase",
          { email: fam.email, confirm: fam.email },
          { jar: admin },
        );
        expect(res.status, await res.clone().text()).toBe(200);
      });
      const report = await mailOfficialResults(hooked.env, await snapshot(PART));
      const left = await env.DB.prepare(
        `SELECT (SELECT count(*) FROM results_mails WHERE registration_id IN
                   (SELECT registration_id FROM participants WHERE id = ?1)) AS rows,
                (SELECT count(*) FROM mailing_recipients WHERE email = ?2) AS recipients,
                (SELECT count(*) FROM mailings WHERE instr(message, ?3) > 0) AS mailings`,
      )
        .bind(fam.id, fam.email, `Erika${tag}`)
        .first<{ rows: number; recipients: number; mailings: number }>();
      expect(left).toEqual({ rows: 0, recipients: 0, mailings: 0 });
      const queued = hooked.sent.filter((m) => m.email === fam.email);
      if (at === "batch") {
        expect(report).toMatchObject({ mailed: 0, erased: 1 });
        expect(queued).toEqual([]);
      } else {
        // Already on the queue when the erasure came: the Worker's consumer finds no mailing and sends nothing.
        expect(report).toMatchObject({ mailed: 1, erased: 0 });
        expect(queued).toHaveLength(1);
        const batch = createMessageBatch("loppet-mail", [
          { id: `erased-${tag}`, timestamp: new Date(), attempts: 1, body: queued[0]! },
        ]);
        const ctx = createExecutionContext();
        await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, env, ctx);
        expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`erased-${tag}`]);
        expect((await outboxTo(fam.email)).filter((m) => m.kind === "mailing")).toEqual([]);
      }
    });
  }

  it("erased while a correction is mailed (just before its claim batch): nothing of the family is left", async () => {
    // A race of its own: the hook's batch is this family's mailing.
    const part = raceIdForSeason("1.6", SEASON);
    const race = testRace(part);
    await race.run({ type: "reset" }).catch(() => undefined);
    const tag = crypto.randomUUID().slice(0, 6);
    const fam = await family(`Rut${tag}`, `Rattad${tag}`, "1.6");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({ type: "finish", runnerId: fam.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
    expect((await mailOfficialResults(withQueue().env, await snapshot(part))).mailed).toBe(1);
    await race.run({
      type: "finish",
      runnerId: fam.id,
      tap: { tapId: crypto.randomUUID(), at: now - 280_000, rerecord: true },
    });
    const admin = await loginAdmin();
    const hooked = withHookedDb("batch", async () => {
      const res = await post(
        "/admin/api/personal-data/erase",
        { email: fam.email, confirm: fam.email },
        { jar: admin },
      );
      expect(res.status, await res.clone().text()).toBe(200);
    });
    const report = await mailCorrectedResults(hooked.env, await snapshot(part));
    const left = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM mailing_recipients WHERE email = ?1) AS recipients,
              (SELECT count(*) FROM mailings WHERE instr(message, ?2) > 0) AS mailings`,
    )
      .bind(fam.email, `Rut${tag}`)
      .first<{ recipients: number; mailings: number }>();
    expect(left).toEqual({ recipients: 0, mailings: 0 });
    expect(report).toMatchObject({ mailed: 0, erased: 1 });
    expect(hooked.sent.filter((m) => m.email === fam.email)).toEqual([]);
  });
});

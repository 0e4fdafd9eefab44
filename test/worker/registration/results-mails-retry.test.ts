/**
 * Issue 39, item 4: a results-mail run that fails part-way is retried, and every family is mailed exactly once.
 * - Through the race object (its alarm, the real mail queue and its consumer): D1 refuses one chosen family's claim
 *   (a trigger), so the run stops there with the families before it claimed and on the queue; the alarm's retry
 *   once D1 is back mails the rest, nobody twice.
 * - Called directly with the queue in the test's hands: the queue refuses the chosen family's hand-off (its claim
 *   and mailing are written by then), and for another family the queue takes the mail but D1 refuses to record
 *   that (a trigger on `handed_at`). The retry hands both again; delivered through the Worker's own consumer, every
 *   family gets one mail.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import worker from "../../../src/worker/index";
import type { MailMessage } from "../../../src/worker/mass-email/mailings";
import { raceSnapshot } from "../../../src/worker/race-day/race-runners";
import { mailOfficialResults } from "../../../src/worker/registration/results-mails";
import { waitFor } from "../helpers";
import { outboxTo } from "../mass-email/mailing-fixtures";
import { testRace } from "../race-calls";
import { paidChildFamily } from "../registration-helpers";

interface Family {
  email: string;
  id: string;
  registrationId: string;
  /** The child's name, as the mail names it. */
  name: string;
}

/** `n` paid families with one child each on `distance`, in the order the mails go through them (registration id). */
async function families(n: number, distance: string, tag: string): Promise<Family[]> {
  const made: Family[] = [];
  for (let i = 0; i < n; i++) {
    const child = await paidChildFamily({ firstname: `Barn${i}`, lastname: `${tag}${i}`, distance });
    const row = await env.DB.prepare("SELECT registration_id AS r FROM participants WHERE id = ?")
      .bind(child.id)
      .first<{ r: string }>();
    made.push({ ...child, registrationId: row!.r, name: `Barn${i} ${tag}${i}` });
  }
  return made.sort((a, b) => (a.registrationId < b.registrationId ? -1 : 1));
}

/** The results mailings written to `email` (one per claim) and their recipient's state. */
async function resultsMailings(email: string) {
  const { results } = await env.DB.prepare(
    `SELECT m.id, m.subject, m.handed_at AS handedAt, r.status FROM mailings m
       JOIN mailing_recipients r ON r.mailing_id = m.id
      WHERE m.audience = 'results' AND r.email = ? ORDER BY m.id`,
  )
    .bind(email)
    .all<{ id: number; subject: string; handedAt: number | null; status: string }>();
  return results;
}

async function claimOf(family: Family, part: string) {
  return env.DB.prepare("SELECT mailing_id AS mailingId FROM results_mails WHERE registration_id = ? AND race_id = ?")
    .bind(family.registrationId, part)
    .first<{ mailingId: number | null }>();
}

/** The mails the development outbox took for `email` from mailings (not its login code or receipt). */
async function mailsTo(email: string) {
  return (await outboxTo(email)).filter((m) => m.kind === "mailing");
}

const failClaimOf = (registrationId: string) =>
  `CREATE TRIGGER fail_claim BEFORE INSERT ON results_mails WHEN NEW.registration_id = '${registrationId}'
     BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`;

describe("a results-mail run that fails part-way, retried by the race object", () => {
  const PART = raceIdForSeason("1.6", SEASON);

  it("D1 refuses the third family's claim: the first two are mailed at once, the retry mails the rest, each once", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const fams = await families(5, "1.6", "Dalgren");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    for (const [i, f] of fams.entries()) {
      await race.run({ type: "finish", runnerId: f.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 + i } });
    }
    for (const r of await race.listRunners()) {
      if (!r.finished && !r.dns) await race.run({ type: "set-dns", runnerId: r.id, dns: true });
    }
    await race.run({ type: "end" });
    const chosen = fams[2]!;

    await env.DB.prepare(failClaimOf(chosen.registrationId)).run();
    try {
      await race.run({ type: "mark-official", confirm: true });
      // The alarm 'Officiella' set runs at once and fails at the third family: set again for the retry.
      await waitFor(
        async () =>
          ((await runInDurableObject(env.RACE.getByName(PART), (_i, state) => state.storage.getAlarm())) ?? 0) >
          Date.now() + 1_000,
        5000,
        "the failed run's retry",
      );
      // The two before it were written and handed to the queue at once (not at the end of the run) …
      for (const f of fams.slice(0, 2)) {
        const [mailing] = await resultsMailings(f.email);
        expect(mailing, f.email).toMatchObject({ subject: expect.stringMatching(/^Officiella resultat/) });
        expect(mailing!.handedAt).not.toBeNull();
        expect(await claimOf(f, PART)).toEqual({ mailingId: mailing!.id });
      }
      // … the chosen one and those after it have nothing: no claim without its mail.
      for (const f of fams.slice(2)) {
        expect(await claimOf(f, PART)).toBeNull();
        expect(await resultsMailings(f.email)).toEqual([]);
      }
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_claim").run();
    }

    expect(await runDurableObjectAlarm(env.RACE.getByName(PART))).toBe(true);
    for (const f of fams) {
      await waitFor(async () => (await mailsTo(f.email)).length > 0, 10_000, `the mail to ${f.email}`);
    }
    // Another run mails nobody; then every family has one mailing, sent once.
    await runDurableObjectAlarm(env.RACE.getByName(PART));
    await new Promise((r) => setTimeout(r, 300));
    for (const f of fams) {
      const mailings = await resultsMailings(f.email);
      expect(
        mailings.map((m) => m.status),
        f.email,
      ).toEqual(["sent"]);
      const mails = await mailsTo(f.email);
      expect(mails.map((m) => m.subject)).toEqual([mailings[0]!.subject]);
      expect(mails[0]!.text).toContain(`${f.name}: `);
    }
    await race.run({ type: "reset" });
  });
});

describe("a results-mail run whose queue hand-off fails part-way, retried", () => {
  const PART = raceIdForSeason("0.8", SEASON);

  /** The Worker's env with a queue that keeps what it takes and refuses the first message to `refuse`. */
  function queueRefusingOnce(refuse: string) {
    const sent: MailMessage[] = [];
    let refused = false;
    const queue = {
      sendBatch: async (messages: { body: MailMessage }[]) => {
        if (!refused && messages.some((m) => m.body.email === refuse)) {
          refused = true;
          throw new Error("Queue send failed: internal error");
        }
        sent.push(...messages.map((m) => m.body));
      },
    };
    return { env: { ...env, MAIL_QUEUE: queue } as unknown as Env, sent };
  }

  async function deliver(messages: MailMessage[]) {
    const batch = createMessageBatch(
      "loppet-mail",
      messages.map((body, i) => ({ id: `retry-${i}-${body.mailingId}`, timestamp: new Date(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, env, ctx);
    return getQueueResult(batch, ctx);
  }

  it("the queue refuses one family, D1 another's hand-off record: the retry hands both again, each family gets one mail", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const fams = await families(4, "0.8", "Kostrom");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    for (const [i, f] of fams.entries()) {
      await race.run({ type: "finish", runnerId: f.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 + i } });
    }
    const snapshot = await raceSnapshot(env, database(env.DB), PART);
    const [first, refused, unrecorded] = fams as [Family, Family, Family, Family];

    // The first run: the queue takes the first family's mail, then refuses the second's.
    const q1 = queueRefusingOnce(refused.email);
    await expect(mailOfficialResults(q1.env, snapshot)).rejects.toThrow(/Queue send failed/);
    expect(q1.sent.map((m) => m.email)).toEqual([first.email]);
    // The refused family's claim holds its mailing, which the queue never got.
    const [waiting] = await resultsMailings(refused.email);
    expect(waiting).toMatchObject({ status: "queued", handedAt: null });
    expect(await claimOf(refused, PART)).toEqual({ mailingId: waiting!.id });

    // The second run: the queue takes the third family's mail, but D1 refuses to record that it did.
    await env.DB.prepare(
      `CREATE TRIGGER fail_handed BEFORE UPDATE OF handed_at ON mailings
         WHEN EXISTS (SELECT 1 FROM mailing_recipients WHERE mailing_id = NEW.id AND email = '${unrecorded.email}')
         BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`,
    ).run();
    const q2 = queueRefusingOnce("nobody");
    try {
      await expect(mailOfficialResults(q2.env, snapshot)).rejects.toThrow(/D1 är nere/);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_handed").run();
    }
    // It handed the refused family's mail again first, then the third family's.
    expect(q2.sent.map((m) => m.email)).toEqual([refused.email, unrecorded.email]);

    // The third run: the third family's mail again (the queue took it, but no record says so), then the last family.
    const q3 = queueRefusingOnce("nobody");
    const report = await mailOfficialResults(q3.env, snapshot);
    expect(report).toMatchObject({ mailed: 1, unchanged: 3, handedAgain: 1, erased: 0 });
    expect(q3.sent.map((m) => m.email)).toEqual([unrecorded.email, fams[3]!.email]);
    // Nothing waits any more: a fourth run hands nothing and mails nobody.
    const q4 = queueRefusingOnce("nobody");
    expect(await mailOfficialResults(q4.env, snapshot)).toMatchObject({ mailed: 0, handedAgain: 0 });
    expect(q4.sent).toEqual([]);

    // Every message the queue took, delivered through the Worker's consumer: one mail per family.
    const all = [...q1.sent, ...q2.sent, ...q3.sent];
    const result = await deliver(all);
    expect(result.explicitAcks).toHaveLength(all.length);
    for (const f of fams) {
      expect(
        (await resultsMailings(f.email)).map((m) => m.status),
        f.email,
      ).toEqual(["sent"]);
      expect(
        (await mailsTo(f.email)).map((m) => m.subject),
        f.email,
      ).toEqual([`Officiella resultat: ${SEASON.siteName} ${SEASON.year}, 0,8km`]);
    }
    await race.run({ type: "reset" });
  });
});

/**
 * The race object's results mail step (src/durable/race/race-do.ts `alarm`, `sendResultsMail`, through the Worker's
 * ObjectServices.mailResults): a run that fails (D1 refuses the families' claims) leaves the mail owed and the
 * alarm sends it later, once; a correction's mail waits for the race to be still (RESULTS_MAIL_QUIET_MS): the
 * alarm is set to that moment, pushed on by each change, and an alarm that runs sooner mails nothing. What is owed
 * and when is the room's (test/race-room/results-mail.test.ts).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  RESULTS_MAIL_OWED_KEY,
  RESULTS_MAIL_QUIET_MS,
  type OwedResultsMail,
} from "../../../src/durable/race/results-mail";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { waitFor } from "../../worker/helpers";
import { paidChildFamily } from "../../worker/registration-helpers";
import { testRace } from "../../worker/race-calls";

const PART = raceIdForSeason("0.8", SEASON);

async function resultsMailsTo(email: string): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT COUNT(*) AS n FROM mailings m JOIN mailing_recipients r ON r.mailing_id = m.id
      WHERE m.audience = 'results' AND r.email = ?`,
  )
    .bind(email)
    .first<{ n: number }>();
  return row!.n;
}

async function lastResultsMail(email: string): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT m.message FROM mailings m JOIN mailing_recipients r ON r.mailing_id = m.id
      WHERE m.audience = 'results' AND r.email = ? ORDER BY m.id DESC LIMIT 1`,
  )
    .bind(email)
    .first<{ message: string }>();
  return row!.message;
}

function owed(): Promise<OwedResultsMail | undefined> {
  return runInDurableObject(env.RACE.getByName(PART), (_instance, state) =>
    state.storage.kv.get<OwedResultsMail>(RESULTS_MAIL_OWED_KEY),
  );
}

/** When the race object's alarm is set for (null: none). */
function alarmAt(): Promise<number | null> {
  return runInDurableObject(env.RACE.getByName(PART), (_instance, state) => state.storage.getAlarm());
}

/** The race has been still for RESULTS_MAIL_QUIET_MS: the owed mail is due now (the clock cannot be moved here). */
function quietOver(): Promise<void> {
  return runInDurableObject(env.RACE.getByName(PART), (_instance, state) => {
    const owedMail = state.storage.kv.get<OwedResultsMail>(RESULTS_MAIL_OWED_KEY)!;
    state.storage.kv.put(RESULTS_MAIL_OWED_KEY, { ...owedMail, at: Date.now() - 1 });
  });
}

/** An ended race of the season's 0.8 km in which Alva (a paid family's child) finished, everyone else DNS. */
async function endedRace() {
  const race = testRace(PART);
  await race.run({ type: "reset" }).catch(() => undefined);
  const alva = await paidChildFamily({ firstname: "Alva", lastname: "Mejl", age: 8 });
  const now = Date.now();
  await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
  for (const r of await race.listRunners()) {
    if (r.id === alva.id)
      await race.run({ type: "finish", runnerId: r.id, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
    else await race.run({ type: "set-dns", runnerId: r.id, dns: true });
  }
  await race.run({ type: "end" });
  return { race, alva, started: now - 600_000 };
}

describe("the race object's results mail step", () => {
  it("a run that fails leaves the mail owed; the alarm sends it once D1 is back, once", async () => {
    const { race, alva } = await endedRace();

    await env.DB.prepare(
      `CREATE TRIGGER fail_results_mail BEFORE INSERT ON results_mails BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`,
    ).run();
    try {
      await race.run({ type: "mark-official", confirm: true });
      // The alarm 'Officiella' set (at once) runs and fails: it is set again to retry. One more run fails the same way.
      await waitFor(async () => ((await alarmAt()) ?? 0) > Date.now() + 1_000, 5000, "the failed run's retry");
      expect(await runDurableObjectAlarm(env.RACE.getByName(PART))).toBe(true);
      expect((await owed())?.n).toBeGreaterThan(0);
      expect(await resultsMailsTo(alva.email)).toBe(0);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_results_mail").run();
    }

    expect(await runDurableObjectAlarm(env.RACE.getByName(PART))).toBe(true);
    expect(await owed()).toBeUndefined();
    expect(await resultsMailsTo(alva.email)).toBe(1);
    // Nothing owed: another run mails nobody.
    await runDurableObjectAlarm(env.RACE.getByName(PART));
    expect(await resultsMailsTo(alva.email)).toBe(1);
    await race.run({ type: "reset" });
  });

  it("a correction's mail waits until the race has been still: each change pushes the alarm on, one mail at the end", async () => {
    const { race, alva, started } = await endedRace();
    await race.run({ type: "mark-official", confirm: true });
    // 'Officiella' itself is mailed at once.
    await waitFor(async () => (await resultsMailsTo(alva.email)) === 1, 5000, "the official mail");

    // A correction in two steps, a moment apart: the alarm is set RESULTS_MAIL_QUIET_MS after each.
    const before = Date.now();
    await race.run({
      type: "finish",
      runnerId: alva.id,
      tap: { tapId: crypto.randomUUID(), at: started + 290_000, rerecord: true },
    });
    const first = (await alarmAt())!;
    expect(first).toBeGreaterThanOrEqual(before + RESULTS_MAIL_QUIET_MS);
    expect(first).toBeLessThanOrEqual(Date.now() + RESULTS_MAIL_QUIET_MS);
    expect((await owed())!.at).toBe(first);
    await new Promise((r) => setTimeout(r, 20));
    await race.run({
      type: "finish",
      runnerId: alva.id,
      tap: { tapId: crypto.randomUUID(), at: started + 280_000, rerecord: true },
    });
    const pushed = (await alarmAt())!;
    expect(pushed).toBeGreaterThan(first);
    expect((await owed())!.at).toBe(pushed);

    // An alarm that runs before then (a retry, or run by hand here) mails nothing and keeps the moment.
    await runDurableObjectAlarm(env.RACE.getByName(PART));
    expect(await resultsMailsTo(alva.email)).toBe(1);
    expect(await alarmAt()).toBe(pushed);

    // Still for long enough: one correction mail, from the race as the last step left it; nothing more is owed.
    await quietOver();
    expect(await runDurableObjectAlarm(env.RACE.getByName(PART))).toBe(true);
    expect(await resultsMailsTo(alva.email)).toBe(2);
    expect(await lastResultsMail(alva.email)).toContain("Alva Mejl: 05:00,0 → 04:40,0");
    expect(await owed()).toBeUndefined();
    expect(await alarmAt()).toBeNull();
    await race.run({ type: "reset" });
  });
});

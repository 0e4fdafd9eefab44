/**
 * The race object's results mail step (src/durable/race/race-do.ts `sendResultsMail`, through the Worker's
 * ObjectServices.mailResults): a run that fails (D1 refuses the families' claims) leaves the mail owed and the
 * alarm sends it later, once. What is owed and when is the room's (test/race-room/results-mail.test.ts).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
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

function owed(): Promise<number | undefined> {
  return runInDurableObject(env.RACE.getByName(PART), (_instance, state) =>
    state.storage.kv.get<number>("results-mail-owed"),
  );
}

describe("the race object's results mail step", () => {
  it("a run that fails leaves the mail owed; the alarm sends it once D1 is back, once", async () => {
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

    await env.DB.prepare(
      `CREATE TRIGGER fail_results_mail BEFORE INSERT ON results_mails BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`,
    ).run();
    try {
      await race.run({ type: "mark-official", confirm: true });
      // Whether the alarm set by 'Officiella' has run yet or not, one more run fails the same way.
      await runDurableObjectAlarm(env.RACE.getByName(PART));
      expect(await owed()).toBeGreaterThan(0);
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
});

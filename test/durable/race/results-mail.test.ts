/**
 * The race object's results mail step (src/durable/race/results-mail.ts) on its own, with the object's storage as an
 * in-memory key-value store and the race as it is in D1 and the race object: a run that fails before it has mailed
 * anyone leaves the mail owed and the next run sends it, once; a change while a run is on its way (another phone's
 * correction landing during the run's awaits) leaves the mail owed for the next run; nothing owed sends nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { oweResultsMail, resultsMailOwed, sendResultsMail } from "../../../src/durable/race/results-mail";
import type { RaceStore } from "../../../src/durable/race/storage";
import { database } from "../../../src/worker/db/client";
import type { MailMessage } from "../../../src/worker/mass-email/mailings";
import { raceSnapshot, raceStub } from "../../../src/worker/race-day/race-runners";
import { paidChildFamily } from "../../worker/registration-helpers";

const PART = raceIdForSeason("0.8", SEASON);

/** The object's storage as the step uses it: its synchronous key-value API, in memory. */
function memoryStorage(): DurableObjectStorage {
  const values = new Map<string, unknown>();
  return {
    kv: {
      get: (key: string) => values.get(key),
      put: (key: string, value: unknown) => void values.set(key, value),
      delete: (key: string) => values.delete(key),
    },
  } as unknown as DurableObjectStorage;
}

/** A race whose results are official, nobody gone since. */
const official = { meta: () => ({ results: "official" }), sql: () => [] } as unknown as RaceStore;

function family(firstname: string) {
  return paidChildFamily({ firstname, lastname: "Mejl", age: 8 });
}

async function resultsMailsTo(email: string): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT COUNT(*) AS n FROM mailings m JOIN mailing_recipients r ON r.mailing_id = m.id
      WHERE m.audience = 'results' AND r.email = ?`,
  )
    .bind(email)
    .first<{ n: number }>();
  return row!.n;
}

describe("the race object's results mail step", () => {
  it("a run that fails before mailing anyone leaves the mail owed; the next run sends it, once", async () => {
    await raceStub(env, PART)
      .reset()
      .catch(() => undefined);
    const alva = await family("Alva");
    const race = await raceSnapshot(env, database(env.DB), PART);
    const storage = memoryStorage();
    expect(oweResultsMail(official, storage, {})).toBe(false);
    expect(oweResultsMail(official, storage, { runners: [alva.id] })).toBe(true);

    const down = {
      ...env,
      DB: {
        prepare: () => {
          throw new Error("D1 är nere");
        },
      },
    } as unknown as Env;
    await expect(sendResultsMail(down, official, storage, () => race, Date.now())).rejects.toThrow("D1 är nere");
    expect(resultsMailOwed(storage)).toBe(true);
    expect(await resultsMailsTo(alva.email)).toBe(0);

    await sendResultsMail(env, official, storage, () => race, Date.now());
    expect(resultsMailOwed(storage)).toBe(false);
    expect(await resultsMailsTo(alva.email)).toBe(1);
    // Nothing owed: a run sends nothing (and never reads the race).
    await sendResultsMail(
      env,
      official,
      storage,
      () => {
        throw new Error("not read");
      },
      Date.now(),
    );
    expect(await resultsMailsTo(alva.email)).toBe(1);
  });

  it("a change while a run is on its way leaves the mail owed for the next run", async () => {
    await raceStub(env, PART)
      .reset()
      .catch(() => undefined);
    const bo = await family("Bo");
    const race = await raceSnapshot(env, database(env.DB), PART);
    const storage = memoryStorage();
    oweResultsMail(official, storage, { runners: [bo.id] });
    // Another phone's correction lands while the run hands its mails to the queue.
    const queue = env.MAIL_QUEUE as Queue<MailMessage>;
    const busy = {
      ...env,
      MAIL_QUEUE: {
        sendBatch: async (messages: { body: MailMessage }[]) => {
          oweResultsMail(official, storage, { runners: [bo.id] });
          return queue.sendBatch(messages);
        },
      },
    } as unknown as Env;
    await sendResultsMail(busy, official, storage, () => race, Date.now());
    expect(await resultsMailsTo(bo.email)).toBe(1);
    expect(resultsMailOwed(storage)).toBe(true);
    await sendResultsMail(env, official, storage, () => race, Date.now());
    expect(resultsMailOwed(storage)).toBe(false);
    // The family was told once: the second run found nothing new for it.
    expect(await resultsMailsTo(bo.email)).toBe(1);
  });
});

import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceDO } from "../../../src/durable/race/race-do";
import { raceId } from "../../../src/shared/race-id";
import { testRace } from "../../worker/race-calls";

// Each test gets its own race id (a distinct date), so runners linked in D1 by one test never join another's race.
let raceCounter = 0;
function uniqueRace(meters = 5600) {
  raceCounter += 1;
  const date = `20${40 + Math.floor(raceCounter / 28)}-03-${String((raceCounter % 28) + 1).padStart(2, "0")}`;
  return { part: raceId(date, meters), date, distance: meters };
}

/** A race in an object of its own name (not a race id: nothing in D1's index makes it by itself). */
async function newRace(meters = 5600) {
  const race = uniqueRace(meters);
  const name = crypto.randomUUID();
  const stub = testRace(name);
  await stub.init(race);
  return { stub, race, name };
}

function runner(overrides: Partial<{ id: string; firstname: string; lastname: string; bib: number | null }> = {}) {
  return {
    id: overrides.id ?? crypto.randomUUID(),
    firstname: overrides.firstname ?? "Anna",
    lastname: overrides.lastname ?? "Berg",
    age: 34,
    company: "IK Ymer",
    group: "Dam",
    distance: "5.6",
    bib: overrides.bib,
  };
}

async function insertParticipant(id: string, fields: { bib?: number | null; raceId?: string | null } = {}) {
  await env.DB.prepare(
    `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", bib, race_id, created_at)
     VALUES (?, 2025, 'Per', 'Holm', 41, 'OK Ravinen', '5.6', 'Herr', ?, ?, ?)`,
  )
    .bind(id, fields.bib ?? null, fields.raceId ?? null, Date.now())
    .run();
}

async function participantRow(id: string) {
  return env.DB.prepare("SELECT bib, race_id, distance FROM participants WHERE id = ?")
    .bind(id)
    .first<{ bib: number | null; race_id: string | null; distance: string }>();
}

async function rejection(promise: Promise<unknown>): Promise<{ name: string; message: string; status?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as { name: string; message: string; status?: number };
  }
  throw new Error("expected the call to be refused");
}

describe("RaceDO init", () => {
  it("answers the race record, idempotently, and nothing before init", async () => {
    const race = uniqueRace(800);
    const stub = testRace(crypto.randomUUID());
    expect(await stub.getRace()).toBeNull();
    expect(await stub.snapshot()).toBeNull();

    const first = await stub.init({ ...race, openForReg: true });
    expect(first).toEqual({
      type: "race",
      part: race.part,
      sort: "race",
      state: "",
      started: null,
      date: race.date,
      distance: 800,
      openForReg: true,
    });
    expect(await stub.init({ ...race, openForReg: true })).toEqual(first);
    expect(await stub.snapshot()).toEqual([first]);
    const created = (await stub.events()).filter((e) => e.type === "race-created");
    expect(created).toHaveLength(1);
  });

  it("refuses a malformed race and a second identity", async () => {
    const stub = testRace(crypto.randomUUID());
    const bad = await rejection(stub.init({ part: "race-250913-56", date: "2025-09-13", distance: 2800 }));
    expect(bad).toMatchObject({ status: 400, message: "Ogiltigt lopp." });
    expect(await stub.getRace()).toBeNull();

    const race = uniqueRace();
    await stub.init(race);
    const other = uniqueRace();
    const clash = await rejection(stub.init(other));
    expect(clash).toMatchObject({ status: 409 });
    expect((await stub.getRace())?.part).toBe(race.part);
  });

  it("refuses runner calls before init", async () => {
    const stub = testRace(crypto.randomUUID());
    const err = await rejection(stub.run({ type: "add-runner", runner: runner() }));
    expect(err).toMatchObject({ status: 404, message: "Loppet finns inte" });
  });

  it("takes in the runners D1 already links to the race", async () => {
    const race = uniqueRace();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    await insertParticipant(a, { raceId: race.part, bib: 7 });
    await insertParticipant(b, { raceId: race.part });
    const stub = testRace(crypto.randomUUID());
    await stub.init(race);
    const runners = await stub.listRunners();
    expect(runners.map((r) => [r.id, r.bib, r.firstname, r.group, r.distance])).toEqual([
      [b, null, "Per", "Herr", "5.6"],
      [a, 7, "Per", "Herr", "5.6"],
    ]);
  });
});

describe("RaceDO across eviction", () => {
  it("keeps everything across eviction and migrates the schema once", async () => {
    const { stub, race, name } = await newRace();
    const a = runner({ bib: 9 });
    await stub.run({ type: "add-runner", runner: a });
    await stub.run({ type: "update-runner", runnerId: a.id, patch: { lastname: "Lind" } });
    const before = await stub.snapshot();

    await evictDurableObject(env.RACE.getByName(name));
    expect(await stub.snapshot()).toEqual(before);
    expect(await stub.getRace()).toMatchObject({ part: race.part });
    // After waking, the cache is rebuilt from storage: a bib clash is still seen.
    expect(await rejection(stub.run({ type: "add-runner", runner: runner({ bib: 9 }) }))).toMatchObject({
      status: 409,
    });

    const versions = await runInDurableObject(env.RACE.getByName(name), (_instance: RaceDO, state) =>
      state.storage.sql.exec<{ version: number }>("SELECT version FROM _sql_schema_migrations").toArray(),
    );
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("RaceDO mirrors to D1", () => {
  it("writes race, bib and distance to the participant row, and unlinks on removal", async () => {
    const { stub, race } = await newRace(2800);
    const id = crypto.randomUUID();
    await insertParticipant(id);

    await stub.run({
      type: "add-runner",
      runner: { ...runner({ id, bib: 401 }), distance: undefined, owner: "box-office" },
    });
    expect(await participantRow(id)).toEqual({ bib: 401, race_id: race.part, distance: "2.8" });

    await stub.run({ type: "update-runner", runnerId: id, patch: { bib: 455 } });
    expect(await participantRow(id)).toEqual({ bib: 455, race_id: race.part, distance: "2.8" });

    await stub.run({ type: "remove-runner", runnerId: id });
    expect(await participantRow(id)).toEqual({ bib: null, race_id: null, distance: "2.8" });
  });

  it("heals the index on a repeated add", async () => {
    const { stub, race } = await newRace();
    const id = crypto.randomUUID();
    await stub.run({ type: "add-runner", runner: { ...runner({ id, bib: 77 }), owner: "box-office" } });
    // The participant row arrives (or was reset) after the runner was added: the retry links it.
    await insertParticipant(id);
    expect(await participantRow(id)).toMatchObject({ race_id: null, bib: null });
    await stub.run({ type: "add-runner", runner: { ...runner({ id, bib: 77 }), owner: "box-office" } });
    expect(await participantRow(id)).toMatchObject({ race_id: race.part, bib: 77 });
  });

  it("a runner whose owner is not known (added before owners were kept) writes only a row made before it joined", async () => {
    const { stub, race } = await newRace();
    const before = crypto.randomUUID();
    await insertParticipant(before);
    await stub.run({ type: "add-runner", runner: runner({ id: before, bib: 81 }) });
    expect(await participantRow(before)).toMatchObject({ race_id: race.part, bib: 81 });
    // A row with the id of a runner already in the race, made afterwards, is someone else's: never written.
    const after = crypto.randomUUID();
    await stub.run({ type: "add-runner", runner: runner({ id: after, bib: 82 }) });
    await insertParticipant(after);
    await stub.run({ type: "update-runner", runnerId: after, patch: { bib: 83 } });
    expect(await participantRow(after)).toMatchObject({ race_id: null, bib: null });
  });

  it("leaves a participant that D1 links to another race alone on removal", async () => {
    const { stub } = await newRace();
    const id = crypto.randomUUID();
    await stub.run({ type: "add-runner", runner: runner({ id }) });
    await insertParticipant(id, { raceId: "race-250913-28", bib: 400 });
    await stub.run({ type: "remove-runner", runnerId: id });
    expect(await participantRow(id)).toMatchObject({ race_id: "race-250913-28", bib: 400 });
  });
});

/**
 * Race day you can trust (issue 23): no finish time is lost or silently overwritten. Each case here failed
 * before its fix.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceDO } from "../../../src/durable/race/race-do";
import { raceId } from "../../../src/shared/race-id";
import type { RaceRecord, RunnerRecord } from "../../../src/shared/race-protocol";
import { get, loginAdmin } from "../../worker/helpers";
import { addRunner, auditTypes, finish, newRace, snapshot, startEarlier, tapId, useRaceYear } from "./race-helpers";
import { raceClient } from "../../../src/worker/race-day/race-runners";

useRaceYear(2071);

describe("a finish never loses to a change of distance", () => {
  it("a finish tap landing while the move waits on D1 keeps the runner here, finished", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar, 5600);
    const target = await newRace(jar, 2800);
    const runner = await addRunner(jar, part, { firstname: "Ella", bib: 601 });
    expect((await startEarlier(jar, part)).status).toBe(200);

    const outcome = await runInDurableObject(env.RACE.getByName(part), async (race: RaceDO) => {
      // The move checks, then waits on D1 for the target; the finish lands in that window.
      const move = race.moveRunner(target, runner.id, { actor: "a" });
      const finished = await race.finish(runner.id, { tapId: tapId(), at: Date.now() - 1000 }, { actor: "b" });
      const moved = await move;
      return { move: moved.ok ? "moved" : moved.error, finish: finished.ok ? finished.value.outcome : finished.error };
    });
    expect(outcome.finish).toBe("recorded");
    expect(outcome.move).toMatch(/gått i mål/);
    const here = await snapshot(jar, part);
    expect(here.runners.find((r: RunnerRecord) => r.id === runner.id)?.finished).not.toBeNull();
    const there = await snapshot(jar, target);
    expect(there.runners.some((r) => r.id === runner.id)).toBe(false);
  });
});

describe("nobody moves into an ended race", () => {
  it("change-distance into an ended race is a Swedish 409 and the runner stays where it was", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar, 5600);
    const target = await newRace(jar, 2800);
    const waiting = await addRunner(jar, part, { firstname: "Ella", bib: 610 });
    // The target race runs and ends.
    const other = await addRunner(jar, target, { firstname: "Olle", bib: 410 });
    expect((await startEarlier(jar, target)).status).toBe(200);
    expect((await finish(jar, target, other.sort, { tap: tapId(), at: Date.now() - 1000 })).status).toBe(200);
    expect((await get(`/admin/api/races/end/${target}`, { jar })).status).toBe(200);

    const res = await get(`/admin/api/races/change-distance/${target}/${part}/${waiting.sort}`, { jar });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toMatch(/avslutat/);
    expect((await snapshot(jar, part)).runners.map((r) => r.id)).toContain(waiting.id);
    expect((await snapshot(jar, target)).runners.map((r) => r.id)).not.toContain(waiting.id);
  });

  it("the ended race refuses the move itself when D1's index has not heard of the end yet", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar, 5600);
    const target = await newRace(jar, 2800);
    const waiting = await addRunner(jar, part, { firstname: "Ella", bib: 611 });
    expect((await startEarlier(jar, target)).status).toBe(200);
    expect((await get(`/admin/api/races/end/${target}`, { jar })).status).toBe(200);
    await env.DB.prepare("UPDATE races SET state = 'started' WHERE part = ?").bind(target).run();

    const res = await get(`/admin/api/races/change-distance/${target}/${part}/${waiting.sort}`, { jar });
    expect(res.status).toBe(409);
    expect((await snapshot(jar, part)).runners.map((r) => r.id)).toContain(waiting.id);
    expect(await auditTypes(part)).toContain("runner-move-cancelled");
  });

  it("a runner who arrives after the end (a late payment, an admin's add) comes in as DNS with an audit line", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar, 5600);
    expect((await startEarlier(jar, part)).status).toBe(200);
    expect((await get(`/admin/api/races/end/${part}`, { jar })).status).toBe(200);

    const paid = await raceClient(env.RACE.getByName(part)).addRunner(
      { id: crypto.randomUUID(), firstname: "Sen", lastname: "Betalare", age: 30 },
      { actor: "betalning" },
      { dropTakenBib: true },
    );
    expect(paid.runner.dns).toBe(true);
    const added = await addRunner(jar, part, { firstname: "Admin", lastname: "Tillagd" });
    expect(added.dns).toBe(true);
    const { race, runners } = await snapshot(jar, part);
    expect(race.state).toBe("ended");
    expect(runners.every((r) => r.dns)).toBe(true);
    const lines = (await raceClient(env.RACE.getByName(part)).events()).filter((e) => e.type === "runner-added");
    expect(lines.map((e) => JSON.parse(e.payload).lateForEndedRace)).toEqual([true, true]);
  });
});

describe("an ended race stays ended", () => {
  it("an object made from D1 for an ended race keeps its state and cannot be started again", async () => {
    const jar = await loginAdmin();
    // A past season's race: in D1's index as ended, its object never made (or its storage cleared).
    const part = raceId("2071-12-30", 1600);
    const started = Date.UTC(2071, 11, 30, 10, 0);
    await env.DB.prepare(
      "INSERT INTO races (part, season, date, distance, open_for_reg, state, started) VALUES (?, 2071, '2071-12-30', 1600, 0, 'ended', ?)",
    )
      .bind(part, started)
      .run();

    const res = await get(`/admin/api/races/start/${part}`, { jar });
    expect(res.status).toBe(409);
    const { race } = await snapshot(jar, part);
    expect(race).toMatchObject({ state: "ended", started });
    const listed = (await (await get("/api/races")).json()) as RaceRecord[];
    expect(listed.find((r) => r.part === part)?.state).toBe("ended");
  });

  it("a race D1's index does not have is a 404 and makes no object", async () => {
    const jar = await loginAdmin();
    const part = raceId("2071-12-31", 800);
    expect((await get(`/admin/api/races/start/${part}`, { jar })).status).toBe(404);
    expect(await raceClient(env.RACE.getByName(part)).getRace()).toBeNull();
  });
});

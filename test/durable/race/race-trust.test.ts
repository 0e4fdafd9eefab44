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
import { testRace } from "../../worker/race-calls";
import { get, loginAdmin, post, waitFor } from "../../worker/helpers";
import {
  addRunner,
  auditTypes,
  dataFrames,
  finish,
  json,
  newRace,
  snapshot,
  startEarlier,
  subscribe,
  tapId,
  useRaceYear,
} from "./race-helpers";

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
      const finished = await race.run(
        { type: "finish", runnerId: runner.id, tap: { tapId: tapId(), at: Date.now() - 1000 } },
        { actor: "b" },
      );
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

    const paid = await testRace(part).run(
      {
        type: "add-runner",
        runner: { id: crypto.randomUUID(), firstname: "Sen", lastname: "Betalare", age: 30 },
        options: { dropTakenBib: true },
      },
      { actor: "betalning" },
    );
    expect(paid.runner.dns).toBe(true);
    const added = await addRunner(jar, part, { firstname: "Admin", lastname: "Tillagd" });
    expect(added.dns).toBe(true);
    const { race, runners } = await snapshot(jar, part);
    expect(race.state).toBe("ended");
    expect(runners.every((r) => r.dns)).toBe(true);
    const lines = (await testRace(part).events()).filter((e) => e.type === "runner-added");
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

  it("an ended race takes an admin's corrections (a confirmed re-record, DNS, a bib) and no plain tap", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const [ella, olle] = [await addRunner(jar, part, { bib: 670 }), await addRunner(jar, part, { bib: 671 })];
    expect((await startEarlier(jar, part)).status).toBe(200);
    expect((await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 60_000 })).status).toBe(200);
    expect((await get(`/admin/api/races/dns/${part}/${olle.sort}/on`, { jar })).status).toBe(200);
    expect((await get(`/admin/api/races/end/${part}`, { jar })).status).toBe(200);

    const corrected = await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 30_000, rerecord: 1 });
    expect(corrected.status).toBe(200);
    expect(((await corrected.json()) as { outcome: string }).outcome).toBe("rerecorded");
    expect((await get(`/admin/api/races/register-bib/${part}/${olle.sort}/672`, { jar })).status).toBe(200);
    expect((await get(`/admin/api/races/dns/${part}/${olle.sort}/off`, { jar })).status).toBe(200);
    expect((await finish(jar, part, olle.sort, { tap: tapId(), at: Date.now() - 20_000 })).status).toBe(202);
    expect((await snapshot(jar, part)).race.state).toBe("ended");
  });

  it("a race D1's index does not have is a 404 and makes no object", async () => {
    const jar = await loginAdmin();
    const part = raceId("2071-12-31", 800);
    expect((await get(`/admin/api/races/start/${part}`, { jar })).status).toBe(404);
    expect(await testRace(part).getRace()).toBeNull();
  });
});

type Review = { id: string; kind: string; status: string; reason: string; at: number; runnerId?: string };

describe("'Att granska': nothing a volunteer tapped disappears without a person deciding", () => {
  it("a refused tap lands on every phone's list, is applied with its original moment on one, and is audited", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const ella = await addRunner(jar, part, { firstname: "Ella", bib: 620 });
    const [phoneA, phoneB] = await Promise.all([subscribe(jar, part), subscribe(jar, part)]);
    // A tap queued before the start (the phone missed the start event) reaches a race not yet started.
    const tapped = Date.now() - 5_000;
    const tap = tapId();
    const res = await finish(jar, part, ella.sort, { tap, at: tapped, device: "telefon-b" });
    expect(res.status).toBe(202);
    const { review } = (await res.json()) as { review: Review };
    expect(review).toMatchObject({ id: tap, kind: "tap", status: "open", at: tapped, runnerId: ella.id });
    // A replay of the same tap finds the same item, and makes no second one.
    expect((await finish(jar, part, ella.sort, { tap, at: tapped })).status).toBe(202);
    for (const phone of [phoneA, phoneB]) {
      await waitFor(
        () =>
          dataFrames(phone.socket)
            .flat()
            .some((e) => e.sort === `review-${tap}`),
        3000,
        "the item",
      );
    }
    expect(await json<Review[]>(await get(`/admin/api/races/review/${part}`, { jar }))).toHaveLength(1);

    // Applying before the start cannot work: the item stays.
    const early = await post(`/admin/api/races/review/${part}/${tap}/apply`, {}, { jar });
    expect(early.status).toBe(409);
    expect(await json<Review[]>(await get(`/admin/api/races/review/${part}`, { jar }))).toHaveLength(1);

    // The race is started (its gun a minute ago); the admin applies it: the finish is the tap's own moment.
    expect((await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - 60_000}`, { jar })).status).toBe(
      200,
    );
    const applied = await json<{ review: Review; runner: RunnerRecord }>(
      await post(`/admin/api/races/review/${part}/${tap}/apply`, {}, { jar }),
    );
    expect(applied.review.status).toBe("applied");
    expect(applied.runner.finished).toBe(tapped);
    for (const phone of [phoneA, phoneB]) {
      await waitFor(
        () =>
          dataFrames(phone.socket)
            .flat()
            .some((e) => e.sort === `review-${tap}` && "status" in e && e.status === "applied"),
        3000,
        "the applied item",
      );
    }
    expect(await json<Review[]>(await get(`/admin/api/races/review/${part}`, { jar }))).toEqual([]);
    expect((await post(`/admin/api/races/review/${part}/${tap}/apply`, {}, { jar })).status).toBe(409);
    const types = await auditTypes(part);
    expect(types).toContain("review-added");
    const events = await testRace(part).events();
    const finishEvent = events.find((e) => e.type === "finish" && JSON.parse(e.payload).outcome === "applied");
    expect(JSON.parse(finishEvent!.payload)).toMatchObject({ id: ella.id, at: tapped, review: tap });
  });

  it("taps for a runner moved away, marked DNS, undone after the tap, or after the end: each kept, discardable", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const target = await newRace(jar, 2800);
    const [moved, dns, undone] = await Promise.all([
      addRunner(jar, part, { firstname: "Flyttad", bib: 630 }),
      addRunner(jar, part, { firstname: "Dns", bib: 631 }),
      addRunner(jar, part, { firstname: "Ångrad", bib: 632 }),
    ]);
    expect((await startEarlier(jar, part)).status).toBe(200);
    const tappedAt = Date.now() - 20_000;
    // Phone A records and then undoes Ångrad's finish; phone B's older queued tap must not bring it back.
    expect((await finish(jar, part, undone.sort, { tap: tapId(), at: tappedAt })).status).toBe(200);
    expect((await get(`/admin/api/races/restore/${part}/${undone.sort}`, { jar })).status).toBe(200);
    expect((await get(`/admin/api/races/change-distance/${target}/${part}/${moved.sort}`, { jar })).status).toBe(200);
    expect((await get(`/admin/api/races/dns/${part}/${dns.sort}/on`, { jar })).status).toBe(200);

    const reasons: string[] = [];
    for (const runner of [moved, dns, undone]) {
      const res = await finish(jar, part, runner.sort, { tap: tapId(), at: tappedAt - 1000 });
      expect(res.status, runner.firstname).toBe(202);
      reasons.push(((await res.json()) as { review: Review }).review.reason);
    }
    expect(reasons).toEqual([
      "Löparen finns inte i loppet.",
      "Löparen är markerad som ej startande (DNS).",
      "Målgången ångrades efter att tryckningen gjordes.",
    ]);
    const { runners } = await snapshot(jar, part);
    expect(runners.find((r) => r.id === dns.id)?.dns).toBe(true);
    expect(runners.find((r) => r.id === undone.id)?.finished).toBeNull();

    // After the end a queued tap goes to the list too.
    await get(`/admin/api/races/dns/${part}/${undone.sort}/on`, { jar });
    expect((await get(`/admin/api/races/end/${part}`, { jar })).status).toBe(200);
    const late = await finish(jar, part, undone.sort, { tap: tapId(), at: tappedAt });
    expect(late.status).toBe(202);
    expect(((await late.json()) as { review: Review }).review.reason).toBe("Loppet är avslutat.");

    const open = await json<Review[]>(await get(`/admin/api/races/review/${part}`, { jar }));
    expect(open).toHaveLength(4);
    const discarded = await json<{ review: Review }>(
      await post(`/admin/api/races/review/${part}/${open[0]!.id}/discard`, {}, { jar }),
    );
    expect(discarded.review.status).toBe("discarded");
    expect(await json<Review[]>(await get(`/admin/api/races/review/${part}`, { jar }))).toHaveLength(3);
    expect(await auditTypes(part)).toContain("review-discarded");
    expect((await post(`/admin/api/races/review/${part}/finns-inte-alls/discard`, {}, { jar })).status).toBe(404);
  });

  it("a tap id reused for another runner is refused, not answered with the first runner's finish", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const [a, b] = [await addRunner(jar, part, { bib: 640 }), await addRunner(jar, part, { bib: 641 })];
    expect((await startEarlier(jar, part)).status).toBe(200);
    const tap = tapId();
    expect((await finish(jar, part, a.sort, { tap, at: Date.now() - 1000 })).status).toBe(200);
    const reused = await finish(jar, part, b.sort, { tap, at: Date.now() - 1000 });
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { error: string }).error).toMatch(/redan använt/);
    expect((await snapshot(jar, part)).runners.find((r) => r.id === b.id)?.finished).toBeNull();
  });

  it("a tap ahead of the server by less than the clock-sync error is clamped to now and recorded", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { bib: 650 });
    const b = await addRunner(jar, part, { bib: 651 });
    expect((await startEarlier(jar, part)).status).toBe(200);
    const before = Date.now();
    const clamped = await finish(jar, part, a.sort, { tap: tapId(), at: before + 8_000, err: 12_000 });
    expect(clamped.status).toBe(200);
    const { finished } = (await clamped.json()) as { finished: number };
    expect(finished).toBeLessThanOrEqual(Date.now());
    expect(finished).toBeGreaterThanOrEqual(before);
    // Beyond the error it is the phone's clock that is wrong: kept for a person.
    expect((await finish(jar, part, b.sort, { tap: tapId(), at: Date.now() + 8_000, err: 1_000 })).status).toBe(202);
  });

  it("a re-recorded runner's previous time comes back from the audit trail in one action", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const ella = await addRunner(jar, part, { firstname: "Ella", bib: 660 });
    expect((await startEarlier(jar, part)).status).toBe(200);
    const good = Date.now() - 300_000;
    expect((await finish(jar, part, ella.sort, { tap: tapId(), at: good })).status).toBe(200);
    const stray = await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 1000, rerecord: 1 });
    expect(((await stray.json()) as { outcome: string }).outcome).toBe("rerecorded");
    const events = await testRace(part).events();
    const rerecord = events.filter((e) => e.type === "finish").at(-1)!;
    expect(JSON.parse(rerecord.payload).previous).toBe(good);
    const restored = await json<{ runner: RunnerRecord }>(
      await post(`/admin/api/races/restore-time/${part}/${rerecord.seq}`, {}, { jar }),
    );
    expect(restored.runner.finished).toBe(good);
    expect(await auditTypes(part)).toContain("time-restored");
    // The first finish replaced nothing: there is no time to bring back.
    const first = events.find((e) => e.type === "finish")!;
    expect((await post(`/admin/api/races/restore-time/${part}/${first.seq}`, {}, { jar })).status).toBe(409);
  });
});

describe("starts", () => {
  it("two phones pressing 'Starta' for one gun: the first sets it, a second within 2 s is the same start", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const gun = Date.now() - 30_000;
    const first = await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${gun}&device=a`, { jar });
    expect(await first.json()).toMatchObject({ outcome: "started", started: gun });
    const second = await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${gun + 1500}&device=b`, { jar });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ outcome: "same-start", started: gun });
    expect(await auditTypes(part)).toContain("same-start");

    // One further apart is a person's choice: both moments shown, the chosen one becomes the start.
    const other = await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${gun - 10_000}&device=c`, { jar });
    expect(other.status).toBe(202);
    const { review } = (await other.json()) as { review: Review & { started: number } };
    expect(review).toMatchObject({ kind: "start", at: gun - 10_000, started: gun });
    const applied = await json<{ race: RaceRecord }>(
      await post(`/admin/api/races/review/${part}/${review.id}/apply`, {}, { jar }),
    );
    expect(applied.race).toMatchObject({ state: "started", started: gun - 10_000 });
  });

  it("a start replayed long after it was pressed goes to the list, and starts the race when applied", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const pressed = Date.now() - 5 * 3_600_000;
    const res = await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${pressed}`, { jar });
    expect(res.status).toBe(202);
    const { review } = (await res.json()) as { review: Review };
    expect(review.reason).toMatch(/kom fram först/);
    expect((await snapshot(jar, part)).race.state).toBe("");
    const applied = await json<{ race: RaceRecord }>(
      await post(`/admin/api/races/review/${part}/${review.id}/apply`, {}, { jar }),
    );
    expect(applied.race).toMatchObject({ state: "started", started: pressed });
  });
});

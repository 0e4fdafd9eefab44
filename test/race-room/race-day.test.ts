/**
 * Race day's own rules in the race room (rules/start.ts, finish.ts, dns.ts, end.ts, reset.ts, bib.ts): the start
 * and the same start from two phones, finish taps and their replays, the same finish from two devices, re-records
 * and restoring the time one replaced, undo, DNS, the end, reset, bibs. The clock stands still until a test moves
 * it, so every moment here is exact. What a change owes every admin socket is `owed.events` (the race object
 * broadcasts exactly those, race-do.ts `carry`); the sockets themselves are tested on workerd
 * (test/durable/race/race-day.test.ts). Taps the race cannot take: review.test.ts; the ended race: ended-race.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runnerSort, type RaceEvent } from "../../src/shared/race-protocol";
import { bareFinish, reviewOf, startedRace, tap, TEN_MINUTES, withRunners } from "./race-day-helpers";
import { ADMIN, applyEvents, newRoom, refusal, runner, tapId } from "./room-helpers";

describe("the start", () => {
  it("'Starta' starts the race at the tap's moment; a replay of the tap answers the start it made", () => {
    const race = newRoom();
    const gun = race.clock.now() - 5_000;
    const tapped = tapId();
    const started = race.apply({ type: "start", tap: { tapId: tapped, at: gun } });
    expect(started.value).toMatchObject({ outcome: "started", race: { state: "started", started: gun } });
    // Every admin phone hears of the race, and D1's index is owed the new state.
    expect(started.owed.events).toEqual([expect.objectContaining({ sort: "race", state: "started", started: gun })]);
    expect(started.owed.mirrorRace).toBe(true);
    expect(race.audit("start")[0]!.data).toEqual({ at: gun, tapId: tapped, receivedAt: race.clock.now() });

    race.clock.advance(60_000);
    const replay = race.apply({ type: "start", tap: { tapId: tapped, at: race.clock.now() } });
    expect(replay.value).toMatchObject({ outcome: "replayed", race: { started: gun } });
    expect(replay.owed.events).toEqual([]);
    expect(race.auditTypes().filter((t) => t === "start")).toHaveLength(1);
  });

  it("the spec's bare call (no tap id) starts at the server's now, and a second bare start is refused", () => {
    const race = newRoom();
    expect(race.run({ type: "start", tap: {} })).toMatchObject({ outcome: "started" });
    expect(race.room.race().started).toBe(race.clock.now());
    expect(refusal(() => race.run({ type: "start", tap: {} }))).toEqual({
      status: 409,
      message: "Loppet har redan startat.",
    });
  });

  it("two phones pressing 'Starta' for one gun: the first sets it, a second within 2 s is the same start", () => {
    const race = newRoom();
    const gun = race.clock.now() - 30_000;
    expect(race.run({ type: "start", tap: { tapId: tapId(), at: gun } }, { device: "a" })).toMatchObject({
      outcome: "started",
      race: { started: gun },
    });
    const second = race.apply({ type: "start", tap: { tapId: tapId(), at: gun + 1500 } }, { device: "b" });
    expect(second.value).toMatchObject({ outcome: "same-start", race: { state: "started", started: gun } });
    // The same start changes nothing a phone shows, but the log keeps it.
    expect(second.owed.events).toEqual([]);
    expect(race.audit("same-start")[0]!.data).toMatchObject({ at: gun + 1500, first: gun });
    // The window's edge is still the same start (2 s either side).
    expect(race.run({ type: "start", tap: { tapId: tapId(), at: gun - 2_000 } })).toMatchObject({
      outcome: "same-start",
    });

    // One further apart is a person's choice: both moments shown, the chosen one becomes the start.
    const other = race.run({ type: "start", tap: { tapId: tapId(), at: gun - 10_000 } }, { device: "c" });
    expect(other).toMatchObject({
      outcome: "review",
      review: {
        kind: "start",
        status: "open",
        at: gun - 10_000,
        started: gun,
        reason: "Loppet startades redan kl. 11:59:30 (från en annan telefon).",
        device: "c",
      },
    });
    expect(race.room.race().started).toBe(gun);
    const applied = race.run({ type: "apply-review", reviewId: reviewOf(other).id });
    expect(applied.race).toMatchObject({ state: "started", started: gun - 10_000 });
    expect(race.audit("start-moved")[0]!.data).toMatchObject({ at: gun - 10_000, previous: gun, state: "started" });
  });

  it("a start replayed long after it was pressed goes to the list, and starts the race when applied", () => {
    const race = newRoom();
    const pressed = race.clock.now() - 5 * 3_600_000;
    const result = race.run({ type: "start", tap: { tapId: tapId(), at: pressed } });
    expect(result).toMatchObject({
      outcome: "review",
      review: { kind: "start", at: pressed, started: null, reason: expect.stringMatching(/kom fram först/) },
    });
    // 10:00 UTC is 12:00 in Stockholm in May.
    expect(reviewOf(result).reason).toBe("Starten trycktes kl. 07:00:00 men kom fram först kl. 12:00:00.");
    expect(race.room.race().state).toBe("");
    const applied = race.apply({ type: "apply-review", reviewId: reviewOf(result).id });
    expect(applied.value.race).toMatchObject({ state: "started", started: pressed });
    expect(applied.value.review.status).toBe("applied");
    expect(applied.owed.mirrorRace).toBe(true);
  });

  it("a start pressed up to 30 minutes before it reaches the race starts it (a phone offline for a while)", () => {
    const race = newRoom();
    const pressed = race.clock.now() - 30 * 60_000;
    expect(race.run({ type: "start", tap: { tapId: tapId(), at: pressed } })).toMatchObject({
      outcome: "started",
      race: { started: pressed },
    });
  });

  it("a start ahead of the server beyond the clock-sync error goes to the list; without a tap id it is refused", () => {
    const race = newRoom();
    const ahead = race.clock.now() + 60_000;
    expect(race.run({ type: "start", tap: { tapId: tapId(), at: ahead } })).toMatchObject({
      outcome: "review",
      review: { kind: "start", at: ahead, reason: expect.stringMatching(/i framtiden/) },
    });
    expect(refusal(() => race.run({ type: "start", tap: { at: ahead } })).status).toBe(422);
    expect(race.room.race().state).toBe("");
  });

  it("a tap id is one tap: a finish's tap id is refused as a start, and a start's as a finish", () => {
    const { race, runners } = withRunners([601]);
    const startTap = tapId();
    race.run({ type: "start", tap: { tapId: startTap, at: race.clock.now() - 60_000 } });
    const reused = "Tryck-id:t är redan använt för en annan tryckning.";
    expect(refusal(() => tap(race, runners[0]!.id, { tapId: startTap }))).toEqual({ status: 409, message: reused });
    const finishTap = tapId();
    tap(race, runners[0]!.id, { tapId: finishTap });
    expect(refusal(() => race.run({ type: "start", tap: { tapId: finishTap } }))).toEqual({
      status: 409,
      message: reused,
    });
  });

  it("a start chosen from the list moves every finished runner's time with it, but not past a recorded finish", () => {
    const { race, runners, started } = startedRace([601, 602]);
    tap(race, runners[0]!.id, { at: started + 60_000 });
    const later = reviewOf(race.run({ type: "start", tap: { tapId: tapId(), at: started + 90_000 } }));
    race.clock.advance(1000);
    const early = reviewOf(race.run({ type: "start", tap: { tapId: tapId(), at: started - 10_000 } }));

    expect(refusal(() => race.run({ type: "apply-review", reviewId: later.id }))).toEqual({
      status: 409,
      message: "Starten kan inte ligga efter en registrerad målgång.",
    });
    expect(race.room.reviews().map((r) => r.id)).toEqual([later.id, early.id]);

    const moved = race.apply({ type: "apply-review", reviewId: early.id });
    expect(moved.value.race?.started).toBe(started - 10_000);
    // Each finisher's time is measured from the start: their records reach every phone with the new time.
    expect(moved.owed.events).toContainEqual(
      expect.objectContaining({ sort: runnerSort(runners[0]!.id), finished: started + 60_000, time: "01:10.000" }),
    );
    expect(moved.owed.events.some((e) => e.sort === runnerSort(runners[1]!.id))).toBe(false);
  });

  it("a moved start is a change of every finisher's record: a replay by seq and the spectators' feed carry it", () => {
    const { race, runners, started } = startedRace([601, 602, 603]);
    const [ella, olle, waiting] = runners.map((r) => r.id) as [string, string, string];
    tap(race, ella, { at: started + 60_000 });
    tap(race, olle, { at: started + 75_000 });
    const item = reviewOf(race.run({ type: "start", tap: { tapId: tapId(), at: started - 10_000 } }));
    const before = race.room.catchUp(0).hello.seq;

    const moved = race.apply({ type: "apply-review", reviewId: item.id });
    const seq = race.audit("start-moved")[0]!.seq;
    // Each finisher's record changed with the start: it carries the change's seq, on every phone.
    for (const [id, time] of [
      [ella, "01:10.000"],
      [olle, "01:25.000"],
    ] as const) {
      expect(moved.owed.events).toContainEqual(expect.objectContaining({ sort: runnerSort(id), seq, time }));
    }
    expect(moved.owed.spectators).toBe(true);
    // A phone that reconnects with the seq it had gets them, and so does the spectators' fan-out (publicSince).
    const replay = race.room.catchUp(before).events;
    expect(replay).toContainEqual(expect.objectContaining({ sort: runnerSort(ella), time: "01:10.000" }));
    const feed = race.room.publicSince(before);
    expect(feed.seq).toBe(seq);
    expect(feed.runners.map((r) => [r.sort, "time" in r ? r.time : null]).sort()).toEqual(
      [
        [runnerSort(ella), "01:10.000"],
        [runnerSort(olle), "01:25.000"],
      ].sort(),
    );
    expect(feed.runners.some((r) => r.sort === runnerSort(waiting))).toBe(false);
    expect(feed.race).toMatchObject({ started: started - 10_000 });
  });
});

describe("finish taps", () => {
  it("a tap records the runner's finish at its moment; the first finish makes the results preliminary", () => {
    const { race, runners, started } = startedRace([601]);
    const result = race.apply(
      { type: "finish", runnerId: runners[0]!.id, tap: { tapId: tapId(), at: started + 65_432 } },
      { actor: ADMIN.actor, device: "p1" },
    );
    expect(result.value).toMatchObject({
      outcome: "recorded",
      finished: started + 65_432,
      runner: { finished: started + 65_432, time: "01:05.432" },
    });
    // In seq order: the runner, then the race (its results became preliminary with that first finish).
    expect(result.owed.events.map((e) => e.sort)).toEqual([runnerSort(runners[0]!.id), "race"]);
    expect(result.owed.events[1]).toMatchObject({ results: "preliminary" });
    expect(race.audit("finish")[0]).toMatchObject({ actor: ADMIN.actor, device: "p1" });
  });

  it("a replayed tap answers what it answered the first time and changes nothing, so no phone hears of it", () => {
    const { race, runners, started } = startedRace([601]);
    const a = runners[0]!.id;
    const tapped = tapId();
    expect(tap(race, a, { tapId: tapped, at: started + 5000 })).toMatchObject({ finished: started + 5000 });
    const before = race.room.snapshot();
    for (let i = 0; i < 5; i += 1) {
      race.clock.advance(1000);
      const again = race.apply(
        { type: "finish", runnerId: a, tap: { tapId: tapped, at: started + 9000 } },
        { device: "p1" },
      );
      expect(again.value).toMatchObject({ outcome: "replayed", finished: started + 5000 });
      expect(again.owed.events).toEqual([]);
    }
    expect(race.room.snapshot()).toEqual(before);
    expect(race.auditTypes().filter((t) => t === "finish")).toHaveLength(1);
  });

  it("two devices tapping one runner within 5 s are one finish, the earliest kept; further apart a conflict", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    race.clock.advance(120_000);
    expect(tap(race, a, { at: started + 60_000 }, { device: "p1" })).toMatchObject({ outcome: "recorded" });
    expect(tap(race, a, { at: started + 59_200 }, { device: "p2" })).toMatchObject({
      outcome: "same-finish",
      finished: started + 59_200,
    });
    expect(tap(race, a, { at: started + 61_000 }, { device: "p3" })).toMatchObject({
      outcome: "same-finish",
      finished: started + 59_200,
    });
    // The window's edge (5 s) is still the same finish.
    expect(tap(race, a, { at: started + 64_200 }, { device: "p4" })).toMatchObject({ outcome: "same-finish" });

    // Further apart than the window: neither phone knew of the other; the earliest is kept and the log says so.
    tap(race, b, { at: started + 80_000 }, { device: "p1" });
    const later = race.apply(
      { type: "finish", runnerId: b, tap: { tapId: tapId(), at: started + 90_000 } },
      { device: "p2" },
    );
    expect(later.value).toMatchObject({ outcome: "conflict", finished: started + 80_000 });
    expect(later.owed.events).toEqual([]);
    const earlier = tap(race, b, { at: started + 70_000 }, { device: "p3" });
    expect(earlier).toMatchObject({ outcome: "conflict", finished: started + 70_000 });
    expect(race.audit("finish").map((e) => e.data.outcome)).toEqual([
      "recorded",
      "same-finish",
      "same-finish",
      "same-finish",
      "recorded",
      "conflict",
      "conflict",
    ]);
  });

  it("a confirmed tap on a finished tile re-records; so does the spec's bare call, at the server's now", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    race.clock.advance(120_000);
    tap(race, a, { at: started + 60_000 }, { device: "p1" });
    const rerecord = race.apply(
      { type: "finish", runnerId: a, tap: { tapId: tapId(), at: started + 70_000, rerecord: true } },
      { device: "p1" },
    );
    expect(rerecord.value).toMatchObject({ outcome: "rerecorded", finished: started + 70_000 });
    expect(rerecord.owed.events).toEqual([
      expect.objectContaining({ sort: runnerSort(a), finished: started + 70_000 }),
    ]);
    // The time it replaced is in the log, for 'restore-time'.
    expect(race.audit("finish").at(-1)!.data).toMatchObject({ outcome: "rerecorded", previous: started + 60_000 });

    tap(race, b, { at: started + 1000 });
    const bare = bareFinish(race, b);
    expect(bare).toMatchObject({ outcome: "rerecorded", finished: race.clock.now() });
    expect(race.audit("finish").map((e) => e.data.outcome)).toEqual([
      "recorded",
      "rerecorded",
      "recorded",
      "rerecorded",
    ]);
  });

  it("a tap id reused for another runner is refused, not answered with the first runner's finish", () => {
    const { race, runners, started } = startedRace([640, 641]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const tapped = tapId();
    tap(race, a, { tapId: tapped, at: started + 1000 });
    expect(refusal(() => tap(race, b, { tapId: tapped, at: started + 1000 }))).toEqual({
      status: 409,
      message: "Tryck-id:t är redan använt för en annan tryckning.",
    });
    expect(race.room.runner(b)?.finished).toBeNull();
  });

  it("a tap ahead of the server by less than the clock-sync error is clamped to now and recorded", () => {
    const { race, runners } = startedRace([650, 651, 652, 653]);
    const [a, b, c, d] = runners.map((r) => r.id) as [string, string, string, string];
    const now = race.clock.now();
    expect(tap(race, a, { at: now + 8_000, err: 12_000 })).toMatchObject({ outcome: "recorded", finished: now });
    expect(race.audit("finish")[0]!.data).toMatchObject({ at: now, clampedFrom: now + 8_000 });
    // Without a sync error a phone may be 2 s ahead; beyond that it is the phone's clock that is wrong.
    expect(tap(race, b, { at: now + 2_000 })).toMatchObject({ outcome: "recorded", finished: now });
    expect(tap(race, c, { at: now + 2_001 })).toMatchObject({
      outcome: "review",
      review: { reason: "Tidpunkten ligger i framtiden. Kontrollera telefonens klocka och försök igen." },
    });
    // No phone's clock error counts beyond 30 s, whatever it claims.
    expect(tap(race, d, { at: now + 31_000, err: 60_000 })).toMatchObject({ outcome: "review" });
    expect(tap(race, d, { at: now + 8_000, err: 1_000 })).toMatchObject({ outcome: "review" });
    expect(race.room.runner(d)?.finished).toBeNull();
  });

  it("without a tap id (the spec's bare call) a tap the race cannot take is refused, not kept", () => {
    const { race, runners } = withRunners([601]);
    const a = runners[0]!.id;
    expect(refusal(() => bareFinish(race, a))).toEqual({ status: 409, message: "Loppet har inte startat." });
    race.run({ type: "start", tap: {} });
    const started = race.room.race().started!;
    expect(refusal(() => bareFinish(race, a, started - 1))).toEqual({
      status: 422,
      message: "Tidpunkten ligger före starten.",
    });
    expect(refusal(() => bareFinish(race, a, started + 60_000)).status).toBe(422);
    expect(refusal(() => bareFinish(race, "finns-inte"))).toEqual({
      status: 404,
      message: "Löparen finns inte i loppet.",
    });
    expect(race.room.reviews()).toEqual([]);
    expect(race.room.runner(a)?.finished).toBeNull();
  });
});

describe("undoing a finish", () => {
  it("puts the runner back to waiting, audited with the time undone; a waiting runner's undo changes nothing", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    tap(race, a, { at: started + 1000 });
    const undone = race.apply({ type: "undo-finish", runnerId: a });
    expect(undone.value).toMatchObject({ id: a, finished: null });
    expect(undone.owed.events).toEqual([expect.objectContaining({ sort: runnerSort(a), finished: null })]);
    expect(race.audit("restore")[0]!.data).toMatchObject({ id: a, previous: started + 1000 });

    const nothing = race.apply({ type: "undo-finish", runnerId: b });
    expect(nothing.value.finished).toBeNull();
    expect(nothing.owed.events).toEqual([]);
    expect(race.audit("restore")).toHaveLength(1);
  });

  it("is offered only while the race runs", () => {
    const { race, runners } = withRunners([601]);
    expect(refusal(() => race.run({ type: "undo-finish", runnerId: runners[0]!.id }))).toEqual({
      status: 409,
      message: "Loppet har inte startat.",
    });
  });
});

describe("a replaced time restored", () => {
  it("a re-recorded runner's previous time comes back from the audit trail in one action", () => {
    const { race, runners, started } = startedRace([660]);
    const ella = runners[0]!.id;
    const good = started + 300_000;
    race.clock.advance(600_000);
    tap(race, ella, { at: good });
    expect(tap(race, ella, { at: race.clock.now() - 1000, rerecord: true })).toMatchObject({ outcome: "rerecorded" });
    const [first, rerecord] = race.audit("finish");
    expect(rerecord!.data.previous).toBe(good);

    const restored = race.apply({ type: "restore-time", seq: rerecord!.seq });
    expect(restored.value.finished).toBe(good);
    expect(restored.owed.events).toEqual([expect.objectContaining({ sort: runnerSort(ella), finished: good })]);
    expect(race.audit("time-restored")[0]!.data).toMatchObject({
      id: ella,
      at: good,
      previous: race.clock.now() - 1000,
      from: rerecord!.seq,
    });
    // Restoring it again finds the time already there: nothing changes.
    expect(race.apply({ type: "restore-time", seq: rerecord!.seq }).owed.events).toEqual([]);
    expect(race.audit("time-restored")).toHaveLength(1);

    // The first finish replaced nothing: there is no time to bring back.
    expect(refusal(() => race.run({ type: "restore-time", seq: first!.seq }))).toEqual({
      status: 409,
      message: "Den målgången ersatte ingen tidigare tid.",
    });
  });

  it("is refused for a seq that is no finish, a runner no longer in the race, or a race not started", () => {
    const { race, runners, started } = startedRace([660, 661]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    for (const id of [a, b]) {
      tap(race, id, { at: started + 1000 });
      tap(race, id, { at: started + 2000, rerecord: true });
    }
    const [, rerecordA, , rerecordB] = race.audit("finish");
    const noFinish = { status: 404, message: "Det finns ingen sådan målgång i loggen." };
    expect(refusal(() => race.run({ type: "restore-time", seq: race.audit("start")[0]!.seq }))).toEqual(noFinish);
    expect(refusal(() => race.run({ type: "restore-time", seq: 10_000 }))).toEqual(noFinish);
    expect(refusal(() => race.run({ type: "restore-time", seq: 1.5 }))).toEqual(noFinish);

    race.run({ type: "remove-runner", runnerId: b });
    expect(refusal(() => race.run({ type: "restore-time", seq: rerecordB!.seq }))).toEqual({
      status: 409,
      message: "Löparen finns inte längre i loppet.",
    });
    race.run({ type: "reset" }, ADMIN);
    expect(refusal(() => race.run({ type: "restore-time", seq: rerecordA!.seq }))).toEqual({
      status: 409,
      message: "Loppet har inte startat.",
    });
  });
});

describe("DNS", () => {
  it("marks a waiting runner, can be taken back, and is refused for a runner who has finished", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const marked = race.apply({ type: "set-dns", runnerId: a, dns: true });
    expect(marked.value.dns).toBe(true);
    expect(marked.owed.events).toEqual([expect.objectContaining({ sort: runnerSort(a), dns: true })]);
    // Marking it again changes nothing and logs nothing.
    expect(race.apply({ type: "set-dns", runnerId: a, dns: true }).owed.events).toEqual([]);
    expect(race.run({ type: "set-dns", runnerId: a, dns: false })).not.toHaveProperty("dns");
    expect(race.auditTypes().filter((t) => t.startsWith("dns"))).toEqual(["dns", "dns-removed"]);

    tap(race, b, { at: started + 1000 });
    expect(refusal(() => race.run({ type: "set-dns", runnerId: b, dns: true }))).toEqual({
      status: 409,
      message: "Löparen har redan gått i mål.",
    });
    expect(refusal(() => race.run({ type: "set-dns", runnerId: "finns-inte", dns: true })).status).toBe(404);
  });
});

describe("the end", () => {
  it("ends the race only when nobody is waiting: every runner finished or marked DNS", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const waiting = (n: number) => ({
      status: 409,
      message: `${n} löpare är kvar i loppet. Registrera målgång eller markera DNS först.`,
    });
    expect(refusal(() => race.run({ type: "end" }))).toEqual(waiting(2));
    tap(race, a, { at: started + 1000 });
    expect(refusal(() => race.run({ type: "end" }))).toEqual(waiting(1));
    race.run({ type: "set-dns", runnerId: b, dns: true });

    const ended = race.apply({ type: "end" });
    expect(ended.value).toMatchObject({ state: "ended", started });
    expect(ended.owed.events).toEqual([expect.objectContaining({ sort: "race", state: "ended" })]);
    expect(ended.owed.mirrorRace).toBe(true);
    // Ending it again answers the race as it is, and logs nothing.
    const again = race.apply({ type: "end" });
    expect(again.value.state).toBe("ended");
    expect(again.owed.events).toEqual([]);
    expect(race.auditTypes().filter((t) => t === "end")).toHaveLength(1);
  });

  it("a race not started cannot end", () => {
    const race = newRoom();
    expect(refusal(() => race.run({ type: "end" }))).toEqual({ status: 409, message: "Loppet har inte startat." });
  });

  it("a runner on the way to another race holds nothing back", () => {
    const { race, runners } = startedRace([601]);
    race.room.beginMove(newRoom({ meters: 2800 }).part, runners[0]!.id, ADMIN);
    expect(race.run({ type: "end" }).state).toBe("ended");
  });
});

describe("reset", () => {
  it("returns an ended race to the start keeping runners and bibs; finishes and DNS are cleared", () => {
    const { race, runners, started } = startedRace([630, 631]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    tap(race, a, { at: started + 1000 });
    race.run({ type: "set-dns", runnerId: b, dns: true });
    race.run({ type: "end" });

    const reset = race.apply({ type: "reset" });
    expect(reset.value).toMatchObject({ state: "", started: null });
    expect(reset.value).not.toHaveProperty("results");
    expect(race.room.runners().map((r) => [r.bib, r.finished, r.dns])).toEqual([
      [630, null, undefined],
      [631, null, undefined],
    ]);
    // Every phone hears of the race and of both runners; D1's index is owed the state.
    expect(reset.owed.events.map((e) => e.sort).sort()).toEqual(["race", runnerSort(a), runnerSort(b)].sort());
    expect(reset.owed.mirrorRace).toBe(true);
    expect(race.audit("reset")[0]!.data).toMatchObject({
      previous: { state: "ended", started, results: "preliminary" },
      finishes: expect.arrayContaining([
        [a, started + 1000],
        [b, null],
      ]),
    });
  });

  it("taps made before a reset stay spent: a replay answers 'replayed' and records nothing", () => {
    const { race, runners, started } = startedRace([630]);
    const a = runners[0]!.id;
    const tapped = tapId();
    race.run({ type: "finish", runnerId: a, tap: { tapId: tapped, at: started + 1000 } });
    race.run({ type: "reset" });
    race.run({ type: "start", tap: { tapId: tapId() } });

    const replay = race.apply({ type: "finish", runnerId: a, tap: { tapId: tapped, at: started + 1000 } });
    expect(replay.value).toMatchObject({ outcome: "replayed" });
    expect(replay.owed.events).toEqual([]);
    expect(race.room.runner(a)?.finished).toBeNull();
  });
});

describe("bibs", () => {
  it("any positive integer unique within the race; 'next' takes the first free number of the season's range", () => {
    // 0.8 km: the season's range is 1–199.
    const race = newRoom({ meters: 800 });
    const add = (fields: Parameters<typeof runner>[0]) =>
      race.run({ type: "add-runner", runner: runner(fields) }).runner;
    const alva = add({ firstname: "Alva", lastname: "Ek" });
    const bert = add({ firstname: "Bert", lastname: "Berg" });
    const bib = (runnerId: string, number: number | "next") =>
      race.run({ type: "register-bib", runnerId, bib: number });
    expect(bib(alva.id, 4711).bib).toBe(4711);
    expect(refusal(() => bib(bert.id, 4711))).toEqual({
      status: 409,
      message: "Startnummer 4711 används redan av Alva Ek.",
    });
    expect(bib(bert.id, "next").bib).toBe(1);
    expect(add({ firstname: "Cissi", bib: 2 }).bib).toBe(2);
    expect(bib(add({ firstname: "Dan" }).id, "next").bib).toBe(3);
    expect(race.audit("runner-updated").map((e) => e.data.changes)).toEqual([
      { bib: [null, 4711] },
      { bib: [null, 1] },
      { bib: [null, 3] },
    ]);
  });

  it("'next' in a distance the season does not run starts at 1; a full range is refused", () => {
    const odd = newRoom({ meters: 3000 });
    const ella = odd.run({ type: "add-runner", runner: runner() }).runner;
    expect(odd.run({ type: "register-bib", runnerId: ella.id, bib: "next" }).bib).toBe(1);

    const full = newRoom({ meters: 800 });
    for (let bib = 1; bib <= 199; bib += 1) full.run({ type: "add-runner", runner: runner({ bib }) });
    const last = full.run({ type: "add-runner", runner: runner() }).runner;
    expect(refusal(() => full.run({ type: "register-bib", runnerId: last.id, bib: "next" }))).toEqual({
      status: 409,
      message: "Alla startnummer 1–199 är upptagna.",
    });
  });

  it("a bib can be set or changed on race day, after the start and for a finished runner", () => {
    const { race, runners, started } = startedRace([601, null]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    tap(race, a, { at: started + 1000 });
    expect(race.run({ type: "register-bib", runnerId: a, bib: 700 })).toMatchObject({
      bib: 700,
      finished: started + 1000,
    });
    expect(race.run({ type: "register-bib", runnerId: b, bib: "next" }).bib).toBe(600);
  });
});

describe("a whole race in the room", () => {
  it("start, 30 finishes from three devices, an undo and the end: each change's events in seq order", () => {
    const race = newRoom();
    // What a phone subscribed from the start gets: every change's events, one frame each.
    const frames: RaceEvent[][] = [];
    const runners = Array.from({ length: 30 }, (_, i) => {
      const added = race.apply({ type: "add-runner", runner: runner({ firstname: `R${i}`, bib: 600 + i }) });
      frames.push(added.owed.events);
      return added.value.runner;
    });
    const started = race.clock.now() - TEN_MINUTES;
    frames.push(race.apply({ type: "start", tap: { tapId: tapId(), at: started } }).owed.events);
    for (let i = 0; i < 30; i += 1) {
      const device = `phone-${"abc"[i % 3]}`;
      const done = race.apply(
        { type: "finish", runnerId: runners[i]!.id, tap: { tapId: tapId(), at: started + 1000 * (i + 1) } },
        { actor: ADMIN.actor, device },
      );
      expect(done.value).toMatchObject({ outcome: "recorded", finished: started + 1000 * (i + 1) });
      frames.push(done.owed.events);
    }
    frames.push(race.apply({ type: "undo-finish", runnerId: runners[29]!.id }).owed.events);
    expect(refusal(() => race.run({ type: "end" })).message).toMatch(/^1 löpare är kvar/);
    frames.push(race.apply({ type: "finish", runnerId: runners[29]!.id, tap: { tapId: tapId() } }).owed.events);
    frames.push(race.apply({ type: "end" }).owed.events);

    const seqs = frames.flat().map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(race.room.race()).toMatchObject({ state: "ended", results: "preliminary" });
    expect(race.room.runners().map((r) => r.firstname)).toEqual(runners.map((r) => r.firstname));
    // Applied as a phone applies them, the frames are the race as it is.
    const seen = applyEvents(frames);
    expect(seen.get("race")).toMatchObject({ state: "ended" });
    for (const r of race.room.runners()) expect(seen.get(r.sort)).toMatchObject({ finished: r.finished, bib: r.bib });
    const finishes = race.audit("finish");
    expect(finishes).toHaveLength(31);
    expect(new Set(finishes.map((e) => e.device))).toEqual(new Set(["phone-a", "phone-b", "phone-c"]));
  });
});

/** How the race screens apply what the sockets send: snapshots, updates, removals, replays and garbage. */
import { describe, expect, it } from "vitest";
import type { RaceEvent, RaceRecord, RaceSnapshot, ReviewRecord, RunnerRecord } from "../../src/shared/race-protocol";
import {
  applyHubEvents,
  applyRaceEvents,
  isStaleAnswer,
  replaceAnswerRace,
  upsertAnswerRunner,
  type LiveRace,
} from "../../src/web/features/race-day/apply-race-events";
import { parseServerFrame } from "../../src/shared/race-frames";

const PART = "race-310101-28";

function race(over: Partial<RaceRecord> = {}): RaceRecord {
  return {
    type: "race",
    part: PART,
    sort: "race",
    state: "",
    started: null,
    date: "2031-01-01",
    distance: 2800,
    openForReg: false,
    ...over,
  };
}

function runner(id: string, over: Partial<RunnerRecord> = {}): RunnerRecord {
  return {
    type: "runner",
    part: PART,
    sort: `runner-${id}`,
    id,
    bib: null,
    firstname: `F${id}`,
    lastname: `L${id}`,
    age: 30,
    company: "",
    group: "Ingen",
    finished: null,
    distance: "2.8",
    ...over,
  };
}

const ev = <T extends object>(record: T, seq: number) => ({ ...record, seq }) as unknown as RaceEvent;

const start: LiveRace = { snapshot: [race(), runner("a"), runner("b")], seq: 10 };

describe("applyRaceEvents", () => {
  it("a snapshot after hello replaces everything, the seq included", () => {
    const next = applyRaceEvents(PART, start, [ev(race({ state: "started", started: 5 }), 3), ev(runner("c"), 2)], {
      seq: 4,
      snapshot: true,
    });
    expect(next.seq).toBe(4);
    // Stored records keep the seq of their last change, so a late call answer can be judged against them.
    expect(next.snapshot).toEqual([
      { ...race({ state: "started", started: 5 }), seq: 3 },
      { ...runner("c"), seq: 2 },
    ]);
    expect(next.reviews).toEqual([]);
  });

  it("updates a runner by sort and adds one it did not have", () => {
    const next = applyRaceEvents(PART, start, [ev(runner("b", { finished: 99 }), 11), ev(runner("d"), 12)]);
    expect(next.seq).toBe(12);
    expect(next.snapshot).toEqual([
      race(),
      runner("a"),
      { ...runner("b", { finished: 99 }), seq: 11 },
      { ...runner("d"), seq: 12 },
    ]);
  });

  it("replaces the race record", () => {
    const next = applyRaceEvents(PART, start, [ev(race({ state: "ended" }), 11)]);
    expect(next.snapshot?.[0].state).toBe("ended");
    expect(next.snapshot?.length).toBe(3);
  });

  it("drops a removed runner", () => {
    const removed = { type: "runner", part: PART, sort: "runner-a", removed: true };
    const next = applyRaceEvents(PART, start, [ev(removed, 11)]);
    expect(next.snapshot).toEqual([race(), runner("b")]);
  });

  it("ignores events it has already applied (stale seq)", () => {
    const next = applyRaceEvents(PART, start, [
      ev(runner("a", { finished: 1 }), 10),
      ev(runner("b", { finished: 2 }), 7),
    ]);
    expect(next).toEqual({ ...start, reviews: undefined });
    expect(next.snapshot).toBe(start.snapshot);
  });

  it("a delta after hello moves the seq to hello's even when empty", () => {
    expect(applyRaceEvents(PART, start, [], { seq: 14, snapshot: false })).toEqual({
      ...start,
      seq: 14,
      reviews: undefined,
    });
  });

  it("ignores events of another race", () => {
    const other = { ...runner("x"), part: "race-310101-56" };
    expect(applyRaceEvents(PART, start, [ev(other, 20)]).snapshot).toBe(start.snapshot);
  });
});

function review(id: string, over: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    type: "review",
    part: PART,
    sort: `review-${id}`,
    id,
    kind: "tap",
    status: "open",
    reason: "Loppet har inte startat.",
    at: 1_000,
    runnerId: "a",
    bib: 12,
    actor: "arrangor@example.se",
    device: "dev-aaaa",
    createdAt: 2_000,
    ...over,
  };
}

describe("the review list from the socket", () => {
  it("a snapshot carries every open item, oldest first", () => {
    const next = applyRaceEvents(
      PART,
      start,
      [ev(race(), 1), ev(review("y", { createdAt: 3_000 }), 5), ev(review("x"), 4), ev(runner("a"), 2)],
      { seq: 5, snapshot: true },
    );
    expect(next.reviews?.map((r) => r.id)).toEqual(["x", "y"]);
    expect(next.snapshot?.map((r) => r.sort)).toEqual(["race", "runner-a"]);
  });

  it("a new item joins the list, an applied or discarded one leaves it, a replay changes nothing", () => {
    const withX: LiveRace = { ...start, reviews: [review("x")] };
    const added = applyRaceEvents(PART, withX, [ev(review("y", { createdAt: 1_000 }), 11)]);
    expect(added.reviews?.map((r) => r.id)).toEqual(["y", "x"]);
    const applied = applyRaceEvents(PART, added, [ev(review("x", { status: "applied", decidedBy: "b@x.se" }), 12)]);
    expect(applied.reviews?.map((r) => r.id)).toEqual(["y"]);
    const discarded = applyRaceEvents(PART, applied, [ev(review("y", { status: "discarded" }), 13)]);
    expect(discarded.reviews).toEqual([]);
    expect(applyRaceEvents(PART, discarded, [ev(review("y"), 13)]).reviews).toEqual([]);
  });
});

describe("a call's answer against what the socket brought", () => {
  const snapshot = [race(), { ...runner("a", { finished: 500 }), seq: 20 }, runner("b")] as unknown as RaceSnapshot;

  it("a late answer never overwrites a newer socket event", () => {
    // Phone A's finish answer (seq 18) arrives after the socket brought phone B's re-record (seq 20).
    const late = { ...runner("a", { finished: 400 }), seq: 18 };
    expect(upsertAnswerRunner(snapshot, late, 20)).toBe(snapshot);
    // Older than what the socket applied in all, even without a seq on the cached record.
    expect(upsertAnswerRunner(snapshot, { ...runner("b", { finished: 1 }), seq: 15 }, 19)).toBe(snapshot);
    // A runner the socket removed after the answer was made does not come back.
    expect(upsertAnswerRunner(snapshot, { ...runner("gone"), seq: 10 }, 20)).toBe(snapshot);
  });

  it("a newer answer is written, and so is one without a seq (an older server)", () => {
    const newer = { ...runner("a", { finished: 600 }), seq: 21 };
    expect(upsertAnswerRunner(snapshot, newer, 20)[1]).toEqual(newer);
    expect(upsertAnswerRunner(snapshot, runner("b", { finished: 7 }), 20)[2]).toEqual(runner("b", { finished: 7 }));
    expect(isStaleAnswer(undefined, undefined, 99)).toBe(false);
  });

  it("the race record the same way", () => {
    const s = [{ ...race({ state: "started", started: 5 }), seq: 30 }] as unknown as RaceSnapshot;
    expect(replaceAnswerRace(s, { ...race({ state: "started", started: 4 }), seq: 29 }, 0)).toBe(s);
    expect(replaceAnswerRace(s, { ...race({ state: "ended", started: 5 }), seq: 31 }, 30)[0].state).toBe("ended");
  });
});

describe("applyHubEvents", () => {
  const r08 = race({ part: "race-310101-08", distance: 800 });
  const r56 = race({ part: "race-310101-56", distance: 5600 });

  it("upserts races by part and keeps them sorted by part", () => {
    const next = applyHubEvents({ races: [r56], seq: 1 }, [ev(r08, 2), ev({ ...r56, state: "started" }, 3)]);
    expect(next.races?.map((r) => [r.part, r.state])).toEqual([
      ["race-310101-08", ""],
      ["race-310101-56", "started"],
    ]);
    expect(next.seq).toBe(3);
  });

  it("a hub snapshot merges rather than hiding races the list knows", () => {
    const next = applyHubEvents({ races: [r08, r56], seq: 9 }, [ev({ ...r08, state: "ended" }, 1)], {
      seq: 1,
      snapshot: true,
    });
    expect(next.races?.map((r) => r.state)).toEqual(["ended", ""]);
    expect(next.seq).toBe(1);
  });

  it("ignores replays", () => {
    const current = { races: [r08], seq: 5 };
    expect(applyHubEvents(current, [ev({ ...r08, state: "started" }, 5)]).races).toBe(current.races);
  });
});

describe("parseServerFrame", () => {
  it("reads hello, sync and error frames", () => {
    expect(parseServerFrame(JSON.stringify({ type: "hello", part: PART, seq: 3, snapshot: true }))).toEqual({
      kind: "control",
      frame: { type: "hello", part: PART, seq: 3, snapshot: true },
    });
    expect(parseServerFrame(JSON.stringify({ type: "sync", id: 1, t0: 10, t1: 20 }))?.kind).toBe("control");
    expect(parseServerFrame(JSON.stringify({ type: "error", error: "nej" }))?.kind).toBe("control");
  });

  it("ignores what is not the protocol", () => {
    for (const text of ["pong", "", "null", "42", '{"type":"hello"}', '{"type":"sync","id":"x"}', '{"foo":1}']) {
      expect(parseServerFrame(text)).toBeNull();
    }
  });

  it("keeps the good events of an array and drops the bad ones", () => {
    const frame = parseServerFrame(
      JSON.stringify([
        { ...runner("a", { bib: 12 }), seq: 1 },
        { ...runner("b"), seq: -1 },
        { ...runner("c"), finished: "soon", seq: 2 },
        { ...race(), state: "paused", seq: 3 },
        { sort: "runner-d", part: PART, removed: true, seq: 4 },
        { ...race(), seq: 5 },
        { ...review("r1"), seq: 6 },
        { ...review("r2"), status: "maybe", seq: 7 },
        { ...review("r3"), at: "soon", seq: 8 },
        "junk",
        null,
      ]),
    );
    expect(frame?.kind).toBe("events");
    const events = frame?.kind === "events" ? frame.events : [];
    expect(events.map((e) => [e.sort, e.seq])).toEqual([
      ["runner-a", 1],
      ["runner-d", 4],
      ["race", 5],
      ["review-r1", 6],
    ]);
    expect(events[3]).toEqual({ ...review("r1"), seq: 6 });
  });

  it("carries when a runner picked up the bib at the desk (the race screen's 'ej hämtad'), and only a moment", () => {
    const frame = parseServerFrame(
      JSON.stringify([
        { ...runner("a"), pickedUpAt: 1_757_752_920_000, seq: 1 },
        { ...runner("b"), seq: 2 },
        { ...runner("c"), pickedUpAt: "10:42", seq: 3 },
      ]),
    );
    const events = frame?.kind === "events" ? frame.events : [];
    expect(events.map((e) => (e as RunnerRecord).pickedUpAt)).toEqual([1_757_752_920_000, undefined, undefined]);
    // An undo at the desk: the record without the moment replaces the one with it.
    const picked = applyRaceEvents(PART, { snapshot: [race(), runner("a")], seq: 0 }, [events[0]!]);
    const undone = applyRaceEvents(PART, picked, [ev(runner("a"), 4)]);
    expect((picked.snapshot![1] as RunnerRecord).pickedUpAt).toBe(1_757_752_920_000);
    expect((undone.snapshot![1] as RunnerRecord).pickedUpAt).toBeUndefined();
  });

  it("reads bib 0 as no number and fills what a runner left out", () => {
    const frame = parseServerFrame(
      JSON.stringify([{ sort: "runner-z", part: PART, firstname: "A", lastname: "B", bib: 0, finished: null, seq: 1 }]),
    );
    const event = frame?.kind === "events" ? frame.events[0] : undefined;
    expect(event).toMatchObject({ sort: "runner-z", id: "z", bib: null, group: "Ingen", company: "" });
  });
});

describe("rapid timing's records (issue 26)", () => {
  const slot = (id: string, over: object = {}) => ({
    type: "slot",
    part: PART,
    sort: `slot-${id}`,
    id,
    device: "phone-a",
    at: 1_000,
    actor: "a@example.se",
    createdAt: 1_000,
    ...over,
  });
  const bib = (id: string, n: number, over: object = {}) => ({
    type: "bib",
    part: PART,
    sort: `bib-${id}`,
    id,
    bib: n,
    position: 1,
    device: "phone-c",
    actor: "a@example.se",
    at: 2_000,
    ...over,
  });

  it("a snapshot's taps and typed bibs are kept apart from the runners", () => {
    const next = applyRaceEvents(
      PART,
      start,
      [ev(race(), 1), ev(runner("a"), 2), ev(slot("t1"), 3), ev(bib("e1", 7), 4)],
      { seq: 4, snapshot: true },
    );
    expect(next.snapshot!.map((r) => r.sort)).toEqual(["race", "runner-a"]);
    expect(next.rapid!.slots.map((s) => s.sort)).toEqual(["slot-t1"]);
    expect(next.rapid!.bibs.map((b) => b.bib)).toEqual([7]);
  });

  it("live taps and bibs update in place; a removed one is kept marked; none of them becomes a runner", () => {
    let live = applyRaceEvents(PART, start, [ev(slot("t1"), 11), ev(bib("e1", 7), 12)]);
    live = applyRaceEvents(PART, live, [ev(slot("t1", { discarded: true }), 13), ev(bib("e1", 8, { typed: 7 }), 14)]);
    live = applyRaceEvents(PART, live, [ev(bib("e1", 8, { removed: true }), 12)]);
    expect(live.snapshot!.map((r) => r.sort)).toEqual(["race", "runner-a", "runner-b"]);
    expect(live.rapid!.slots).toEqual([{ ...slot("t1", { discarded: true }), seq: 13 }]);
    // The replay (seq 12) changed nothing.
    expect(live.rapid!.bibs).toEqual([{ ...bib("e1", 8, { typed: 7 }), seq: 14 }]);
  });
});

describe("parseServerFrame: rapid timing's records and fields (issue 26)", () => {
  it("keeps taps, typed bibs, a resolved item with its suggestions, the results status and a runner's slot", () => {
    const frame = [
      { ...race({ state: "ended", results: "official", officialAt: 9, mainTimer: "phone-a" }), seq: 1 },
      { ...runner("a", { finished: 5, slot: "t1", corrected: true }), seq: 2 },
      {
        type: "slot",
        part: PART,
        sort: "slot-t1",
        id: "t1",
        device: "phone-a",
        at: 5,
        actor: "x",
        createdAt: 6,
        seq: 3,
      },
      {
        type: "bib",
        part: PART,
        sort: "bib-e1",
        id: "e1",
        bib: 33,
        typed: 3,
        position: 1,
        device: null,
        actor: "x",
        at: 7,
        seq: 4,
      },
      {
        type: "review",
        part: PART,
        sort: "review-bu-e1",
        id: "bu-e1",
        kind: "bib-unknown",
        status: "resolved",
        reason: "Nr 33 finns inte i loppet.",
        at: 7,
        actor: "x",
        device: null,
        createdAt: 7,
        entry: "e1",
        suggestions: [{ bib: 3, runnerId: "c", name: "C", reason: "doubled" }, { bib: "3" }],
        seq: 5,
      },
    ];
    const parsed = parseServerFrame(JSON.stringify(frame));
    expect(parsed?.kind).toBe("events");
    const events = (parsed as { events: RaceEvent[] }).events;
    expect(events.map((e) => e.sort)).toEqual(["race", "runner-a", "slot-t1", "bib-e1", "review-bu-e1"]);
    expect(events[0]).toMatchObject({ results: "official", officialAt: 9, mainTimer: "phone-a" });
    expect(events[1]).toMatchObject({ slot: "t1", corrected: true });
    expect(events[3]).toMatchObject({ bib: 33, typed: 3, position: 1 });
    expect(events[4]).toMatchObject({
      status: "resolved",
      entry: "e1",
      suggestions: [{ bib: 3, runnerId: "c", name: "C", reason: "doubled" }],
    });
  });
});

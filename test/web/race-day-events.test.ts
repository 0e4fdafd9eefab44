/** How the race screens apply what the sockets send: snapshots, updates, removals, replays and garbage. */
import { describe, expect, it } from "vitest";
import type { RaceEvent, RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { applyHubEvents, applyRaceEvents, type LiveRace } from "../../src/web/features/race-day/apply-race-events";
import { parseServerFrame } from "../../src/web/features/race-day/race-frames";

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
    expect(next.snapshot).toEqual([race({ state: "started", started: 5 }), runner("c")]);
    // Stored records carry no seq of their own.
    expect(next.snapshot?.[0]).not.toHaveProperty("seq");
  });

  it("updates a runner by sort and adds one it did not have", () => {
    const next = applyRaceEvents(PART, start, [ev(runner("b", { finished: 99 }), 11), ev(runner("d"), 12)]);
    expect(next.seq).toBe(12);
    expect(next.snapshot).toEqual([race(), runner("a"), runner("b", { finished: 99 }), runner("d")]);
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
    expect(next).toEqual(start);
    expect(next.snapshot).toBe(start.snapshot);
  });

  it("a delta after hello moves the seq to hello's even when empty", () => {
    expect(applyRaceEvents(PART, start, [], { seq: 14, snapshot: false })).toEqual({ ...start, seq: 14 });
  });

  it("ignores events of another race", () => {
    const other = { ...runner("x"), part: "race-310101-56" };
    expect(applyRaceEvents(PART, start, [ev(other, 20)]).snapshot).toBe(start.snapshot);
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
    ]);
  });

  it("reads bib 0 as no number and fills what a runner left out", () => {
    const frame = parseServerFrame(
      JSON.stringify([{ sort: "runner-z", part: PART, firstname: "A", lastname: "B", bib: 0, finished: null, seq: 1 }]),
    );
    const event = frame?.kind === "events" ? frame.events[0] : undefined;
    expect(event).toMatchObject({ sort: "runner-z", id: "z", bib: null, group: "Ingen", company: "" });
  });
});

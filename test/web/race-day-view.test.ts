/** What the race-day screens derive: tiles, results with ±, the hub's races, the forms' checks. */
import { describe, expect, it } from "vitest";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { raceId } from "../../src/shared/race-id";
import { changeDistanceTargets, hubRaces } from "../../src/web/features/race-day/race-hub";
import { checkRaceDraft, checkRunnerDraft, parseBib } from "../../src/web/features/race-day/race-forms";
import {
  payloadSummary,
  resultRows,
  runnersWithTaps,
  stockholmClockTime,
  tileOrder,
} from "../../src/web/features/race-day/race-view";
import type { PendingTap } from "../../src/web/features/race-day/tap-queue";

const PART = "race-310101-28";

function runner(id: string, over: Partial<RunnerRecord> = {}): RunnerRecord {
  return {
    type: "runner",
    part: PART,
    sort: `runner-${id}`,
    id,
    bib: null,
    firstname: id,
    lastname: "X",
    age: 30,
    company: "",
    group: "Ingen",
    finished: null,
    distance: "2.8",
    ...over,
  };
}

function race(part: string, date: string, state: RaceRecord["state"] = ""): RaceRecord {
  return { type: "race", part, sort: "race", state, started: null, date, distance: 800, openForReg: false };
}

const pending = (sort: string, at: number, n = 1): PendingTap => ({
  tap: `tapabcd${n}`,
  sort: sort as PendingTap["sort"],
  at,
  rerecord: false,
});

describe("tile order", () => {
  it("waiting by bib with unset bibs first, then did-not-start, then finishers by time", () => {
    const runners = [
      runner("fin2", { bib: 1, finished: 2_000 }),
      runner("b7", { bib: 7 }),
      runner("dns", { bib: 2, dns: true }),
      runner("none"),
      runner("fin1", { bib: 9, finished: 1_000 }),
      runner("b3", { bib: 3 }),
    ];
    expect(tileOrder(runners).map((r) => r.id)).toEqual(["none", "b3", "b7", "dns", "fin1", "fin2"]);
  });
});

describe("unsent taps on screen", () => {
  it("show as finishes at the tap's moment, the latest tap of a runner winning, and clear a DNS mark", () => {
    const runners = [runner("a"), runner("b", { dns: true }), runner("c", { finished: 500 })];
    const view = runnersWithTaps(runners, [
      pending("runner-a", 900, 1),
      pending("runner-b", 700, 2),
      pending("runner-a", 950, 3),
    ]);
    expect(view.map((r) => [r.id, r.finished, r.pending, r.dns ?? false])).toEqual([
      ["a", 950, true, false],
      ["b", 700, true, false],
      ["c", 500, false, false],
    ]);
  });
});

describe("result rows", () => {
  it("by finish time with the result and ± against the first finisher; no DNS, no waiting runners", () => {
    const started = 100_000;
    const view = runnersWithTaps(
      [
        runner("late", { bib: 4, finished: started + 125_500 }),
        runner("first", { bib: 12, finished: started + 61_002 }),
        runner("waiting", { bib: 5 }),
        runner("dns", { dns: true }),
        runner("nobib"),
      ],
      [pending("runner-nobib", started + 90_000)],
    );
    const rows = resultRows(started, view);
    expect(rows.map((r) => [r.bib, r.result, r.diff, r.runner.pending])).toEqual([
      ["12", "01:01.002", "+00:00.000", false],
      ["?", "01:30.000", "+00:28.998", true],
      ["4", "02:05.500", "+01:04.498", false],
    ]);
  });

  it("shows a dash when the start is not known here", () => {
    expect(resultRows(null, runnersWithTaps([runner("a", { finished: 5 })], []))[0]?.result).toBe("–");
  });
});

describe("the hub's races", () => {
  it("drops races before yesterday and ended ones, sorted by part", () => {
    const races = [
      race("race-310102-56", "2031-01-02"),
      race("race-310101-08", "2031-01-01", "started"),
      race("race-301231-08", "2030-12-31"),
      race("race-301230-08", "2030-12-30"),
      race("race-310102-08", "2031-01-02", "ended"),
      race("lopp-2019-56", "2019-09-14"),
    ];
    expect(hubRaces(races, "2031-01-01").map((r) => r.part)).toEqual([
      "race-301231-08",
      "race-310101-08",
      "race-310102-56",
    ]);
  });

  it("offers the other races of the same day for a distance change, else the spec's four", () => {
    const here = race("race-310101-28", "2031-01-01");
    const races = [
      here,
      race("race-310101-56", "2031-01-01"),
      race("race-310101-08", "2031-01-01"),
      race("race-310102-16", "2031-01-02"),
    ];
    expect(changeDistanceTargets(races, here)).toEqual(["race-310101-08", "race-310101-56"]);
    expect(changeDistanceTargets([here], here)).toEqual([
      "race-250913-08",
      "race-250913-16",
      "race-250913-28",
      "race-250913-56",
    ]);
    expect(changeDistanceTargets(undefined, race("race-250913-16", "2025-09-13"))).toEqual([
      "race-250913-08",
      "race-250913-28",
      "race-250913-56",
    ]);
  });
});

describe("create-race form", () => {
  it("computes the race id for a good draft", () => {
    expect(checkRaceDraft({ date: "2031-05-01", distance: "2800", openForReg: true })).toEqual({
      errors: [],
      race: { raceId: raceId("2031-05-01", 2800), date: "2031-05-01", distance: 2800, openForReg: true },
    });
    expect(raceId("2031-05-01", 2800)).toBe("race-310501-28");
  });

  it("lists every error in the spec's words", () => {
    expect(checkRaceDraft({ date: "2031-02-30", distance: "abc", openForReg: false }).errors).toEqual([
      "felaktigt datum",
      "felaktig sträcka",
    ]);
    expect(checkRaceDraft({ date: "1.5.2031", distance: "2850", openForReg: false })).toEqual({
      errors: ["felaktigt datum", "sträckan måste anges i hela hundra meter"],
      race: null,
    });
    expect(checkRaceDraft({ date: "2031-05-01", distance: "", openForReg: false }).errors).toEqual([
      "felaktig sträcka",
    ]);
  });
});

describe("runner form and bib prompt", () => {
  it("the age must be a number", () => {
    const draft = { firstname: " Anna ", lastname: "B", age: "tjugo", bib: "", group: "Dam", company: "" };
    expect(checkRunnerDraft(draft)).toEqual({ errors: ["felaktig ålder"], body: null });
    expect(checkRunnerDraft({ ...draft, age: "34", bib: "17" }).body).toEqual({
      firstname: "Anna",
      lastname: "B",
      age: 34,
      bib: 17,
      group: "Dam",
      company: "",
    });
  });

  it("a bib is a positive whole number; empty or 0 means none; anything else is not a number", () => {
    expect(parseBib("42")).toBe(42);
    expect(parseBib(" 7 ")).toBe(7);
    expect(parseBib("")).toBeNull();
    expect(parseBib("0")).toBeNull();
    expect(parseBib("4a")).toBeUndefined();
    expect(parseBib("-3")).toBeUndefined();
    expect(parseBib("1.5")).toBeUndefined();
  });
});

describe("log lines", () => {
  it("times in Stockholm, payloads in short", () => {
    expect(stockholmClockTime(Date.UTC(2031, 0, 1, 10, 5, 9))).toBe("11:05:09");
    expect(payloadSummary('{"sort":"runner-a","bib":12}')).toBe("sort: runner-a, bib: 12");
    const finish = { id: "909be6f3", bib: 400, at: Date.UTC(2031, 0, 1, 10, 5, 9), tapId: "abcdefgh", receivedAt: 1 };
    expect(payloadSummary(JSON.stringify(finish))).toBe("bib: 400, at: 11:05:09");
    expect(payloadSummary("plain")).toBe("plain");
    expect(payloadSummary(JSON.stringify({ x: "y".repeat(200) }))).toHaveLength(80);
  });
});

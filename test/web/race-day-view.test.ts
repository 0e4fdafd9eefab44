/** What the race-day screens derive: tiles, results with ±, the hub's races, the forms' checks. */
import { describe, expect, it } from "vitest";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { raceId } from "../../src/shared/race-id";
import { changeDistanceTargets, hubRaces, raceListOrder } from "../../src/web/features/race-day/race-hub";
import { checkRaceDraft, checkRunnerDraft, parseBib } from "../../src/web/features/race-day/race-forms";
import {
  finishText,
  raceWithQueue,
  resultRows,
  runnerLabel,
  runnersWithTaps,
  stockholmClockTime,
  tileAction,
  tileOrder,
} from "../../src/web/features/race-day/race-view";
import type { FinishItem, QueueItem, StartItem } from "../../src/web/features/race-day/tap-queue";
import {
  addUndo,
  cancelUndo,
  nextDue,
  splitDue,
  UNDO_WINDOW_MS,
  undoingSorts,
} from "../../src/web/features/race-day/undo-bar";

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

const pending = (sort: string, at: number, n = 1): FinishItem => ({
  kind: "finish",
  tap: `tapabcd${n}`,
  sort: sort as FinishItem["sort"],
  at,
  rerecord: false,
});

const startTap = (at: number, n = 1): StartItem => ({ kind: "start", tap: `tapstrt${n}`, at });

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
  it("a refused tap stays on screen as not sent, with the server's words", () => {
    const tap = { ...pending("runner-a", 900), refused: { status: 400, message: "Ogiltig tid.", at: 1 } };
    const [a] = runnersWithTaps([runner("a")], [tap]);
    expect(a).toMatchObject({ finished: 900, pending: true, refused: "Ogiltig tid." });
  });

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
      ["nobib X", "01:30.000", "+00:28.998", true],
      ["4", "02:05.500", "+01:04.498", false],
    ]);
  });

  it("shows the runner's name where there is no bib", () => {
    const rows = resultRows(
      0,
      runnersWithTaps([runner("a", { firstname: "Åsa", lastname: "Öberg", finished: 5 })], []),
    );
    expect(rows.map((r) => [r.bib, r.byName])).toEqual([["Åsa Öberg", true]]);
    expect(resultRows(0, runnersWithTaps([runner("b", { bib: 7, finished: 5 })], []))[0]?.byName).toBe(false);
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

  it("lists this season's races first on the race list, a day's races by distance", () => {
    const races = [
      race("race-240914-56", "2024-09-14", "ended"),
      race("race-240914-08", "2024-09-14", "ended"),
      race("race-250913-56", "2025-09-13"),
      race("race-250913-08", "2025-09-13"),
      race("lopp-2019-56", "2019-09-14", "ended"),
    ];
    expect(raceListOrder(races).map((r) => r.part)).toEqual([
      "race-250913-08",
      "race-250913-56",
      "race-240914-08",
      "race-240914-56",
      "lopp-2019-56",
    ]);
    // The list as it came is left as it was.
    expect(races[0]!.part).toBe("race-240914-56");
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

describe("times", () => {
  it("clock times in Stockholm; a finish as result and clock time, or the clock time alone", () => {
    expect(stockholmClockTime(Date.UTC(2031, 0, 1, 10, 5, 9))).toBe("11:05:09");
    const start = Date.UTC(2031, 0, 1, 10, 0, 0);
    expect(finishText(start, start + 754_567)).toBe("12:34.567, i mål 11:12:34");
    expect(finishText(null, start)).toBe("i mål 11:00:00");
    expect(runnerLabel({ firstname: "Ella", lastname: "Berg", bib: 200 })).toBe("Ella Berg (200)");
    expect(runnerLabel({ firstname: "Ella", lastname: "Berg", bib: null })).toBe("Ella Berg");
  });
});

describe("a 'Starta' not yet sent", () => {
  it("runs the race here from the press's moment until the server's start is known", () => {
    const notStarted = race(PART, "2031-01-01");
    expect(raceWithQueue(notStarted, [])).toMatchObject({ state: "", started: null, pendingStart: false });
    const items: QueueItem[] = [pending("runner-a", 9_000), startTap(5_000, 1), startTap(4_000, 2)];
    expect(raceWithQueue(notStarted, items)).toMatchObject({ state: "started", started: 4_000, pendingStart: true });
    // The server's start stands once known; an ended race stays ended.
    const started = { ...notStarted, state: "started" as const, started: 3_000 };
    expect(raceWithQueue(started, items)).toMatchObject({ started: 3_000, pendingStart: false });
    expect(raceWithQueue({ ...notStarted, state: "ended" }, items).state).toBe("ended");
  });
});

describe("what a tap on a tile does", () => {
  const waiting = { finished: null };
  const done = { finished: 5_000 };
  it("not started and online: the bib prompt", () => {
    expect(tileAction({ state: "" }, waiting, false)).toBe("bib");
    expect(tileAction({ state: "" }, done, false)).toBe("bib");
  });

  it("not started but offline (the start may have been missed): a queued finish, not the bib prompt", () => {
    expect(tileAction({ state: "" }, waiting, true)).toBe("finish");
  });

  it("started: a finish; a finished (green) tile asks before it replaces the time; ended: nothing", () => {
    expect(tileAction({ state: "started" }, waiting, false)).toBe("finish");
    expect(tileAction({ state: "started" }, { finished: null, dns: true }, false)).toBe("finish");
    expect(tileAction({ state: "started" }, done, false)).toBe("confirm-rerecord");
    expect(tileAction({ state: "started" }, done, true)).toBe("confirm-rerecord");
    expect(tileAction({ state: "" }, done, true)).toBe("confirm-rerecord");
    expect(tileAction({ state: "ended" }, waiting, false)).toBe("none");
  });
});

describe("the undo bar", () => {
  it("a runner whose undo waits shows as waiting; the undo is sent only when its time is up", () => {
    let list = addUndo([], "runner-a", "Ella Berg (200)", 1_000);
    list = addUndo(list, "runner-b", "Bo Ek", 2_000);
    expect(nextDue(list)).toBe(1_000 + UNDO_WINDOW_MS);
    const view = runnersWithTaps(
      [runner("a", { finished: 500 }), runner("b", { finished: 600 })],
      [],
      undoingSorts(list),
    );
    expect(view.map((r) => r.finished)).toEqual([null, null]);
    expect(resultRows(0, view)).toEqual([]);

    const { due, waiting } = splitDue(list, 1_000 + UNDO_WINDOW_MS);
    expect(due.map((u) => u.sort)).toEqual(["runner-a"]);
    expect(waiting.map((u) => u.sort)).toEqual(["runner-b"]);
    expect(nextDue([])).toBeNull();
  });

  it("'Ångra' on the bar brings the finish back; a second undo of one runner restarts its time", () => {
    const list = addUndo([], "runner-a", "A", 1_000);
    expect(cancelUndo(list, "runner-a")).toEqual([]);
    expect(addUndo(list, "runner-a", "A", 4_000)).toEqual([
      { sort: "runner-a", label: "A", due: 4_000 + UNDO_WINDOW_MS },
    ]);
    const view = runnersWithTaps([runner("a", { finished: 500 })], [], undoingSorts(cancelUndo(list, "runner-a")));
    expect(view[0]?.finished).toBe(500);
  });
});

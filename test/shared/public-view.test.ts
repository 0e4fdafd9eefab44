import { describe, expect, it } from "vitest";
import {
  assembleView,
  seasonPublicContext,
  publicRaceList,
  publicRunner,
  publicView,
  resultRows,
  type PublicViewContext,
} from "../../src/shared/public-view";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { applyUpdate, parseSpectatorFrame, spectateSocketPath } from "../../src/shared/spectator-protocol";

const START = Date.UTC(2025, 8, 13, 9, 0, 0);

const race: RaceRecord = {
  type: "race",
  part: "race-250913-16",
  sort: "race",
  state: "started",
  started: START,
  date: "2025-09-13",
  distance: 1600,
  openForReg: false,
};

function runner(id: string, over: Partial<RunnerRecord> = {}): RunnerRecord {
  return {
    type: "runner",
    part: race.part,
    sort: `runner-${id}`,
    id,
    bib: null,
    firstname: id,
    lastname: "Ek",
    age: 9,
    company: "",
    group: "Ingen",
    finished: null,
    distance: "1.6",
    seq: 4,
    ...over,
  };
}

const anna = runner("anna", { bib: 201, age: 8, finished: START + 400_000, time: "06:40.000" });
const bo = runner("bo", { bib: 202, age: 41, finished: START + 380_000, time: "06:20.000" });
const cia = runner("cia", { bib: 203, dns: true });
const dan = runner("dan", { bib: null });

describe("publicView", () => {
  it("keeps the spec's shape and public fields: no age, no participant id, no seq", () => {
    const [head, ...runners] = publicView(race, [anna, bo, cia, dan]);
    expect(head).toEqual({ ...race, resultsStatus: null });
    for (const r of runners) {
      expect(Object.keys(r).sort()).toEqual(
        expect.arrayContaining([
          "bib",
          "company",
          "finished",
          "firstname",
          "group",
          "lastname",
          "part",
          "sort",
          "type",
        ]),
      );
      expect(r).not.toHaveProperty("age");
      expect(r).not.toHaveProperty("id");
      expect(r).not.toHaveProperty("seq");
      expect(r).not.toHaveProperty("distance");
    }
    expect(runners.find((r) => r.sort === "runner-cia")).toMatchObject({ dns: true, finished: null });
  });

  it("orders runners as the race does: waiting first (no bib first), then finishers by finish", () => {
    const view = publicView(race, [anna, cia, bo, dan]);
    expect(view.slice(1).map((r) => r.sort)).toEqual(["runner-dan", "runner-cia", "runner-bo", "runner-anna"]);
  });

  it("says no results status before the first finish, whatever it is given", () => {
    const official: PublicViewContext = { ...seasonPublicContext(), resultsStatus: "official" };
    expect(publicView(race, [cia, dan], official)[0].resultsStatus).toBeNull();
    expect(publicView(race, [anna, cia], official)[0].resultsStatus).toBe("official");
    expect(publicView(race, [anna, cia])[0].resultsStatus).toBeNull();
  });

  it("withholds the time, finish moment and placing of runners below the publishing age, and only theirs", () => {
    const childSafe: PublicViewContext = { resultsStatus: null, publishing: { resultsHiddenBelowAge: 13 } };
    // Once the race has ended ('Fullföljt'); before that a withheld finisher looks as before finishing (below).
    const view = publicView({ ...race, state: "ended" }, [anna, bo, dan], childSafe);
    const shownAnna = view.find((r) => r.sort === "runner-anna")!;
    expect(shownAnna).toMatchObject({ finished: null, resultWithheld: true });
    expect(shownAnna).not.toHaveProperty("time");
    expect(view.find((r) => r.sort === "runner-bo")).toMatchObject({ time: "06:20.000", finished: bo.finished });
    // Withheld finishers are listed after the placed ones, without a place (child-safe publishing).
    expect(resultRows(view).map((r) => [r.place, r.name])).toEqual([
      [1, "bo Ek"],
      [null, "anna Ek"],
    ]);
    // Everything is published by default.
    expect(publicRunner(anna, race)).toMatchObject({ time: "06:40.000", finished: anna.finished });
  });
});

describe("resultRows", () => {
  it("places finishers by time (equal times share a place) and leaves out those without a time", () => {
    const eva = runner("eva", { bib: 204, age: 30, finished: START + 380_000, time: "06:20.000", group: "Dam" });
    const rows = resultRows(publicView(race, [anna, bo, cia, dan, eva]));
    expect(rows.map((r) => [r.place, r.name, r.bib, r.klass])).toEqual([
      [1, "bo Ek", 202, ""],
      [1, "eva Ek", 204, "Dam"],
      [3, "anna Ek", 201, ""],
    ]);
  });
});

describe("the spectator protocol", () => {
  it("applies a delta: a changed runner replaced, a removed one gone, the race record replaced", () => {
    const view = publicView(race, [anna, cia, dan]);
    const next = applyUpdate(view, {
      since: 3,
      seq: 4,
      race: { ...view[0], state: "ended" },
      runners: [
        publicRunner({ ...dan, bib: 205, finished: START + 500_000, time: "08:20.000" }, race),
        { type: "runner", part: race.part, sort: "runner-cia", removed: true },
      ],
    });
    expect(next[0].state).toBe("ended");
    const [, ...runners] = next;
    expect(runners.map((r) => [r.sort, r.time])).toEqual([
      ["runner-anna", "06:40.000"],
      ["runner-dan", "08:20.000"],
    ]);
    expect(view).toHaveLength(4);
  });

  it("reads only frames it knows, and builds the socket path with the seq a page has", () => {
    expect(parseSpectatorFrame(JSON.stringify({ type: "snapshot", seq: 2, view: [race] }))).toMatchObject({ seq: 2 });
    expect(parseSpectatorFrame(JSON.stringify({ type: "delta", since: 1, seq: 2, runners: [] }))).not.toBeNull();
    for (const bad of ["", "{", "[]", JSON.stringify({ type: "delta", seq: 2 }), JSON.stringify({ type: "x" })]) {
      expect(parseSpectatorFrame(bad), bad).toBeNull();
    }
    expect(parseSpectatorFrame(new ArrayBuffer(2))).toBeNull();
    expect(spectateSocketPath("race-250913-16")).toBe("/spectate/race-250913-16");
    expect(spectateSocketPath("race-250913-16", 7)).toBe("/spectate/race-250913-16?since=7");
  });

  it("a view put together from public records has no results status while nobody has finished", () => {
    const head = { ...publicView(race, [anna])[0], resultsStatus: "preliminary" as const };
    expect(assembleView(head, [publicRunner(dan, race)])[0].resultsStatus).toBeNull();
    expect(assembleView(head, [publicRunner(anna, race)])[0].resultsStatus).toBe("preliminary");
  });
});

describe("a withheld runner (child-safe publishing) before and after the end", () => {
  const childSafe: PublicViewContext = { resultsStatus: null, publishing: { resultsHiddenBelowAge: 12 } };
  const running = { ...race, results: "preliminary" as const };
  const ended = { ...running, state: "ended" as const };
  // Three children who finished in the order Cia, Anna, Bo (by bib: Anna, Bo, Cia), and one adult.
  const kid = (id: string, bib: number, finishedAfter: number | null, over: Partial<RunnerRecord> = {}) =>
    runner(id, {
      bib,
      age: 9,
      ...(finishedAfter === null
        ? {}
        : { finished: START + finishedAfter, time: `0${finishedAfter / 60_000}:00.000`, seq: finishedAfter }),
      ...over,
    });
  const waiting = [kid("anna", 301, null), kid("bo", 302, null), kid("cia", 303, null)];
  const finished = [kid("anna", 301, 420_000), kid("bo", 302, 480_000), kid("cia", 303, 360_000)];
  const adult = runner("vera", { bib: 304, age: 40, finished: START + 300_000, time: "05:00.000" });
  const bySort = (view: readonly { sort: string }[]) => new Map(view.slice(1).map((r) => [r.sort, r]));

  it("while the race runs, a withheld finisher's public record is exactly the one they had before finishing", () => {
    const before = bySort(publicView(race, [...waiting], childSafe));
    // A time corrected after official results marks the runner corrected: never public for a withheld runner.
    const after = bySort(
      publicView(running, [finished[0]!, { ...finished[1]!, corrected: true }, finished[2]!], childSafe),
    );
    for (const r of waiting) {
      expect(after.get(r.sort), r.id).toEqual(before.get(r.sort));
      expect(after.get(r.sort)).not.toHaveProperty("resultWithheld");
      expect(after.get(r.sort)).not.toHaveProperty("corrected");
      expect(after.get(r.sort)).toMatchObject({ finished: null });
    }
    // Nor does the race record tell that someone finished: no results status while the public sees no result.
    expect(publicView(running, [...finished], childSafe)[0]).toEqual(publicView(race, [...waiting], childSafe)[0]);
    // The same list, in the same order, as before anyone finished.
    expect(publicView(running, [...finished], childSafe)).toEqual(publicView(race, [...waiting], childSafe));
    // A runner whose result is published is as before: a finish shows at once, with its time and any correction.
    const view = publicView(
      running,
      [adult, { ...runner("olle", { bib: 305, age: 12 }), finished: START + 1, time: "00:00.001", corrected: true }],
      childSafe,
    );
    expect(view[0]).toMatchObject({ results: "preliminary", resultsStatus: "preliminary" });
    expect(view.find((r) => r.sort === "runner-olle")).toMatchObject({ time: "00:00.001", corrected: true });
    expect(view.find((r) => r.sort === "runner-vera")).toMatchObject({ time: "05:00.000", finished: START + 300_000 });
  });

  it("once the race has ended, every withheld finisher is 'Fullföljt', after the published finishers by number", () => {
    const view = publicView(ended, [adult, ...finished], childSafe);
    expect(view[0]).toMatchObject({ state: "ended", results: "preliminary", resultsStatus: "preliminary" });
    const [, ...runners] = view;
    expect(runners.map((r) => r.sort)).toEqual(["runner-vera", "runner-anna", "runner-bo", "runner-cia"]);
    for (const r of runners.slice(1)) {
      expect(r).toEqual({
        ...publicView(race, [...waiting], childSafe).find((w) => w.sort === r.sort),
        resultWithheld: true,
      });
    }
    // Whatever order they finished in, the list is the same.
    const reversed = finished.map((r, i) => ({ ...r, finished: START + 300_000 + (3 - i) * 1_000 }));
    expect(publicView(ended, [adult, ...reversed], childSafe)).toEqual(view);
    // A correction never shows on a withheld runner, finished or not.
    const corrected = publicView(
      ended,
      [adult, ...finished.map((r) => ({ ...r, corrected: true as const }))],
      childSafe,
    );
    expect(corrected).toEqual(view);
    const unfinished = publicView(ended, [kid("dan", 305, null, { corrected: true, dns: true })], childSafe);
    expect(unfinished[1]).not.toHaveProperty("corrected");
    expect(unfinished[1]).toMatchObject({ dns: true, finished: null });
  });

  it("the race list (D1's index, marked 'preliminary' at the first finish of anyone) says no status before the end", () => {
    const official = { ...ended, results: "official" as const, officialAt: START + 900_000 };
    expect(publicRaceList([running, ended, official], childSafe)).toEqual([race, ended, official]);
    // Everything published: as before.
    expect(publicRaceList([running, ended], seasonPublicContext())).toEqual([running, ended]);
  });
});

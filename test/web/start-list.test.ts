/** The start-list page's rules: headings per year, tab labels, the rows with DNS/TBD and live results, refresh. */
import { describe, expect, it } from "vitest";
import type { PublicRaceSnapshot, PublicRunnerRecord, RaceRecord, RaceState } from "../../src/shared/race-protocol";
import {
  clockText,
  groupRacesByYear,
  LIVE_REFRESH_MS,
  RACE_DAY_REFRESH_MS,
  raceTabLabel,
  raceTabLabels,
  refreshInterval,
  startListView,
} from "../../src/web/features/start-lists/start-list";
import { resultsStatusText } from "../../src/web/lib/results-status";

function race(part: string, distance: number, state: RaceState = "", date = `20${part.slice(5, 7)}-09-13`): RaceRecord {
  return { type: "race", part, sort: "race", state, started: state ? 1 : null, date, distance, openForReg: false };
}

function runner(id: string, over: Partial<PublicRunnerRecord> = {}): PublicRunnerRecord {
  return {
    type: "runner",
    part: "race-250913-56",
    sort: `runner-${id}`,
    bib: null,
    firstname: id,
    lastname: "Ek",
    group: "Ingen",
    company: "",
    finished: null,
    ...over,
  };
}

describe("groupRacesByYear", () => {
  it("puts one heading per year, newest first, distances shortest first, old-style ids by their year", () => {
    const groups = groupRacesByYear([
      race("race-230909-56", 5600),
      race("race-250913-08", 800),
      race("race-250913-56", 5600),
      race("lopp-2019-28", 2800, "ended", "2019-09-14"),
      race("race-250913-28", 2800),
      race("race-230909-08", 800),
    ]);
    expect(groups.map((g) => [g.year, g.races.map((r) => r.part)])).toEqual([
      [2025, ["race-250913-08", "race-250913-28", "race-250913-56"]],
      [2023, ["race-230909-08", "race-230909-56"]],
      [2019, ["lopp-2019-28"]],
    ]);
  });
});

describe("raceTabLabel", () => {
  it("is the distance in tenths divided by 10, then K", () => {
    expect([800, 1600, 2800, 5600, 10000, 2100, 42200].map(raceTabLabel)).toEqual([
      "0.8K",
      "1.6K",
      "2.8K",
      "5.6K",
      "10K",
      "2.1K",
      "42.2K",
    ]);
  });
});

describe("raceTabLabels", () => {
  it("adds the day only where two races of a year have the same length", () => {
    const labels = raceTabLabels([
      race("race-250913-56", 5600, "", "2025-09-13"),
      race("race-250913-08", 800, "", "2025-09-13"),
      race("race-251207-56", 5600, "", "2025-12-07"),
    ]);
    expect([...labels.values()]).toEqual(["5.6K (13/9)", "0.8K", "5.6K (7/12)"]);
  });
});

describe("startListView", () => {
  const runners = [
    runner("a", { bib: 612, lastname: "Berg" }),
    runner("b", { bib: 601, group: "Dam", company: "IK Ek" }),
    runner("c", { bib: null, lastname: "Adolfsson" }),
    runner("d", { bib: 605, finished: 2, time: "21:03.200" }),
    runner("e", { bib: 603, finished: 1, time: "19:58.001" }),
    runner("f", { bib: 604, dns: true }),
  ];

  it("before the start: by number (none last), 'TBD' for a missing number, no results", () => {
    const view = startListView([race("race-250913-56", 5600, ""), ...runners] as PublicRaceSnapshot);
    expect(view.withResults).toBe(false);
    expect(view.rows.map((r) => [r.bib, r.name, r.klass, r.club, r.result])).toEqual([
      ["601", "b Ek", "Dam", "IK Ek", ""],
      ["603", "e Ek", "", "", ""],
      ["604", "f Ek", "", "", ""],
      ["605", "d Ek", "", "", ""],
      ["612", "a Berg", "", "", ""],
      ["TBD", "c Adolfsson", "", "", ""],
    ]);
  });

  it("started: finishers by time with their results, then those still out, then DNS (marked or without a number)", () => {
    const view = startListView([race("race-250913-56", 5600, "started"), ...runners] as PublicRaceSnapshot);
    expect(view.withResults).toBe(true);
    expect(view.rows.map((r) => [r.bib, r.result, r.finished, r.dns])).toEqual([
      ["603", "19:58.001", true, false],
      ["605", "21:03.200", true, false],
      ["601", "", false, false],
      ["612", "", false, false],
      ["604", "DNS", false, true],
      ["DNS", "DNS", false, true],
    ]);
  });

  it("ended: a runner with a number but no time shows '–'", () => {
    const view = startListView([race("race-250913-56", 5600, "ended"), ...runners] as PublicRaceSnapshot);
    expect(view.rows.find((r) => r.bib === "612")!.result).toBe("–");
    expect(view.rows.find((r) => r.bib === "604")!.result).toBe("DNS");
  });

  it("an empty race has no rows", () => {
    expect(startListView([race("race-250913-08", 800, "started")]).rows).toEqual([]);
  });
});

describe("refreshInterval", () => {
  it("every 5 s while started, every 30 s on race day before the start, never otherwise", () => {
    expect(refreshInterval(race("race-250913-56", 5600, "started"), "2025-09-13")).toBe(LIVE_REFRESH_MS);
    expect(LIVE_REFRESH_MS).toBe(5_000);
    expect(refreshInterval(race("race-250913-56", 5600, ""), "2025-09-13")).toBe(RACE_DAY_REFRESH_MS);
    expect(refreshInterval(race("race-250913-56", 5600, ""), "2025-09-12")).toBe(false);
    expect(refreshInterval(race("race-250913-56", 5600, "ended"), "2025-09-13")).toBe(false);
    expect(refreshInterval(undefined, "2025-09-13")).toBe(false);
  });
});

describe("clockText", () => {
  it("is Stockholm wall-clock time with seconds", () => {
    expect(clockText(Date.parse("2025-09-13T09:32:05Z"))).toBe("11:32:05");
  });
});

describe("child-safe publishing in the start list (issue 28, item 5)", () => {
  it("shows a withheld finisher as 'Fullföljt' after the timed finishers, never as DNS or still out", () => {
    const view = startListView([
      race("race-250913-08", 800, "started"),
      runner("Ute", { bib: 5 }),
      runner("Barn", { bib: 2, resultWithheld: true }),
      runner("Vuxen", { bib: 9, finished: 10, time: "04:00.000" }),
      runner("Utan", { resultWithheld: true }),
    ] as PublicRaceSnapshot);
    expect(view.rows.map((r) => [r.name, r.bib, r.result, r.finished, r.dns])).toEqual([
      ["Vuxen Ek", "9", "04:00.000", true, false],
      ["Barn Ek", "2", "Fullföljt", true, false],
      ["Utan Ek", "–", "Fullföljt", true, false],
      ["Ute Ek", "5", "", false, false],
    ]);
  });
});

describe("preliminary and official results (issue 26)", () => {
  it("the status is said once there are results; a result changed after 'Officiella' is marked corrected", () => {
    const ended = { ...race("race-250913-56", 5600, "ended"), results: "corrected" as const };
    const view = startListView([
      ended,
      runner("a", { bib: 1, finished: 2, time: "19:58.001", corrected: true }),
      runner("b", { bib: 2, finished: 3, time: "21:03.200" }),
    ] as PublicRaceSnapshot);
    expect(view.rows.map((r) => r.result)).toEqual(["19:58.001 (korrigerad)", "21:03.200"]);
    expect(resultsStatusText(ended)).toBe("Resultaten är officiella, med rättelser (markerade korrigerad).");
    expect(resultsStatusText({ results: "preliminary" })).toBe("Resultaten är preliminära.");
    expect(resultsStatusText({ results: "official" })).toBe("Resultaten är officiella.");
    expect(resultsStatusText({})).toBeNull();
  });
});

/** The results page's rules: the latest season and its sources, older years, a race's results, ± to the winner. */
import { describe, expect, it } from "vitest";
import { resultRows } from "../../src/shared/public-view";
import type { PublicRaceSnapshot, RaceRecord, RaceState } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import {
  defaultDistance,
  fileSources,
  finishersOf,
  latestSeason,
  openingDistance,
  otherYears,
  racesToCount,
  resultLines,
  seasonSources,
  sourceDistances,
  startOrder,
} from "../../src/web/features/results/result-rows";
import type { PublicResultSet as ResultSet } from "../../src/shared/page-render";

const set = (year: number, distance: ResultSet["distance"]): ResultSet => ({
  year,
  distance,
  runners: 10,
  file: `resultat-${year}-${distance.replace(".", "").padStart(2, "0")}.csv`,
});

const race = (part: string, distance: number, state: RaceState): RaceRecord => ({
  type: "race",
  part,
  sort: "race",
  state,
  started: state ? 1 : null,
  date: "2025-09-13",
  distance,
  openForReg: false,
});

const SETS = [set(2023, "5.6"), set(2023, "0.8"), set(2022, "5.6"), set(2014, "1.6")];

describe("latestSeason", () => {
  it("is the latest imported year while no race of the current season has ended", () => {
    const races = [race("race-250913-56", 5600, "started"), race("race-240914-56", 5600, "ended")];
    expect(latestSeason(SETS, races, 2025)).toEqual({
      year: 2023,
      sources: {
        "5.6": { kind: "file", file: "resultat-2023-56.csv" },
        "0.8": { kind: "file", file: "resultat-2023-08.csv" },
      },
    });
  });

  it("is the current season once one of its races has ended: from the race, or its imported file if there is one", () => {
    const races = [
      race("race-250913-56", 5600, "ended"),
      race("race-250913-28", 2800, "ended"),
      race("race-250913-08", 800, "started"),
    ];
    expect(latestSeason([...SETS, set(2025, "2.8")], races, 2025)).toEqual({
      year: 2025,
      sources: {
        "5.6": { kind: "race", part: "race-250913-56" },
        "2.8": { kind: "file", file: "resultat-2025-28.csv" },
      },
    });
  });

  it("is the current season as soon as a started race has a finisher (issue 28: race day consistent)", () => {
    const races = [race("race-250913-08", 800, "started"), race("race-250913-56", 5600, "")];
    // Not yet counted, or counted with nobody in: the latest imported year.
    expect(latestSeason(SETS, races, 2025)?.year).toBe(2023);
    expect(latestSeason(SETS, races, 2025, new Map([["race-250913-08", 0]]))?.year).toBe(2023);
    expect(latestSeason(SETS, races, 2025, new Map([["race-250913-08", 3]]))).toEqual({
      year: 2025,
      sources: { "0.8": { kind: "race", part: "race-250913-08" } },
    });
  });

  it("takes a results status on the race record (the race index's mirror) without counting", () => {
    const races: RaceRecord[] = [{ ...race("race-250913-16", 1600, "started"), results: "preliminary" }];
    expect(racesToCount(races, 2025)).toEqual([]);
    expect(latestSeason(SETS, races, 2025)?.sources).toEqual({ "1.6": { kind: "race", part: "race-250913-16" } });
  });

  it("counts only the season's started races that say nothing of their results", () => {
    const races = [
      race("race-250913-08", 800, "started"),
      race("race-250913-16", 1600, "ended"),
      race("race-250913-56", 5600, ""),
      race("race-240914-08", 800, "started"),
    ];
    expect(racesToCount(races, 2025)).toEqual(["race-250913-08"]);
  });

  it("is null when there are no results at all", () => {
    expect(latestSeason([], [race("race-250913-56", 5600, "")], 2025)).toBeNull();
  });
});

describe("openingDistance", () => {
  const order = startOrder(SEASON);

  it("orders the season's distances by start, the longer first at equal starts", () => {
    expect(order).toEqual(["0.8", "1.6", "5.6", "2.8"]);
  });

  it("opens on 5.6K when it has results, else the first race of the day that has, else 5.6K", () => {
    expect(openingDistance(["0.8", "1.6", "2.8", "5.6"], order)).toBe("5.6");
    expect(openingDistance(["0.8"], order)).toBe("0.8");
    expect(openingDistance(["2.8", "1.6"], order)).toBe("1.6");
    expect(openingDistance([], order)).toBe("5.6");
  });

  it("opens race day's /resultat on the 0.8K while only it has finishers (the page used to open on an empty 5.6K)", () => {
    const races = [race("race-250913-08", 800, "started"), race("race-250913-56", 5600, "started")];
    const finishers = new Map([
      ["race-250913-08", 12],
      ["race-250913-56", 0],
    ]);
    const season = latestSeason(SETS, races, 2025, finishers)!;
    expect(openingDistance(sourceDistances(season.sources), order)).toBe("0.8");
  });
});

describe("seasonSources", () => {
  it("merges a year's races that have results with its imported files, the file winning", () => {
    const races = [race("race-250913-08", 800, "ended"), race("race-250913-28", 2800, "ended")];
    expect(seasonSources([set(2025, "2.8")], races, 2025)).toEqual({
      "0.8": { kind: "race", part: "race-250913-08" },
      "2.8": { kind: "file", file: "resultat-2025-28.csv" },
    });
    expect(seasonSources(SETS, races, 2023)).toEqual(fileSources(SETS, 2023));
  });

  it("counts finishers from a public view, a withheld result included", () => {
    const raceRow = race("race-250913-08", 800, "started");
    const runner = (finished: number | null, withheld = false) => ({
      type: "runner" as const,
      part: raceRow.part,
      sort: `runner-${finished ?? "x"}${withheld ? "w" : ""}` as const,
      bib: null,
      firstname: "A",
      lastname: "B",
      group: "Ingen",
      company: "",
      finished,
      ...(withheld ? { resultWithheld: true } : {}),
    });
    const view = [raceRow, runner(5), runner(null), runner(null, true)] as unknown as PublicRaceSnapshot;
    expect(finishersOf(view)).toBe(2);
  });
});

describe("years and distances", () => {
  it("links every other year, newest first", () => {
    expect(otherYears(SETS, 2023)).toEqual([2022, 2014]);
    expect(otherYears(SETS, 2025)).toEqual([2023, 2022, 2014]);
    expect(otherYears(SETS, null)).toEqual([2023, 2022, 2014]);
    // The current season once its races have results, though no file was imported for it.
    expect(otherYears(SETS, 2023, { seasonYear: 2025, seasonHasResults: true })).toEqual([2025, 2022, 2014]);
    expect(otherYears(SETS, 2023, { seasonYear: 2025, seasonHasResults: false })).toEqual([2022, 2014]);
  });

  it("lists a year's distances shortest first, and defaults to 5.6 km or the longest there is", () => {
    expect(sourceDistances(fileSources(SETS, 2023))).toEqual(["0.8", "5.6"]);
    expect(defaultDistance(["0.8", "5.6"])).toBe("5.6");
    expect(defaultDistance(["0.8", "1.6"])).toBe("1.6");
    expect(defaultDistance([])).toBe("5.6");
  });
});

describe("a race's rows (shared resultRows) and resultLines", () => {
  const snapshot = [
    race("race-250913-56", 5600, "ended"),
    {
      type: "runner",
      part: "p",
      sort: "runner-a",
      bib: 603,
      firstname: "Anna",
      lastname: "Ek",
      group: "Dam",
      company: "IK Ek",
      finished: 3,
      time: "20:00.500",
    },
    {
      type: "runner",
      part: "p",
      sort: "runner-b",
      bib: 601,
      firstname: "Bo",
      lastname: "Berg",
      group: "Ingen",
      company: "",
      finished: 1,
      time: "19:58.001",
    },
    {
      type: "runner",
      part: "p",
      sort: "runner-c",
      bib: 602,
      firstname: "Cia",
      lastname: "Ås",
      group: "Dam",
      company: "",
      finished: null,
      dns: true,
    },
    {
      type: "runner",
      part: "p",
      sort: "runner-d",
      bib: null,
      firstname: "Dan",
      lastname: "Ek",
      group: "Herr",
      company: "",
      finished: 4,
      time: "20:00.500",
    },
  ] as PublicRaceSnapshot;

  it("lists the finishers in order of time, equal times sharing a place, without the runners who have no time", () => {
    expect(resultRows(snapshot)).toEqual([
      { place: 1, name: "Bo Berg", timeMs: 1_198_001, klass: "", bib: 601, club: "" },
      { place: 2, name: "Anna Ek", timeMs: 1_200_500, klass: "Dam", bib: 603, club: "IK Ek" },
      { place: 2, name: "Dan Ek", timeMs: 1_200_500, klass: "Herr", bib: null, club: "" },
    ]);
  });

  it("gives each line its time and ± to the winner", () => {
    expect(resultLines(resultRows(snapshot)).map((l) => [l.place, l.name, l.time, l.diff, l.bib])).toEqual([
      ["1", "Bo Berg", "19:58.001", "+00:00.000", "601"],
      ["2", "Anna Ek", "20:00.500", "+00:02.499", "603"],
      ["2", "Dan Ek", "20:00.500", "+00:02.499", ""],
    ]);
  });
});

describe("resultLines of a published file (child-safe publishing)", () => {
  it("shows a withheld runner as 'Fullföljt' without placing or ±, the ± counted from the published best", () => {
    const lines = resultLines([
      { place: 1, name: "Ada Berg", timeMs: 190_000, klass: "Dam", bib: 4, club: "" },
      { place: null, name: "Alva Ek", timeMs: null, klass: "F10", bib: 3, club: "", withheld: true },
    ]);
    expect(lines.map((l) => [l.place, l.name, l.time, l.diff])).toEqual([
      ["1", "Ada Berg", "03:10.000", "+00:00.000"],
      ["", "Alva Ek", "Fullföljt", ""],
    ]);
  });
});

describe("resultRows with withheld results (issue 28, item 5)", () => {
  it("places the timed finishers among themselves and lists the withheld ones after them as 'Fullföljt'", () => {
    const base = { type: "runner" as const, part: "p", group: "Ingen", company: "", finished: null, bib: null };
    const rows = resultRows([
      race("race-250913-08", 800, "started"),
      { ...base, sort: "runner-b", firstname: "Bo", lastname: "Ek", resultWithheld: true },
      { ...base, sort: "runner-a", firstname: "Al", lastname: "Ek", resultWithheld: true },
      { ...base, sort: "runner-c", firstname: "Cia", lastname: "Ek", finished: 5, time: "05:00.000" },
      { ...base, sort: "runner-d", firstname: "Dan", lastname: "Ek" },
    ]);
    expect(rows.map((r) => [r.place, r.name, r.timeMs])).toEqual([
      [1, "Cia Ek", 300_000],
      [null, "Al Ek", null],
      [null, "Bo Ek", null],
    ]);
    expect(resultLines(rows).map((l) => [l.place, l.time, l.diff])).toEqual([
      ["1", "05:00.000", "+00:00.000"],
      ["", "Fullföljt", ""],
      ["", "Fullföljt", ""],
    ]);
  });
});

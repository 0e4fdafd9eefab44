/** The results page's rules: the latest season and its sources, older years, a race's results, ± to the winner. */
import { describe, expect, it } from "vitest";
import { resultRows } from "../../src/shared/public-view";
import type { PublicRaceSnapshot, RaceRecord, RaceState } from "../../src/shared/race-protocol";
import {
  defaultDistance,
  latestSeason,
  otherYears,
  resultLines,
  yearDistances,
  type ResultSet,
} from "../../src/web/features/results/result-rows";

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

  it("is null when there are no results at all", () => {
    expect(latestSeason([], [race("race-250913-56", 5600, "")], 2025)).toBeNull();
  });
});

describe("years and distances", () => {
  it("links every other year, newest first", () => {
    expect(otherYears(SETS, 2023)).toEqual([2022, 2014]);
    expect(otherYears(SETS, 2025)).toEqual([2023, 2022, 2014]);
    expect(otherYears(SETS, null)).toEqual([2023, 2022, 2014]);
  });

  it("lists a year's distances shortest first, and defaults to 5.6 km or the longest there is", () => {
    expect(yearDistances(SETS, 2023)).toEqual(["0.8", "5.6"]);
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

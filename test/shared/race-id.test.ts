import { describe, expect, it } from "vitest";
import { DISTANCES } from "../../src/shared/distances";
import {
  isRaceId,
  parseLegacyPart,
  parseRaceId,
  partDistanceKm,
  partYear,
  raceId,
  raceIdForSeason,
  raceIdMatches,
} from "../../src/shared/race-id";
import { SEASON } from "../../src/shared/season";

describe("raceId", () => {
  it("builds race-YYMMDD-NN with NN in hundreds of metres, at least two digits", () => {
    expect(raceId("2025-09-13", 800)).toBe("race-250913-08");
    expect(raceId("2025-09-13", 1600)).toBe("race-250913-16");
    expect(raceId("2025-09-13", 2800)).toBe("race-250913-28");
    expect(raceId("2025-09-13", 5600)).toBe("race-250913-56");
    expect(raceId("2025-09-13", 10_000)).toBe("race-250913-100");
    expect(raceId("2025-09-13", 100)).toBe("race-250913-01");
    expect(raceId("2030-01-02", 42_200)).toBe("race-300102-422");
  });

  it.each([0, -800, 850, 5600.5, NaN, Infinity, 1_000_000])("throws for %j metres", (m) => {
    expect(() => raceId("2025-09-13", m)).toThrow(RangeError);
  });

  it.each(["2025-02-30", "2025-9-13", "1999-09-13", "2100-01-01", "250913", ""])("throws for date %j", (d) => {
    expect(() => raceId(d, 800)).toThrow(RangeError);
  });

  it("gives the season's four spec ids", () => {
    expect(DISTANCES.map((d) => raceIdForSeason(d))).toEqual([
      "race-250913-08",
      "race-250913-16",
      "race-250913-28",
      "race-250913-56",
    ]);
    expect(raceIdForSeason("0.8", { ...SEASON, raceDay: "2026-09-12" })).toBe("race-260912-08");
  });
});

describe("parseRaceId", () => {
  it("parses valid ids", () => {
    expect(parseRaceId("race-250913-08")).toEqual({ date: "2025-09-13", meters: 800, year: 2025 });
    expect(parseRaceId("race-250913-56")).toEqual({ date: "2025-09-13", meters: 5600, year: 2025 });
    expect(parseRaceId("race-240229-100")).toEqual({ date: "2024-02-29", meters: 10_000, year: 2024 });
  });

  it("round-trips with raceId", () => {
    for (const [date, meters] of [
      ["2025-09-13", 800],
      ["2031-12-31", 5600],
      ["2000-01-01", 10_000],
      ["2099-06-15", 999_900],
    ] as const) {
      const parsed = parseRaceId(raceId(date, meters));
      expect(parsed).toEqual({ date, meters, year: Number(date.slice(0, 4)) });
    }
  });

  it.each([
    "race-250913-8",
    "race-250913-008",
    "race-250913-00",
    "race-250913-000",
    "race-250230-08",
    "race-251301-08",
    "race-250900-08",
    "race-250229-08",
    "race-25091-08",
    "race-2509130-08",
    "race-250913-",
    "race-250913-5.6",
    "race-250913-56 ",
    " race-250913-56",
    "RACE-250913-56",
    "lopp-250913-56",
    "race-250913-56-1",
    "race-250913-10000",
    "lopp-2019-56",
    "",
  ])("rejects %j", (bad) => {
    expect(parseRaceId(bad)).toBeNull();
    expect(isRaceId(bad)).toBe(false);
  });

  it("rejects non-strings", () => {
    for (const bad of [null, undefined, 250913, {}]) expect(isRaceId(bad)).toBe(false);
  });
});

describe("raceIdMatches", () => {
  it("is true only for the id of that date and distance", () => {
    expect(raceIdMatches("race-250913-56", "2025-09-13", 5600)).toBe(true);
    expect(raceIdMatches("race-250913-56", "2025-09-13", 2800)).toBe(false);
    expect(raceIdMatches("race-250913-56", "2025-09-14", 5600)).toBe(false);
    expect(raceIdMatches("race-250913-5", "2025-09-13", 500)).toBe(false);
  });
});

describe("legacy parts", () => {
  it("reads <prefix>-<year>-<tenths>", () => {
    expect(parseLegacyPart("lopp-2019-56")).toEqual({ year: 2019, distance: "5.6", tenths: 56 });
    expect(parseLegacyPart("lopp-2019-8")).toEqual({ year: 2019, distance: "0.8", tenths: 8 });
    expect(parseLegacyPart("lopp-2021-08")).toEqual({ year: 2021, distance: "0.8", tenths: 8 });
    expect(parseLegacyPart("byloppet-2018-28")).toEqual({ year: 2018, distance: "2.8", tenths: 28 });
  });

  it("keeps an old distance we no longer run with distance null", () => {
    expect(parseLegacyPart("lopp-2017-100")).toEqual({ year: 2017, distance: null, tenths: 100 });
  });

  it.each([
    "lopp-19-56",
    "lopp-2019",
    "lopp-2019-56-1",
    "-2019-56",
    "lopp-2019-0",
    "lopp-2019-x",
    "lopp-1800-56",
    "lopp-2019-5.6",
    "race-250913-56",
    "",
  ])("rejects %j", (bad) => expect(parseLegacyPart(bad)).toBeNull());

  it("partYear and partDistanceKm read both formats", () => {
    expect(partYear("race-250913-08")).toBe(2025);
    expect(partYear("lopp-2019-56")).toBe(2019);
    expect(partYear("nonsense")).toBeNull();
    expect(partDistanceKm("race-250913-08")).toBe("0.8");
    expect(partDistanceKm("race-250913-56")).toBe("5.6");
    expect(partDistanceKm("lopp-2019-16")).toBe("1.6");
    expect(partDistanceKm("race-250913-100")).toBeNull();
    expect(partDistanceKm("lopp-2017-100")).toBeNull();
    expect(partDistanceKm(undefined)).toBeNull();
  });
});

/** The family's page on race day (issue 28, item 3): what it says about each runner. */
import { describe, expect, it } from "vitest";
import type { FamilyRace, FamilyRunnerResult } from "../../src/shared/family-results";
import { familyRefreshInterval } from "../../src/web/features/registration/api/get-family-results";
import { familyResultLine, showsFamilyResults } from "../../src/web/features/registration/family-results-text";

const race = (over: Partial<FamilyRace> = {}): FamilyRace => ({
  part: "race-250913-16",
  date: "2025-09-13",
  distance: 1600,
  state: "started",
  started: 1,
  resultsStatus: null,
  ...over,
});

const result = (over: Partial<FamilyRunnerResult> = {}): FamilyRunnerResult => ({
  id: "a",
  raceId: "race-250913-16",
  state: "finished",
  time: "05:10.123",
  timeMs: 310_123,
  bib: 201,
  klass: "Herr",
  place: 2,
  placedInDistance: 14,
  classPlace: 2,
  placedInClass: 7,
  withheld: false,
  ...over,
});

describe("familyResultLine", () => {
  it("gives a finisher's time and placings in the distance and the class", () => {
    expect(familyResultLine(result(), race())).toEqual({
      id: "a",
      distance: "1,6km",
      result: "05:10.123",
      finished: true,
      placing: "Plats 2 av 14 · 2 av 7 i Herr",
      note: "",
      status: "Preliminära resultat",
    });
    expect(
      familyResultLine(result({ klass: "", classPlace: null }), race({ resultsStatus: "official" })),
    ).toMatchObject({
      placing: "Plats 2 av 14",
      status: "Officiella resultat",
    });
  });

  it("keeps a withheld child's time for the family, without a placing, and says why", () => {
    const line = familyResultLine(result({ withheld: true, place: null, classPlace: null }), race());
    expect(line.result).toBe("05:10.123");
    expect(line.placing).toBe("");
    expect(line.note).toContain("Fullföljt");
  });

  it("names the state of a runner without a time", () => {
    const none = { time: null, timeMs: null, place: null, classPlace: null };
    expect(familyResultLine(result({ ...none, state: "waiting" }), race({ state: "" })).result).toBe("Väntar på start");
    expect(familyResultLine(result({ ...none, state: "running" }), race()).result).toBe("Springer");
    expect(familyResultLine(result({ ...none, state: "dns" }), race()).result).toBe("Startade inte");
    expect(showsFamilyResults([race({ state: "" })])).toBe(false);
    expect(showsFamilyResults([race({ state: "" }), race({ state: "ended" })])).toBe(true);
  });
});

describe("familyRefreshInterval", () => {
  it("asks every 15 s while a race runs, every 30 s on race day before the start, otherwise not", () => {
    expect(familyRefreshInterval([race({ state: "started" })], "2025-09-13")).toBe(15_000);
    expect(familyRefreshInterval([race({ state: "" })], "2025-09-13")).toBe(30_000);
    expect(familyRefreshInterval([race({ state: "" })], "2025-08-25")).toBe(false);
    expect(familyRefreshInterval([race({ state: "ended" })], "2025-09-13")).toBe(false);
    expect(familyRefreshInterval(undefined, "2025-09-13")).toBe(false);
  });
});

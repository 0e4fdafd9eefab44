/** Child-safe publishing's rules (issue 28, item 5): who is withheld, age classes, placings among the published. */
import { describe, expect, it } from "vitest";
import {
  CHILD_SAFE_MAX_AGE,
  classAge,
  publishesResult,
  publishingRules,
  PUBLISH_ALL,
  rankPublished,
  resultAge,
} from "../../src/shared/child-safe";
import { SEASON } from "../../src/shared/season";

const ON = publishingRules({ childSafePublishing: true });

describe("publishingRules", () => {
  it("publishes everything when off (the default), and withholds 11 and under when on", () => {
    expect(publishingRules(SEASON)).toEqual(PUBLISH_ALL);
    expect(ON).toEqual({ resultsHiddenBelowAge: 12 });
    expect(CHILD_SAFE_MAX_AGE).toBe(11);
    expect(publishesResult(11, ON)).toBe(false);
    expect(publishesResult(0, ON)).toBe(false);
    expect(publishesResult(12, ON)).toBe(true);
    expect(publishesResult(45, ON)).toBe(true);
    // An age nobody gave (an imported line with neither age nor age class) is published as before.
    expect(publishesResult(null, ON)).toBe(true);
    expect(publishesResult(5, PUBLISH_ALL)).toBe(true);
  });
});

describe("classAge", () => {
  it("reads the oldest age of an age class", () => {
    expect(classAge("P10")).toBe(10);
    expect(classAge("F 9")).toBe(9);
    expect(classAge("Flickor 10–11")).toBe(11);
    expect(classAge("Pojkar 7-8 år")).toBe(8);
    expect(classAge("P11-12")).toBe(12);
    expect(classAge("U12")).toBe(11);
    expect(classAge("Barn 6")).toBe(6);
    expect(classAge("H35")).toBe(35);
  });

  it("is null for a class that names no age", () => {
    for (const klass of ["", "Dam", "Herr", "Motion", "P", "P10x", "10", "F12-10", "Ingen"]) {
      expect(classAge(klass), klass).toBeNull();
    }
  });

  it("takes the age a line gives before its class", () => {
    expect(resultAge({ age: 14, klass: "P10" })).toBe(14);
    expect(resultAge({ age: null, klass: "P10" })).toBe(10);
    expect(resultAge({ klass: "Dam" })).toBeNull();
  });
});

describe("rankPublished", () => {
  const line = (name: string, timeMs: number, age: number | null) => ({ name, timeMs, age });
  const lines = [
    line("Vera Ek", 200, 9),
    line("Ada Berg", 210, 30),
    line("Bo Ek", 230, 14),
    line("Cia Al", 230, 40),
    line("Alva Ek", 190, 11),
    line("Dan Ro", 250, null),
  ];

  it("places the published runners among themselves, equal times sharing a place, the children after, unranked", () => {
    const { ranked, withheld } = rankPublished(lines, (l) => publishesResult(l.age, ON));
    expect(ranked.map((r) => [r.line.name, r.place])).toEqual([
      ["Ada Berg", 1],
      ["Bo Ek", 2],
      ["Cia Al", 2],
      ["Dan Ro", 4],
    ]);
    // By name, so the order does not give away who was faster.
    expect(withheld.map((l) => l.name)).toEqual(["Alva Ek", "Vera Ek"]);
  });

  it("ranks everyone when nothing is withheld", () => {
    const { ranked, withheld } = rankPublished(lines, () => true);
    expect(ranked.map((r) => r.place)).toEqual([1, 2, 3, 4, 4, 6]);
    expect(withheld).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { ageFromInput, countAges, isAdult, isValidAge } from "../../src/shared/age";
import { SEASON } from "../../src/shared/season";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const IN_2025 = stockholmToEpoch("2025-08-01T12:00");

describe("ageFromInput", () => {
  it("takes a value up to 1000 as the age itself", () => {
    expect(ageFromInput(15, IN_2025)).toBe(15);
    expect(ageFromInput(0, IN_2025)).toBe(0);
    expect(ageFromInput(1000, IN_2025)).toBe(1000);
  });

  it("takes a value above 1000 as a birth year: born 2010 is 15 in 2025 (a child)", () => {
    expect(ageFromInput(2010, IN_2025)).toBe(15);
    expect(isAdult(ageFromInput(2010, IN_2025))).toBe(false);
    expect(ageFromInput(2009, IN_2025)).toBe(16);
    expect(isAdult(ageFromInput(2009, IN_2025))).toBe(true);
    expect(ageFromInput(1001, IN_2025)).toBe(1024);
  });

  it("uses the Stockholm year (New Year's Eve 23:30 UTC is already the new year)", () => {
    const newYearStockholm = Date.parse("2025-12-31T23:30:00Z");
    expect(ageFromInput(2010, newYearStockholm)).toBe(16);
    expect(ageFromInput(2010, newYearStockholm - 3_600_000)).toBe(15);
  });

  it("a future birth year gives an invalid age", () => {
    expect(isValidAge(ageFromInput(2030, IN_2025))).toBe(false);
  });
});

describe("isValidAge", () => {
  it.each([0, 1, 15, 16, 120])("accepts %j", (age) => expect(isValidAge(age)).toBe(true));
  it.each([-1, 121, 15.5, NaN, Infinity, "15", null])("rejects %j", (age) => expect(isValidAge(age)).toBe(false));
});

describe("isAdult and countAges", () => {
  it("16 is an adult, 15 a child", () => {
    expect(isAdult(16)).toBe(true);
    expect(isAdult(15)).toBe(false);
  });

  it("follows the season's threshold", () => {
    const season18 = { ...SEASON, adultAge: 18 };
    expect(isAdult(17, season18)).toBe(false);
    expect(isAdult(18, season18)).toBe(true);
    expect(countAges([{ age: 17 }, { age: 40 }], season18)).toEqual({ barn: 1, vuxna: 1 });
  });

  it("counts children below 16 and adults 16 or above", () => {
    const runners = [{ age: 5 }, { age: 15 }, { age: 16 }, { age: 44 }, { age: 0 }];
    expect(countAges(runners)).toEqual({ barn: 3, vuxna: 2 });
    expect(countAges([])).toEqual({ barn: 0, vuxna: 0 });
  });
});

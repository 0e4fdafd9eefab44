import { describe, expect, it } from "vitest";
import {
  ageFromForm,
  checkRunner,
  checkRunnerMap,
  isRunnerId,
  MAX_RUNNERS,
  RUNNER_MESSAGES,
} from "../../src/shared/registration-schema";
import { SEASON, type Season } from "../../src/shared/season";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const NOW = stockholmToEpoch("2025-08-25T10:00");
const anna = { firstname: "Anna", lastname: "Berg", age: 34, company: "IK Spurt", distance: "5.6", group: "Dam" };

function errorsOf(input: unknown, season: Season = SEASON) {
  const r = checkRunner(input, NOW, season);
  return r.ok ? {} : r.errors;
}

describe("checkRunner", () => {
  it("accepts a complete runner and returns it in canonical form", () => {
    expect(checkRunner(anna, NOW)).toEqual({ ok: true, value: anna });
  });

  it("trims texts, takes the number 0.8 and '2,8' as distances, and defaults group and company", () => {
    expect(checkRunner({ firstname: "  Bo ", lastname: " Ek", age: 7, distance: 0.8 }, NOW)).toEqual({
      ok: true,
      value: { firstname: "Bo", lastname: "Ek", age: 7, company: "", distance: "0.8", group: "Ingen" },
    });
    const r = checkRunner({ ...anna, distance: "2,8", group: "herr" }, NOW);
    expect(r.ok && r.value.distance).toBe("2.8");
    expect(r.ok && r.value.group).toBe("Herr");
  });

  it("ignores extra fields such as id, bib and price", () => {
    expect(checkRunner({ ...anna, id: "x", bib: 12, price: 0 }, NOW)).toEqual({ ok: true, value: anna });
  });

  it("requires first and last name: 'Ange namn'", () => {
    expect(errorsOf({ ...anna, firstname: "" })).toEqual({ firstname: "Ange namn" });
    expect(errorsOf({ ...anna, lastname: "   " })).toEqual({ lastname: "Ange namn" });
    expect(errorsOf({ ...anna, firstname: undefined, lastname: null })).toEqual({
      firstname: "Ange namn",
      lastname: "Ange namn",
    });
    expect(errorsOf({ ...anna, firstname: 42 })).toEqual({ firstname: "Ange namn" });
    expect(errorsOf({ ...anna, firstname: ["Anna"] })).toEqual({ firstname: "Ange namn" });
  });

  it("refuses names that are too long, carry markup or control characters", () => {
    expect(errorsOf({ ...anna, firstname: "A".repeat(61) }).firstname).toBe(RUNNER_MESSAGES.nameTooLong);
    expect(checkRunner({ ...anna, firstname: "Å".repeat(60) }, NOW).ok).toBe(true);
    expect(errorsOf({ ...anna, firstname: "<script>alert(1)</script>" }).firstname).toBe(RUNNER_MESSAGES.nameMarkup);
    expect(errorsOf({ ...anna, lastname: "Berg\u0000" }).lastname).toBe(RUNNER_MESSAGES.nameControl);
    expect(errorsOf({ ...anna, lastname: "Be\nrg" }).lastname).toBe(RUNNER_MESSAGES.nameControl);
    expect(errorsOf({ ...anna, lastname: "\u202egreB" }).lastname).toBe(RUNNER_MESSAGES.nameControl);
  });

  it("keeps ordinary punctuation in names: hyphens, apostrophes, accents", () => {
    const r = checkRunner({ ...anna, firstname: "Karl-Åke", lastname: "O'Brien Ågren-Öst" }, NOW);
    expect(r.ok).toBe(true);
  });

  it("checks age: a whole number 0–120, a value above 1000 is a birth year: 'Ange ålder'", () => {
    for (const age of ["", "abc", null, undefined, -1, 12.5, 121, 1000, 2030, 1850, true, {}, [], "1e3", "-5", NaN]) {
      expect(errorsOf({ ...anna, age }), `age ${String(age)}`).toEqual({ age: "Ange ålder" });
    }
    expect(checkRunner({ ...anna, age: 2010 }, NOW)).toMatchObject({ ok: true, value: { age: 15 } });
    expect(checkRunner({ ...anna, age: "2009" }, NOW)).toMatchObject({ ok: true, value: { age: 16 } });
    expect(checkRunner({ ...anna, age: " 9 " }, NOW)).toMatchObject({ ok: true, value: { age: 9 } });
    expect(checkRunner({ ...anna, age: 0 }, NOW)).toMatchObject({ ok: true, value: { age: 0 } });
    expect(checkRunner({ ...anna, age: 120 }, NOW)).toMatchObject({ ok: true, value: { age: 120 } });
  });

  it("checks distance against the open distances: 'Välj en distans'", () => {
    for (const distance of [undefined, "", "5", 5, "10", "5.6km", 56, null, {}]) {
      expect(errorsOf({ ...anna, distance }), `distance ${String(distance)}`).toEqual({ distance: "Välj en distans" });
    }
    const closed5k: Season = {
      ...SEASON,
      races: SEASON.races.map((r) => (r.distance === "5.6" ? { ...r, openForReg: false } : r)),
    };
    expect(errorsOf(anna, closed5k)).toEqual({ distance: "Välj en distans" });
    expect(checkRunner({ ...anna, distance: "2.8" }, NOW, closed5k).ok).toBe(true);
  });

  it("checks group (Ingen, Dam, Herr) and company (text ≤ 80 without markup)", () => {
    expect(errorsOf({ ...anna, group: "Barn" })).toEqual({ group: RUNNER_MESSAGES.group });
    expect(errorsOf({ ...anna, group: 3 })).toEqual({ group: RUNNER_MESSAGES.group });
    expect(errorsOf({ ...anna, company: "x".repeat(81) })).toEqual({ company: RUNNER_MESSAGES.companyTooLong });
    expect(errorsOf({ ...anna, company: 7 })).toEqual({ company: RUNNER_MESSAGES.company });
    expect(errorsOf({ ...anna, company: "<b>IK</b>" })).toEqual({ company: RUNNER_MESSAGES.companyMarkup });
    expect(checkRunner({ ...anna, company: null }, NOW)).toMatchObject({ ok: true, value: { company: "" } });
  });

  it("reports every bad field at once", () => {
    expect(errorsOf({ firstname: "", lastname: "", age: "x", distance: "9", group: "?" })).toEqual({
      firstname: "Ange namn",
      lastname: "Ange namn",
      age: "Ange ålder",
      distance: "Välj en distans",
      group: RUNNER_MESSAGES.group,
    });
  });

  it("refuses a runner that is not an object", () => {
    for (const input of [null, "Anna", 3, [anna]]) expect(checkRunner(input, NOW).ok).toBe(false);
  });
});

describe("ageFromForm", () => {
  it("converts a birth year with the Stockholm year of now", () => {
    expect(ageFromForm(2015, NOW)).toBe(10);
    expect(ageFromForm(2015, stockholmToEpoch("2026-01-01T00:30"))).toBe(11);
  });
});

describe("checkRunnerMap", () => {
  it("accepts a map keyed by client ids, an empty map too", () => {
    expect(checkRunnerMap({ a1: anna, "b-2_x": { ...anna, firstname: "Bo" } }, NOW)).toMatchObject({
      ok: true,
      value: { a1: anna, "b-2_x": { firstname: "Bo" } },
    });
    expect(checkRunnerMap({}, NOW)).toEqual({ ok: true, value: {} });
  });

  it("keys errors by '<id>.<field>'", () => {
    expect(checkRunnerMap({ a: anna, b: { ...anna, age: -3, firstname: "" } }, NOW)).toEqual({
      ok: false,
      errors: { "b.age": "Ange ålder", "b.firstname": "Ange namn" },
    });
  });

  it("refuses bad ids, too many runners and maps that are not objects", () => {
    expect(isRunnerId("a".repeat(60))).toBe(true);
    expect(isRunnerId("a".repeat(61))).toBe(false);
    for (const id of ["", "a b", "a/b", "<x>", "å"]) expect(isRunnerId(id), id).toBe(false);
    expect(checkRunnerMap({ "a b": anna }, NOW)).toEqual({ ok: false, errors: { "a b": RUNNER_MESSAGES.runnerId } });
    const many = Object.fromEntries(Array.from({ length: MAX_RUNNERS + 1 }, (_, i) => [`r${i}`, anna]));
    expect(checkRunnerMap(many, NOW)).toEqual({ ok: false, errors: { _: RUNNER_MESSAGES.tooMany } });
    const max = Object.fromEntries(Array.from({ length: MAX_RUNNERS }, (_, i) => [`r${i}`, anna]));
    expect(checkRunnerMap(max, NOW).ok).toBe(true);
    for (const input of [null, [anna], "x", 5]) {
      expect(checkRunnerMap(input, NOW)).toEqual({ ok: false, errors: { _: RUNNER_MESSAGES.runners } });
    }
  });

  it("keeps an id such as '__proto__' an ordinary key", () => {
    const input = JSON.parse(`{"__proto__": ${JSON.stringify(anna)}}`) as unknown;
    const r = checkRunnerMap(input, NOW);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(Object.keys(r.value)).toEqual(["__proto__"]);
      expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  addDays,
  formatSwedishDate,
  formatSwedishDateTime,
  isIsoDate,
  parseStockholm,
  stockholmDate,
  stockholmDeadlineEnd,
  stockholmParts,
  stockholmToEpoch,
  stockholmYear,
} from "../../src/shared/stockholm";

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

describe("stockholmToEpoch", () => {
  it("reads summer time as UTC+2 and winter time as UTC+1", () => {
    expect(stockholmToEpoch("2025-09-13T11:45")).toBe(utc("2025-09-13T09:45:00Z"));
    expect(stockholmToEpoch("2025-01-15T12:00:30")).toBe(utc("2025-01-15T11:00:30Z"));
  });

  it("reads a date alone as its midnight", () => {
    expect(stockholmToEpoch("2025-09-13")).toBe(utc("2025-09-12T22:00:00Z"));
    expect(stockholmToEpoch("2025-01-01")).toBe(utc("2024-12-31T23:00:00Z"));
  });

  it("accepts a space instead of T", () => {
    expect(stockholmToEpoch("2025-09-13 11:45")).toBe(stockholmToEpoch("2025-09-13T11:45"));
  });

  it("spring forward: 01:00 to 03:00 on 30 March 2025 is one real hour", () => {
    expect(stockholmToEpoch("2025-03-30T03:00") - stockholmToEpoch("2025-03-30T01:00")).toBe(HOUR);
    expect(stockholmToEpoch("2025-03-30T01:59:59")).toBe(utc("2025-03-30T00:59:59Z"));
    expect(stockholmToEpoch("2025-03-30T03:00")).toBe(utc("2025-03-30T01:00:00Z"));
  });

  it("spring forward: the skipped 02:30 moves forward by the gap (= 03:30 CEST)", () => {
    expect(stockholmToEpoch("2025-03-30T02:30")).toBe(utc("2025-03-30T01:30:00Z"));
    expect(stockholmParts(stockholmToEpoch("2025-03-30T02:30")).time).toBe("03:30");
  });

  it("fall back: the repeated 02:30 on 26 October 2025 is the earlier instant (summer time)", () => {
    expect(stockholmToEpoch("2025-10-26T02:30")).toBe(utc("2025-10-26T00:30:00Z"));
    expect(stockholmToEpoch("2025-10-26T03:00") - stockholmToEpoch("2025-10-26T02:00")).toBe(2 * HOUR);
    expect(stockholmToEpoch("2025-10-26T03:00")).toBe(utc("2025-10-26T02:00:00Z"));
    expect(stockholmToEpoch("2025-10-26T01:59:59")).toBe(utc("2025-10-25T23:59:59Z"));
  });

  it("round-trips every quarter hour over both 2025 DST changes", () => {
    for (const day of ["2025-03-30", "2025-10-26"]) {
      const start = stockholmToEpoch(addDays(day, -1));
      for (let t = start; t < start + 72 * HOUR; t += 15 * 60_000) {
        const p = stockholmParts(t);
        const back = stockholmToEpoch(`${p.date}T${p.time}`);
        // In the repeated autumn hour the second occurrence maps back to the first.
        expect(back === t || back === t - HOUR).toBe(true);
        expect(stockholmParts(back).time).toBe(p.time);
      }
    }
  });

  it.each([
    "2025-02-29",
    "2024-02-30",
    "2025-13-01",
    "2025-00-10",
    "2025-09-31",
    "2025-09-13T24:00",
    "2025-09-13T12:60",
    "2025-09-13T12:00:60",
    "2025-9-13",
    "2025-09-13T1:00",
    "2025-09-13T12:00Z",
    "2025-09-13T12:00+02:00",
    "13/09/2025",
    "",
  ])("throws for %j", (bad) => {
    expect(() => stockholmToEpoch(bad)).toThrow(RangeError);
    expect(parseStockholm(bad)).toBeNull();
  });

  it("accepts 29 February in a leap year", () => {
    expect(stockholmDate(stockholmToEpoch("2024-02-29T12:00"))).toBe("2024-02-29");
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2100-02-29")).toBe(false);
    expect(isIsoDate("2000-02-29")).toBe(true);
  });

  it("parseStockholm refuses non-strings", () => {
    expect(parseStockholm(123)).toBeNull();
    expect(parseStockholm(undefined)).toBeNull();
  });
});

describe("stockholmDeadlineEnd", () => {
  it("covers the whole second, minute or day the deadline names", () => {
    expect(stockholmDeadlineEnd("2025-09-06T23:59:59")).toBe(stockholmToEpoch("2025-09-07T00:00"));
    expect(stockholmDeadlineEnd("2025-09-06T23:59")).toBe(stockholmToEpoch("2025-09-07T00:00"));
    expect(stockholmDeadlineEnd("2025-09-06T12:00")).toBe(stockholmToEpoch("2025-09-06T12:01"));
    expect(stockholmDeadlineEnd("2025-10-01")).toBe(stockholmToEpoch("2025-10-02"));
  });

  it("a date-only deadline on the 25-hour DST day still ends at the next midnight", () => {
    expect(stockholmDeadlineEnd("2025-10-26") - stockholmToEpoch("2025-10-26")).toBe(25 * HOUR);
  });
});

describe("stockholmParts and friends", () => {
  it("splits an instant into Stockholm wall-clock parts", () => {
    expect(stockholmParts(utc("2025-09-13T09:45:07.500Z"))).toEqual({
      year: 2025,
      month: 9,
      day: 13,
      hour: 11,
      minute: 45,
      second: 7,
      date: "2025-09-13",
      time: "11:45",
    });
  });

  it("midnight is hour 0, not 24", () => {
    expect(stockholmParts(stockholmToEpoch("2025-09-13T00:00")).hour).toBe(0);
    expect(stockholmParts(stockholmToEpoch("2025-09-13T00:00")).time).toBe("00:00");
  });

  it("New Year's Eve 23:30 UTC is already next year in Stockholm", () => {
    const t = utc("2024-12-31T23:30:00Z");
    expect(stockholmYear(t)).toBe(2025);
    expect(stockholmDate(t)).toBe("2025-01-01");
    expect(stockholmYear(t - HOUR)).toBe(2024);
  });

  it("addDays walks over month, year and leap day", () => {
    expect(addDays("2025-09-13", -7)).toBe("2025-09-06");
    expect(addDays("2025-09-13", 1)).toBe("2025-09-14");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2025-03-01", -1)).toBe("2025-02-28");
    expect(addDays("2025-03-29", 1)).toBe("2025-03-30");
    expect(addDays("2025-09-13", 0)).toBe("2025-09-13");
  });

  it("addDays throws for a bad date or a fractional count", () => {
    expect(() => addDays("2025-09-31", 1)).toThrow(RangeError);
    expect(() => addDays("2025-09-13T12:00", 1)).toThrow(RangeError);
    expect(() => addDays("2025-09-13", 0.5)).toThrow(RangeError);
  });

  it("formats Swedish dates", () => {
    expect(formatSwedishDate(stockholmToEpoch("2025-09-13T11:45"))).toBe("13 september 2025");
    expect(formatSwedishDate(stockholmToEpoch("2025-05-01T00:00"))).toBe("1 maj 2025");
    expect(formatSwedishDate(utc("2024-12-31T23:30:00Z"))).toBe("1 januari 2025");
    expect(formatSwedishDateTime(stockholmToEpoch("2025-09-13T11:45:59"))).toBe("2025-09-13 11:45");
    expect(formatSwedishDateTime(stockholmToEpoch("2025-01-02T03:04"))).toBe("2025-01-02 03:04");
  });

  it("stockholmParts throws for a non-finite time", () => {
    expect(() => stockholmParts(NaN)).toThrow(RangeError);
  });
});

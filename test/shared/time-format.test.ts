import { describe, expect, it } from "vitest";
import {
  formatClock,
  formatDiff,
  formatResult,
  parseResult,
  resultMs,
  roundUpToSecond,
} from "../../src/shared/time-format";

describe("formatResult", () => {
  it("formats mm:ss.fff", () => {
    expect(formatResult(0)).toBe("00:00.000");
    expect(formatResult(1)).toBe("00:00.001");
    expect(formatResult(59_999)).toBe("00:59.999");
    expect(formatResult(60_000)).toBe("01:00.000");
    expect(formatResult(23 * 60_000 + 4_560)).toBe("23:04.560");
  });

  it("lets minutes pass 59", () => {
    expect(formatResult(61 * 60_000 + 2_003)).toBe("61:02.003");
    expect(formatResult(100 * 60_000)).toBe("100:00.000");
  });

  it("rounds fractions of a millisecond", () => {
    expect(formatResult(1234.4)).toBe("00:01.234");
    expect(formatResult(59_999.6)).toBe("01:00.000");
  });

  it("throws for a negative or non-finite time", () => {
    expect(() => formatResult(-1)).toThrow(RangeError);
    expect(() => formatResult(NaN)).toThrow(RangeError);
    expect(() => formatResult(Infinity)).toThrow(RangeError);
  });
});

describe("parseResult", () => {
  it("reads mm:ss.fff, mm:ss and h:mm:ss", () => {
    expect(parseResult("23:04.560")).toBe(23 * 60_000 + 4_560);
    expect(parseResult("23:04")).toBe(23 * 60_000 + 4_000);
    expect(parseResult("1:02:03")).toBe(3_723_000);
    expect(parseResult("1:02:03.5")).toBe(3_723_500);
    expect(parseResult("61:02.003")).toBe(61 * 60_000 + 2_003);
    expect(parseResult("5:07,25")).toBe(5 * 60_000 + 7_250);
    expect(parseResult(" 05:07.1 ")).toBe(5 * 60_000 + 7_100);
  });

  it("round-trips with formatResult", () => {
    for (const ms of [0, 1, 999, 1000, 59_999, 60_000, 754_321, 3_599_999, 3_600_000, 3_662_003, 12_345_678]) {
      expect(parseResult(formatResult(ms))).toBe(ms);
    }
  });

  it.each([
    "",
    "12",
    "12:60",
    "1:60:00",
    "12:5",
    "12:05.1234",
    "-01:00.000",
    "ab:cd",
    "12:05.",
    "1:2:3",
    "12:05:",
    null,
    725,
  ])("rejects %j", (bad) => expect(parseResult(bad)).toBeNull());
});

describe("formatDiff", () => {
  it("shows the gap to the first finisher with a sign", () => {
    expect(formatDiff(0)).toBe("+00:00.000");
    expect(formatDiff(12_345)).toBe("+00:12.345");
    expect(formatDiff(61 * 60_000 + 2_003)).toBe("+61:02.003");
    expect(formatDiff(-1_500)).toBe("-00:01.500");
  });

  it("throws for a non-finite gap", () => {
    expect(() => formatDiff(NaN)).toThrow(RangeError);
  });
});

describe("formatClock", () => {
  it("shows mm:ss in the first hour and hh:mm:ss after, whole seconds down", () => {
    expect(formatClock(0)).toBe("00:00");
    expect(formatClock(999)).toBe("00:00");
    expect(formatClock(65_500)).toBe("01:05");
    expect(formatClock(3_599_999)).toBe("59:59");
    expect(formatClock(3_600_000)).toBe("01:00:00");
    expect(formatClock(36_610_000)).toBe("10:10:10");
  });

  it("shows 00:00 before the start", () => {
    expect(formatClock(-5_000)).toBe("00:00");
    expect(formatClock(NaN)).toBe("00:00");
  });
});

describe("roundUpToSecond and resultMs", () => {
  it("rounds up to the next whole second", () => {
    expect(roundUpToSecond(0)).toBe(0);
    expect(roundUpToSecond(1)).toBe(1000);
    expect(roundUpToSecond(1000)).toBe(1000);
    expect(roundUpToSecond(754_001)).toBe(755_000);
  });

  it("a result is finish minus start, null when unknown or before the start", () => {
    expect(resultMs(1_000, 61_000)).toBe(60_000);
    expect(resultMs(null, 61_000)).toBeNull();
    expect(resultMs(1_000, undefined)).toBeNull();
    expect(resultMs(61_000, 1_000)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { clockFromSettings, fixedClock, offsetClock, systemClock } from "../../src/shared/clock";

describe("offsetClock", () => {
  it("starts at the chosen moment and advances with its base clock", () => {
    let base = 1_000;
    const clock = offsetClock(50_000, { now: () => base });
    expect(clock.now()).toBe(50_000);
    base += 250;
    expect(clock.now()).toBe(50_250);
  });

  it("reads the start moment at the time it was set, not when it was made", () => {
    let base = 2_000;
    const clock = offsetClock(10_000, { now: () => base }, 1_500);
    expect(clock.now()).toBe(10_500);
    base = 3_000;
    expect(clock.now()).toBe(11_500);
  });
});

describe("clockFromSettings", () => {
  const now = "2025-08-25T10:00:00+02:00";

  it("starts at NOW in development and then advances in real time", async () => {
    const setAt = systemClock.now();
    const clock = clockFromSettings({ DEV_MODE: "true", NOW: now, NOW_SET_AT: String(setAt) });
    const first = clock.now();
    expect(first).toBeGreaterThanOrEqual(Date.parse(now));
    expect(first - Date.parse(now)).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now() - first).toBeGreaterThanOrEqual(15);
  });

  it("counts from NOW_SET_AT, so every isolate of one server shows the same time", () => {
    const setAt = systemClock.now() - 60_000;
    const clock = clockFromSettings({ DEV_MODE: "true", NOW: now, NOW_SET_AT: String(setAt) });
    expect(clock.now() - Date.parse(now)).toBeGreaterThanOrEqual(60_000);
    expect(clock.now() - Date.parse(now)).toBeLessThan(61_000);
  });

  it("ignores NOW in production, when it is empty, and when it does not parse", () => {
    for (const settings of [
      { DEV_MODE: "false", NOW: now, NOW_SET_AT: "1" },
      { DEV_MODE: "true", NOW: "", NOW_SET_AT: "" },
      { DEV_MODE: "true", NOW: "inte ett datum", NOW_SET_AT: "1" },
    ]) {
      expect(clockFromSettings(settings)).toBe(systemClock);
    }
  });

  it("fixedClock never moves", () => {
    const clock = fixedClock(42);
    expect(clock.now()).toBe(42);
    expect(clock.now()).toBe(42);
  });
});

/**
 * The stopwatch's pure rules (src/web/features/timing/stopwatch.ts): time from the start plus earlier runs,
 * never from ticks; splits and laps; the two resets; what survives a reload; the clock across a sleep.
 */
import { describe, expect, test } from "vitest";
import {
  createClock,
  elapsed,
  INITIAL,
  isRunning,
  laps,
  plusOne,
  reset,
  resetCount,
  restore,
  serialize,
  split,
  start,
  stop,
} from "../../src/web/features/timing/stopwatch";

const T0 = 1_790_000_000_000; // an epoch time, as Date.now() gives

describe("time", () => {
  test("starts at zero and counts from the start", () => {
    expect(elapsed(INITIAL, T0)).toBe(0);
    const s = start(INITIAL, T0);
    expect(isRunning(s)).toBe(true);
    expect(elapsed(s, T0 + 1234)).toBe(1234);
  });

  test("time keeps counting across a long gap between ticks", () => {
    const s = start(INITIAL, T0);
    // No tick for 40 minutes (phone asleep, tab in the background): the next look shows the full time.
    expect(elapsed(s, T0 + 1000)).toBe(1000);
    expect(elapsed(s, T0 + 40 * 60_000 + 7)).toBe(40 * 60_000 + 7);
  });

  test("does not advance while stopped; a restart adds to what was there", () => {
    let s = stop(start(INITIAL, T0), T0 + 5000);
    expect(isRunning(s)).toBe(false);
    expect(elapsed(s, T0 + 5000)).toBe(5000);
    expect(elapsed(s, T0 + 60_000)).toBe(5000);
    s = start(s, T0 + 60_000);
    expect(elapsed(s, T0 + 62_500)).toBe(7500);
  });

  test("start while running and stop while stopped change nothing", () => {
    const running = start(INITIAL, T0);
    expect(start(running, T0 + 999)).toBe(running);
    const stopped = stop(running, T0 + 10);
    expect(stop(stopped, T0 + 20)).toBe(stopped);
  });

  test("a clock that went backwards counts as no time, never a negative one", () => {
    expect(elapsed(start(INITIAL, T0), T0 - 50)).toBe(0);
  });
});

describe("splits and resets", () => {
  test("splits record the elapsed time; laps are the differences", () => {
    let s = start(INITIAL, T0);
    s = split(s, T0 + 61_000);
    s = split(s, T0 + 125_500);
    expect(s.splits).toEqual([61_000, 125_500]);
    expect(laps(s)).toEqual([
      { n: 1, at: 61_000, lap: 61_000 },
      { n: 2, at: 125_500, lap: 64_500 },
    ]);
  });

  test("no split while stopped", () => {
    const s = stop(start(INITIAL, T0), T0 + 10);
    expect(split(s, T0 + 20)).toBe(s);
    expect(split(INITIAL, T0)).toBe(INITIAL);
  });

  test("Nollställ clears the time and splits of a stopped watch, not the counter; a running watch is left alone", () => {
    let s = plusOne(plusOne(split(start(INITIAL, T0), T0 + 100)));
    expect(reset(s)).toBe(s);
    s = reset(stop(s, T0 + 200));
    expect(s).toEqual({ ...INITIAL, count: 2 });
  });

  test("+1 counts and has its own reset, independent of the time", () => {
    let s = start(INITIAL, T0);
    s = plusOne(plusOne(plusOne(s)));
    expect(s.count).toBe(3);
    s = resetCount(s);
    expect(s.count).toBe(0);
    expect(isRunning(s)).toBe(true);
  });
});

describe("persistence", () => {
  test("reload restores a running watch", () => {
    const before = split(start(INITIAL, T0), T0 + 2000);
    const saved = serialize(plusOne(before));
    // After a reload performance.now() starts again at 0; the start is an epoch time, so the watch goes on.
    const after = restore(saved);
    expect(isRunning(after)).toBe(true);
    expect(after.splits).toEqual([2000]);
    expect(after.count).toBe(1);
    expect(elapsed(after, T0 + 90_000)).toBe(90_000);
  });

  test("reload restores a stopped watch with its time", () => {
    const after = restore(serialize(stop(start(INITIAL, T0), T0 + 4321)));
    expect(isRunning(after)).toBe(false);
    expect(elapsed(after, T0 + 1e9)).toBe(4321);
  });

  test("nothing saved or something malformed gives a zeroed watch", () => {
    for (const text of [
      null,
      undefined,
      "",
      "not json",
      "null",
      "42",
      "{}",
      JSON.stringify({ runningSince: "x", accumulated: 0, splits: [], count: 0 }),
      JSON.stringify({ runningSince: null, accumulated: -1, splits: [], count: 0 }),
      JSON.stringify({ runningSince: null, accumulated: 0, splits: [1, "2"], count: 0 }),
      JSON.stringify({ runningSince: null, accumulated: 0, splits: [], count: 1.5 }),
    ]) {
      expect(restore(text)).toEqual(INITIAL);
    }
  });
});

describe("clock", () => {
  function sources(wall0: number) {
    const t = { mono: 0, wall: wall0 };
    return { t, clock: createClock({ monotonic: () => t.mono, wall: () => t.wall }) };
  }

  test("ticks with the monotonic clock, anchored on the wall clock", () => {
    const { t, clock } = sources(T0);
    expect(clock()).toBe(T0);
    t.mono += 1500;
    t.wall += 1500;
    expect(clock()).toBe(T0 + 1500);
  });

  test("a wall clock set back or forward a little does not move the watch", () => {
    const { t, clock } = sources(T0);
    t.mono += 1000;
    t.wall += 1000 - 60_000; // set back a minute
    expect(clock()).toBe(T0 + 1000);
    t.mono += 1000;
    t.wall = T0 + 2000 + 500; // half a second ahead
    expect(clock()).toBe(T0 + 2000);
  });

  test("catches up with the wall clock when the monotonic one stood still during a sleep", () => {
    const { t, clock } = sources(T0);
    const s = start(INITIAL, clock());
    t.mono += 1000;
    t.wall += 10 * 60_000; // ten minutes asleep; the monotonic clock saw one second
    expect(elapsed(s, clock())).toBe(10 * 60_000);
    t.mono += 250;
    t.wall += 250;
    expect(elapsed(s, clock())).toBe(10 * 60_000 + 250);
  });

  test("never goes backwards", () => {
    const { t, clock } = sources(T0);
    t.mono += 5000;
    t.wall += 5000;
    const a = clock();
    t.mono -= 100; // a misbehaving source
    expect(clock()).toBe(a);
  });
});

import { describe, expect, it } from "vitest";
import { ClockOffsetEstimator, clockSample } from "../../src/shared/clock-sync";

/** A deterministic PRNG (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One sync round trip between a device whose clock reads `server − skew` and the server, with the given one-way
 * delays (ms). Returns the three readings the device gets: t0 (device), t1 (server), t3 (device).
 */
function roundTrip(serverNow: number, skew: number, up: number, down: number) {
  const t0 = serverNow - skew;
  const t1 = serverNow + up;
  const t3 = serverNow + up + down - skew;
  return { t0, t1, t3 };
}

describe("clockSample", () => {
  it("is the NTP offset and delay; a symmetric trip gives the exact skew", () => {
    const { t0, t1, t3 } = roundTrip(1_000_000, 2_500, 40, 40);
    expect(clockSample(t0, t1, t3)).toEqual({ offset: 2_500, delay: 80 });
  });

  it("is off by half the asymmetry, and refuses impossible trips", () => {
    const { t0, t1, t3 } = roundTrip(1_000_000, -700, 10, 90);
    expect(clockSample(t0, t1, t3)).toEqual({ offset: -700 - 40, delay: 100 });
    expect(clockSample(100, 50, 90)).toBeNull();
    expect(clockSample(Number.NaN, 1, 2)).toBeNull();
  });
});

describe("ClockOffsetEstimator", () => {
  it("answers 0 with no sample, and converts device time to server time", () => {
    const est = new ClockOffsetEstimator();
    expect(est.offset()).toBe(0);
    expect(est.uncertainty()).toBe(Infinity);
    const { t0, t1, t3 } = roundTrip(5_000_000, 1_234, 20, 20);
    est.add(t0, t1, t3);
    expect(est.offset()).toBe(1_234);
    expect(est.toServerTime(10_000)).toBe(11_234);
  });

  it.each([
    [0, 1],
    [3_600_000, 2],
    [-45_000, 3],
    [987, 4],
  ])("finds a skew of %i ms within 15 ms under heavy, asymmetric jitter (seed %i)", (skew, seed) => {
    const rnd = random(seed);
    const est = new ClockOffsetEstimator();
    let now = 1_800_000_000_000;
    for (let i = 0; i < 16; i += 1) {
      // A flaky phone network: 15–40 ms base each way, and one trip in three stalls for up to 3 s in one direction.
      const up = 15 + rnd() * 25 + (rnd() < 0.33 ? rnd() * 3_000 : 0);
      const down = 15 + rnd() * 25 + (rnd() < 0.33 ? rnd() * 3_000 : 0);
      const { t0, t1, t3 } = roundTrip(now, skew, up, down);
      est.add(t0, t1, t3);
      now += 10_000;
    }
    expect(Math.abs(est.offset() - skew)).toBeLessThan(15);
    // One sample alone can be off by up to half its delay; the best ones keep the bound small.
    expect(est.uncertainty()).toBeLessThan(100);
  });

  it("keeps the lowest-delay samples, not the latest ones", () => {
    const est = new ClockOffsetEstimator({ window: 8, best: 2 });
    const fast = roundTrip(0, 500, 5, 5);
    est.add(fast.t0, fast.t1, fast.t3);
    est.add(fast.t0, fast.t1, fast.t3);
    // Slow trips whose asymmetry would pull the estimate 1 s off.
    for (let i = 0; i < 5; i += 1) {
      const slow = roundTrip(1000 * i, 500, 2_000, 20);
      est.add(slow.t0, slow.t1, slow.t3);
    }
    expect(est.offset()).toBe(500);
  });

  it("forgets samples older than its window (a drifting clock), and drops trips that say nothing", () => {
    const est = new ClockOffsetEstimator({ window: 4, best: 2, maxDelayMs: 1_000 });
    for (let i = 0; i < 4; i += 1) {
      const old = roundTrip(i * 1000, 100, 5, 5);
      est.add(old.t0, old.t1, old.t3);
    }
    for (let i = 0; i < 4; i += 1) {
      const drifted = roundTrip(10_000 + i * 1000, 300, 10, 10);
      est.add(drifted.t0, drifted.t1, drifted.t3);
    }
    expect(est.offset()).toBe(300);
    const useless = roundTrip(20_000, 9_999, 900, 900);
    expect(est.add(useless.t0, useless.t1, useless.t3)).toBe(false);
    expect(est.size).toBe(4);
    expect(() => new ClockOffsetEstimator({ best: 0 })).toThrow(RangeError);
  });
});

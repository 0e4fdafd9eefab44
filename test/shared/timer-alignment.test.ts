import { describe, expect, it } from "vitest";
import {
  alignTimers,
  bestShift,
  MAX_TIMER_SHIFT_MS,
  pairInOrder,
  PAIR_TOLERANCE_MS,
  type TimerTap,
} from "../../src/shared/timer-alignment";

const T0 = Date.UTC(2076, 8, 13, 10, 0);

/** A small seeded random source (mulberry32), so a simulated finish is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function taps(device: string, moments: readonly number[]): TimerTap[] {
  return moments.map((at, i) => ({ id: `${device}-${String(i).padStart(3, "0")}`, device, at }));
}

/** Finish moments: gaps of 0.2–8 s, kids often in clumps. */
function finishers(n: number, random: () => number): number[] {
  const out: number[] = [];
  let t = T0 + 600_000;
  for (let i = 0; i < n; i++) {
    t += random() < 0.3 ? 200 + Math.round(random() * 500) : 1_000 + Math.round(random() * 7_000);
    out.push(t);
  }
  return out;
}

/** What one phone records: the truth, plus its constant lag and a reaction jitter of up to ±`jitter` ms. */
function timed(truth: readonly number[], lag: number, jitter: number, random: () => number, skip = new Set<number>()) {
  return truth.flatMap((t, i) => (skip.has(i) ? [] : [t + lag + Math.round((random() * 2 - 1) * jitter)]));
}

describe("pairInOrder", () => {
  it("pairs within the tolerance, never crossing, the closest when one tap could go either way", () => {
    expect(pairInOrder([0, 1_000, 2_000], [10, 1_020, 2_400], 0, 500)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    // b's one tap lies within reach of both of a's: it goes to the nearer.
    expect(pairInOrder([10_000, 10_450], [10_440], 0, 500)).toEqual([[1, 0]]);
    // Order is kept: a pairing that would cross another is not made, even if each alone is close.
    expect(pairInOrder([0, 300], [280, 310], 0, 500)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(pairInOrder([0], [600], 0, 500)).toEqual([]);
    expect(pairInOrder([0], [600], 200, 500)).toEqual([[0, 0]]);
  });

  it("pairs as many as any order-keeping pairing can (a greedy walk would pair fewer)", () => {
    // Greedy takes (0,0) at 400 ms, leaving a[1] without a partner; the best pairs b[0] with a[1] … no: both pair.
    const a = [0, 450, 900];
    const b = [400, 850, 1_300];
    expect(pairInOrder(a, b, 0, 500)).toHaveLength(3);
    // A forbidden pair is skipped.
    expect(pairInOrder([0, 1_000], [0, 1_000], 0, 100, (i) => i !== 0)).toEqual([[1, 1]]);
  });
});

describe("bestShift", () => {
  it("finds the shift between two streams beyond the tolerance, so every tap pairs", () => {
    const random = seeded(1);
    const truth = finishers(40, random);
    const a = timed(truth, 0, 40, random);
    const b = timed(truth, 700, 40, random);
    // Without the shift, 0.7 s apart: nothing pairs within 0.5 s.
    expect(pairInOrder(a, b, 0, PAIR_TOLERANCE_MS).length).toBeLessThan(40);
    const found = bestShift(a, b, PAIR_TOLERANCE_MS, 3_000);
    expect(found.pairs).toBe(40);
    expect(Math.abs(found.shift - 700)).toBeLessThan(60);
  });

  it("is 0 with nothing to go on", () => {
    expect(bestShift([], [1, 2], 500, 3_000)).toEqual({ shift: 0, pairs: 0, cost: 0 });
    expect(bestShift([0], [10_000], 500, 3_000)).toEqual({ shift: 0, pairs: 0, cost: 0 });
  });
});

describe("alignTimers", () => {
  it("one device: its taps are the slots, numbered in time order", () => {
    const { slots, reference } = alignTimers(taps("a", [T0 + 3_000, T0 + 1_000, T0 + 2_000]));
    expect(reference).toBe("a");
    expect(slots.map((s) => [s.number, s.at, s.single])).toEqual([
      [1, T0 + 1_000, false],
      [2, T0 + 2_000, false],
      [3, T0 + 3_000, false],
    ]);
    expect(slots[0]!.key).toBe("a-001");
  });

  it("two devices with different offsets and 3 taps missing on one: every finish once, the singles flagged", () => {
    const random = seeded(7);
    const truth = finishers(60, random);
    const missing = new Set([0, 23, 41]);
    // Phone A runs 0.35 s late on the server's clock, phone B 0.3 s early: 0.65 s apart, beyond the tolerance.
    const a = taps("a", timed(truth, 350, 60, random));
    const b = taps("b", timed(truth, -300, 60, random, missing));
    const { slots, offsets, reference } = alignTimers([...b, ...a]);
    expect(slots).toHaveLength(60);
    // B is the earlier device: paired finishes take its (earlier) taps, A's singles are put on B's timeline.
    expect(reference).toBe("b");
    expect(Math.abs(offsets.a! - 650)).toBeLessThan(80);
    slots.forEach((slot, i) => {
      expect(slot.number).toBe(i + 1);
      // Each slot is the i-th finisher: within the jitter of the truth (on B's timeline, 0.3 s early).
      expect(Math.abs(slot.at - (truth[i]! - 300))).toBeLessThan(200);
    });
    const singles = slots.filter((s) => s.taps.length === 1);
    expect(singles.map((s) => s.number)).toEqual([1, 24, 42]);
    expect(singles.every((s) => s.taps[0]!.device === "a")).toBe(true);
    // Finish 1 lies before B's first tap: B may have joined after it, so only the two B timed around are flagged.
    expect(singles.map((s) => s.single)).toEqual([false, true, true]);
    expect(slots.filter((s) => s.taps.length === 2).every((s) => s.taps[0]!.device === "b" && !s.single)).toBe(true);
  });

  it("gives the same slots whatever order the taps arrive in", () => {
    const random = seeded(3);
    const truth = finishers(30, random);
    const all = [...taps("a", timed(truth, 0, 80, random)), ...taps("b", timed(truth, 400, 80, random, new Set([5])))];
    const shuffled = [...all].sort(() => random() - 0.5);
    expect(alignTimers(shuffled)).toEqual(alignTimers(all));
  });

  it("the main timer's time is taken for a paired finish, and another device's single is put on its timeline", () => {
    const a = taps("a", [T0 + 1_000, T0 + 5_000, T0 + 9_000]);
    const b = taps("b", [T0 + 1_200, T0 + 3_200, T0 + 5_200, T0 + 9_200]);
    const byEarliest = alignTimers([...a, ...b]);
    expect(byEarliest.reference).toBe("a");
    expect(byEarliest.slots.map((s) => s.at)).toEqual([T0 + 1_000, T0 + 3_000, T0 + 5_000, T0 + 9_000]);
    expect(byEarliest.slots[1]!.taps).toEqual([{ id: "b-001", device: "b", at: T0 + 3_200 }]);
    const byMain = alignTimers([...a, ...b], { main: "b" });
    expect(byMain.reference).toBe("b");
    expect(byMain.slots.map((s) => s.at)).toEqual([T0 + 1_200, T0 + 3_200, T0 + 5_200, T0 + 9_200]);
    expect(byMain.slots.map((s) => s.key)).toEqual(["b-000", "b-001", "b-002", "b-003"]);
  });

  it("aligns two phones up to MAX_TIMER_SHIFT_MS apart, either way; further apart their taps are not one finish", () => {
    const finishes = Array.from({ length: 8 }, (_, i) => T0 + (i + 1) * 10_000);
    const a = taps("a", finishes);
    const apart = (lag: number) =>
      alignTimers([
        ...a,
        ...taps(
          "b",
          finishes.map((at) => at + lag),
        ),
      ]);
    const within = MAX_TIMER_SHIFT_MS - 500;
    expect(apart(within).slots).toHaveLength(8);
    expect(apart(within).offsets).toEqual({ a: 0, b: within });
    expect(apart(-within).slots).toHaveLength(8);
    expect(apart(-within).offsets).toEqual({ a: within, b: 0 });
    // Beyond the limit (and its tolerance) the two streams are not shifted: every tap is a finish of its own.
    const beyond = MAX_TIMER_SHIFT_MS + PAIR_TOLERANCE_MS + 100;
    for (const lag of [beyond, -beyond]) {
      const { slots, offsets } = apart(lag);
      expect(slots).toHaveLength(16);
      expect(Object.values(offsets)).toEqual([0, 0]);
    }
  });

  it("a finish one device has not sent yet is not flagged until that device times past it, or the race ends", () => {
    const a = taps("a", [T0 + 1_000, T0 + 5_000, T0 + 9_000]);
    const b = taps("b", [T0 + 1_100, T0 + 5_100]);
    const live = alignTimers([...a, ...b]);
    expect(live.slots.map((s) => s.single)).toEqual([false, false, false]);
    expect(alignTimers([...a, ...b], { settled: true }).slots.map((s) => s.single)).toEqual([false, false, true]);
  });

  it("a finish the other device's tap may still be on its way for is not flagged: that device timed past it by less than the tolerance", () => {
    // Two finishers 0.3 s apart: B's tap for the second has come, its tap for the first not yet.
    const a = taps("a", [T0 + 1_000, T0 + 5_000, T0 + 9_000, T0 + 9_300, T0 + 12_000]);
    const b = taps("b", [T0 + 1_050, T0 + 5_050, T0 + 9_350, T0 + 12_040]);
    const live = alignTimers([...a.slice(0, 4), ...b.slice(0, 3)]);
    expect(live.slots.map((s) => [s.at, s.taps.length, s.single])).toEqual([
      [T0 + 1_000, 2, false],
      [T0 + 5_000, 2, false],
      [T0 + 9_000, 1, false],
      [T0 + 9_300, 2, false],
    ]);
    // B times a later finish, more than the tolerance after it: B missed it.
    expect(alignTimers([...a, ...b]).slots.map((s) => s.single)).toEqual([false, false, true, false, false]);
  });

  it("a phone that joins late does not flag the finishes before its first tap, live or once ended; those after it does", () => {
    const finishes = Array.from({ length: 12 }, (_, i) => T0 + (i + 1) * 4_000);
    const a = taps("a", finishes);
    // B's volunteer arrives before the 6th finisher, and misses the 9th.
    const b = taps(
      "b",
      finishes.filter((_, i) => i >= 5 && i !== 8).map((at) => at + 120),
    );
    const live = alignTimers([...a, ...b]);
    expect(live.slots).toHaveLength(12);
    expect(live.offsets.b).toBe(120);
    expect(live.slots.filter((s) => s.single).map((s) => s.number)).toEqual([9]);
    expect(
      alignTimers([...a, ...b], { settled: true })
        .slots.filter((s) => s.single)
        .map((s) => s.number),
    ).toEqual([9]);

    // A finish within the tolerance before B's first tap (a clump: 0.4 s before the 6th) is B's to have timed.
    const clump: TimerTap = { id: "a-clump", device: "a", at: finishes[5]! - 400 };
    const withClump = alignTimers([...a, clump, ...b]);
    expect(withClump.slots.filter((s) => s.single).map((s) => s.key)).toEqual(["a-clump", "a-008"]);
  });

  it("one more tap never moves a finish two devices timed, and moves a single only in steps", () => {
    const random = seeded(5);
    const truth = finishers(40, random);
    // Two phones that agree on average: which is the reference flips with noise, which must move nothing paired.
    const a = taps("a", timed(truth, 0, 60, random, new Set([25])));
    const b = taps("b", timed(truth, 0, 60, random, new Set([20])));
    const pairedAt = new Map<string, number>();
    const shifts = new Set<number>();
    for (let n = 1; n <= 40; n++) {
      const upTo = a[Math.min(n, a.length) - 1]!.at + 1_000;
      const { slots } = alignTimers([...a, ...b].filter((t) => t.at <= upTo));
      for (const slot of slots) {
        if (slot.taps.length === 1) {
          shifts.add(slot.taps[0]!.at - slot.at);
          continue;
        }
        const pair = slot.taps
          .map((t) => t.id)
          .sort()
          .join("+");
        expect(slot.at).toBe(Math.min(...slot.taps.map((t) => t.at)));
        expect(pairedAt.get(pair) ?? slot.at).toBe(slot.at);
        pairedAt.set(pair, slot.at);
      }
    }
    expect(pairedAt.size).toBe(38);
    expect([...shifts].every((shift) => shift % 10 === 0)).toBe(true);
  });

  it("never pairs taps pinned to different runners", () => {
    const a: TimerTap[] = [{ id: "a-0", device: "a", at: T0, pin: "ella" }];
    const b: TimerTap[] = [{ id: "b-0", device: "b", at: T0 + 100, pin: "olle" }];
    expect(alignTimers([...a, ...b]).slots).toHaveLength(2);
    const same: TimerTap[] = [{ ...b[0]!, pin: "ella" }];
    expect(alignTimers([...a, ...same]).slots).toHaveLength(1);
  });

  it("three devices: each finish once", () => {
    const random = seeded(11);
    const truth = finishers(25, random);
    const all = [
      ...taps("a", timed(truth, 100, 50, random, new Set([3]))),
      ...taps("b", timed(truth, -200, 50, random, new Set([10]))),
      ...taps("c", timed(truth, 600, 50, random, new Set([3, 20]))),
    ];
    const { slots } = alignTimers(all);
    expect(slots).toHaveLength(25);
    slots.forEach((slot) => expect(new Set(slot.taps.map((t) => t.device)).size).toBe(slot.taps.length));
    expect(slots.filter((s) => s.taps.length < 3).map((s) => s.number)).toEqual([4, 11, 21]);
  });
});

/**
 * The tolerance, measured: 100 simulated races of 60 finishers (gaps of 1–8 s, 30 % of them in clumps 0.2–0.7 s
 * apart), the two phones 0.5–0.9 s apart after their clock sync, each tap off by a reaction jitter of up to
 * ±`jitter` ms. What harms the results is a merged sequence with the wrong number of slots (every later bib would
 * land one slot off): counted here as races with a wrong count. Measured (races of 100 with a wrong count):
 *
 *   one phone misses 5 %     ±50 ms   ±100 ms   ±150 ms   ±250 ms
 *   0.25 s                    0         0        72        100
 *   0.5 s                     0         0         0          2
 *   0.8 s                     0         0         0          0
 *   both miss 5 % each
 *   0.25 s                    1         1        55        100
 *   0.5 s                     8        10        10         10
 *   0.8 s                    11        11        11         11
 *
 * A wider tolerance pairs a finish one phone missed with the next one the other phone missed; a narrower one fails
 * to pair a slow reaction. 0.5 s is right for reactions within ±150 ms, which is the default.
 */
describe("the pairing tolerance", () => {
  function racesWithWrongCount(tolerance: number, jitter: number, bothMiss: boolean, races = 100): number {
    let wrong = 0;
    for (let race = 0; race < races; race++) {
      const random = seeded(1_000 + race);
      const truth = finishers(60, random);
      const missB = new Set(truth.flatMap((_, i) => (random() < 0.05 ? [i] : [])));
      const missA = bothMiss
        ? new Set(truth.flatMap((_, i) => (random() < 0.05 && !missB.has(i) ? [i] : [])))
        : new Set<number>();
      const lag = 500 + Math.round(random() * 400);
      const all = [
        ...taps("a", timed(truth, 0, jitter, random, missA)),
        ...taps("b", timed(truth, lag, jitter, random, missB)),
      ];
      const { slots } = alignTimers(all, { toleranceMs: tolerance });
      if (slots.length !== truth.length) wrong += 1;
    }
    return wrong;
  }

  it("0.5 s keeps the count right when one phone misses taps, and errs less than a wider one when both do", () => {
    for (const jitter of [50, 100, 150]) expect(racesWithWrongCount(PAIR_TOLERANCE_MS, jitter, false)).toBe(0);
    expect(racesWithWrongCount(250, 150, false)).toBeGreaterThan(50);
    expect(racesWithWrongCount(PAIR_TOLERANCE_MS, 100, true)).toBeLessThan(racesWithWrongCount(800, 100, true));
  });
});

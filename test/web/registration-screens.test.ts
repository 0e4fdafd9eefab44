/**
 * The pure rules behind two registration screens: when /kvitto asks /verify again, and in which order the runner
 * dialog offers the distances.
 */
import { describe, expect, it } from "vitest";
import {
  DELAY_FACTOR,
  FIRST_DELAY_MS,
  GIVE_UP_AFTER_MS,
  pollWaits,
} from "../../src/web/features/registration/poll-schedule";
import { inSpecOrder } from "../../src/web/lib/format";

describe("/kvitto's poll schedule", () => {
  it("first after 2 s, each wait ×1.5, the last check at three minutes", () => {
    const waits = pollWaits();
    expect(FIRST_DELAY_MS).toBe(2000);
    expect(DELAY_FACTOR).toBe(1.5);
    expect(waits[0]).toBe(2000);
    for (let i = 1; i < waits.length - 1; i++) expect(waits[i]).toBeCloseTo(waits[i - 1]! * 1.5, 6);
    // The last wait is cut to what is left, so the page gives up at ~180 s, not after the last whole wait (~150 s).
    const total = waits.reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(GIVE_UP_AFTER_MS, 6);
    expect(GIVE_UP_AFTER_MS).toBe(180_000);
    expect(waits.at(-1)!).toBeLessThanOrEqual(waits.at(-2)! * 1.5);
    expect(waits.at(-1)!).toBeGreaterThan(0);
  });
});

describe("the runner dialog's distances", () => {
  it("in the spec's order 5.6, 2.8, 1.6, 0.8, only the open ones", () => {
    const open = [
      { distance: "0.8" as const, startTime: "10:00" },
      { distance: "2.8" as const, startTime: "11:00" },
      { distance: "5.6" as const, startTime: "11:30" },
    ];
    expect(inSpecOrder(open).map((d) => d.distance)).toEqual(["5.6", "2.8", "0.8"]);
    expect(inSpecOrder([])).toEqual([]);
  });
});

/**
 * Målfoto's camera clock (camera-clock.ts): Chromium's camera frames on the page's clock, from their arrivals and
 * then exactly from a shown frame's capture moment. The real camera in Chromium is tested in finish-photos (e2e).
 */
import { describe, expect, it } from "vitest";
import { PageClock } from "../../src/web/features/race-day/camera-clock";

/** The camera clock read 5,000,000 ms at the page's time origin; 30 frames a second from page moment 100. */
const ZERO = 5_000_000;
const INTERVAL = 1000 / 30;
const captured = (n: number) => 100 + n * INTERVAL;
const timestamp = (n: number) => ZERO + captured(n);

describe("the camera clock on the page's clock", () => {
  it("until a capture moment matches: each frame's moment is late by the quickest arrival's delay, never early", () => {
    const clock = new PageClock();
    // Delays of 9, 4, 6, 2, 7 … ms: the estimate keeps the quickest so far.
    const delays = [9, 4, 6, 2, 7, 3, 8, 5, 6, 4, 9, 7];
    const moments = delays.map((d, n) => clock.frame(timestamp(n), captured(n) + d));
    expect(moments[0]).toBeCloseTo(captured(0) + 9);
    expect(moments[1]).toBeCloseTo(captured(1) + 4);
    expect(moments[2]).toBeCloseTo(captured(2) + 4);
    expect(moments[11]).toBeCloseTo(captured(11) + 2);
    for (const [n, m] of moments.entries()) expect(m).toBeGreaterThanOrEqual(captured(n));
  });

  it("a shown frame's capture moment makes every later frame exact, whichever arrival was quickest", () => {
    const clock = new PageClock();
    // A capture moment sent before its frame has arrived (the page's callback came first) waits for it.
    clock.capturedAt(captured(3));
    for (let n = 0; n < 12; n += 1) clock.frame(timestamp(n), captured(n) + 5 + (n % 3));
    // Later frames arrive much later (a busy phone): their moments stay their capture moments.
    for (let n = 12; n < 40; n += 1) expect(clock.frame(timestamp(n), captured(n) + 40)).toBeCloseTo(captured(n));
  });

  it("with the estimate almost an interval late, the capture moment still belongs to its own frame", () => {
    const clock = new PageClock();
    // Every arrival 30 ms late (an interval is 33.3 ms): frame 5's estimated moment is 30 ms after its capture,
    // frame 4's is 3.3 ms before it.
    for (let n = 0; n < 10; n += 1) clock.frame(timestamp(n), captured(n) + 30);
    clock.capturedAt(captured(5));
    expect(clock.frame(timestamp(10), captured(10) + 30)).toBeCloseTo(captured(10));
  });

  it("a capture moment whose frame never arrived matches no neighbour; the next capture moment does", () => {
    const clock = new PageClock();
    // Frame 6 is let go on the way.
    for (let n = 0; n < 12; n += 1) if (n !== 6) clock.frame(timestamp(n), captured(n) + 3);
    clock.capturedAt(captured(6));
    expect(clock.frame(timestamp(12), captured(12) + 3)).toBeCloseTo(captured(12) + 3);
    clock.capturedAt(captured(7));
    expect(clock.frame(timestamp(13), captured(13) + 3)).toBeCloseTo(captured(13));
  });

  it("before the tenth frame no match is made: the first frames' slow arrivals could point at the wrong one", () => {
    const clock = new PageClock();
    // The camera starting: the first frames 50 ms late, more than an interval.
    clock.capturedAt(captured(1));
    for (let n = 0; n < 3; n += 1) clock.frame(timestamp(n), captured(n) + 50);
    // Frames 3–9 arrive 2 ms late: by the tenth the estimate is 2 ms late, and frame 1 is matched, not frame 0.
    for (let n = 3; n < 9; n += 1) expect(clock.frame(timestamp(n), captured(n) + 2)).toBeCloseTo(captured(n) + 2);
    expect(clock.frame(timestamp(9), captured(9) + 2)).toBeCloseTo(captured(9));
  });
});

/**
 * Målfoto's camera clock put on the page's clock (issue 44; finish-camera-worker.ts uses it). Chromium's camera
 * frames (from a `MediaStreamTrackProcessor`) carry their capture moment as `timestamp` on the browser's monotonic
 * clock, which no page API reads; a press is on the page's performance clock. A frame's `timestamp` (in ms) minus
 * `zero` is its capture moment on the page's clock; `zero` is the camera clock's reading at the page's time origin.
 * - Until a `captured` moment matches a frame, `zero` is estimated from arrivals: the largest `timestamp − arrival`
 *   seen (arrival on the page's clock). A frame arrives after its capture, so the estimate is never above the true
 *   `zero`, and a frame's moment is late by at most the quickest arrival's delay (about a millisecond with this
 *   machine's fake camera).
 * - A `captured` moment `c` (a frame callback's `captureTime`: the browser's own conversion, exact) belongs to the
 *   frame whose estimated moment is at or just after `c`: late by [−MATCH_BEFORE_MS, frame interval −
 *   MATCH_BEFORE_MS), which only that frame is while the estimate is less than an interval late. Matched from the
 *   MATCH_AFTER_FRAMES-th frame on (the first frames can arrive late, the camera starting). From then on `zero` is
 *   exact: that frame's timestamp − c. A `captured` moment whose frame never arrived here (let go on the way)
 *   matches none; the next one can.
 */
const MATCH_BEFORE_MS = 2;
const MATCH_AFTER_FRAMES = 10;
/** Frame timestamps remembered for matching. */
const RECENT_FRAMES = 30;

export class PageClock {
  private estimate = -Infinity;
  private exact: number | null = null;
  private captured: number[] = [];
  private recent: number[] = [];

  /** A frame (its `timestamp` in ms) arrived at `arrival` (the page's clock): its moment on the page's clock. */
  frame(timestamp: number, arrival: number): number {
    this.estimate = Math.max(this.estimate, timestamp - arrival);
    this.recent.push(timestamp);
    if (this.recent.length > RECENT_FRAMES) this.recent.shift();
    this.match();
    return timestamp - (this.exact ?? this.estimate);
  }

  /** A frame the page showed was captured at `at` (the page's clock). */
  capturedAt(at: number): void {
    if (this.exact !== null) return;
    this.captured.push(at);
    this.match();
  }

  private match(): void {
    // After a few frames: the first ones can arrive late (the camera starting), and the estimate improves with each.
    if (this.exact !== null || this.recent.length < MATCH_AFTER_FRAMES) return;
    const gaps = this.recent.slice(1).map((t, i) => t - this.recent[i]!);
    const interval = Math.min(...gaps);
    for (const c of this.captured) {
      const frame = this.recent.find((t) => {
        const late = t - this.estimate - c;
        return late >= -MATCH_BEFORE_MS && late < interval - MATCH_BEFORE_MS;
      });
      if (frame !== undefined) {
        this.exact = frame - c;
        this.captured = [];
        return;
      }
    }
  }
}

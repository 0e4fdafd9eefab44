/**
 * How far this device's clock is from the server's, measured over the race socket the way NTP does it.
 *
 * One sample: the device sends `t0` (its clock), the server answers with `t1` (its clock, read when the frame
 * arrived), the device reads `t3` when the answer arrives. With the server's own processing time ~0:
 *   delay  = t3 − t0                      (the round trip)
 *   offset = t1 − (t0 + t3) / 2           (server minus device, assuming the trip is symmetric)
 * The error of one sample is at most delay / 2, so samples with the lowest delay are the trustworthy ones: a
 * phone on a windy finish line sees round trips from 30 ms to several seconds. The estimator keeps the latest
 * `window` samples and answers the median offset of the `best` lowest-delay ones among them (a median, so one
 * odd sample cannot move it). Pure and clock-free: every time comes in as an argument.
 */

export interface ClockSample {
  /** Server minus device, ms. */
  offset: number;
  /** Round trip, ms. */
  delay: number;
}

export interface ClockSyncOptions {
  /** How many recent samples are kept (older ones are forgotten: a phone's clock drifts). */
  window?: number;
  /** How many of the lowest-delay samples the estimate uses. */
  best?: number;
  /** A round trip longer than this says nothing useful and is dropped. */
  maxDelayMs?: number;
}

export const CLOCK_SYNC_DEFAULTS: Required<ClockSyncOptions> = { window: 16, best: 4, maxDelayMs: 10_000 };

/** One sample from a sync round trip; null when the times are not a possible round trip. */
export function clockSample(t0: number, t1: number, t3: number): ClockSample | null {
  if (![t0, t1, t3].every(Number.isFinite)) return null;
  const delay = t3 - t0;
  if (delay < 0) return null;
  return { offset: t1 - (t0 + t3) / 2, delay };
}

export class ClockOffsetEstimator {
  private readonly options: Required<ClockSyncOptions>;
  private samples: ClockSample[] = [];

  constructor(options: ClockSyncOptions = {}) {
    this.options = { ...CLOCK_SYNC_DEFAULTS, ...options };
    if (this.options.window < 1 || this.options.best < 1) throw new RangeError("window och best måste vara minst 1");
  }

  /** Adds one round trip; answers false when it was dropped (impossible, or too slow to mean anything). */
  add(t0: number, t1: number, t3: number): boolean {
    const sample = clockSample(t0, t1, t3);
    if (!sample || sample.delay > this.options.maxDelayMs) return false;
    this.samples.push(sample);
    if (this.samples.length > this.options.window) this.samples.splice(0, this.samples.length - this.options.window);
    return true;
  }

  /** How many samples the estimate rests on now. */
  get size(): number {
    return this.samples.length;
  }

  /** Server minus device in ms (0 before any sample: the device clock is all there is). */
  offset(): number {
    const best = this.bestSamples();
    if (best.length === 0) return 0;
    return median(best.map((s) => s.offset));
  }

  /** The estimate's error bound: half the round trip of the slowest sample it uses (Infinity before any). */
  uncertainty(): number {
    const best = this.bestSamples();
    if (best.length === 0) return Infinity;
    return Math.max(...best.map((s) => s.delay)) / 2;
  }

  /** A device time on the server's clock. */
  toServerTime(deviceTime: number): number {
    return Math.round(deviceTime + this.offset());
  }

  private bestSamples(): ClockSample[] {
    return [...this.samples].sort((a, b) => a.delay - b.delay).slice(0, this.options.best);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

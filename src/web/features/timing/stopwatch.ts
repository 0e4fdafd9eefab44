/**
 * The stopwatch on /tidtagning as pure state transitions. Every transition takes `now` (ms on the clock below)
 * as an argument, and the elapsed time is always computed from when the current run began plus what earlier
 * runs accumulated: nothing counts ticks, so a phone that sleeps or a tab in the background (where timers and
 * animation frames stop) shows the right time the moment it looks again.
 */
import { parseJsonObject } from "../../../shared/json-object";

export interface StopwatchState {
  /** When the current run began, on the clock below (epoch ms, comparable with Date.now()); null while stopped. */
  runningSince: number | null;
  /** Time from earlier runs (ms), before the last Stop. */
  accumulated: number;
  /** Elapsed time at each split (ms), in the order they were taken. */
  splits: number[];
  /** The +1 counter, independent of the time. */
  count: number;
}

export const INITIAL: StopwatchState = { runningSince: null, accumulated: 0, splits: [], count: 0 };

export const isRunning = (s: StopwatchState): boolean => s.runningSince !== null;

/** Elapsed ms at `now`. A clock that went backwards (never below the run's start) counts as no time passing. */
export function elapsed(s: StopwatchState, now: number): number {
  return s.accumulated + (s.runningSince === null ? 0 : Math.max(0, now - s.runningSince));
}

export function start(s: StopwatchState, now: number): StopwatchState {
  return isRunning(s) ? s : { ...s, runningSince: now };
}

export function stop(s: StopwatchState, now: number): StopwatchState {
  return isRunning(s) ? { ...s, accumulated: elapsed(s, now), runningSince: null } : s;
}

/** Zeroes the time and the splits; the +1 counter has its own reset. Only a stopped watch is reset. */
export function reset(s: StopwatchState): StopwatchState {
  return isRunning(s) ? s : { ...s, accumulated: 0, splits: [] };
}

/** A split is taken only while the watch runs. */
export function split(s: StopwatchState, now: number): StopwatchState {
  return isRunning(s) ? { ...s, splits: [...s.splits, elapsed(s, now)] } : s;
}

export const plusOne = (s: StopwatchState): StopwatchState => ({ ...s, count: s.count + 1 });

export const resetCount = (s: StopwatchState): StopwatchState => ({ ...s, count: 0 });

/** Each split with its lap: the time since the previous split (the first lap is the split itself). */
export function laps(s: StopwatchState): { n: number; at: number; lap: number }[] {
  return s.splits.map((at, i) => ({ n: i + 1, at, lap: at - (i === 0 ? 0 : s.splits[i - 1]!) }));
}

// ---------- Persistence ----------

export const STORAGE_KEY = "loppet.stopwatch.v1";

export const serialize = (s: StopwatchState): string => JSON.stringify(s);

const isTime = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * The state saved by `serialize`; INITIAL for anything missing or malformed (an old format, a hand-edited
 * value). A running watch comes back running: its start is an epoch time, so it keeps counting across a reload.
 */
export function restore(text: string | null | undefined): StopwatchState {
  if (!text) return INITIAL;
  const v = parseJsonObject(text);
  if (!v) return INITIAL;
  const { runningSince, accumulated, splits, count } = v;
  if (runningSince !== null && !isTime(runningSince)) return INITIAL;
  if (!isTime(accumulated) || !Array.isArray(splits) || !splits.every(isTime)) return INITIAL;
  if (!Number.isSafeInteger(count) || (count as number) < 0) return INITIAL;
  return { runningSince, accumulated, splits: splits as number[], count: count as number };
}

// ---------- The clock ----------

export interface ClockSources {
  /** A monotonic clock (performance.now()); it restarts at 0 on every page load. */
  monotonic: () => number;
  /** The wall clock (Date.now()), the only time that means the same thing before and after a reload. */
  wall: () => number;
}

/** How far the wall clock may run ahead of the monotonic one before it is taken as a sleep the latter missed. */
export const SLEEP_GAP_MS = 1000;

/**
 * The stopwatch's `now`: epoch ms that never go backwards. performance.now() gives the steady ticking (a
 * wall-clock adjustment by NTP or by hand does not jump the watch), but it restarts on every reload, so the
 * start that is saved must be a wall-clock time: this clock is anchored on Date.now() when the page opens, and
 * a watch started before a reload goes on from its saved wall-clock start. Some phones stop the monotonic
 * clock while the device sleeps; when the wall clock is found more than SLEEP_GAP_MS ahead, the clock catches
 * up with it, so a watch on a phone that slept in a pocket still shows the real time since Start.
 */
export function createClock({ monotonic, wall }: ClockSources): () => number {
  let wall0 = wall();
  let mono0 = monotonic();
  let last = -Infinity;
  return () => {
    let t = wall0 + (monotonic() - mono0);
    const w = wall();
    if (w - t > SLEEP_GAP_MS) {
      wall0 = w;
      mono0 = monotonic();
      t = w;
    }
    last = Math.max(last, t);
    return last;
  };
}

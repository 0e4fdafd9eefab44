/**
 * The one clock. Every time rule takes a Clock (or a `now` in epoch ms) instead of calling Date.now().
 * `offsetClock` starts at a chosen moment and then advances normally (DESIGN.md: NOW is an offset, not frozen).
 */
export interface Clock {
  now(): number;
}

/**
 * Development only: the header a request names its own moment with (ISO), read by the Worker's context middleware
 * (worker/middleware/context.ts); the browser tests send it instead of starting a server per date.
 */
export const DEV_NOW_HEADER = "x-loppet-dev-now";

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that read `startAt` when the base clock read `setAt` (default: now) and advances with the base. */
export function offsetClock(startAt: number, base: Clock = systemClock, setAt = base.now()): Clock {
  const offset = startAt - setAt;
  return { now: () => base.now() + offset };
}

export function fixedClock(at: number): Clock {
  return { now: () => at };
}

/**
 * The server's clock from its settings. In development `NOW` (ISO) and `NOW_SET_AT` (epoch ms when the start
 * script set it) shift the clock: it starts at NOW and advances normally. Production ignores both.
 */
export function clockFromSettings(settings: { DEV_MODE?: string; NOW?: string; NOW_SET_AT?: string }): Clock {
  if (settings.DEV_MODE !== "true" || !settings.NOW) return systemClock;
  const startAt = Date.parse(settings.NOW);
  if (Number.isNaN(startAt)) return systemClock;
  const setAt = Number(settings.NOW_SET_AT) || systemClock.now();
  return offsetClock(startAt, systemClock, setAt);
}

/**
 * The one clock. Every time rule takes a Clock (or a `now` in epoch ms) instead of calling Date.now().
 * `offsetClock` starts at a chosen moment and then advances normally (DESIGN.md: NOW is an offset, not frozen).
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function offsetClock(startAt: number, base: Clock = systemClock): Clock {
  const offset = startAt - base.now();
  return { now: () => base.now() + offset };
}

export function fixedClock(at: number): Clock {
  return { now: () => at };
}

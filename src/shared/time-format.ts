/**
 * Race times. Admin spec: "Results are shown as mm:ss.fff"; the results table's ± / +- column is the difference
 * to the first finisher. Minutes are not wrapped into hours (61:02.003), so a long race still sorts and reads as
 * one number.
 */

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function assertDuration(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Ogiltig tid: ${ms}`);
  return Math.round(ms);
}

function mmssfff(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${pad(minutes)}:${pad(seconds)}.${pad(ms % 1000, 3)}`;
}

/**
 * A result, 'mm:ss.fff' (61:02.003 past the hour). Fractions of a millisecond are rounded. A negative or
 * non-finite time throws a RangeError: it means a finish before the start, which is a bug upstream, not a result.
 */
export function formatResult(ms: number): string {
  return mmssfff(assertDuration(ms));
}

const RESULT_PATTERNS = [
  // h:mm:ss(.fff)
  /^(?<h>\d+):(?<m>[0-5]\d):(?<s>[0-5]\d)(?:[.,](?<f>\d{1,3}))?$/,
  // mm:ss(.fff), minutes may exceed 59
  /^(?<m>\d+):(?<s>[0-5]\d)(?:[.,](?<f>\d{1,3}))?$/,
];

/**
 * 'mm:ss.fff', 'mm:ss' or 'h:mm:ss' (a fraction of up to 3 digits allowed on either; a comma works as a
 * decimal point) → ms; null for anything else.
 */
export function parseResult(text: unknown): number | null {
  if (typeof text !== "string") return null;
  const trimmed = text.trim();
  for (const pattern of RESULT_PATTERNS) {
    const g = pattern.exec(trimmed)?.groups;
    if (!g) continue;
    const fraction = Number((g.f ?? "").padEnd(3, "0"));
    return ((Number(g.h ?? 0) * 60 + Number(g.m)) * 60 + Number(g.s)) * 1000 + fraction;
  }
  return null;
}

/** The ± column: '+mm:ss.fff' behind the first finisher (the winner shows '+00:00.000'); '-' if ever ahead. */
export function formatDiff(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`Ogiltig tid: ${ms}`);
  const rounded = Math.round(ms);
  return `${rounded < 0 ? "-" : "+"}${mmssfff(Math.abs(rounded))}`;
}

/**
 * The race clock: whole elapsed seconds, 'mm:ss' in the first hour, 'hh:mm:ss' after. Before the start
 * (negative elapsed time, e.g. a device clock slightly ahead) it shows 00:00 instead of a countdown.
 */
export function formatClock(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return h > 0 ? `${pad(h)}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** Up to the next whole second (12:34.001 → 12:35.000), as athletics rounds hand and whole-second times. */
export function roundUpToSecond(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

/** A runner's result from the race start and the finish time (admin spec: finish minus start); null if unknown. */
export function resultMs(startedAt: number | null | undefined, finishedAt: number | null | undefined): number | null {
  if (startedAt == null || finishedAt == null || finishedAt < startedAt) return null;
  return finishedAt - startedAt;
}

/**
 * Europe/Stockholm wall time without a date library. Every rule in the spec (price cut-off, registration close,
 * banner days, start times) is a Stockholm wall-clock moment, so the conversion must follow daylight saving time.
 *
 * DST choices (the same as Temporal's "compatible" disambiguation):
 * - a wall time that occurs twice (the last Sunday of October, 02:00–02:59) is the EARLIER instant, summer time
 *   (CEST, +02:00): '2025-10-26T02:30' = 2025-10-26T00:30Z;
 * - a wall time that never occurs (the last Sunday of March, 02:00–02:59) is moved forward by the gap:
 *   '2025-03-30T02:30' = 03:30 CEST = 2025-03-30T01:30Z.
 */

const TIME_ZONE = "Europe/Stockholm";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const SWEDISH_MONTHS = [
  "januari",
  "februari",
  "mars",
  "april",
  "maj",
  "juni",
  "juli",
  "augusti",
  "september",
  "oktober",
  "november",
  "december",
] as const;

export interface StockholmParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM' */
  time: string;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

let formatter: Intl.DateTimeFormat | undefined;

function stockholmFormatter(): Intl.DateTimeFormat {
  // Created lazily and once: constructing a formatter is far slower than using one.
  formatter ??= new Intl.DateTimeFormat("en-US", {
    timeZone: TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  return formatter;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

function wallTimeAt(ms: number): WallTime {
  const values: Record<string, number> = {};
  for (const part of stockholmFormatter().formatToParts(ms)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? NaN,
    month: values.month ?? NaN,
    day: values.day ?? NaN,
    // Some ICU versions still print midnight as 24 even with h23.
    hour: (values.hour ?? NaN) % 24,
    minute: values.minute ?? NaN,
    second: values.second ?? NaN,
  };
}

/** The wall time read as if it were UTC, in ms; the difference to the real instant is the zone offset. */
function wallAsUtc(w: WallTime): number {
  const d = new Date(Date.UTC(2000, 0, 1, w.hour, w.minute, w.second));
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  return d.getTime();
}

/** Stockholm's UTC offset at an instant, in ms (+1 h in winter, +2 h in summer). */
function offsetAt(ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallAsUtc(wallTimeAt(whole)) - whole;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses and range-checks a Stockholm wall time; null for a malformed string or an impossible date or time. */
function parseWallTime(dt: string): (WallTime & { precision: "day" | "minute" | "second" }) | null {
  const m = DATE_TIME.exec(dt);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const precision = m[4] === undefined ? "day" : m[6] === undefined ? "minute" : "second";
  return { year, month, day, hour, minute, second, precision };
}

function wallTimeToEpoch(w: WallTime): number {
  const wall = wallAsUtc(w);
  const before = offsetAt(wall - DAY);
  const after = offsetAt(wall + DAY);
  const candidates = [...new Set([before, after])].map((o) => wall - o).filter((t) => wall - t === offsetAt(t));
  // Two candidates: the repeated autumn hour, take the earlier. None: the skipped spring hour, shift forward.
  return candidates.length > 0 ? Math.min(...candidates) : wall - before;
}

/**
 * Stockholm wall time ('YYYY-MM-DD', 'YYYY-MM-DDTHH:MM' or 'YYYY-MM-DDTHH:MM:SS'; a space may replace the 'T')
 * → epoch ms. A date alone is its midnight. Throws a RangeError for a malformed or impossible date or time.
 */
export function stockholmToEpoch(dt: string): number {
  const w = parseWallTime(dt);
  if (!w) throw new RangeError(`Ogiltig tidpunkt: ${JSON.stringify(dt)}`);
  return wallTimeToEpoch(w);
}

/** Like stockholmToEpoch but null instead of throwing, for checking untrusted input. */
export function parseStockholm(dt: unknown): number | null {
  if (typeof dt !== "string") return null;
  const w = parseWallTime(dt);
  return w ? wallTimeToEpoch(w) : null;
}

/**
 * The first instant AFTER an inclusive Stockholm deadline, read at the precision it is written in:
 * '2025-10-01' covers the whole day, '…T23:59' the whole minute, '…T23:59:59' the whole second.
 * So "valid until and including X" is `now < stockholmDeadlineEnd(X)`.
 */
export function stockholmDeadlineEnd(dt: string): number {
  const w = parseWallTime(dt);
  if (!w) throw new RangeError(`Ogiltig tidpunkt: ${JSON.stringify(dt)}`);
  if (w.precision === "day") return stockholmToEpoch(addDays(dt, 1));
  const start = wallTimeToEpoch(w);
  return start + (w.precision === "minute" ? MINUTE : 1000);
}

/** Epoch ms → Stockholm wall-clock parts. */
export function stockholmParts(ms: number): StockholmParts {
  if (!Number.isFinite(ms)) throw new RangeError(`Ogiltig tidpunkt: ${ms}`);
  const w = wallTimeAt(ms);
  return {
    ...w,
    date: `${String(w.year).padStart(4, "0")}-${pad2(w.month)}-${pad2(w.day)}`,
    time: `${pad2(w.hour)}:${pad2(w.minute)}`,
  };
}

/** The Stockholm calendar date of an instant, 'YYYY-MM-DD'. */
export function stockholmDate(ms: number): string {
  return stockholmParts(ms).date;
}

/** The Stockholm calendar year of an instant (New Year's Eve 23:30 UTC is already next year in Stockholm). */
export function stockholmYear(ms: number): number {
  return stockholmParts(ms).year;
}

/** Calendar arithmetic on 'YYYY-MM-DD' (no time zone involved). Throws a RangeError for a bad date. */
export function addDays(date: string, n: number): string {
  const w = parseWallTime(date);
  if (!w || w.precision !== "day" || !Number.isInteger(n)) {
    throw new RangeError(`Ogiltigt datum: ${JSON.stringify(date)}`);
  }
  const d = new Date(wallAsUtc(w) + n * DAY);
  return `${String(d.getUTCFullYear()).padStart(4, "0")}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(date: unknown): date is string {
  if (typeof date !== "string") return false;
  return parseWallTime(date)?.precision === "day";
}

/** '13 september 2025': Swedish style, day without a leading zero, month in lower case. */
export function formatSwedishDate(ms: number): string {
  const p = stockholmParts(ms);
  return `${p.day} ${SWEDISH_MONTHS[p.month - 1]} ${p.year}`;
}

/** '11:45:07': the Stockholm wall-clock time of an instant, to the second (race-day messages and logs). */
export function formatStockholmClock(ms: number): string {
  const p = stockholmParts(ms);
  return `${p.time}:${pad2(p.second)}`;
}

/** '2025-09-13 11:45': the ISO-like form Swedes use for timestamps in lists. */
export function formatSwedishDateTime(ms: number): string {
  const p = stockholmParts(ms);
  return `${p.date} ${p.time}`;
}

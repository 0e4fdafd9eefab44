/**
 * Season facts as Swedish text, read straight from the season config's wall-clock strings (no time zone maths,
 * no Intl), so the build's pre-render and the browser's hydration produce the same characters.
 */
import { addDays, SWEDISH_MONTHS as MONTHS } from "../../shared/stockholm";
import type { DistanceKm } from "../../shared/season";

const WEEKDAYS = ["söndag", "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag"];

function parts(date: string): { y: number; m: number; d: number } {
  const [y = 0, m = 1, d = 1] = date.slice(0, 10).split("-").map(Number);
  return { y, m, d };
}

/** '2025-09-06T23:59:59' → '6 september'. */
export function dayAndMonth(date: string): string {
  const { m, d } = parts(date);
  return `${d} ${MONTHS[m - 1]}`;
}

/** '2025-09-13' → 'lördag 13 september 2025'. */
export function longDate(date: string): string {
  const { y, m, d } = parts(date);
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  return `${weekday} ${d} ${MONTHS[m - 1]} ${y}`;
}

/** The calendar day after a moment's date: the first day of the late price tier. */
export function dayAfter(date: string): string {
  return addDays(date.slice(0, 10), 1);
}

/** '2025-09-12T23:59:59' → '23:59'. */
export function clockTime(date: string): string {
  return date.slice(11, 16);
}

/** '0.8' → '0,8 km'. */
export function kmText(d: DistanceKm): string {
  return `${d.replace(".", ",")} km`;
}

/** '0.8' → '800 m'. */
export function metresText(d: DistanceKm): string {
  return `${Math.round(Number(d) * 1000)} m`;
}

export function kr(amount: number): string {
  return `${amount} kr`;
}

/** How the registration screens write numbers, ages, distances and moments (Swedish conventions). */
import type { DistanceKm } from "../../../shared/season";
import { formatSwedishDateTime } from "../../../shared/stockholm";

/** '1 250 kr' (a non-breaking space between thousands and before kr, so a price never wraps). */
export function formatKr(amount: number): string {
  return `${amount.toLocaleString("sv-SE")}\u00a0kr`;
}

/** '35 år'. */
export function formatAge(age: number): string {
  return `${age}\u00a0år`;
}

/** '5,6 km'. */
export function formatDistance(distance: DistanceKm): string {
  return `${distance.replace(".", ",")}\u00a0km`;
}

/** An ISO timestamp from the server as Stockholm '2025-08-25 10:03'; the raw text if it does not parse. */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? formatSwedishDateTime(ms) : iso;
}

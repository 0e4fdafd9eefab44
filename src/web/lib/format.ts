/** How the registration screens write numbers, ages, distances and moments (Swedish conventions). */
import { DISTANCES_DESC, type DistanceKm } from "../../shared/distances";
import { formatSwedishDateTime } from "../../shared/stockholm";

/** '1 250 kr' (a non-breaking space between thousands and before kr, so a price never wraps). */
export function formatKr(amount: number): string {
  return `${amount.toLocaleString("sv-SE")}\u00a0kr`;
}

/** '35 år'. */
export function formatAge(age: number): string {
  return `${age}\u00a0år`;
}

/**
 * The distances offered, in the spec's order for the distance choice (5.6, 2.8, 1.6, 0.8); only those given
 * (the ones open for registration). Distances are written with `distanceLabel` ('5,6km', spec §9).
 */
export function inSpecOrder<T extends { distance: DistanceKm }>(distances: readonly T[]): T[] {
  return DISTANCES_DESC.flatMap((d) => distances.filter((x) => x.distance === d));
}

/** An ISO timestamp from the server as Stockholm '2025-08-25 10:03'; the raw text if it does not parse. */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? formatSwedishDateTime(ms) : iso;
}

/**
 * The four distances and the runner groups. The canonical form of a distance is the string in km with a point
 * ('5.6'), as the spec's wire values; everything else (numbers, '5,6', labels, metres) converts to and from it.
 */
import type { DistanceKm } from "./season";

export type { DistanceKm };

/** Ascending: the public tabs and the start times list them short to long. */
export const DISTANCES: readonly DistanceKm[] = ["0.8", "1.6", "2.8", "5.6"];

/** Descending: the spec's order for the admin lists and the distance radio group (5.6, 2.8, 1.6, 0.8). */
export const DISTANCES_DESC: readonly DistanceKm[] = ["5.6", "2.8", "1.6", "0.8"];

/** The same distances as JSON numbers, which older clients send (`distance: 5.6`). */
export type DistanceNumber = 0.8 | 1.6 | 2.8 | 5.6;

/**
 * The distance as canonical '5.6', or null. Accepts the number 5.6 and the strings '5.6', ' 5.6 ', '5,6' and
 * '5.60' (a Swedish keyboard gives a comma), nothing else.
 */
export function toDistance(x: unknown): DistanceKm | null {
  let n: number;
  if (typeof x === "number") n = x;
  else if (typeof x === "string" && /^\s*\d+(?:[.,]\d+)?\s*$/.test(x)) n = Number(x.trim().replace(",", "."));
  else return null;
  return DISTANCES.find((d) => Number(d) === n) ?? null;
}

/**
 * True for one of the four distances in its exact wire form: the string '5.6' or the number 5.6 (spec: "distance:
 * 5.6, 2.8, 1.6 or 0.8"). The narrowed type keeps the number case visible, so store `toDistance(x)`, not `x`.
 * Looser spellings ('5,6') need toDistance.
 */
export function isDistance(x: unknown): x is DistanceKm | DistanceNumber {
  if (typeof x === "string") return (DISTANCES as readonly string[]).includes(x);
  if (typeof x === "number") return toDistance(x) !== null;
  return false;
}

/** Admin list headings: '0,8km', '1,6km', '2,8km', '5,6km' (spec, Swedish decimal comma, no space). */
export function distanceLabel(d: DistanceKm): string {
  return `${d.replace(".", ",")}km`;
}

/** Result and start-list tabs: the distance in tenths divided by 10, then 'K' ('5.6K'). */
export function distanceTabLabel(d: DistanceKm): string {
  return `${distanceTenths(d) / 10}K`;
}

/** 5.6 → 56. Integer maths, so no 5.6 × 10 = 55.99999 surprises. */
export function distanceTenths(d: DistanceKm): number {
  const [whole = "0", tenth = "0"] = d.split(".");
  return Number(whole) * 10 + Number(tenth);
}

/** '0.8' → 800. */
export function distanceMeters(d: DistanceKm): number {
  return distanceTenths(d) * 100;
}

/** 800 → '0.8'; null for a length that is not one of the four distances. */
export function distanceFromMeters(m: number): DistanceKm | null {
  return DISTANCES.find((d) => distanceMeters(d) === m) ?? null;
}

/** Runner groups; 'Ingen' means none (spec). */
export const GROUPS = ["Ingen", "Dam", "Herr"] as const;
export type Group = (typeof GROUPS)[number];

export function isGroup(x: unknown): x is Group {
  return typeof x === "string" && (GROUPS as readonly string[]).includes(x);
}

/** The group in its canonical spelling ('herr ' → 'Herr'); empty or missing means 'Ingen'; null otherwise. */
export function toGroup(x: unknown): Group | null {
  if (x === undefined || x === null) return "Ingen";
  if (typeof x !== "string") return null;
  const trimmed = x.trim().toLowerCase();
  if (trimmed === "") return "Ingen";
  return GROUPS.find((g) => g.toLowerCase() === trimmed) ?? null;
}

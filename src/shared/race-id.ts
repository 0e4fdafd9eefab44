/**
 * Race ids. Admin spec: "part (id shaped race-YYMMDD-NN, e.g. race-250913-08, where NN is the distance in hundreds
 * of metres, padded to two digits). In the older form, part is three dash-separated pieces: the second is the year,
 * the third the distance in tenths of km" (e.g. 'lopp-2019-56'). Two-digit years are 20YY.
 */
import { distanceFromMeters, distanceMeters, toDistance, type DistanceKm } from "./distances";
import { SEASON, type Season } from "./season";
import { isIsoDate } from "./stockholm";

export interface ParsedRaceId {
  /** 'YYYY-MM-DD' */
  date: string;
  meters: number;
  year: number;
}

export interface ParsedLegacyPart {
  year: number;
  /** One of the four distances, or null for an old distance we no longer run. */
  distance: DistanceKm | null;
  tenths: number;
}

/** NN: two digits (08, 56), more only without a leading zero (100 for 10 km). Up to 9 999 × 100 m. */
const RACE_ID = /^race-(\d{2})(\d{2})(\d{2})-(\d{2}|[1-9]\d{2,3})$/;

/** race-YYMMDD-NN for a race on `date` ('YYYY-MM-DD', year 2000–2099) of `meters` (a positive multiple of 100). */
export function raceId(date: string, meters: number): string {
  if (!isIsoDate(date) || !date.startsWith("20")) throw new RangeError(`Ogiltigt datum för lopp: ${date}`);
  if (!Number.isSafeInteger(meters) || meters <= 0 || meters % 100 !== 0 || meters > 999_900) {
    throw new RangeError(`Ogiltig distans i meter: ${meters}`);
  }
  const yymmdd = date.slice(2).replaceAll("-", "");
  return `race-${yymmdd}-${String(meters / 100).padStart(2, "0")}`;
}

/** Null for anything that is not exactly a new-style id of a real date and a positive distance. */
export function parseRaceId(id: unknown): ParsedRaceId | null {
  if (typeof id !== "string") return null;
  const m = RACE_ID.exec(id);
  if (!m) return null;
  const date = `20${m[1]}-${m[2]}-${m[3]}`;
  const hundreds = Number(m[4]);
  if (!isIsoDate(date) || hundreds === 0) return null;
  return { date, meters: hundreds * 100, year: Number(date.slice(0, 4)) };
}

export function isRaceId(id: unknown): id is string {
  return parseRaceId(id) !== null;
}

/** True when the id is exactly the one for this date and distance (a disagreeing id is invalid). */
export function raceIdMatches(id: string, date: string, meters: number): boolean {
  const parsed = parseRaceId(id);
  return parsed !== null && parsed.date === date && parsed.meters === meters;
}

/** The id of a distance's race in a season: race-250913-56 for 5.6 km in 2025. */
export function raceIdForSeason(distance: DistanceKm, season: Season = SEASON): string {
  return raceId(season.raceDay, distanceMeters(distance));
}

/** '<prefix>-<year>-<tenths>', e.g. 'lopp-2019-56'; the year four digits, the tenths a positive integer. */
const LEGACY_PART = /^[A-Za-z0-9_]+-(\d{4})-(\d{1,4})$/;

export function parseLegacyPart(part: unknown): ParsedLegacyPart | null {
  if (typeof part !== "string") return null;
  const m = LEGACY_PART.exec(part);
  if (!m) return null;
  const [year, tenths] = [Number(m[1]), Number(m[2])];
  if (year < 1900 || tenths === 0) return null;
  return { year, tenths, distance: toDistance(tenths / 10) };
}

/** The year of a race id in either format, or null. */
export function partYear(part: unknown): number | null {
  return parseRaceId(part)?.year ?? parseLegacyPart(part)?.year ?? null;
}

/** The distance of a race id in either format, or null when malformed or not one of the four distances. */
export function partDistanceKm(part: unknown): DistanceKm | null {
  const parsed = parseRaceId(part);
  if (parsed) return distanceFromMeters(parsed.meters);
  return parseLegacyPart(part)?.distance ?? null;
}

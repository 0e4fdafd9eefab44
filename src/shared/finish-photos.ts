/**
 * Målfoto (issue 44): a photo of every finish, taken by the timing phone that tapped it, for deciding which bib a time
 * belongs to. The rules both sides use: what a finish photo is, where it is kept, how big it may be, how long.
 *
 * - A tap ('Mål!' or a finish tile) with the camera on keeps three frames: 0 the frame before the one nearest the
 *   press, 1 the nearest, 2 the one after. Each is a JPEG whose longer side is PHOTO_LONG_SIDE px at most (the phone
 *   scales to it; a bib is readable at that size) and at least MIN_PHOTO_SIDE, and at most MAX_PHOTO_BYTES.
 * - Each frame is one object in the R2 bucket `FINISH_PHOTOS`, keyed `{race}/{tap id}/{frame}.jpg` (`photoKey`):
 *   a resend of the same frame is the same key, so nothing is ever stored twice.
 * - A race's photos together are bounded (RACE_PHOTO_BYTES); past it the race refuses more with FULL_MESSAGE.
 * - They are deleted PHOTO_RETENTION_DAYS days after race day (the race's date is in its id), by the cron.
 *
 * Pure: no runtime imports.
 */
import { parseRaceId } from "./race-id";

/** Frames kept per tap: before, nearest, after. */
export const PHOTO_FRAMES = 3;
/** The longer side the phone scales a frame to, px. */
export const PHOTO_LONG_SIDE = 960;
/** Neither side may be smaller than this (a thumbnail is no use for reading a bib). */
export const MIN_PHOTO_SIDE = 120;
/** One frame's JPEG, at most (a 960 px frame at quality 0.7 is 60–150 kB). */
export const MAX_PHOTO_BYTES = 400 * 1024;
/** Every photo of one race together, at most (about 1,000 taps of three frames). */
export const RACE_PHOTO_BYTES = 300 * 1024 * 1024;
/** Days after race day the cron deletes a race's photos. */
export const PHOTO_RETENTION_DAYS = 30;

export const FULL_MESSAGE = "Utrymmet för målfoton i loppet är fullt. Radera målfoton för att ta fler.";

/** The object key of one frame. */
export function photoKey(raceId: string, tapId: string, frame: number): string {
  return `${raceId}/${tapId}/${frame}.jpg`;
}

/** The key prefix of every photo of a race (`delete` and `list` by it). */
export function racePhotoPrefix(raceId: string): string {
  return `${raceId}/`;
}

/** The admin address of one frame (GET, admin session only). */
export function photoUrl(raceId: string, tapId: string, frame: number): string {
  return `/admin/api/races/photo/${encodeURIComponent(raceId)}/${encodeURIComponent(tapId)}/${frame}`;
}

export function isPhotoFrame(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x < PHOTO_FRAMES;
}

/**
 * Whether a race's photos are past their keeping: PHOTO_RETENTION_DAYS whole days after its date (from its id),
 * against `today` ('YYYY-MM-DD', Stockholm). Null for a key prefix that is no race id.
 */
export function photosExpired(raceId: string, today: string): boolean | null {
  const parsed = parseRaceId(raceId);
  if (!parsed) return null;
  const raceDay = Date.parse(`${parsed.date}T00:00:00Z`);
  const day = Date.parse(`${today}T00:00:00Z`);
  return day - raceDay >= PHOTO_RETENTION_DAYS * 86_400_000;
}

/**
 * The width and height of a baseline or progressive JPEG, or null when `bytes` is not one: it must start with the
 * SOI marker, end with EOI, and have a frame header (SOF) before its scan.
 */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  const n = bytes.length;
  if (n < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[n - 2] !== 0xff || bytes[n - 1] !== 0xd9) return null;
  let i = 2;
  while (i + 4 <= n) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (length < 2) return null;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > n) return null;
      const height = (bytes[i + 5]! << 8) | bytes[i + 6]!;
      const width = (bytes[i + 7]! << 8) | bytes[i + 8]!;
      return width > 0 && height > 0 ? { width, height } : null;
    }
    if (marker === 0xda) return null; // a scan before any frame header
    i += 2 + length;
  }
  return null;
}

/** Why an upload is not a finish photo (Swedish, for the 4xx), or null when it is one. */
export function photoProblem(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return "Målfotot saknas.";
  if (bytes.length > MAX_PHOTO_BYTES) return `Målfotot är för stort (högst ${MAX_PHOTO_BYTES / 1024} kB).`;
  const size = jpegSize(bytes);
  if (!size) return "Målfotot är ingen JPEG-bild.";
  const long = Math.max(size.width, size.height);
  if (long > PHOTO_LONG_SIDE || Math.min(size.width, size.height) < MIN_PHOTO_SIDE) {
    return `Målfotot har fel storlek (${size.width}×${size.height}; längsta sidan högst ${PHOTO_LONG_SIDE} px, kortaste minst ${MIN_PHOTO_SIDE} px).`;
  }
  return null;
}

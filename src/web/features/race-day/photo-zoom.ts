/**
 * Two-finger zoom of an enlarged Målfoto (finish-photos.tsx `ZoomablePhoto`), as pure arithmetic: the image is drawn
 * at `translate(x, y) scale(scale)` (transform origin top left) inside a box of its own unzoomed size, which clips it.
 *
 * - A pinch keeps the image point that was under the fingers' midpoint when the pinch began under their midpoint now,
 *   and scales by how far apart the fingers are now against then, within MIN_SCALE–MAX_SCALE.
 * - One finger pans a zoomed image.
 * - The image always covers its box: never smaller than the box, never moved so that an edge shows inside it.
 */

export interface Zoom {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 1;
/** Enough to read a bib across the frame (PHOTO_LONG_SIDE px shown on a phone's ~360 px). */
export const MAX_SCALE = 5;
export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The zoom within its limits: scale within MIN–MAX, the image covering the box. */
export function clampZoom(zoom: Zoom, box: Size): Zoom {
  const scale = clamp(zoom.scale, MIN_SCALE, MAX_SCALE);
  return {
    scale,
    x: clamp(zoom.x, box.width - box.width * scale, 0),
    y: clamp(zoom.y, box.height - box.height * scale, 0),
  };
}

/** Two fingers moved from `from` to `to` (box coordinates) since the pinch began at `start`. */
export function pinch(start: Zoom, from: readonly [Point, Point], to: readonly [Point, Point], box: Size): Zoom {
  const distance = ([a, b]: readonly [Point, Point]) => Math.hypot(b.x - a.x, b.y - a.y);
  const middle = ([a, b]: readonly [Point, Point]): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const before = distance(from);
  const scale = clamp(before > 0 ? (start.scale * distance(to)) / before : start.scale, MIN_SCALE, MAX_SCALE);
  const m0 = middle(from);
  const m1 = middle(to);
  // The image point under the first midpoint, in unzoomed image coordinates.
  const px = (m0.x - start.x) / start.scale;
  const py = (m0.y - start.y) / start.scale;
  return clampZoom({ scale, x: m1.x - px * scale, y: m1.y - py * scale }, box);
}

/** One finger moved by (dx, dy) since the pan began at `start`. */
export function pan(start: Zoom, dx: number, dy: number, box: Size): Zoom {
  return clampZoom({ scale: start.scale, x: start.x + dx, y: start.y + dy }, box);
}

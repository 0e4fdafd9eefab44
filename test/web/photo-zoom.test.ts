/** Målfoto's two-finger zoom as arithmetic (photo-zoom.ts); the gesture itself is tested in Chromium (finish-photos). */
import { describe, expect, it } from "vitest";
import { clampZoom, MAX_SCALE, NO_ZOOM, pan, pinch } from "../../src/web/features/race-day/photo-zoom";

const box = { width: 400, height: 225 };

describe("pinch and pan of an enlarged photo", () => {
  it("fingers twice as far apart: twice the size, the point under their midpoint stays under it", () => {
    const z = pinch(
      NO_ZOOM,
      [
        { x: 150, y: 100 },
        { x: 250, y: 100 },
      ],
      [
        { x: 100, y: 100 },
        { x: 300, y: 100 },
      ],
      box,
    );
    expect(z).toEqual({ scale: 2, x: -200, y: -100 });
    // The image point (200, 100) is drawn at 200·2 − 200 = 200, 100·2 − 100 = 100: where the midpoint is.
  });

  it("the midpoint moving pans as it zooms; a later pinch starts from the zoom it finds", () => {
    const first = pinch(
      NO_ZOOM,
      [
        { x: 50, y: 50 },
        { x: 100, y: 50 },
      ],
      [
        { x: 50, y: 50 },
        { x: 150, y: 50 },
      ],
      box,
    );
    expect(first.scale).toBe(2);
    const second = pinch(
      first,
      [
        { x: 100, y: 60 },
        { x: 200, y: 60 },
      ],
      [
        { x: 50, y: 60 },
        { x: 250, y: 60 },
      ],
      box,
    );
    expect(second.scale).toBe(4);
    const before = { x: (150 - first.x) / first.scale, y: (60 - first.y) / first.scale };
    expect(before.x * second.scale + second.x).toBeCloseTo(150);
    expect(before.y * second.scale + second.y).toBeCloseTo(60);
  });

  it("never beyond the limits: fingers together stop at the whole frame, apart at MAX_SCALE", () => {
    const tiny = pinch(
      NO_ZOOM,
      [
        { x: 0, y: 0 },
        { x: 200, y: 0 },
      ],
      [
        { x: 90, y: 0 },
        { x: 110, y: 0 },
      ],
      box,
    );
    expect(tiny).toEqual(NO_ZOOM);
    const huge = pinch(
      NO_ZOOM,
      [
        { x: 190, y: 100 },
        { x: 210, y: 100 },
      ],
      [
        { x: 0, y: 100 },
        { x: 400, y: 100 },
      ],
      box,
    );
    expect(huge.scale).toBe(MAX_SCALE);
  });

  it("pans a zoomed image, never showing an edge inside the box; an unzoomed image does not move", () => {
    const z = { scale: 2, x: -200, y: -100 };
    expect(pan(z, 50, -20, box)).toEqual({ scale: 2, x: -150, y: -120 });
    expect(pan(z, 500, 500, box)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(pan(z, -900, -900, box)).toEqual({ scale: 2, x: -400, y: -225 });
    expect(pan(NO_ZOOM, 30, 30, box)).toEqual(NO_ZOOM);
    expect(clampZoom({ scale: 0.5, x: 10, y: 10 }, box)).toEqual(NO_ZOOM);
  });
});

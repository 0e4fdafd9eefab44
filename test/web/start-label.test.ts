/** The start label beside its dot on the course map: right, left, or under it, always inside the map. */
import { describe, expect, it } from "vitest";
import { EDGE_MARGIN, LABEL_GAP, startLabelOffset } from "../../src/web/features/courses/start-label";

const MAP = { width: 358, height: 384 };
const LABEL = { width: 200, height: 22 };

/** The label's box in map coordinates. */
function box(dot: { x: number; y: number }, map = MAP, label = LABEL) {
  const o = startLabelOffset(dot, map, label);
  return { left: dot.x + o.left, right: dot.x + o.left + label.width, top: dot.y + o.top, offset: o };
}

describe("startLabelOffset", () => {
  it("right of the dot, centred on it, when it fits", () => {
    expect(startLabelOffset({ x: 100, y: 200 }, MAP, LABEL)).toEqual({ left: LABEL_GAP, top: -11 });
  });

  it("left of the dot when the right side would cut it (the phone case: start right of the middle)", () => {
    const b = box({ x: 240, y: 200 });
    expect(b.offset).toEqual({ left: -LABEL_GAP - 200, top: -11 });
    expect(b.right).toBeLessThanOrEqual(240 - LABEL_GAP);
    expect(b.left).toBeGreaterThanOrEqual(EDGE_MARGIN);
  });

  it("under the dot, kept inside the map, when neither side has room", () => {
    const narrow = { width: 300, height: 384 };
    for (const x of [85, 120, 150, 180, 215]) {
      const b = box({ x, y: 100 }, narrow);
      expect(b.offset.top).toBe(LABEL_GAP);
      expect(b.left).toBeGreaterThanOrEqual(EDGE_MARGIN);
      expect(b.right).toBeLessThanOrEqual(narrow.width - EDGE_MARGIN);
    }
    // Centred where it can be.
    expect(box({ x: 150, y: 100 }, narrow).offset.left).toBe(-100);
  });

  it("over the dot near the bottom edge", () => {
    const b = box({ x: 150, y: 370 }, { width: 300, height: 384 });
    expect(b.offset.top).toBe(-LABEL_GAP - 22);
  });

  it("a label wider than the map starts at the left margin", () => {
    const b = box({ x: 100, y: 100 }, { width: 150, height: 384 });
    expect(b.left).toBe(EDGE_MARGIN);
  });
});

/**
 * Where the map puts the start and finish label ('Start och mål: skolans matsal') beside its dot, as a plain
 * function (map-view.ts measures, this decides): to the right of the dot when it fits inside the map, else to the
 * left, else under the dot (over it near the bottom edge) and moved sideways to stay inside. On a phone the start
 * often lies right of the middle, where a label on the right would be cut at the map's edge.
 */

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The label's top-left corner relative to the dot's centre, in CSS px. */
export interface LabelOffset {
  left: number;
  top: number;
}

/** From the dot's centre to the label: the dot's radius and a little air. */
export const LABEL_GAP = 15;
/** What the label keeps from the map's edges. */
export const EDGE_MARGIN = 6;

export function startLabelOffset(dot: Point, map: Size, label: Size): LabelOffset {
  const middle = -label.height / 2;
  if (dot.x + LABEL_GAP + label.width <= map.width - EDGE_MARGIN) return { left: LABEL_GAP, top: middle };
  if (dot.x - LABEL_GAP - label.width >= EDGE_MARGIN) return { left: -LABEL_GAP - label.width, top: middle };
  // Neither side has room: centred under (or over) the dot, then moved back inside; a label wider than the map
  // starts at its left margin.
  const lowest = EDGE_MARGIN - dot.x;
  const highest = map.width - EDGE_MARGIN - dot.x - label.width;
  const left = Math.max(lowest, Math.min(-label.width / 2, highest));
  const below = dot.y + LABEL_GAP + label.height <= map.height - EDGE_MARGIN;
  return { left, top: below ? LABEL_GAP : -LABEL_GAP - label.height };
}

/**
 * The spectators' live socket, `{wsUrl}/spectate/{raceId}[?since={seq}]` (no sign-in), held by the race's
 * spectator fan-out object, never by the race object. Shared by the fan-out, the race object that feeds it, and
 * the page.
 *
 * - The race object tells the fan-out of each change as a `PublicUpdate`: the public records changed after
 *   `since` (shared/public-view.ts made them, so nothing else can leak), as they are at `seq`. `since` 0 means
 *   every record: the whole view.
 * - The fan-out answers a socket with a `snapshot` when it opens (or, when the page gives the `since` it has and
 *   the fan-out still knows what changed after it, a `delta` from there), then a `delta` per change. A delta's
 *   `since` is the seq the page must have to apply it; a page that has another reconnects for a snapshot.
 * - The page sends nothing. Anything it sends is answered with at most one `error` frame per socket, and changes
 *   nothing.
 */
import {
  assembleView,
  isRemoved,
  type PublicRaceRecord,
  type PublicRaceView,
  type PublicRunnerChange,
} from "./public-view";
import { parseJsonObject } from "./json-object";

export interface PublicUpdate {
  since: number;
  seq: number;
  /** The race record, when it changed after `since` (always when `since` is 0). */
  race?: PublicRaceRecord;
  runners: PublicRunnerChange[];
}

export type SpectatorFrame =
  | { type: "snapshot"; seq: number; view: PublicRaceView }
  | ({ type: "delta" } & PublicUpdate)
  | { type: "error"; error: string };

export const SPECTATOR_NO_MESSAGES = "Den här anslutningen tar inte emot meddelanden.";

/** The socket path under `/api/config`'s wsUrl. */
export function spectateSocketPath(raceId: string, since = 0): string {
  const path = `/spectate/${encodeURIComponent(raceId)}`;
  return since > 0 ? `${path}?since=${since}` : path;
}

/**
 * A delta applied to a view: changed runners replaced (or taken out), the race record replaced when given.
 * The caller checks that the delta follows on from what it has (`since` ≤ its seq).
 */
export function applyUpdate(view: PublicRaceView, update: PublicUpdate): PublicRaceView {
  const [race, ...runners] = view;
  const bySort = new Map(runners.map((r) => [r.sort, r]));
  for (const change of update.runners) {
    if (isRemoved(change)) bySort.delete(change.sort);
    else bySort.set(change.sort, change);
  }
  return assembleView(update.race ?? race, [...bySort.values()]);
}

/** Parses a server frame (the page's side); null for anything that is not one. */
export function parseSpectatorFrame(data: unknown): SpectatorFrame | null {
  const frame = typeof data === "string" ? parseJsonObject(data) : null;
  if (!frame) return null;
  const f = frame as { type?: unknown; seq?: unknown; since?: unknown; view?: unknown; runners?: unknown };
  switch (f.type) {
    case "snapshot":
      return typeof f.seq === "number" && Array.isArray(f.view) && f.view.length > 0 ? (frame as SpectatorFrame) : null;
    case "delta":
      return typeof f.seq === "number" && typeof f.since === "number" && Array.isArray(f.runners)
        ? (frame as SpectatorFrame)
        : null;
    case "error":
      return frame as SpectatorFrame;
    default:
      return null;
  }
}

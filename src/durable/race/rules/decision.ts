/**
 * What a rule answers. A rule decides and writes in one synchronous step (no await between the check and the
 * write, so no other call can land in between); it never touches a socket or D1. The room (room.ts) turns the
 * effects into what the change owes (the changed records as events, the mirrors), and the race object carries it
 * out: the broadcast to the sockets, the D1 mirror of runners and the race.
 */
import type { RaceStore } from "../storage";
import type { ChangeAuthor } from "../types";

export interface Effects {
  /** The race record changed: broadcast it (and mirror it to D1 when `mirrorRace`). */
  race?: boolean;
  /** These runners' records changed (or they left): broadcast them. */
  runners?: readonly string[];
  /** These review items were added, applied, discarded or resolved: broadcast them. */
  reviews?: readonly string[];
  /** These rapid taps (by tap id) changed: broadcast them. */
  slots?: readonly string[];
  /** These typed bibs (by entry id) changed: broadcast them. */
  entries?: readonly string[];
  /** These taps' photos (by tap id) changed: broadcast them (rules/photos.ts). */
  photos?: readonly string[];
  /**
   * Rapid timing is already reconciled with this change (rules/reconcile.ts); otherwise the room reconciles it
   * before broadcasting.
   */
  reconciled?: boolean;
  /** Mirror these runners' race, bib and distance to D1 now (the rule marked what it owes, for the alarm). */
  mirror?: readonly string[];
  /** Mirror the race's state and start to D1 (and tell the hub). */
  mirrorRace?: boolean;
}

export interface Decision<T> {
  value: T;
  effects: Effects;
}

/** What every rule is given: the storage, the moment of the call on the server's clock, and who made it. */
export interface RuleContext {
  store: RaceStore;
  now: number;
  by: ChangeAuthor;
}

export function decided<T>(value: T, effects: Effects = {}): Decision<T> {
  return { value, effects };
}

/** Both changes' effects: every record either names, mirrored if either mirrors. */
export function mergeEffects(a: Effects, b: Effects): Effects {
  const both = (x?: readonly string[], y?: readonly string[]) =>
    x?.length || y?.length ? [...new Set([...(x ?? []), ...(y ?? [])])] : undefined;
  const merged: Effects = {};
  if (a.race || b.race) merged.race = true;
  if (a.mirrorRace || b.mirrorRace) merged.mirrorRace = true;
  if (a.reconciled || b.reconciled) merged.reconciled = true;
  for (const key of ["runners", "reviews", "slots", "entries", "photos", "mirror"] as const) {
    const list = both(a[key], b[key]);
    if (list) merged[key] = list;
  }
  return merged;
}

/**
 * What a rule answers. A rule decides and writes in one synchronous step (no await between the check and the
 * write, so no other call can land in between); it never touches a socket or D1. The object's shell then does
 * what the effects name: broadcast the changed records to the sockets, mirror runners and the race to D1.
 */
import type { RaceStore } from "../storage";
import type { ChangeAuthor } from "../types";

export interface Effects {
  /** The race record changed: broadcast it (and mirror it to D1 when `mirrorRace`). */
  race?: boolean;
  /** These runners' records changed (or they left): broadcast them. */
  runners?: readonly string[];
  /** These review items were added, applied or discarded: broadcast them. */
  reviews?: readonly string[];
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

/**
 * Finish taps that have not reached the server yet. A finish line has patchy coverage: a tap is recorded on the
 * device at once (its moment on the server's clock, an id made here), shown as a finish, and sent when the
 * network lets it. The id makes a resend harmless: the server answers a replayed id with the first result.
 * The queue is kept per race in localStorage, so a reload or a dead battery swap does not lose a finish.
 */
import { ApiError } from "../../lib/api";
import { isTapId, runnerIdFromSort, type RunnerRecord } from "../../../shared/race-protocol";

export interface PendingTap {
  tap: string;
  sort: `runner-${string}`;
  /** The tap's moment on the server's clock, epoch ms. */
  at: number;
  /** The tile already showed this runner as finished: a deliberate new finish time. */
  rerecord: boolean;
}

export type SendResult =
  | { kind: "sent"; runner: RunnerRecord | null }
  /** Not now (no network, server trouble, signed out): keep it and try later. */
  | { kind: "retry"; message: string }
  /** The server refused this tap for good: drop it and tell the user why. */
  | { kind: "rejected"; message: string };

/** 32 hex digits: a v4 UUID without its dashes fits TAP_ID_PATTERN. */
export function makeTapId(randomUUID: () => string = () => crypto.randomUUID()): string {
  return randomUUID().replaceAll("-", "");
}

export function enqueueTap(queue: readonly PendingTap[], tap: PendingTap): PendingTap[] {
  return queue.some((t) => t.tap === tap.tap) ? [...queue] : [...queue, tap];
}

export function withoutTap(queue: readonly PendingTap[], tapId: string): PendingTap[] {
  return queue.filter((t) => t.tap !== tapId);
}

export function withoutRunner(queue: readonly PendingTap[], sort: string): PendingTap[] {
  return queue.filter((t) => t.sort !== sort);
}

/**
 * How a failed send ends. No answer or a 5xx: try again. A 401/403 (the session ran out on the finish line),
 * 408 and 429 are also passing: dropping a finish because someone must sign in again would lose a result.
 * Any other 4xx is the server's considered no (race not started, runner moved, tap in the future).
 */
export function resultOfError(err: unknown): SendResult {
  if (!(err instanceof ApiError)) return { kind: "retry", message: "Något gick fel. Försöker igen." };
  const { status } = err;
  if (status === 0 || status >= 500 || status === 401 || status === 403 || status === 408 || status === 429) {
    return { kind: "retry", message: err.message };
  }
  return { kind: "rejected", message: err.message };
}

/**
 * Sends the queue in order, one tap at a time, reading the live queue before each send (taps made meanwhile are
 * picked up, cancelled ones skipped). Stops at the first tap that must wait; `settle` reports every outcome.
 * Answers 'done' when nothing is left to try, 'paused' when a tap is waiting for a better moment.
 */
export async function flushTaps(
  queue: () => readonly PendingTap[],
  send: (tap: PendingTap) => Promise<SendResult>,
  settle: (tap: PendingTap, result: SendResult) => void,
): Promise<"done" | "paused"> {
  const tried = new Set<string>();
  for (;;) {
    const tap = queue().find((t) => !tried.has(t.tap));
    if (!tap) return "done";
    tried.add(tap.tap);
    const result = await send(tap);
    settle(tap, result);
    if (result.kind === "retry") return "paused";
  }
}

function isPendingTap(x: unknown): x is PendingTap {
  if (typeof x !== "object" || x === null) return false;
  const t = x as Record<string, unknown>;
  return (
    isTapId(t.tap) && runnerIdFromSort(t.sort) !== null && Number.isSafeInteger(t.at) && typeof t.rerecord === "boolean"
  );
}

/** A stored queue; what does not parse (another version, a hand edit) is dropped item by item. */
export function parseStoredTaps(text: string | null): PendingTap[] {
  if (!text) return [];
  try {
    const data: unknown = JSON.parse(text);
    return Array.isArray(data) ? data.filter(isPendingTap) : [];
  } catch {
    return [];
  }
}

const storageKey = (raceId: string) => `race-day:taps:${raceId}`;

export function loadTaps(raceId: string): PendingTap[] {
  try {
    return parseStoredTaps(localStorage.getItem(storageKey(raceId)));
  } catch {
    return [];
  }
}

export function saveTaps(raceId: string, queue: readonly PendingTap[]): void {
  try {
    if (queue.length === 0) localStorage.removeItem(storageKey(raceId));
    else localStorage.setItem(storageKey(raceId), JSON.stringify(queue));
  } catch {
    // Private mode or a full storage: the queue still lives in memory for this page.
  }
}

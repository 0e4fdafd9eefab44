/**
 * The desk's actions ('Hämtat', 'Ångra') that have not reached the server yet. The school's Wi-Fi on race morning
 * is patchy: an action is shown at once, kept in localStorage (a reload loses nothing) and sent in order when the
 * network lets it. Each carries an id made here, so a resend is harmless: the race object answers an id it has
 * seen with 'replayed' and changes nothing. Only the server's considered no (a 4xx other than a lost sign-in,
 * 408 or 429) takes an action out unsent, with the server's message on screen.
 */
import type { DeskFamily, DeskRunner, FamilyKey, PickupRequest } from "../../../../shared/checkin";
import { ApiError } from "../../../lib/api";

export interface PendingPickup extends PickupRequest {
  family: FamilyKey;
}

export type SendOutcome = "sent" | "retry" | "rejected";

const KEY = "checkin:queue";

export function loadQueue(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): PendingPickup[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? (parsed as PendingPickup[]).filter((p) => typeof p?.actionId === "string") : [];
  } catch {
    return [];
  }
}

export function saveQueue(
  queue: readonly PendingPickup[],
  storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage,
) {
  try {
    storage?.setItem(KEY, JSON.stringify(queue));
  } catch {
    // Private mode or full storage: the queue still lives in memory for this page.
  }
}

/** 32 hex digits: fits the race object's action-id pattern (as a tap id). */
export function makeActionId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

export function outcomeOfError(err: unknown): SendOutcome {
  if (!(err instanceof ApiError)) return "retry";
  const { status } = err;
  return status === 0 || status >= 500 || status === 401 || status === 403 || status === 408 || status === 429
    ? "retry"
    : "rejected";
}

/** The family as the desk shows it with an action applied (before the server has answered). */
export function withPickup(family: DeskFamily, ids: readonly string[], pickedUpAt: number | null): DeskFamily {
  const set = new Set(ids);
  return {
    ...family,
    runners: family.runners.map((r) =>
      set.has(r.id) && (pickedUpAt === null || r.pickedUpAt === null) ? { ...r, pickedUpAt } : r,
    ),
  };
}

/** The family with runners as the server answered them. */
export function withRunners(family: DeskFamily, runners: readonly DeskRunner[]): DeskFamily {
  const byId = new Map(runners.map((r) => [r.id, r]));
  return { ...family, runners: family.runners.map((r) => byId.get(r.id) ?? r) };
}

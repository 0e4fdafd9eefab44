/**
 * 'Ångra' in the results is undoable for a few seconds: the runner shows as waiting at once, an undo bar offers
 * 'Ångra', and only when the bar runs out is the undo sent (a stray press on 'Ångra' costs nothing). Pure: the
 * list of undos waiting for their moment.
 */
export const UNDO_WINDOW_MS = 6_000;

export interface PendingUndo {
  sort: string;
  /** Who, as the bar says it ('Ella Berg (200)'). */
  label: string;
  /** When the undo is sent, epoch ms. */
  due: number;
}

/** A new undo for a runner replaces one already waiting for them (the later press wins the bar's time). */
export function addUndo(list: readonly PendingUndo[], sort: string, label: string, now: number): PendingUndo[] {
  return [...list.filter((u) => u.sort !== sort), { sort, label, due: now + UNDO_WINDOW_MS }];
}

export function cancelUndo(list: readonly PendingUndo[], sort: string): PendingUndo[] {
  return list.filter((u) => u.sort !== sort);
}

/** Undos whose time has come, and those still waiting. */
export function splitDue(list: readonly PendingUndo[], now: number): { due: PendingUndo[]; waiting: PendingUndo[] } {
  return { due: list.filter((u) => u.due <= now), waiting: list.filter((u) => u.due > now) };
}

/** When the next undo is due (null: none waits). */
export function nextDue(list: readonly PendingUndo[]): number | null {
  return list.length === 0 ? null : Math.min(...list.map((u) => u.due));
}

export const undoingSorts = (list: readonly PendingUndo[]): ReadonlySet<string> => new Set(list.map((u) => u.sort));

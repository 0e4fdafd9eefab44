/**
 * The tap queues of this tab, one per race, kept in the browser's storage so a reload or a flat battery does not
 * lose a press, and shared with every other tab of the site on this phone.
 *
 * Two tabs of one race (or a race screen and any other admin screen, both sending) share one stored queue. Every
 * write is read-modify-write: the stored copy is read just before, merged with what this tab knows, changed and
 * written back, so a press made in one tab never overwrites one made in another. Tabs do not see each other's
 * writes at once (each has its own copy of storage, updated later), so two writes can still cross: each tab hears
 * the other's write (the `storage` event, passed to `external`) and merges it with what it holds; a press missing
 * from what was stored is written again, a press another tab marked done leaves this tab too. The merge is the same
 * whatever the order (tap-queue.ts), so the tabs end with one queue and every count is right.
 */
import { EMPTY_QUEUE, mergeQueues, parseQueue, serializeQueue, type TapQueue } from "./tap-queue";

/** The part of the Web Storage API this needs (localStorage in the browser; a fake in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

export const QUEUE_KEY_PREFIX = "race-day:taps:";

export const queueKey = (raceId: string) => `${QUEUE_KEY_PREFIX}${raceId}`;

export function raceIdOfKey(key: string | null): string | null {
  return key !== null && key.startsWith(QUEUE_KEY_PREFIX) && key.length > QUEUE_KEY_PREFIX.length
    ? key.slice(QUEUE_KEY_PREFIX.length)
    : null;
}

export class TapQueueStore {
  private readonly memory = new Map<string, { queue: TapQueue; text: string | null }>();
  private readonly listeners = new Set<(raceId: string) => void>();

  /** `storage`: null when the browser gives none (the queues then live as long as the tab). */
  constructor(
    private readonly storage: KeyValueStorage | null,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * This tab's copy of a race's queue; the same object until it changes (a React external store). The first read
   * of a race takes the stored copy and tells no listener (it may run while React renders).
   */
  get(raceId: string): TapQueue {
    const mine = this.memory.get(raceId);
    if (mine) return mine.queue;
    const stored = this.read(raceId);
    this.memory.set(raceId, stored);
    return stored.queue;
  }

  /**
   * Reads the stored copy and merges it with this tab's: what either knows, less what either marked done. Writes
   * the result back when storage lacked something this tab knows (another tab's write crossed ours).
   */
  sync(raceId: string): TapQueue {
    const stored = this.read(raceId);
    const mine = this.memory.get(raceId);
    const merged = mine ? mergeQueues(stored.queue, mine.queue, this.now()) : stored.queue;
    const text = serializeQueue(merged);
    if (text !== stored.text) this.write(raceId, text);
    this.remember(raceId, merged, text);
    return this.get(raceId);
  }

  /** One change, read-modify-write against the stored copy. Answers the queue as it now is. */
  update(raceId: string, change: (queue: TapQueue) => TapQueue): TapQueue {
    const stored = this.read(raceId);
    const mine = this.memory.get(raceId);
    const base = mine ? mergeQueues(stored.queue, mine.queue, this.now()) : stored.queue;
    const next = change(base);
    const text = serializeQueue(next);
    if (text !== stored.text) this.write(raceId, text);
    this.remember(raceId, next, text);
    return this.get(raceId);
  }

  /** Another tab changed a key (the window's `storage` event); a null key means it cleared the storage. */
  external(key: string | null): void {
    if (key === null) {
      for (const raceId of [...this.memory.keys()]) this.sync(raceId);
      return;
    }
    const raceId = raceIdOfKey(key);
    if (raceId !== null) this.sync(raceId);
  }

  /** Every race with a queue here or in storage (another tab's, or one left by an earlier page). */
  raceIds(): string[] {
    const ids = new Set<string>();
    for (const [raceId, { queue }] of this.memory) if (queue.items.length > 0) ids.add(raceId);
    if (this.storage) {
      try {
        for (let i = 0; i < this.storage.length; i++) {
          const raceId = raceIdOfKey(this.storage.key(i));
          if (raceId !== null) ids.add(raceId);
        }
      } catch {
        // Storage refused: what this tab holds is all there is.
      }
    }
    return [...ids].sort();
  }

  /** Called with the race id whenever this tab's copy of its queue changes. */
  subscribe(listener: (raceId: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private read(raceId: string): { queue: TapQueue; text: string | null } {
    if (!this.storage) return { queue: EMPTY_QUEUE, text: null };
    try {
      const text = this.storage.getItem(queueKey(raceId));
      return { queue: parseQueue(text), text };
    } catch {
      // Unreadable storage: this tab's copy stands alone (merging with nothing keeps all of it).
      return { queue: EMPTY_QUEUE, text: null };
    }
  }

  private write(raceId: string, text: string | null): void {
    if (!this.storage) return;
    try {
      if (text === null) this.storage.removeItem(queueKey(raceId));
      else this.storage.setItem(queueKey(raceId), text);
    } catch {
      // Private mode or a full storage: the queue still lives in this tab.
    }
  }

  private remember(raceId: string, queue: TapQueue, text: string | null): void {
    const before = this.memory.get(raceId);
    if (before && before.text === text) return;
    this.memory.set(raceId, { queue, text });
    for (const listener of this.listeners) listener(raceId);
  }
}

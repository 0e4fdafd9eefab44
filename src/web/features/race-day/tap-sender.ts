/**
 * Sends the tap queues of this phone, from whichever admin screen is open (not only the race's own screen).
 *
 * In one tab, one send per race runs at a time; a flush asked for meanwhile runs once more when it ends. Across
 * tabs, the send of a race's queue holds a lock named after the race (Web Locks), so two tabs do not send the
 * same press at once: the second waits, then reads the queue as the first left it. Without Web Locks both may
 * send it; the server answers the replayed tap id with its first answer and changes nothing, and the press is
 * marked done once (the queue's done marks), so nothing is doubled and the count stays right.
 */
import type { TapQueueStore } from "./queue-store";
import { complete, flushQueue, hasSendable, markRefused, type KnownItem, type SendResult } from "./tap-queue";

export type Flushed = "done" | "paused";

export interface TapSenderDeps {
  store: TapQueueStore;
  send: (raceId: string, item: KnownItem) => Promise<SendResult>;
  /** Runs `fn` while no other tab holds `name`. */
  lock: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  now?: () => number;
}

export type ResultListener = (raceId: string, item: KnownItem, result: SendResult) => void;

/** Web Locks where the browser has them, else none (see above: resends are harmless). */
export function browserLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? locks.request(name, () => fn()) : fn();
}

export class TapSender {
  private readonly running = new Map<string, Promise<Flushed>>();
  private readonly again = new Map<string, { includeRefused: boolean }>();
  private readonly listeners = new Set<ResultListener>();
  private readonly now: () => number;

  constructor(private readonly deps: TapSenderDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Sends what waits in one race's queue. `includeRefused`: also try the items the server refused before (on a
   * new page, or when a person asks); otherwise they wait, so a refusal is not repeated every few seconds.
   */
  flush(raceId: string, { includeRefused = false }: { includeRefused?: boolean } = {}): Promise<Flushed> {
    const running = this.running.get(raceId);
    if (running) {
      const wanted = this.again.get(raceId);
      this.again.set(raceId, { includeRefused: includeRefused || (wanted?.includeRefused ?? false) });
      return running;
    }
    // Started on the next microtask, so a flush asked for from inside this one finds it running.
    const run = Promise.resolve()
      .then(() =>
        this.deps.lock(`race-day:send:${raceId}`, () =>
          flushQueue(
            () => this.deps.store.sync(raceId),
            (item) => this.deps.send(raceId, item),
            (item, result) => this.settle(raceId, item, result),
            { includeRefused },
          ),
        ),
      )
      .catch((): Flushed => "paused")
      .then((outcome) => {
        this.running.delete(raceId);
        const again = this.again.get(raceId);
        this.again.delete(raceId);
        // A send that paused (no network) is tried again by the timer, not at once in a loop.
        if (again && outcome === "done") return this.flush(raceId, again);
        return outcome;
      });
    this.running.set(raceId, run);
    return run;
  }

  /** Every race with something to send (a refused item waits for `includeRefused`). */
  flushAll({ includeRefused = false }: { includeRefused?: boolean } = {}): void {
    for (const raceId of this.deps.store.raceIds()) {
      if (includeRefused || hasSendable(this.deps.store.get(raceId))) void this.flush(raceId, { includeRefused });
    }
  }

  onResult(listener: ResultListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private settle(raceId: string, item: KnownItem, result: SendResult): void {
    const now = this.now();
    // Listeners first: the confirmed finish reaches the cache before the press leaves the queue (no flicker).
    for (const listener of this.listeners) listener(raceId, item, result);
    switch (result.kind) {
      case "sent":
      case "review":
        this.deps.store.update(raceId, (q) => complete(q, item.tap, now));
        break;
      case "refused":
        this.deps.store.update(raceId, (q) =>
          markRefused(q, item.tap, { status: result.status, message: result.message, at: now }),
        );
        break;
      case "retry":
        break;
    }
  }
}

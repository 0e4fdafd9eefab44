/**
 * The tap queues in the admin area: one store and one sender per tab, made by the admin shell, so the queues are
 * sent from any admin screen that is open, not only from the race's own screen. Sent on the page's start (refused
 * items too, once), when the browser says it is online, every few seconds while any wait (a phone does not always
 * say when coverage returns), and by the race screen whenever its socket (re)opens. Another tab's changes arrive
 * through the `storage` event. What the server answers is written into the race's cache here, whichever screen is
 * open.
 */
import { useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { Link, useLocation } from "react-router";
import { cacheRapidRecord } from "./api/rapid-timing";
import { cacheRace, cacheRunner } from "./race-cache";
import { TapQueueStore, type KeyValueStorage } from "./queue-store";
import { sendPress } from "./send-press";
import { browserLock, TapSender, type ResultListener } from "./tap-sender";
import { complete, enqueue, knownItems, withoutRunner, type KnownItem, type TapQueue } from "./tap-queue";

const RETRY_EVERY_MS = 5_000;

interface Queues {
  store: TapQueueStore;
  sender: TapSender;
}

const QueuesContext = createContext<Queues | null>(null);

function browserStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function TapQueueProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [queues] = useState<Queues>(() => {
    const store = new TapQueueStore(browserStorage());
    return { store, sender: new TapSender({ store, send: sendPress, lock: browserLock }) };
  });

  useEffect(() => {
    const { store, sender } = queues;
    const stopResults = sender.onResult((raceId, _item, result) => {
      if (result.kind !== "sent") return;
      if (result.runner) cacheRunner(queryClient, raceId, result.runner);
      if (result.race) cacheRace(queryClient, result.race);
      if (result.slot) cacheRapidRecord(queryClient, raceId, result.slot);
      if (result.entry) cacheRapidRecord(queryClient, raceId, result.entry);
    });
    const onStorage = (e: StorageEvent) => {
      if (e.storageArea === null || e.storageArea === window.localStorage) store.external(e.key);
    };
    const onOnline = () => sender.flushAll();
    window.addEventListener("storage", onStorage);
    window.addEventListener("online", onOnline);
    // A new page tries everything once, refused items included (the server may take them now).
    sender.flushAll({ includeRefused: true });
    const timer = setInterval(() => sender.flushAll(), RETRY_EVERY_MS);
    return () => {
      stopResults();
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("online", onOnline);
      clearInterval(timer);
    };
  }, [queues, queryClient]);

  return <QueuesContext.Provider value={queues}>{children}</QueuesContext.Provider>;
}

function useQueues(): Queues {
  const queues = useContext(QueuesContext);
  if (!queues) throw new Error("TapQueueProvider saknas");
  return queues;
}

export interface RaceQueue {
  queue: TapQueue;
  add: (item: KnownItem) => void;
  /** An undo before the server had them: the runner's unsent finish taps leave the queue. */
  cancelRunner: (sort: string) => void;
  /** A person took a refused item out, behind a confirmation. */
  discard: (tap: string) => void;
  /** Send now; `includeRefused` tries the refused items again too. */
  flush: (options?: { includeRefused?: boolean }) => void;
  /** Hears what the server answered to each press of this race. */
  onResult: (listener: ResultListener) => () => void;
}

export function useRaceQueue(raceId: string): RaceQueue {
  const { store, sender } = useQueues();
  const subscribe = useCallback(
    (changed: () => void) => store.subscribe((id) => id === raceId && changed()),
    [store, raceId],
  );
  const queue = useSyncExternalStore(subscribe, () => store.get(raceId));

  const flush = useCallback(
    (options?: { includeRefused?: boolean }) => void sender.flush(raceId, options),
    [sender, raceId],
  );
  const add = useCallback(
    (item: KnownItem) => {
      store.update(raceId, (q) => enqueue(q, item, Date.now()));
      flush();
    },
    [store, raceId, flush],
  );
  const cancelRunner = useCallback(
    (sort: string) => void store.update(raceId, (q) => withoutRunner(q, sort, Date.now())),
    [store, raceId],
  );
  const discard = useCallback(
    (tap: string) => void store.update(raceId, (q) => complete(q, tap, Date.now())),
    [store, raceId],
  );
  const onResult = useCallback(
    (listener: ResultListener) => sender.onResult((id, item, result) => id === raceId && listener(id, item, result)),
    [sender, raceId],
  );
  return { queue, add, cancelRunner, discard, flush, onResult };
}

/** Unsent presses of every race (this tab's and what other tabs stored), for any admin screen. */
function useUnsentByRace(): [string, number][] {
  const { store } = useQueues();
  const [version, setVersion] = useState(0);
  useEffect(() => store.subscribe(() => setVersion((v) => v + 1)), [store]);
  const [counts, setCounts] = useState<[string, number][]>([]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the queue store is an external system (storage, other tabs): its counts are read when it reports a change.
    setCounts(
      store
        .raceIds()
        .map((id): [string, number] => [id, knownItems(store.get(id)).length])
        .filter(([, n]) => n > 0),
    );
  }, [store, version]);
  return counts;
}

/**
 * On every admin screen but the race's own: which races have presses not yet sent, with a link to the race. They
 * are being sent from here too; the race screen shows each one, and any the server refused.
 */
export function UnsentTapsNote() {
  const { pathname } = useLocation();
  const unsent = useUnsentByRace().filter(([raceId]) => pathname !== `/admin/race/${raceId}`);
  if (unsent.length === 0) return null;
  return (
    <p className="unsent-note" role="status">
      Ej skickade tidtagningar:{" "}
      {unsent.map(([raceId, n], i) => (
        <span key={raceId}>
          {i > 0 && ", "}
          <Link to={`/admin/race/${raceId}`}>{raceId}</Link> ({n})
        </span>
      ))}
    </p>
  );
}

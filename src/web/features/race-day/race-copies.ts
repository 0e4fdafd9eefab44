/**
 * What the race screen keeps on the phone and draws from (docs/race-day.md, "Offline"; issue 41).
 *
 * The copies: the last state of each race this phone has opened, as the screen showed it (the GET's answer kept
 * current by the socket), with the moment it was saved and rapid timing's taps and typed bibs (so the slots keep
 * their numbers). Kept in Cache Storage (RACE_SNAPSHOT_CACHE, one entry per race) by the screen (offline-race.tsx).
 * Beside them, the admin worker's copy of GET /api/config (who is signed in, the socket's address, the server's
 * clock: src/web/sw/config-copy.ts). The admin worker deletes both when the browser is no longer signed in as an
 * admin (src/web/sw/worker/admin.ts), and signing out in this browser does (src/web/features/session/logout.ts).
 *
 * The first render from them (`fromPhoneCopies`): a phone that has had the race screen open has on the phone all
 * the screen needs to draw its tiles, so the entry reads the copies before its first render, as it waits for the
 * screens' code (main.tsx), and puts them in the query cache where no answer has come yet; the same GETs go to the
 * network as always (named in the start page), and each answer replaces its copy. This module is in the race
 * screen's own code, so the start page names it and the worker keeps it.
 *
 * A race's copy is put on screen in two ways: before the first render, and when the race cannot be fetched
 * (offline-race.tsx). Either way through `showRaceCopy`, which remembers which copy is on screen, so the screen
 * says so, with its time, until the server's state replaces it: a copy is never shown as live. Two tabs or phones:
 * each saves what it shows; the last save of a race wins, and any of them is a state the server really had.
 */
import { hashKey, type QueryClient } from "@tanstack/react-query";
import type { RaceSnapshot } from "../../../shared/race-protocol";
import { readConfigCopy } from "../../sw/config-copy";
import { ADMIN_DATA_CACHE, FETCHED_AT_HEADER, RACE_SNAPSHOT_CACHE } from "../../sw/names";
import { configQueryOptions, type LoadedConfig } from "../../lib/config/get-config";
import type { RapidRecords } from "./apply-race-events";
import { raceQueryOptions } from "./api/get-race";
import { rapidQueryOptions } from "./api/rapid-timing";

export interface SavedRace {
  savedAt: number;
  snapshot: RaceSnapshot;
  /** Rapid timing's taps and typed bibs as the screen had them (absent in a state saved before they existed). */
  rapid?: RapidRecords;
}

const storageKey = (raceId: string) => `/admin/api/races/get/${encodeURIComponent(raceId)}`;
const hasCacheStorage = () => typeof caches !== "undefined";

const watchers = new Set<() => void>();
const changed = () => watchers.forEach((watcher) => watcher());

/** For useSyncExternalStore: `watcher` runs whenever a copy is saved, comes on screen or leaves it. */
export function watchRaceCopies(watcher: () => void): () => void {
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

export async function saveRace(
  raceId: string,
  snapshot: RaceSnapshot,
  savedAt = Date.now(),
  rapid?: RapidRecords,
): Promise<void> {
  if (!hasCacheStorage()) return;
  const body: SavedRace = rapid ? { savedAt, snapshot, rapid } : { savedAt, snapshot };
  const cache = await caches.open(RACE_SNAPSHOT_CACHE);
  await cache.put(
    storageKey(raceId),
    new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } }),
  );
  changed();
}

export async function loadRace(raceId: string): Promise<SavedRace | null> {
  if (!hasCacheStorage()) return null;
  const res = await caches.match(storageKey(raceId), { cacheName: RACE_SNAPSHOT_CACHE });
  const body: unknown = await res?.json().catch(() => null);
  if (typeof body !== "object" || body === null) return null;
  const { savedAt, snapshot, rapid } = body as Partial<SavedRace>;
  if (typeof savedAt !== "number" || !Array.isArray(snapshot) || snapshot.length === 0) return null;
  const withRapid =
    typeof rapid === "object" && rapid !== null && Array.isArray(rapid.slots) && Array.isArray(rapid.bibs);
  return withRapid ? { savedAt, snapshot, rapid } : { savedAt, snapshot };
}

/** A copy on screen, and when it came there (epoch ms): a write to the race's data after that is newer. */
export interface RaceCopy {
  saved: SavedRace;
  shownAt: number;
}

interface CopyOnScreen {
  copy: RaceCopy;
  /** Stops watching the race's query for the server's answer. */
  stop: () => void;
}

/** The copy on screen per race, per query client (each page has one). */
const onScreen = new WeakMap<QueryClient, Map<string, CopyOnScreen>>();

/**
 * Puts `saved` on screen as the race's data, unless the race has data already (an answer of the server, or the
 * socket's state, is never replaced by a copy). Answers whether it did. Rapid timing's records come with it unless
 * the screen knows some already. From then on the copy is on screen until the race's GET answers (a fetch's answer,
 * not a write of the page's own: a finish confirmed over HTTP changes one runner, not the rest) or the screen
 * forgets it (`forgetRaceCopy`: the socket has brought the server's state).
 */
export function showRaceCopy(queryClient: QueryClient, raceId: string, saved: SavedRace): boolean {
  const { queryKey } = raceQueryOptions(raceId);
  if (queryClient.getQueryData(queryKey)) return false;
  // Dated when it was saved: to react-query as old as it is.
  queryClient.setQueryData(queryKey, saved.snapshot, { updatedAt: saved.savedAt });
  const rapidKey = rapidQueryOptions(raceId).queryKey;
  const known = queryClient.getQueryData(rapidKey);
  if (saved.rapid && !(known && (known.slots.length > 0 || known.bibs.length > 0))) {
    queryClient.setQueryData(rapidKey, saved.rapid, { updatedAt: saved.savedAt });
  }
  let races = onScreen.get(queryClient);
  if (!races) onScreen.set(queryClient, (races = new Map()));
  races.get(raceId)?.stop();
  const hash = hashKey(queryKey);
  const stop = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.query.queryHash !== hash) return;
    if (event.action.type === "success" && !event.action.manual) forgetRaceCopy(queryClient, raceId);
  });
  races.set(raceId, { copy: { saved, shownAt: Date.now() }, stop });
  changed();
  return true;
}

/** The copy on screen for the race (`showRaceCopy`), until the server's state replaced it; otherwise null. */
export function raceCopyOnScreen(queryClient: QueryClient, raceId: string): RaceCopy | null {
  return onScreen.get(queryClient)?.get(raceId)?.copy ?? null;
}

/** The screen no longer shows the copy as such. */
export function forgetRaceCopy(queryClient: QueryClient, raceId: string): void {
  const races = onScreen.get(queryClient);
  const copy = races?.get(raceId);
  if (!copy) return;
  copy.stop();
  races!.delete(raceId);
  changed();
}

const RACE_SCREEN = /^\/admin\/race\/([^/]+)\/?$/;

/**
 * On the race screen's address: its copies into `queryClient`, where the network has not answered yet. A phone
 * without them (never had the worker, signed out) gets nothing here, and the screen waits for the network.
 */
export async function fromPhoneCopies(pathname: string, queryClient: QueryClient): Promise<void> {
  const segment = RACE_SCREEN.exec(pathname)?.[1];
  if (segment === undefined || !hasCacheStorage()) return;
  let raceId: string;
  try {
    raceId = decodeURIComponent(segment);
  } catch {
    return;
  }
  await Promise.all([
    showConfigCopy(queryClient).catch(() => undefined),
    loadRace(raceId).then(
      (saved) => void (saved && showRaceCopy(queryClient, raceId, saved)),
      () => undefined,
    ),
  ]);
}

async function showConfigCopy(queryClient: QueryClient): Promise<void> {
  const copy = await caches.match("/api/config", { cacheName: ADMIN_DATA_CACHE });
  if (!copy) return;
  const fetchedAt = Number(copy.headers.get(FETCHED_AT_HEADER));
  const now = Date.now();
  const config = await readConfigCopy(copy, now);
  // The worker keeps only an admin's config; anything else is not one to draw the admin area from.
  if (config?.isAdmin !== true || typeof config.serverTime !== "number") return;
  const { queryKey } = configQueryOptions();
  if (queryClient.getQueryData(queryKey)) return;
  const loaded = { ...config, serverOffsetMs: config.serverTime - now } as unknown as LoadedConfig;
  // Dated when it was fetched: a copy older than the config's staleTime is fetched again at once.
  queryClient.setQueryData(queryKey, loaded, { updatedAt: fetchedAt });
}

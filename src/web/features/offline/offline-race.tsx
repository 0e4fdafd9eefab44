/**
 * The race screen without a connection (README, "Offline"): the phone keeps the last state of each race it has
 * opened, as the screen showed it (the GET's answer kept current by the socket), and shows it again when the race
 * cannot be fetched: a reload, or a tab the browser dropped, behind the school with no signal. Taps then go into
 * the queue as always (use-tap-queue.ts) and are sent when the network is back.
 *
 * - Kept in Cache Storage (RACE_SNAPSHOT_CACHE, one entry per race) at most every SAVE_EVERY_MS while the state is
 *   live, with the moment it was saved and rapid timing's taps and typed bibs (so the slots keep their numbers); the
 *   admin worker deletes it when the browser is no longer signed in as an
 *   admin (src/web/sw/worker/admin.ts).
 * - Used when the race has no data yet and its GET found no server (no network, or a server in trouble), or has
 *   not answered within FALLBACK_AFTER_MS (a connection that hangs rather than fails). A late answer, or the socket's snapshot once it connects, replaces
 *   it: that is when the notice goes.
 * - Two tabs or phones: each saves what it shows; the last save of a race wins, and any of them is a state the
 *   server really had. A saved state is only ever shown with the notice and its time, never as live.
 */
import { useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { RaceSnapshot } from "../../../shared/race-protocol";
import { stockholmDate, stockholmParts, formatSwedishDateTime } from "../../../shared/stockholm";
import { ApiError } from "../../lib/api";
import { RACE_SNAPSHOT_CACHE } from "../../sw/names";
import type { RapidRecords } from "../race-day/apply-race-events";
import { raceQueryOptions } from "../race-day/api/get-race";
import { rapidQueryOptions, useRapid } from "../race-day/api/rapid-timing";

const SAVE_EVERY_MS = 2_000;
/** As long as the admin worker waits for the network before it answers from its copies (common.ts). */
const FALLBACK_AFTER_MS = 4_000;

interface SavedRace {
  savedAt: number;
  snapshot: RaceSnapshot;
  /** Rapid timing's taps and typed bibs as the screen had them (absent in a state saved before they existed). */
  rapid?: RapidRecords;
}

const storageKey = (raceId: string) => `/admin/api/races/get/${encodeURIComponent(raceId)}`;
const hasCacheStorage = () => typeof caches !== "undefined";

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

export interface OfflineRace {
  /** When the state on screen was saved, while the screen shows a saved state; otherwise null. */
  shownFrom: number | null;
}

/** `live`: the race's socket is connected, so what the screen holds is the server's current state. */
export function useOfflineRace(raceId: string, race: UseQueryResult<RaceSnapshot>, live: boolean): OfflineRace {
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<SavedRace | null>(null);
  const [waitedLong, setWaitedLong] = useState(false);
  const data = race.data;
  const rapid = useRapid(raceId);

  useEffect(() => {
    const timer = setTimeout(() => setWaitedLong(true), FALLBACK_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  // Unreachable: no answer at all (status 0: no network, or the admin worker had none) or a server in trouble. A
  // refusal (404: no such race) is an answer, and the screen shows it as such.
  const reason = race.failureReason;
  const unreachable = reason instanceof ApiError && (reason.status === 0 || reason.status >= 500);
  const failed = unreachable || (waitedLong && !race.isError);
  useEffect(() => {
    if (data || !failed) return;
    let cancelled = false;
    void loadRace(raceId).then((saved) => {
      const { queryKey } = raceQueryOptions(raceId);
      if (cancelled || !saved || queryClient.getQueryData(queryKey)) return;
      queryClient.setQueryData(queryKey, saved.snapshot);
      const rapidKey = rapidQueryOptions(raceId).queryKey;
      const known = queryClient.getQueryData(rapidKey);
      if (saved.rapid && !(known && (known.slots.length > 0 || known.bibs.length > 0))) {
        queryClient.setQueryData(rapidKey, saved.rapid);
      }
      setShown(saved);
    });
    return () => {
      cancelled = true;
    };
  }, [data, failed, queryClient, raceId]);

  // The saved state is on screen until the socket is back and has replaced it with the server's. (A finish the
  // server confirmed over HTTP meanwhile changes one runner, not the rest: still the saved state.)
  if (shown !== null && live && data !== undefined && data !== shown.snapshot) setShown(null);

  // Saved a while after a change (of the race, or of its rapid timing records), with whatever is newest then; never
  // while the saved state is what is shown.
  const pending = useRef<RaceSnapshot | null>(null);
  const rapidNow = () => queryClient.getQueryData(rapidQueryOptions(raceId).queryKey);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!data || shown !== null) return;
    pending.current = data;
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      const snapshot = pending.current;
      pending.current = null;
      if (snapshot) void saveRace(raceId, snapshot, Date.now(), rapidNow()).catch(() => {});
    }, SAVE_EVERY_MS);
  }, [data, rapid, raceId, shown]);
  // Leaving the screen: what it showed last is saved now rather than lost with the timer.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
      if (pending.current) void saveRace(raceId, pending.current, Date.now(), rapidNow()).catch(() => {});
      pending.current = null;
    },
    [raceId],
  );

  return { shownFrom: shown?.savedAt ?? null };
}

function when(savedAt: number): string {
  return stockholmDate(savedAt) === stockholmDate(Date.now())
    ? `kl. ${stockholmParts(savedAt).time}`
    : formatSwedishDateTime(savedAt);
}

/** Says plainly that the race on screen is the one saved on the phone, and since when. */
export function OfflineNotice({ shownFrom }: OfflineRace) {
  if (shownFrom === null) return null;
  return (
    <p className="alert alert-warning offline-notice" role="status">
      <strong>Offline.</strong> Loppet visas som det var {when(shownFrom)}. Starten, måltider och startnummer sparas i
      telefonen och skickas när nätet är tillbaka.
    </p>
  );
}

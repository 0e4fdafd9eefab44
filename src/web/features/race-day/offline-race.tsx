/**
 * The race screen and the phone's copy of its race (docs/race-day.md, "Offline"; the copies: race-copies.ts). The
 * phone keeps the last state of each race it has opened, as the screen showed it, and draws it again at once, and
 * whenever the race cannot be fetched: a reload, or a tab the browser dropped, behind the school with no signal. Taps
 * then go into the queue as always (tap-queue.ts) and are sent when the network is back.
 *
 * - Saved as soon as the screen has the server's state (the phone is then ready to work offline: offline-ready.tsx),
 *   then at most every SAVE_EVERY_MS while it has, and when the screen is left; never while the copy is shown.
 * - On screen before the first render when the phone has a copy (race-copies.ts: `fromPhoneCopies`), and when the
 *   race has no data yet and its GET found no server (no network, or a server in trouble) or has not answered
 *   within FALLBACK_AFTER_MS (a connection that hangs rather than fails).
 * - Always said: while the network may still answer, on the screen's offline line ('Visar loppet som det var
 *   kl. 12:03', offline-ready.tsx), so nothing under a finger moves when it goes; once the GET found no server, or
 *   nothing has come within FALLBACK_AFTER_MS, the notice that the phone is offline and keeps the taps. A copy is
 *   never shown as live.
 * - Replaced by the server's state: the GET's answer, or the socket's snapshot once it connects (a finish the
 *   server confirmed over HTTP meanwhile changes one runner, not the rest: still the copy). A GET refused outright
 *   (404: no such race any more) takes the copy off the screen, which then shows the refusal.
 */
import { hashKey, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { RaceSnapshot } from "../../../shared/race-protocol";
import { stockholmDate, stockholmParts, formatSwedishDateTime } from "../../../shared/stockholm";
import { ApiError } from "../../lib/api";
import { raceQueryOptions } from "./api/get-race";
import { rapidQueryOptions } from "./api/rapid-timing";
import { forgetRaceCopy, loadRace, raceCopyOnScreen, saveRace, showRaceCopy, watchRaceCopies } from "./race-copies";

const SAVE_EVERY_MS = 2_000;
/** As long as the admin worker waits for the network before it answers from its copies (common.ts). */
const FALLBACK_AFTER_MS = 4_000;

export interface OfflineRace {
  /** When the copy on screen was saved, while the screen shows one; otherwise null. */
  shownFrom: number | null;
  /** The copy is on screen and the race found no server, or nothing has come for a while: it is all the phone has. */
  offline: boolean;
}

/** `live`: the race's socket is connected, so what the screen holds is the server's current state. */
export function useOfflineRace(raceId: string, race: UseQueryResult<RaceSnapshot>, live: boolean): OfflineRace {
  const queryClient = useQueryClient();
  const shown = useSyncExternalStore(watchRaceCopies, () => raceCopyOnScreen(queryClient, raceId));
  const [waitedLong, setWaitedLong] = useState(false);
  const data = race.data;

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
      if (!cancelled && saved) showRaceCopy(queryClient, raceId, saved);
    });
    return () => {
      cancelled = true;
    };
  }, [data, failed, queryClient, raceId]);

  // The socket is back and has brought the server's state: a write to the race after the copy came on screen. (Not
  // "other data than the copy": the cache keeps the copy's very objects for an answer equal to it.)
  const updatedAt = race.dataUpdatedAt;
  useEffect(() => {
    if (shown !== null && live && updatedAt > shown.shownAt) forgetRaceCopy(queryClient, raceId);
  }, [shown, live, updatedAt, queryClient, raceId]);
  // Refused outright: the race is not there (any more), whatever the phone kept.
  const refused = race.isError && !unreachable;
  useEffect(() => {
    if (shown === null || !refused) return;
    forgetRaceCopy(queryClient, raceId);
    void queryClient.resetQueries({ queryKey: raceQueryOptions(raceId).queryKey, exact: true });
  }, [shown, refused, queryClient, raceId]);

  // Saved as soon as the screen has the server's state, then a while after each change (of the race, or of its rapid
  // timing records), with whatever is newest then; never while the copy is what is shown. The rapid records are
  // watched in the query cache, not read here: a Målfoto record (three a press with the camera on) then renders the
  // race screen no more than it did before.
  const pending = useRef<RaceSnapshot | null>(null);
  const savedOnce = useRef(false);
  const rapidNow = useCallback(
    () => queryClient.getQueryData(rapidQueryOptions(raceId).queryKey),
    [queryClient, raceId],
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const schedule = useCallback(
    (snapshot: RaceSnapshot) => {
      if (!savedOnce.current) {
        savedOnce.current = true;
        void saveRace(raceId, snapshot, Date.now(), rapidNow()).catch(() => {});
        return;
      }
      pending.current = snapshot;
      timer.current ??= setTimeout(() => {
        timer.current = undefined;
        const newest = pending.current;
        pending.current = null;
        if (newest) void saveRace(raceId, newest, Date.now(), rapidNow()).catch(() => {});
      }, SAVE_EVERY_MS);
    },
    [raceId, rapidNow],
  );
  useEffect(() => {
    if (data && shown === null) schedule(data);
  }, [data, shown, schedule]);
  useEffect(() => {
    if (!data || shown !== null) return;
    const key = hashKey(rapidQueryOptions(raceId).queryKey);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "success" && event.query.queryHash === key) schedule(data);
    });
  }, [data, shown, queryClient, raceId, schedule]);
  // Leaving the screen: what it showed last is saved now rather than lost with the timer.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
      if (pending.current) void saveRace(raceId, pending.current, Date.now(), rapidNow()).catch(() => {});
      pending.current = null;
    },
    [raceId, rapidNow],
  );

  return { shownFrom: shown?.saved.savedAt ?? null, offline: shown !== null && failed };
}

function when(savedAt: number): string {
  return stockholmDate(savedAt) === stockholmDate(Date.now())
    ? `kl. ${stockholmParts(savedAt).time}`
    : formatSwedishDateTime(savedAt);
}

/** Says plainly that the phone is offline with the race as it was saved on the phone, and since when. */
export function OfflineNotice({ shownFrom, offline }: OfflineRace) {
  if (shownFrom === null || !offline) return null;
  return (
    <p className="alert alert-warning offline-notice" role="status">
      <strong>Offline.</strong> Loppet visas som det var {when(shownFrom)}. Starten, måltider och startnummer sparas i
      telefonen och skickas när nätet är tillbaka.
    </p>
  );
}

/** The race on screen is the phone's copy while the network may still answer: one line (offline-ready.tsx). */
export function copyLine({ shownFrom, offline }: OfflineRace): string | null {
  return shownFrom !== null && !offline ? `Visar loppet som det var ${when(shownFrom)}` : null;
}

/**
 * The finish taps of one race on this device: added at once, sent in order in the background, kept in
 * localStorage until the server has them. Sent again when the network or the socket comes back, and every few
 * seconds while any wait (a phone does not always say when coverage returns).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { finishRunner } from "./api/finish-runner";
import { cacheRunner } from "./race-cache";
import {
  enqueueTap,
  flushTaps,
  loadTaps,
  resultOfError,
  saveTaps,
  withoutRunner,
  withoutTap,
  type PendingTap,
  type SendResult,
} from "./tap-queue";

const RETRY_EVERY_MS = 5_000;

export interface TapQueue {
  taps: readonly PendingTap[];
  add: (tap: PendingTap) => void;
  /** Forgets the unsent taps of one runner (an undo before they reached the server). */
  cancelRunner: (sort: string) => void;
  clear: () => void;
  flush: () => void;
}

export function useTapQueue(raceId: string, onRejected: (message: string) => void): TapQueue {
  const queryClient = useQueryClient();
  const [taps, setTaps] = useState<readonly PendingTap[]>(() => loadTaps(raceId));
  const current = useRef(taps);
  const flushing = useRef(false);
  const again = useRef(false);
  const rejected = useRef(onRejected);
  useEffect(() => {
    rejected.current = onRejected;
  });

  const update = useCallback(
    (change: (queue: readonly PendingTap[]) => readonly PendingTap[]) => {
      current.current = change(current.current);
      saveTaps(raceId, current.current);
      setTaps(current.current);
    },
    [raceId],
  );

  const flush = useCallback(() => {
    if (flushing.current) {
      again.current = true;
      return;
    }
    flushing.current = true;
    again.current = false;
    const send = async (tap: PendingTap): Promise<SendResult> => {
      try {
        return { kind: "sent", runner: (await finishRunner(raceId, tap)).runner };
      } catch (err) {
        return resultOfError(err);
      }
    };
    const settle = (tap: PendingTap, result: SendResult) => {
      if (result.kind === "retry") return;
      // The confirmed finish goes into the cache in the same render as the tap leaves the queue: no flicker.
      if (result.kind === "sent" && result.runner) cacheRunner(queryClient, raceId, result.runner);
      update((queue) => withoutTap(queue, tap.tap));
      if (result.kind === "rejected") rejected.current(result.message);
    };
    void flushTaps(() => current.current, send, settle).then((outcome) => {
      flushing.current = false;
      if (again.current && outcome === "done") flush();
    });
  }, [queryClient, raceId, update]);

  useEffect(() => {
    flush();
    const timer = setInterval(() => {
      if (current.current.length > 0) flush();
    }, RETRY_EVERY_MS);
    window.addEventListener("online", flush);
    return () => {
      clearInterval(timer);
      window.removeEventListener("online", flush);
    };
  }, [flush]);

  const add = useCallback(
    (tap: PendingTap) => {
      update((queue) => enqueueTap(queue, tap));
      flush();
    },
    [flush, update],
  );
  const cancelRunner = useCallback((sort: string) => update((queue) => withoutRunner(queue, sort)), [update]);
  const clear = useCallback(() => update(() => []), [update]);

  return { taps, add, cancelRunner, clear, flush };
}

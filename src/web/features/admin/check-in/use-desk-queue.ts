/**
 * The desk's queue as a hook: actions applied to the family on screen at once, sent one at a time in order,
 * again when the network comes back and every few seconds while any wait. Two desks never need to agree with each
 * other: the race objects decide, and a family checked in elsewhere answers 'Redan hämtat'.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { DeskFamily } from "../../../../shared/checkin";
import { familyQueryOptions } from "./api/get-family";
import { sendPickup } from "./api/pick-up";
import {
  loadQueue,
  outcomeOfError,
  saveQueue,
  withPickup,
  withRunners,
  type PendingPickup,
  type SendOutcome,
} from "./desk-queue";

const RETRY_EVERY_MS = 4_000;

export interface DeskQueue {
  pending: readonly PendingPickup[];
  add: (action: PendingPickup) => void;
  flush: () => void;
}

export function useDeskQueue(onRejected: (message: string) => void): DeskQueue {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<readonly PendingPickup[]>(() => loadQueue());
  const current = useRef(pending);
  const busy = useRef(false);
  const rejected = useRef(onRejected);
  useEffect(() => {
    rejected.current = onRejected;
  });

  const update = useCallback((change: (q: readonly PendingPickup[]) => readonly PendingPickup[]) => {
    current.current = change(current.current);
    saveQueue(current.current);
    setPending(current.current);
  }, []);

  const flush = useCallback(() => {
    if (busy.current) return;
    busy.current = true;
    void (async () => {
      while (current.current.length > 0) {
        const action = current.current[0]!;
        const { family, ...request } = action;
        let outcome: SendOutcome;
        let message = "";
        try {
          const answer = await sendPickup(request);
          queryClient.setQueryData(familyQueryOptions(family).queryKey, (old: DeskFamily | undefined) =>
            old ? withRunners(old, answer.runners) : old,
          );
          outcome = "sent";
        } catch (err) {
          outcome = outcomeOfError(err);
          message = err instanceof Error ? err.message : String(err);
        }
        if (outcome === "retry") break;
        update((q) => q.filter((p) => p.actionId !== action.actionId));
        if (outcome === "rejected") {
          rejected.current(message);
          void queryClient.invalidateQueries({ queryKey: familyQueryOptions(family).queryKey });
        }
      }
      busy.current = false;
    })();
  }, [queryClient, update]);

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
    (action: PendingPickup) => {
      const ids = action.runners.map((r) => r.id);
      queryClient.setQueryData(familyQueryOptions(action.family).queryKey, (old: DeskFamily | undefined) =>
        old ? withPickup(old, ids, action.pickedUp ? (action.at ?? Date.now()) : null) : old,
      );
      update((q) => [...q, action]);
      flush();
    },
    [flush, queryClient, update],
  );

  return { pending, add, flush };
}

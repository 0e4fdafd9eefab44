/**
 * A race followed live: the spectators' socket `{wsUrl}/spectate/{raceId}`, held by the race's fan-out object
 * (never the race object). Its snapshot and deltas (shared/spectator-protocol.ts) are written into the race's
 * query cache (get-public-race.ts), so the lists render them like any answer. The page sends nothing.
 *
 * - Open while `enabled` and the tab is visible; closed when the tab is hidden (a phone in a pocket holds no
 *   socket), opened again when it is visible, with the seq the page has, so only what changed comes.
 * - A closed socket is tried again after RECONNECT_DELAY_MS (spec: 5 s) plus up to as much again at random, so a
 *   crowd whose sockets all dropped at once (a deploy) does not come back in the same instant.
 * - A delta that does not follow on from what the page has (it missed one) closes the socket; the next one opens
 *   with the page's seq and brings what is missing.
 * - While it is not open, the list asks `GET /api/races/get/{part}` on its interval instead (the cached view):
 *   `onOpenChange` tells the list.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { PublicRaceView } from "../../../../shared/public-view";
import { RECONNECT_DELAY_MS } from "../../../../shared/race-protocol";
import { applyUpdate, parseSpectatorFrame, spectateSocketPath } from "../../../../shared/spectator-protocol";
import { useConfig } from "../../../lib/config/get-config";
import { publicRaceQueryOptions } from "./public-race-query";

export function useSpectatorSocket(part: string, enabled: boolean, onOpenChange: (open: boolean) => void): void {
  const wsUrl = useConfig().data?.wsUrl;
  const queryClient = useQueryClient();
  const latest = useRef(onOpenChange);
  useEffect(() => {
    latest.current = onOpenChange;
  });
  /** The fan-out's version of the view this page has (kept across reconnects of the same race). */
  const seq = useRef({ part, seq: 0 });

  useEffect(() => {
    if (!enabled || !wsUrl) return;
    if (seq.current.part !== part) seq.current = { part, seq: 0 };
    const { queryKey } = publicRaceQueryOptions(part);
    let stopped = false;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const retryLater = () => {
      clearTimeout(timer);
      if (!stopped && document.visibilityState === "visible") {
        timer = setTimeout(connect, RECONNECT_DELAY_MS * (1 + Math.random()));
      }
    };

    const connect = () => {
      if (stopped || socket) return;
      let ws: WebSocket;
      try {
        ws = new WebSocket(`${wsUrl}${spectateSocketPath(part, seq.current.seq)}`);
      } catch {
        retryLater();
        return;
      }
      socket = ws;
      ws.onopen = () => latest.current(true);
      ws.onmessage = (event) => {
        const frame = parseSpectatorFrame(event.data);
        if (!frame || frame.type === "error") return;
        if (frame.type === "snapshot") {
          // Newer than any answer a poll still on its way could bring.
          void queryClient.cancelQueries({ queryKey });
          queryClient.setQueryData<PublicRaceView>(queryKey, frame.view);
          seq.current.seq = frame.seq;
          return;
        }
        const view = queryClient.getQueryData<PublicRaceView>(queryKey);
        if (!view || frame.since !== seq.current.seq) {
          // Not from what this page has: start again from the seq it has (or a snapshot).
          if (!view) seq.current.seq = 0;
          ws.close();
          return;
        }
        void queryClient.cancelQueries({ queryKey });
        queryClient.setQueryData<PublicRaceView>(queryKey, applyUpdate(view, frame));
        seq.current.seq = frame.seq;
      };
      ws.onclose = () => {
        if (socket === ws) socket = null;
        latest.current(false);
        retryLater();
      };
    };

    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        clearTimeout(timer);
        connect();
      } else {
        clearTimeout(timer);
        socket?.close(1000);
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    if (document.visibilityState === "visible") connect();

    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      const open = socket;
      socket = null;
      open?.close(1000);
      latest.current(false);
    };
  }, [enabled, wsUrl, part, queryClient]);
}

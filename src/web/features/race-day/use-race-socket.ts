/**
 * The live sockets of the race-day screens: `{wsUrl}/race/{raceId}` for one race, `{wsUrl}/races` for the hub.
 * Both subscribe on open with the last seq applied (so a reconnect gets only what it missed), write what arrives
 * into the react-query cache of the matching GET, and reopen RECONNECT_DELAY_MS after a close (spec §4, §9).
 * Over the same socket the page measures how far this device's clock is from the server's: taps and the race
 * clock are on the server's time, and a phone's own clock can be minutes off. Each tap carries the measurement's
 * uncertainty too (`err`), so the server can tell a moment slightly in its future from a wrong one.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ClockOffsetEstimator } from "../../../shared/clock-sync";
import { SESSION_ENDED_CODE } from "../../../shared/object-calls";
import {
  raceSocketPath,
  RACES_SOCKET_PATH,
  RECONNECT_DELAY_MS,
  type RaceClientFrame,
  type RaceEvent,
} from "../../../shared/race-protocol";
import { useConfig } from "../../lib/config/get-config";
import { applyHubEvents, applyRaceEvents, type HelloInfo } from "./apply-race-events";
import { raceQueryOptions } from "./api/get-race";
import { racesQueryOptions } from "./api/get-races";
import { reviewsQueryOptions } from "./api/get-reviews";
import { rapidQueryOptions } from "./api/rapid-timing";
import { noteLiveSeq } from "./race-cache";
import { parseServerFrame } from "../../../shared/race-frames";

export type SocketStatus = "ansluter..." | "socket ansluten" | "socket stängd" | "utloggad: logga in igen";

/** A few samples at once give a usable offset within a second of connecting; then one now and then. */
const FIRST_SYNCS = 5;
const FIRST_SYNC_SPACING_MS = 250;
const SYNC_EVERY_MS = 10_000;
/**
 * A phone that walks out of coverage keeps a socket that looks open and never closes. The server answers every
 * sync, so this long without a word means the connection is gone: drop it and reconnect.
 */
const SILENT_LIMIT_MS = 3 * SYNC_EVERY_MS;

export interface LiveSocket {
  status: SocketStatus;
  /** Now on the server's clock, epoch ms. */
  serverNow: () => number;
  /** How far `serverNow` may be off, whole ms; undefined before the socket has measured. */
  uncertainty: () => number | undefined;
  /** Called whenever the socket (re)opens: the moment to send what waited. */
  onOpen: (listener: () => void) => () => void;
}

interface Handlers {
  since: () => number;
  onEvents: (events: RaceEvent[], hello: HelloInfo | undefined) => void;
}

function useLiveSocket(path: string, handlers: Handlers): LiveSocket {
  const config = useConfig().data;
  const wsUrl = config?.wsUrl;
  const [status, setStatus] = useState<SocketStatus>("ansluter...");
  const [estimator] = useState(() => new ClockOffsetEstimator());
  const fallbackOffset = useRef(0);
  const latest = useRef(handlers);
  const configOffset = config?.serverOffsetMs ?? 0;
  useEffect(() => {
    latest.current = handlers;
    fallbackOffset.current = configOffset;
  });
  const [openListeners] = useState(() => new Set<() => void>());

  useEffect(() => {
    if (!wsUrl) return;
    let stopped = false;
    let socket: WebSocket | null = null;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let syncTimers: ReturnType<typeof setTimeout>[] = [];
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let lastHeard = 0;
    let nextSyncId = 1;
    const sent = new Map<number, number>();
    let hello: HelloInfo | undefined;

    const send = (ws: WebSocket, frame: RaceClientFrame) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
    };
    const sync = (ws: WebSocket) => {
      const id = nextSyncId++;
      const t0 = Date.now();
      sent.set(id, t0);
      // Answers that never came must not pile up.
      if (sent.size > 20) sent.delete(sent.keys().next().value!);
      send(ws, { action: "sync", id, t0 });
    };
    const stopTimers = () => {
      syncTimers.forEach(clearTimeout);
      syncTimers = [];
      clearInterval(heartbeat);
    };
    const closed = (ws: WebSocket, code?: number) => {
      if (socket !== ws) return;
      socket = null;
      stopTimers();
      if (stopped) return;
      // The admin's session ended (logged out, revoked, expired): reconnecting would only be refused again.
      if (code === SESSION_ENDED_CODE) {
        setStatus("utloggad: logga in igen");
        return;
      }
      setStatus("socket stängd");
      reconnect = setTimeout(connect, RECONNECT_DELAY_MS);
    };

    function connect() {
      setStatus("ansluter...");
      hello = undefined;
      const ws = new WebSocket(`${wsUrl}${path}`);
      socket = ws;
      ws.onopen = () => {
        setStatus("socket ansluten");
        lastHeard = Date.now();
        send(ws, { action: "subscribe-to-race", since: latest.current.since() });
        for (let i = 0; i < FIRST_SYNCS; i++) syncTimers.push(setTimeout(() => sync(ws), i * FIRST_SYNC_SPACING_MS));
        heartbeat = setInterval(() => {
          if (Date.now() - lastHeard > SILENT_LIMIT_MS) {
            ws.onclose = null;
            ws.close();
            closed(ws);
          } else sync(ws);
        }, SYNC_EVERY_MS);
        openListeners.forEach((listener) => listener());
      };
      ws.onmessage = (event) => {
        lastHeard = Date.now();
        if (typeof event.data !== "string") return;
        const parsed = parseServerFrame(event.data);
        if (!parsed) return;
        if (parsed.kind === "events") {
          // The first array after a hello answers our subscribe; later ones are live changes.
          const answering = hello;
          hello = undefined;
          latest.current.onEvents(parsed.events, answering);
          return;
        }
        const frame = parsed.frame;
        switch (frame.type) {
          case "hello":
            hello = { seq: frame.seq, snapshot: frame.snapshot };
            break;
          case "sync": {
            const t0 = sent.get(frame.id);
            if (t0 === undefined || t0 !== frame.t0) break;
            sent.delete(frame.id);
            estimator.add(t0, frame.t1, Date.now());
            break;
          }
          case "error":
            console.warn("Racesocketen svarade med fel:", frame.error);
            break;
        }
      };
      ws.onclose = (event) => closed(ws, event.code);
    }

    connect();
    return () => {
      stopped = true;
      clearTimeout(reconnect);
      stopTimers();
      const ws = socket;
      socket = null;
      ws?.close(1000);
    };
  }, [wsUrl, path, estimator, openListeners]);

  // Until the socket has measured, the config's one sample is better than the phone's own clock.
  const serverNow = useCallback(
    () => (estimator.size > 0 ? estimator.toServerTime(Date.now()) : Math.round(Date.now() + fallbackOffset.current)),
    [estimator],
  );
  const uncertainty = useCallback(() => {
    const err = estimator.uncertainty();
    return Number.isFinite(err) ? Math.ceil(err) : undefined;
  }, [estimator]);
  const onOpen = useCallback(
    (listener: () => void) => {
      openListeners.add(listener);
      return () => void openListeners.delete(listener);
    },
    [openListeners],
  );
  return { status, serverNow, uncertainty, onOpen };
}

/**
 * One race, kept in the caches of GET /admin/api/races/get/{raceId}, of its review list
 * (GET /admin/api/races/review/{raceId}) and of its rapid timing records (api/rapid-timing.ts).
 */
export function useRaceSocket(raceId: string): LiveSocket {
  const queryClient = useQueryClient();
  const seq = useRef(0);
  return useLiveSocket(raceSocketPath(raceId), {
    since: () => seq.current,
    onEvents: (events, hello) => {
      const { queryKey } = raceQueryOptions(raceId);
      const reviewsKey = reviewsQueryOptions(raceId).queryKey;
      const snapshot = queryClient.getQueryData(queryKey);
      const reviews = queryClient.getQueryData(reviewsKey);
      const rapidKey = rapidQueryOptions(raceId).queryKey;
      const rapid = queryClient.getQueryData(rapidKey);
      const next = applyRaceEvents(raceId, { snapshot, seq: seq.current, reviews, rapid }, events, hello);
      seq.current = next.seq;
      noteLiveSeq(queryClient, raceId, next.seq);
      // An HTTP answer still on its way was read before these events; it must not land on top of them.
      if (next.snapshot !== snapshot && next.snapshot) {
        void queryClient.cancelQueries({ queryKey });
        queryClient.setQueryData(queryKey, next.snapshot);
      }
      if (next.reviews !== reviews && next.reviews) {
        void queryClient.cancelQueries({ queryKey: reviewsKey });
        queryClient.setQueryData(reviewsKey, [...next.reviews]);
      }
      if (next.rapid !== rapid && next.rapid) {
        void queryClient.cancelQueries({ queryKey: rapidKey });
        queryClient.setQueryData(rapidKey, next.rapid);
      }
    },
  });
}

/** Every race, kept in the cache of GET /admin/api/races. */
export function useHubSocket(): LiveSocket {
  const queryClient = useQueryClient();
  const seq = useRef(0);
  return useLiveSocket(RACES_SOCKET_PATH, {
    since: () => seq.current,
    onEvents: (events, hello) => {
      const { queryKey } = racesQueryOptions();
      const races = queryClient.getQueryData(queryKey);
      const next = applyHubEvents({ races, seq: seq.current }, events, hello);
      seq.current = next.seq;
      if (next.races === races || !next.races) return;
      queryClient.setQueryData(queryKey, next.races);
    },
  });
}

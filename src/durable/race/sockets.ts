/**
 * The race's admin sockets: accept (hibernating), subscribe (a snapshot, or a replay of what changed after the
 * seq the page already has), and broadcast a change's events to every subscribed socket.
 *
 * Identity (who opened the socket) and whether it subscribed live in the socket's attachment, so an evicted
 * object wakes knowing its sockets and an idle race costs nothing.
 */
import { compareRunners, type RaceEvent, type RunnerRecord } from "../../shared/race-protocol";
import { sendFrame } from "../client-frames";
import { raceEvent, runnerEvents, runnerRecord } from "./records";
import type { RaceStore } from "./storage";

const RACE_TAG = "race";

interface SocketState {
  actor: string;
  subscribed: boolean;
}

/** Accepts an upgrade for `actor` (the Worker checked the admin and the origin). */
export function acceptRaceSocket(ctx: DurableObjectState, actor: string): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  ctx.acceptWebSocket(server, [RACE_TAG]);
  server.serializeAttachment({ actor: actor.slice(0, 200) || "okänd", subscribed: false } satisfies SocketState);
  return new Response(null, { status: 101, webSocket: client });
}

/**
 * `subscribe-to-race`: a page that is new, or ahead of the race (the object was reset by hand, or a bad number),
 * gets the whole race; otherwise only the records changed after `since`, in seq order.
 */
export function subscribe(store: RaceStore, ws: WebSocket, since: number): void {
  const socket = socketState(ws);
  if (!socket) return;
  ws.serializeAttachment({ ...socket, subscribed: true } satisfies SocketState);
  const meta = store.requireMeta();
  const latest = store.latestSeq();
  if (since <= 0 || since > latest) {
    sendFrame(ws, { type: "hello", part: meta.part, seq: latest, snapshot: true });
    const runners = store.liveRunnerRows().map((row): RaceEvent & RunnerRecord => ({
      ...runnerRecord(row, meta),
      seq: row.seq,
    }));
    sendFrame(ws, [raceEvent(meta), ...runners.sort(compareRunners)]);
    return;
  }
  const events: RaceEvent[] = [];
  if (meta.seq > since) events.push(raceEvent(meta));
  events.push(...runnerEvents(store, store.changedSince(since)));
  events.sort((a, b) => a.seq - b.seq);
  sendFrame(ws, { type: "hello", part: meta.part, seq: latest, snapshot: false });
  sendFrame(ws, events);
}

/** Sends one array of events to every subscribed socket. */
export function broadcast(ctx: DurableObjectState, events: RaceEvent[]): void {
  if (events.length === 0) return;
  const text = JSON.stringify(events);
  for (const ws of ctx.getWebSockets(RACE_TAG)) {
    if (!socketState(ws)?.subscribed) continue;
    try {
      ws.send(text);
    } catch {
      // A socket closing under us: the phone reconnects and gets what it missed by seq.
    }
  }
}

function socketState(ws: WebSocket): SocketState | null {
  return (ws.deserializeAttachment() as SocketState | null) ?? null;
}

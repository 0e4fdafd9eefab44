/**
 * The race's admin sockets: accept (hibernating), subscribe (a snapshot, or a replay of what changed after the
 * seq the page already has, once the socket's session has passed: src/durable/socket-sessions.ts), and broadcast a
 * change's events to every subscribed socket.
 *
 * Identity (who opened the socket) and whether it subscribed live in the socket's attachment, so an evicted
 * object wakes knowing its sockets and an idle race costs nothing.
 */
import type { RaceEvent } from "../../shared/race-protocol";
import { sendFrame } from "../client-frames";
import {
  closeForEndedSession,
  mayAsk,
  sessionExpired,
  sessionPassed,
  type SessionRecheck,
  type SessionSockets,
  type SocketSession,
  type SubscriberState,
} from "../socket-sessions";
import type { RaceRoom } from "./room";

const RACE_TAG = "race";

interface SocketState extends SubscriberState {
  actor: string;
}

/**
 * Sockets whose subscribe is being answered (their session checked against D1): no broadcast reaches them
 * meanwhile, and the snapshot read after the check has every change made during it. Memory only: the object
 * cannot hibernate while a frame's handler awaits.
 */
const answering = new WeakSet<WebSocket>();

/** Accepts an upgrade for `actor` and its session (the Worker checked the admin and the origin). */
export function acceptRaceSocket(ctx: DurableObjectState, actor: string, session: SocketSession): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  ctx.acceptWebSocket(server, [RACE_TAG]);
  keepSocketState(server, { ...session, actor: actor.slice(0, 200) || "okänd", subscribed: false });
  return new Response(null, { status: 101, webSocket: client });
}

/** The race's admin sockets for the sessions' re-check: all of them, subscribed or not. */
export function raceSessionSockets(ctx: DurableObjectState): SessionSockets {
  return {
    sessions: () => ctx.getWebSockets(RACE_TAG).flatMap((ws) => socketState(ws) ?? []),
    close: (ended) => closeSessions(ctx, ended),
  };
}

/** Closes every socket of these sessions; how many were closed. */
export function closeSessions(ctx: DurableObjectState, sessions: ReadonlySet<string>): number {
  let closed = 0;
  for (const ws of ctx.getWebSockets(RACE_TAG)) {
    const session = socketState(ws)?.session;
    if (session && sessions.has(session)) {
      closeForEndedSession(ws);
      closed += 1;
    }
  }
  return closed;
}

/**
 * `subscribe-to-race`: once the socket's session has passed (socket-sessions.ts), the hello frame, then the whole
 * race or what changed after `since` (the room's `catchUp`), read, sent and the socket marked subscribed in one
 * synchronous step, so it gets every change after its snapshot by broadcast, in seq order. A socket that asks
 * again within RESUBSCRIBE_MS, or while its last subscribe is being answered, gets an error frame instead.
 */
export async function subscribe(
  room: RaceRoom,
  recheck: SessionRecheck,
  ws: WebSocket,
  since: number,
  now: number,
): Promise<void> {
  const socket = socketState(ws);
  if (!socket || !mayAsk(ws, socket, now, answering.has(ws))) return;
  answering.add(ws);
  try {
    if (!(await sessionPassed(ws, socket, recheck, now))) return;
    const { hello, events } = room.catchUp(since);
    keepSocketState(ws, { ...socket, subscribed: true, subscribedAt: now });
    sendFrame(ws, hello);
    sendFrame(ws, events);
  } finally {
    answering.delete(ws);
  }
}

/** Sends one array of events to every subscribed socket whose session is still live (socket-sessions.ts). */
export function broadcast(ctx: DurableObjectState, events: RaceEvent[], now: number): void {
  if (events.length === 0) return;
  const text = JSON.stringify(events);
  for (const ws of ctx.getWebSockets(RACE_TAG)) {
    const state = socketState(ws);
    if (!state?.subscribed || answering.has(ws)) continue;
    if (sessionExpired(state, now)) {
      closeForEndedSession(ws);
      continue;
    }
    try {
      ws.send(text);
    } catch {
      // A socket closing under us: the phone reconnects and gets what it missed by seq.
    }
  }
}

/**
 * Each socket's state as last written, while the object is awake: a broadcast reads every socket's state, and
 * decoding each attachment again on every change costs more than the send. After hibernation the map is empty
 * (and a socket object the runtime hands out anew is not in it): the attachment is read and kept again.
 */
const states = new WeakMap<WebSocket, SocketState>();

/** The attachment (what survives hibernation) and the kept copy, always together. */
function keepSocketState(ws: WebSocket, state: SocketState): void {
  ws.serializeAttachment(state);
  states.set(ws, state);
}

function socketState(ws: WebSocket): SocketState | null {
  const kept = states.get(ws);
  if (kept) return kept;
  const state = (ws.deserializeAttachment() as SocketState | null) ?? null;
  if (state) states.set(ws, state);
  return state;
}

/**
 * The race's admin sockets: accept (hibernating), subscribe (a snapshot, or a replay of what changed after the
 * seq the page already has), and broadcast a change's events to every subscribed socket.
 *
 * Identity (who opened the socket) and whether it subscribed live in the socket's attachment, so an evicted
 * object wakes knowing its sockets and an idle race costs nothing.
 */
import type { RaceEvent } from "../../shared/race-protocol";
import { sendFrame } from "../client-frames";
import { closeForEndedSession, sessionExpired, type SocketSession } from "../socket-sessions";
import type { RaceRoom } from "./room";

const RACE_TAG = "race";

interface SocketState extends SocketSession {
  actor: string;
  subscribed: boolean;
  /** When this socket last got a hello (server clock, ms). */
  subscribedAt?: number;
}

/**
 * A socket asks again (a page that lost track) at most this often; more often it gets one error frame instead of
 * another snapshot, so a socket that sends 100 subscribe frames cannot make the object send 100 snapshots.
 */
const RESUBSCRIBE_MS = 5_000;

/** Accepts an upgrade for `actor` and its session (the Worker checked the admin and the origin). */
export function acceptRaceSocket(ctx: DurableObjectState, actor: string, session: SocketSession): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  ctx.acceptWebSocket(server, [RACE_TAG]);
  keepSocketState(server, { ...session, actor: actor.slice(0, 200) || "okänd", subscribed: false });
  return new Response(null, { status: 101, webSocket: client });
}

/** The sessions of the subscribed sockets (for the re-check against D1). */
export function subscribedSessions(ctx: DurableObjectState): SocketSession[] {
  return ctx.getWebSockets(RACE_TAG).flatMap((ws) => {
    const state = socketState(ws);
    return state?.subscribed ? [state] : [];
  });
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
 * `subscribe-to-race`: the hello frame, then the whole race or what changed after `since` (the room's `catchUp`).
 * A socket that asks again within RESUBSCRIBE_MS gets an error frame instead.
 */
export function subscribe(room: RaceRoom, ws: WebSocket, since: number, now: number): void {
  const socket = socketState(ws);
  if (!socket) return;
  if (socket.subscribed && socket.subscribedAt !== undefined && now - socket.subscribedAt < RESUBSCRIBE_MS) {
    sendFrame(ws, { type: "error", error: "Redan ansluten till loppet. Vänta en stund innan du ansluter igen." });
    return;
  }
  keepSocketState(ws, { ...socket, subscribed: true, subscribedAt: now });
  const { hello, events } = room.catchUp(since);
  sendFrame(ws, hello);
  sendFrame(ws, events);
}

/** Sends one array of events to every subscribed socket whose session is still live (socket-sessions.ts). */
export function broadcast(ctx: DurableObjectState, events: RaceEvent[], now: number): void {
  if (events.length === 0) return;
  const text = JSON.stringify(events);
  for (const ws of ctx.getWebSockets(RACE_TAG)) {
    const state = socketState(ws);
    if (!state?.subscribed) continue;
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

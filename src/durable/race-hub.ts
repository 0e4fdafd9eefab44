/**
 * The race hub's live overview (`{wsUrl}/races`): one object (`RACE_HUB_NAME`) holds the hub pages' hibernating
 * sockets. A page that subscribes gets every race of D1's index as a snapshot; afterwards each race object tells
 * the hub when its state or start changes (after mirroring it to D1), and the hub passes the record on.
 *
 * State: only the sequence counter (SQLite), so events keep increasing across evictions. A missed nudge (the
 * hub call failed) heals when the page reconnects: every subscribe is a snapshot read from D1. Sockets follow the
 * admin's session as a race's do (src/durable/socket-sessions.ts): checked before a snapshot, re-checked before a
 * broadcast, closed at logout; and a socket gets at most one snapshot per RESUBSCRIBE_MS.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "./client-frames";
import { RACE_ACTOR_HEADER } from "../shared/object-calls";
import {
  closeForEndedSession,
  mayAsk,
  SessionRecheck,
  sessionExpired,
  sessionPassed,
  socketSessionFrom,
  type SubscriberState,
} from "./socket-sessions";
import { database } from "../worker/db/client";
import { listRaces, raceRecordFromRow } from "../worker/race-day/races-db";
import { type RaceEvent, type RaceRecord, type RaceServerFrame } from "../shared/race-protocol";
import { clockFromSettings, type Clock } from "../shared/clock";

const HUB_TAG = "hub";

export class RaceHubDO extends DurableObject<Env> {
  private readonly clock: Clock;
  /**
   * Sockets whose subscribe is being answered (their session checked, then their snapshot read from D1), with the
   * changes held back for them meanwhile: sent after the snapshot if the session passes, dropped if not.
   */
  private readonly pending = new Map<WebSocket, RaceEvent[]>();
  /** The sockets' sessions checked against D1 before a snapshot and a broadcast (src/durable/socket-sessions.ts). */
  private readonly sessionRecheck: SessionRecheck;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    this.sessionRecheck = new SessionRecheck(ctx.storage, env, {
      sessions: () => ctx.getWebSockets(HUB_TAG).flatMap((ws) => state(ws) ?? []),
      close: (ended) => this.closeSessions(ended),
    });
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL)",
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** A race object's state or start changed (it is already in D1): every subscribed hub page hears of it. */
  async raceChanged(race: RaceRecord): Promise<void> {
    const now = this.clock.now();
    await this.sessionRecheck.ifDue(now);
    const seq = this.nextSeq();
    const event: RaceEvent = { ...race, seq };
    const text = JSON.stringify([event] satisfies RaceServerFrame);
    for (const ws of this.ctx.getWebSockets(HUB_TAG)) {
      const held = this.pending.get(ws);
      if (held) {
        held.push(event);
        continue;
      }
      const socket = state(ws);
      if (!socket?.subscribed) continue;
      if (sessionExpired(socket, now)) {
        closeForEndedSession(ws);
        continue;
      }
      try {
        ws.send(text);
      } catch {
        // Closing under us; the page reconnects and gets a snapshot.
      }
    }
  }

  /** The admin's logout: every hub socket of that session is closed at once. How many were. */
  async closeSessionSockets(session: string): Promise<number> {
    return this.closeSessions(new Set([session]));
  }

  private closeSessions(sessions: ReadonlySet<string>): number {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets(HUB_TAG)) {
      const session = state(ws)?.session;
      if (session && sessions.has(session)) {
        closeForEndedSession(ws);
        closed += 1;
      }
    }
    return closed;
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [HUB_TAG]);
    server.serializeAttachment({
      ...socketSessionFrom(request, request.headers.get(RACE_ACTOR_HEADER) ?? ""),
      subscribed: false,
    } satisfies SubscriberState);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseClientFrame(message);
    if ("error" in parsed) {
      sendFrame(ws, { type: "error", error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    switch (frame.action) {
      case "subscribe-to-race":
        await this.subscribe(ws, this.clock.now());
        return;
      case "sync":
        sendFrame(ws, { type: "sync", id: frame.id, t0: frame.t0, t1: this.clock.now() });
        return;
      default: {
        const unhandled: never = frame;
        throw new Error(`unhandled frame ${JSON.stringify(unhandled)}`);
      }
    }
  }

  /**
   * Every race of D1's index, once the socket's session has passed (socket-sessions.ts). A socket that asks again
   * within RESUBSCRIBE_MS, or while its last subscribe is being answered, gets an error frame instead.
   */
  private async subscribe(ws: WebSocket, now: number): Promise<void> {
    const socket = state(ws);
    if (!socket || !mayAsk(ws, socket, now, this.pending.has(ws))) return;
    // Numbered before the session's check and the read: every change that reaches the hub after this point
    // carries a higher seq and is held back until the snapshot has gone out, so the page applies it on top and
    // never loses it. (A race object writes D1 before it tells the hub, so a change numbered earlier is in the read.)
    const held: RaceEvent[] = [];
    this.pending.set(ws, held);
    try {
      const seq = this.nextSeq();
      if (!(await sessionPassed(ws, socket, this.sessionRecheck, now))) return;
      ws.serializeAttachment({ ...socket, subscribed: true, subscribedAt: now } satisfies SubscriberState);
      const races = (await listRaces(database(this.env.DB))).map(raceRecordFromRow);
      sendFrame(ws, { type: "hello", part: "races", seq, snapshot: true });
      sendFrame(
        ws,
        races.map((race) => ({ ...race, seq })),
      );
      if (held.length > 0) sendFrame(ws, held);
    } finally {
      this.pending.delete(ws);
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code, reason);
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("race hub socket error", error);
  }

  private nextSeq(): number {
    return this.ctx.storage.sql
      .exec<{ seq: number }>(
        "INSERT INTO counter (id, seq) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET seq = seq + 1 RETURNING seq",
      )
      .one().seq;
  }
}

function state(ws: WebSocket): SubscriberState | null {
  return (ws.deserializeAttachment() as SubscriberState | null) ?? null;
}

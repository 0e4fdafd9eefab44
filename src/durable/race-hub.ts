/**
 * The race hub's live overview (`{wsUrl}/races`): one object (`RACE_HUB_NAME`) holds the hub pages' hibernating
 * sockets. A page that subscribes gets every race of D1's index as a snapshot; afterwards each race object tells
 * the hub when its state or start changes (after mirroring it to D1), and the hub passes the record on.
 *
 * State: only the sequence counter (SQLite), so events keep increasing across evictions. A missed nudge (the
 * hub call failed) heals when the page reconnects: every subscribe is a snapshot read from D1.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "./client-frames";
import { database } from "../worker/db/client";
import { listRaces, raceRecordFromRow } from "../worker/race-day/races-db";
import { type RaceRecord, type RaceServerFrame } from "../shared/race-protocol";
import { clockFromSettings, type Clock } from "../shared/clock";

const HUB_TAG = "hub";

interface SocketState {
  subscribed: boolean;
}

export class RaceHubDO extends DurableObject<Env> {
  private readonly clock: Clock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL)",
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** A race object's state or start changed (it is already in D1): every subscribed hub page hears of it. */
  async raceChanged(race: RaceRecord): Promise<void> {
    const seq = this.nextSeq();
    const text = JSON.stringify([{ ...race, seq }] satisfies RaceServerFrame);
    for (const ws of this.ctx.getWebSockets(HUB_TAG)) {
      if (!state(ws)?.subscribed) continue;
      try {
        ws.send(text);
      } catch {
        // Closing under us; the page reconnects and gets a snapshot.
      }
    }
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [HUB_TAG]);
    server.serializeAttachment({ subscribed: false } satisfies SocketState);
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
      case "subscribe-to-race": {
        ws.serializeAttachment({ subscribed: true } satisfies SocketState);
        // Read before numbering, so a change that lands meanwhile carries a higher seq than this snapshot.
        const races = (await listRaces(database(this.env.DB))).map(raceRecordFromRow);
        const seq = this.nextSeq();
        sendFrame(ws, { type: "hello", part: "races", seq, snapshot: true });
        sendFrame(
          ws,
          races.map((race) => ({ ...race, seq })),
        );
        return;
      }
      case "sync":
        sendFrame(ws, { type: "sync", id: frame.id, t0: frame.t0, t1: this.clock.now() });
        return;
      default: {
        const unhandled: never = frame;
        throw new Error(`unhandled frame ${JSON.stringify(unhandled)}`);
      }
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

function state(ws: WebSocket): SocketState | null {
  return (ws.deserializeAttachment() as SocketState | null) ?? null;
}

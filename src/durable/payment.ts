/**
 * One object per payment (`env.PAYMENT.getByName(payid)`): it parks the payment page's `wait-pay` socket until
 * the payment settles, then answers every socket once and closes it.
 *
 * Sockets hibernate (`acceptWebSocket`); each carries its payid and whether it has been answered in its
 * attachment, and the payment's status and polling schedule live in this object's SQLite, so nothing depends on
 * memory surviving an eviction. While a page waits and the payment is still CREATED, the alarm asks Swish itself
 * (callbacks may never arrive), backing off from 2 s to 30 s, for at most 10 minutes. Settling is the Worker's
 * service, reached by one call (`ctx.exports.ObjectServices.settlePaymentPoll`, src/worker/objects/object-services.ts) that
 * never calls this object back: the object answers its page from the call's result.
 *
 * Bounds (issue 43): one client (IP) holds at most PAYMENT_SOCKETS_PER_CLIENT of the payment's sockets (a Swedish
 * 429 past that; socket-clients.ts); a frame longer than MAX_FRAME_LENGTH is answered with an error and the socket
 * closed (1009) before it is parsed; D1 is read for a settled status at most once per DB_CHECK_MS, however many
 * wait-pay frames arrive.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import {
  isPaymentId,
  isSettledStatus,
  settledFrame,
  type PaymentServerFrame,
  type SettledStatus,
} from "../shared/payment-protocol";
import { database } from "../worker/db/client";
import { findPayment } from "../worker/payments/payments-db";
import { clientAtCap, clientTag, tooManySockets } from "./socket-clients";

const WAIT_TAG = "wait";
/** A payment page's tabs per client (issue 43): a family has a few, a sprayer no more. */
export const PAYMENT_SOCKETS_PER_CLIENT = 5;
/**
 * The only frame is `{"action":"wait-pay","payid":…}` (a payid is at most 100 characters): anything longer is
 * refused unread (issue 43), so no one makes the object parse large frames.
 */
export const MAX_FRAME_LENGTH = 256;
/** D1 is read for a settled status at most this often per object, however many frames arrive. */
export const DB_CHECK_MS = 5_000;
export const POLL_FIRST_MS = 2_000;
export const POLL_FACTOR = 1.5;
export const POLL_MAX_MS = 30_000;
/** Swish gives the payer about 3 minutes; 10 minutes of polling covers slow banks (DS24) with room to spare. */
export const POLL_WINDOW_MS = 10 * 60_000;
/** A page that reconnects (a phone waking up) within this time keeps the polling going. */
export const RECENT_WAIT_MS = 60_000;

type Meta = {
  payid: string | null;
  status: string | null;
  poll_started: number | null;
  poll_delay: number;
  last_wait: number | null;
};

interface SocketState {
  payid: string;
  /** Sent a wait-pay frame. */
  waiting: boolean;
  /** Has had its one answer. */
  answered: boolean;
}

const clientFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("wait-pay"), payid: z.string().min(1).max(100) }),
]);

export class PaymentDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS meta (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        payid TEXT,
        status TEXT,
        poll_started INTEGER,
        poll_delay INTEGER NOT NULL DEFAULT ${POLL_FIRST_MS},
        last_wait INTEGER
      )`,
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Binds this object to its payment (idempotent). */
  async init(payid: string): Promise<void> {
    this.bind(payid);
  }

  /** The settled status this object knows, or null while it waits. */
  async status(): Promise<SettledStatus | null> {
    const status = this.meta().status;
    return isSettledStatus(status) ? status : null;
  }

  /** Called once by whoever settled the payment: every socket gets its answer, once, and is closed. */
  async notifySettled(status: SettledStatus, payid?: string): Promise<void> {
    if (payid) this.bind(payid);
    await this.applySettled(status);
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    const payid = decodeURIComponent(new URL(request.url).pathname.split("/").pop() ?? "");
    if (!isPaymentId(payid)) return Response.json({ error: "Betalningen finns inte" }, { status: 404 });
    const bound = this.meta().payid;
    if (bound && bound !== payid) return Response.json({ error: "Betalningen finns inte" }, { status: 404 });
    const clientSockets = clientTag(request);
    if (clientAtCap(this.ctx, clientSockets, PAYMENT_SOCKETS_PER_CLIENT)) return tooManySockets();
    this.bind(payid);

    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [WAIT_TAG, clientSockets]);
    server.serializeAttachment({ payid, waiting: false, answered: false } satisfies SocketState);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const length = typeof message === "string" ? message.length : message.byteLength;
    if (length > MAX_FRAME_LENGTH) {
      send(ws, { error: "Meddelandet är för stort" });
      try {
        ws.close(1009, "Meddelandet är för stort");
      } catch {
        // Already closing.
      }
      return;
    }
    let data: unknown;
    try {
      data = typeof message === "string" ? JSON.parse(message) : undefined;
    } catch {
      data = undefined;
    }
    const parsed = clientFrame.safeParse(data);
    if (!parsed.success) {
      send(ws, { error: "Okänt meddelande" });
      return;
    }
    const frame = parsed.data;
    switch (frame.action) {
      case "wait-pay":
        await this.waitPay(ws, frame.payid);
        return;
      default: {
        const unhandled: never = frame.action;
        throw new Error(`unhandled frame ${String(unhandled)}`);
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed (the runtime answers the close handshake itself on current compatibility dates).
    }
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("payment socket error", error);
  }

  override async alarm(): Promise<void> {
    const meta = this.meta();
    if (!meta.payid || isSettledStatus(meta.status) || meta.poll_started === null) return;
    const now = Date.now();
    const someoneWaits = this.openSockets().some((ws) => state(ws)?.waiting);
    const recently = meta.last_wait !== null && now - meta.last_wait < RECENT_WAIT_MS;
    if ((!someoneWaits && !recently) || now - meta.poll_started > POLL_WINDOW_MS) {
      // Nobody is looking any more: the cron sweep settles it eventually; a new wait-pay restarts polling.
      this.stopPolling();
      return;
    }

    let status: string | null = null;
    let mismatch = false;
    try {
      const result = await this.ctx.exports.ObjectServices.settlePaymentPoll(meta.payid);
      status = result.status;
      mismatch = Boolean(result.mismatch);
    } catch (err) {
      console.error("payment poll failed", meta.payid, err);
    }
    if (isSettledStatus(status)) {
      // Settled by someone else whose notification did not reach us, or by us: answering again is harmless.
      await this.applySettled(status);
      return;
    }
    if (status === "UNKNOWN" || mismatch) {
      this.stopPolling();
      return;
    }
    const next = Math.min(Math.round(meta.poll_delay * POLL_FACTOR), POLL_MAX_MS);
    this.ctx.storage.sql.exec(`UPDATE meta SET poll_delay = ? WHERE id = 1`, next);
    await this.ctx.storage.setAlarm(Date.now() + next);
  }

  private async waitPay(ws: WebSocket, payid: string): Promise<void> {
    const socket = state(ws);
    const meta = this.meta();
    if (!socket || !meta.payid || payid !== meta.payid) {
      send(ws, { error: "Fel betalning för den här anslutningen" });
      return;
    }
    const known = isSettledStatus(meta.status) ? meta.status : await this.settledInDatabase(meta.payid);
    if (known) {
      await this.applySettled(known);
      return;
    }

    ws.serializeAttachment({ ...socket, waiting: true } satisfies SocketState);
    const now = Date.now();
    if (meta.poll_started === null || now - meta.poll_started > POLL_WINDOW_MS) {
      this.ctx.storage.sql.exec(
        `UPDATE meta SET poll_started = ?, poll_delay = ?, last_wait = ? WHERE id = 1`,
        now,
        POLL_FIRST_MS,
        now,
      );
      await this.ctx.storage.setAlarm(now + POLL_FIRST_MS);
      return;
    }
    this.ctx.storage.sql.exec(`UPDATE meta SET last_wait = ? WHERE id = 1`, now);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + meta.poll_delay);
  }

  /** Stores the outcome and answers each unanswered socket exactly once, then closes it. */
  private async applySettled(status: SettledStatus): Promise<void> {
    this.ctx.storage.sql.exec(
      `INSERT INTO meta (id, status) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, poll_started = NULL`,
      status,
    );
    const frame = settledFrame(status);
    for (const ws of this.openSockets()) {
      const socket = state(ws);
      if (!socket || socket.answered) continue;
      ws.serializeAttachment({ ...socket, answered: true } satisfies SocketState);
      send(ws, frame);
      try {
        ws.close(1000, "Betalningen är avgjord");
      } catch {
        // The page left meanwhile.
      }
    }
    await this.ctx.storage.deleteAlarm();
  }

  /**
   * D1 is the record: a payment settled before this object heard of it is answered at once. Read at most once per
   * DB_CHECK_MS (a memory throttle: after an eviction the next frame reads again), so a socket repeating wait-pay
   * frames does not read D1 per frame; the alarm's polls and the settler's notification answer meanwhile.
   */
  private lastDbCheck = Number.NEGATIVE_INFINITY;

  private async settledInDatabase(payid: string): Promise<SettledStatus | null> {
    const now = Date.now();
    if (now - this.lastDbCheck < DB_CHECK_MS) return null;
    this.lastDbCheck = now;
    const row = await findPayment(database(this.env.DB), payid);
    return row && isSettledStatus(row.status) ? row.status : null;
  }

  private bind(payid: string): void {
    if (!isPaymentId(payid)) throw new Error("Ogiltigt betalnings-id");
    const bound = this.meta().payid;
    if (bound === payid) return;
    if (bound) throw new Error("Objektet hör till en annan betalning");
    this.ctx.storage.sql.exec(
      `INSERT INTO meta (id, payid) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET payid = excluded.payid`,
      payid,
    );
  }

  private meta(): Meta {
    const row = this.ctx.storage.sql
      .exec<Meta>(`SELECT payid, status, poll_started, poll_delay, last_wait FROM meta WHERE id = 1`)
      .toArray()[0];
    return row ?? { payid: null, status: null, poll_started: null, poll_delay: POLL_FIRST_MS, last_wait: null };
  }

  private stopPolling(): void {
    this.ctx.storage.sql.exec(`UPDATE meta SET poll_started = NULL WHERE id = 1`);
  }

  private openSockets(): WebSocket[] {
    return this.ctx.getWebSockets(WAIT_TAG).filter((ws) => ws.readyState === WebSocket.OPEN);
  }
}

function state(ws: WebSocket): SocketState | null {
  return (ws.deserializeAttachment() as SocketState | null) ?? null;
}

function send(ws: WebSocket, frame: PaymentServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // A socket closing under us: the page reconnects and asks again.
  }
}

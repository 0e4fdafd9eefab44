/**
 * Baseline for bench/race-sockets.mjs: the least a Durable Object can do for a race-day broadcast.
 *
 * - `GET /health` → 200 (the benchmark's readiness probe).
 * - `{ws}/ws/{room}`: a hibernating socket (ctx.acceptWebSocket) in the room's object. Any text frame from the
 *   client (the benchmark sends `{action:'subscribe-to-race'}`) is answered `{type:'hello'}`, so the client
 *   knows the object holds its socket.
 * - `GET /tap/{room}?k=v…`: broadcasts `[{k: v, …}]` (seq and finished as numbers, like the race object's events)
 *   to every socket of the room, then answers `{sent}`. Nothing is stored. A POST to the same address (rapid-timing
 *   sends what the race's POST calls get) is the same, its body read by the Worker first, as the race's Worker reads
 *   its calls' JSON before it calls the race object.
 */
import { DurableObject } from "cloudflare:workers";

const NUMERIC = ["seq", "finished"];

export class EchoDO extends DurableObject {
  async fetch(request) {
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const { 0: client, 1: server } = new WebSocketPair();
      this.ctx.acceptWebSocket(server);
      return new Response(null, { status: 101, webSocket: client });
    }
    const event = Object.fromEntries(new URL(request.url).searchParams);
    for (const key of NUMERIC) if (key in event) event[key] = Number(event[key]);
    const text = JSON.stringify([event]);
    let sent = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
        sent += 1;
      } catch {
        // a socket closing under us
      }
    }
    return Response.json({ sent });
  }

  async webSocketMessage(ws) {
    ws.send(JSON.stringify({ type: "hello" }));
  }

  async webSocketClose(ws, code, reason) {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return new Response("ok");
    const m = /^\/(ws|tap)\/([A-Za-z0-9_-]{1,64})$/.exec(pathname);
    if (!m) return new Response("not found", { status: 404 });
    if (request.method === "POST") {
      await request.text();
      return env.ECHO.getByName(m[2]).fetch(request.url);
    }
    return env.ECHO.getByName(m[2]).fetch(request);
  },
};

/**
 * What the socket benchmarks (race-sockets, rapid-timing) share: opening a subscribed socket, timeouts, waiting for
 * deliveries, closing sockets, reading the environment's knobs, and nearest-rank percentiles.
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { sleep } from "./async.mjs";

/** `promise`, or a rejection naming `what` after `ms`. */
export function withTimeout(promise, what, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Inget svar inom ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Waits until `done()` or the performance.now() moment `until`, checking every 20 ms. */
export async function waitUntil(done, until) {
  while (!done() && performance.now() < until) await sleep(Math.min(20, Math.max(0, until - performance.now())));
}

export function parseJson(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { body: String(text).slice(0, 200) };
  }
}

export function closeAll(sockets) {
  for (const socket of sockets ?? []) {
    try {
      socket.ws.close(1000, "bench done");
    } catch {
      // already closing
    }
    setTimeout(() => socket.ws.terminate(), 1_000).unref();
  }
}

export function positiveNumber(value) {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : null;
}

export function positiveInteger(value) {
  const n = positiveNumber(value);
  return n !== null && Number.isInteger(n) ? n : null;
}

/** Nearest-rank percentiles, in ms to one decimal. */
export function stats(values) {
  if (values.length === 0) return { n: 0, p50: null, p95: null, p99: null, max: null, min: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return {
    n: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    p99: round(rank(99)),
    max: round(sorted.at(-1)),
    min: round(sorted[0]),
    mean: round(mean),
  };
}

/** ms to one decimal. */
export function round(ms) {
  return Math.round(ms * 10) / 10;
}

/**
 * Opens one race (or echo) socket and subscribes; resolves once it is subscribed (`target.snapshotAfterHello`:
 * hello and its snapshot frame have arrived; otherwise hello). Every later array frame goes to
 * `onFrame(socket, frame, at)` with `at` = performance.now() first thing in the message handler. `socket.sync(id,
 * t0)` sends one clock sample and resolves `{frame, at}` with its answer.
 */
export function openBenchSocket(target, room, index, onFrame, timeoutMs) {
  const ws = new WebSocket(target.socketUrl(room), { headers: target.socketHeaders });
  const socket = { index, ws, ready: false, tracker: null, errors: [], closed: null, syncs: new Map() };
  socket.sync = (id, t0) =>
    withTimeout(
      new Promise((resolve) => {
        socket.syncs.set(id, resolve);
        ws.send(JSON.stringify({ action: "sync", id, t0 }));
      }),
      `sync på socket ${index}`,
      timeoutMs,
    );
  const opened = new Promise((resolve, reject) => {
    let hello = false;
    const ready = () => {
      socket.ready = true;
      resolve(socket);
    };
    ws.on("open", () => ws.send(JSON.stringify({ action: "subscribe-to-race" })));
    ws.on("message", (data) => {
      const at = performance.now();
      const frame = parseJson(String(data));
      if (Array.isArray(frame)) {
        if (socket.ready) onFrame(socket, frame, at);
        else if (hello) ready();
      } else if (frame?.type === "hello") {
        hello = true;
        if (!target.snapshotAfterHello) ready();
      } else if (frame?.type === "sync") {
        socket.syncs.get(frame.id)?.({ frame, at: Date.now() });
        socket.syncs.delete(frame.id);
      } else {
        socket.errors.push(String(data).slice(0, 200));
      }
    });
    ws.on("error", (err) => {
      socket.errors.push(String(err.message ?? err));
      reject(err);
    });
    ws.once("unexpected-response", (req, res) => {
      reject(new Error(`Sockeln ${target.socketUrl(room)} svarade HTTP ${res.statusCode}`));
      req.destroy();
    });
    ws.on("close", (code) => {
      socket.closed = code;
      if (!socket.ready) reject(new Error(`Sockeln stängdes (${code}) innan den prenumererade`));
    });
  });
  return withTimeout(opened, `socket ${index} till ${room}`, timeoutMs).catch((err) => {
    ws.terminate();
    throw err;
  });
}

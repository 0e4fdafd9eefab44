/**
 * Race day's live sockets under load (the two targets), over loopback against the real server, side by
 * side with a baseline: a minimal Durable Object in its own tiny Worker (bench/echo/) that only holds hibernating
 * sockets and broadcasts what an HTTP call gives it (no storage, no D1, no sign-in), started here on the
 * project's wrangler and stopped at the end.
 *
 * 1. Sustained: 20 admin sockets subscribed to one race; 10 finish taps a second for 60 s (600 taps, each on its
 *    own runner, round-robin over 20 device ids, each with its own tap id and `at` = now on the server's clock).
 *    Figure: for every tap and every socket, the time from sending the HTTP request to that socket receiving the
 *    runner's finish event (matched by sort; finished must be the tap's moment). Also the HTTP answer's latency,
 *    lost deliveries (not within 5 s) and doubled ones (the same runner's event with the same seq twice on one
 *    socket). Target: p95 ≤ 50 ms, none lost.
 * 2. Burst: a fresh race with 50 runners and 5 subscribed sockets; 50 taps (10 from each of 5 devices) whose HTTP
 *    requests all start at once. Figure: from the first send until all 5 sockets have all 50 events. Then
 *    (untimed) GET /admin/api/races/get/{raceId} must show the 50 finished, and every tap id sent again must
 *    answer 'replayed' with the same moment and bring no new socket event. Target: ≤ 1 s, none lost or doubled.
 *
 * The baseline runs the same two scenarios (its runners are made-up sorts; the get and replay checks do not
 * apply). `RACE_BENCH_SECONDS` shortens scenario 1 for a quick check (default 60). The whole benchmark keeps to
 * BUDGET_MS: the sustained phases stop sending early when they would overrun it, and the figures say so.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { bin, NODE, ROOT, toolEnv } from "../scripts/lib/proc.mjs";
import { freePort } from "../scripts/lib/server.mjs";

const SECONDS = positiveNumber(process.env.RACE_BENCH_SECONDS) ?? 60;
const TAPS_PER_SECOND = 10;
const SUSTAINED_SOCKETS = 20;
const BURST_SOCKETS = 5;
const BURST_TAPS_PER_DEVICE = 10;
const BURST_TAPS = BURST_SOCKETS * BURST_TAPS_PER_DEVICE;
/** A socket that has not received a tap's event this long after the tap was sent has lost it. */
const LOST_AFTER_MS = 5_000;
/** After the replayed taps have answered, this long without any new finish event on any socket. */
const REPLAY_QUIET_MS = 1_000;
const TARGET_P95_MS = 50;
/** The sustained figures are also given per window of this many seconds of taps. */
const WINDOW_S = 10;
const TARGET_BURST_MS = 1_000;
/** The whole benchmark, echo server start and stop included. */
const BUDGET_MS = 4 * 60_000;
/** One request, socket answer or echo server start taking longer than this is a failure, not a sample. */
const STEP_TIMEOUT_MS = 20_000;
const ECHO_START_TIMEOUT_MS = 60_000;
/** Parallel add-runner calls while setting up (the race object serialises them anyway). */
const SETUP_CONCURRENCY = 4;
const ECHO_WARMUP_TAPS = 50;
const ADMIN_EMAIL = "arrangor@example.se";
const ECHO_DIR = path.join(ROOT, "bench", "echo");

const LATENCY_DEFINITION =
  "Från starten av HTTP-anropet (performance.now() före fetch) till att sockeln fick löparens målgångshändelse " +
  "(performance.now() först i ws-klientens message-hanterare), en gång per tryck och socket. Innehåller: " +
  "HTTP över loopback till wrangler dev, Workerns routning (för loppet även admin-sessionen och validering), " +
  "anropet till Durable Object (loppet: RPC finish med SQLite-transaktion och audit-rad; ekot: fetch utan " +
  "lagring), JSON för händelsen och sändningen till varje socket, samt Node-klientens mottagning av alla " +
  "sockets i en och samma process.";

export async function run({ baseURL }) {
  const deadline = Date.now() + BUDGET_MS;
  const runId = Date.now().toString(36);
  // Started at once, while the race is being set up (untimed), and ready before any timed phase.
  const echoStarting = startEcho();
  echoStarting.catch(() => {});
  let echo = null;
  try {
    const race = await raceTarget(baseURL, runId);
    const taps = Math.round(SECONDS * TAPS_PER_SECOND);
    const sustainedMs = (taps / TAPS_PER_SECOND) * 1_000;

    const raceSustained = await sustained(race, {
      taps,
      // Leaves room for the echo's sustained phase, both bursts and the drains.
      stopSendingAt: deadline - (sustainedMs + 45_000),
    });
    const raceBurst = await burst(race);

    let echoFigures;
    try {
      echo = await echoStarting;
      const echoTarget = echoTargetFor(echo.baseURL, runId);
      const warmupMs = await warmUpEcho(echoTarget);
      const echoSustained = await sustained(echoTarget, { taps, stopSendingAt: deadline - 15_000 });
      const echoBurst = await burst(echoTarget);
      echoFigures = { sustained: echoSustained, burst: echoBurst, startMs: echo.startMs, warmupMs };
    } catch (err) {
      echoFigures = { error: String(err.stack ?? err), output: echo?.output() ?? null };
    }

    const figures = {
      method: {
        transport: "loopback, wrangler dev (lokal workerd) för både sajten och eko-Workern",
        timer: "performance.now() i Node-klienten; alla sockets och HTTP-anrop i samma process",
        latencyDefinition: LATENCY_DEFINITION,
        lostAfterMs: LOST_AFTER_MS,
        seconds: SECONDS,
        tapsPerSecond: TAPS_PER_SECOND,
        sustainedSockets: SUSTAINED_SOCKETS,
        burstSockets: BURST_SOCKETS,
        burstTaps: BURST_TAPS,
        targets: { sustainedP95Ms: TARGET_P95_MS, sustainedLost: 0, burstMs: TARGET_BURST_MS, burstLostOrDoubled: 0 },
        baseline:
          "bench/echo: en Durable Object med viloläges-sockets (ctx.acceptWebSocket) som bara sänder ut det " +
          "GET /tap ger den; ingen lagring, ingen D1, ingen inloggning.",
      },
      race: { sustained: raceSustained, burst: raceBurst },
      echo: echoFigures,
    };
    return { figures, summary: summarize(figures) };
  } finally {
    echo ??= await echoStarting.catch(() => null);
    await echo?.stop();
  }
}

// ——— the two scenarios, for either target ———

/**
 * Scenario 1: `taps` taps at TAPS_PER_SECOND on their own schedule (a slow answer does not delay the next tap),
 * round-robin over SUSTAINED_SOCKETS devices, each tap on its own runner.
 */
async function sustained(target, { taps, stopSendingAt }) {
  const loadAverage1m = load();
  const prepared = await target.prepare("sustained", taps);
  const tracker = newTracker(SUSTAINED_SOCKETS);
  const sockets = await openSockets(target, prepared.room, SUSTAINED_SOCKETS, tracker);
  try {
    const offset = await target.clockOffset(sockets[0]);
    const requests = [];
    const interval = 1_000 / TAPS_PER_SECOND;
    const t0 = performance.now();
    let cutShort = false;
    for (let i = 0; i < taps; i++) {
      await sleep(t0 + i * interval - performance.now());
      if (Date.now() > stopSendingAt) {
        cutShort = true;
        break;
      }
      const tap = newTap(tracker, prepared, i, `bench-dev-${String(i % SUSTAINED_SOCKETS).padStart(2, "0")}`);
      requests.push(fire(target, prepared.room, tap, offset));
    }
    const sendSpanMs = performance.now() - t0;
    await Promise.all(requests);
    const last = tracker.taps.at(-1);
    await waitFor(() => tracker.delivered === tracker.expected, (last?.sentAt ?? 0) + LOST_AFTER_MS);
    return {
      ...deliveryFigures(tracker),
      planned: taps,
      cutShort,
      loadAverage1m,
      sendSpanMs: round(sendSpanMs),
      clockOffsetMs: offset,
      socketErrors: socketErrors(sockets),
      p95PerWindowMs: windows(tracker.taps, WINDOW_S * TAPS_PER_SECOND),
      perTap: {
        columns: ["httpMs", "firstSocketMs", "lastSocketMs"],
        samples: tracker.taps.map((tap) => {
          const got = arrivalsMs(tap);
          return [round(tap.httpAt - tap.sentAt), got.length ? round(Math.min(...got)) : null, lastOrNull(tap)];
        }),
      },
    };
  } finally {
    closeAll(sockets);
  }
}

/** Scenario 2: BURST_TAPS taps whose requests all start at once, then the target's own checks. */
async function burst(target) {
  const loadAverage1m = load();
  const prepared = await target.prepare("burst", BURST_TAPS);
  const tracker = newTracker(BURST_SOCKETS);
  const sockets = await openSockets(target, prepared.room, BURST_SOCKETS, tracker);
  try {
    const offset = await target.clockOffset(sockets[0]);
    const taps = Array.from({ length: BURST_TAPS }, (_, i) =>
      newTap(tracker, prepared, i, `bench-burst-${Math.floor(i / BURST_TAPS_PER_DEVICE)}`),
    );
    const t0 = performance.now();
    const requests = taps.map((tap) => fire(target, prepared.room, tap, offset));
    await Promise.all(requests);
    const allAnsweredMs = Math.max(...taps.map((tap) => tap.httpAt)) - t0;
    await waitFor(() => tracker.delivered === tracker.expected, t0 + LOST_AFTER_MS);
    const complete = tracker.delivered === tracker.expected;
    const allArrived = Math.max(...taps.flatMap((tap) => tap.arrivals.filter((a) => a !== null)));
    const figures = {
      ...deliveryFigures(tracker),
      firstSendToAllDeliveredMs: complete ? round(allArrived - t0) : null,
      firstSendToAllAnsweredMs: round(allAnsweredMs),
      loadAverage1m,
      socketErrors: socketErrors(sockets),
    };
    if (target.check) figures.checks = await target.check(prepared, taps, tracker, offset);
    return figures;
  } finally {
    closeAll(sockets);
  }
}

// ——— targets ———

/** The site: admin sign-in, races made through the admin API, taps through the spec's finish call. */
async function raceTarget(baseURL, runId) {
  const login = await fetch(`${baseURL}/admin/api/dev-login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-loppet-client": "1" },
    body: JSON.stringify({ email: ADMIN_EMAIL }),
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  if (login.status !== 200) throw new Error(`dev-login svarade ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0].trim())
    .filter((pair) => pair.includes("="))
    .join("; ");
  if (!cookie) throw new Error("dev-login satte ingen kaka");
  const config = await (await admin("GET", "/api/config")).json();
  if (typeof config.wsUrl !== "string") throw new Error("/api/config gav ingen wsUrl");
  if (!config.isAdmin) throw new Error("/api/config säger att kakan från dev-login inte är admin");

  async function admin(method, pathname, body) {
    return fetch(baseURL + pathname, {
      method,
      headers: {
        "x-loppet-client": "1",
        ...(cookie ? { cookie } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
  }
  async function adminJson(method, pathname, body, expected = [200]) {
    const res = await admin(method, pathname, body);
    const text = await res.text();
    if (!expected.includes(res.status)) {
      throw new Error(`${method} ${pathname} ${body ? JSON.stringify(body) + " " : ""}svarade ${res.status}: ${text}`);
    }
    return { status: res.status, json: parseJson(text) };
  }

  // A far-future date of its own per run (from 2060 on, picked by the minute of the run), one distance per scenario.
  const day = Math.floor(Date.now() / 60_000) % 9_000;
  const distances = { sustained: 5_600, burst: 5_700 };

  return {
    name: "race",
    snapshotAfterHello: true,
    socketUrl: (room) => `${config.wsUrl}/race/${encodeURIComponent(room)}`,
    socketHeaders: { cookie, origin: baseURL },

    /** A started race with `runners` runners of its own; its id is the room. */
    async prepare(scenario, runners) {
      let room = null;
      for (let attempt = 0; attempt < 5 && !room; attempt++) {
        const date = isoDate(Date.UTC(2060, 0, 1) + (day + attempt) * 86_400_000);
        const distance = distances[scenario];
        const id = `race-${date.slice(2).replaceAll("-", "")}-${String(distance / 100).padStart(2, "0")}`;
        const made = await adminJson(
          "POST",
          `/admin/api/races/create-race/${id}`,
          { date, distance, openForReg: false },
          [200, 409],
        );
        if (made.status === 200) room = id;
      }
      if (!room) throw new Error("Kunde inte skapa något lopp (alla datum upptagna)");
      const sorts = new Array(runners);
      let next = 0;
      const worker = async () => {
        while (next < runners) {
          const i = next++;
          const { json } = await adminJson("POST", `/admin/api/races/add-runner/${room}`, {
            firstname: `Bänk${i + 1}`,
            lastname: `Löpare ${runId}`,
            age: 30 + (i % 40),
            bib: i + 1,
            group: "Ingen",
            company: "",
          });
          if (typeof json?.sort !== "string") throw new Error(`add-runner gav ingen sort: ${JSON.stringify(json)}`);
          sorts[i] = json.sort;
        }
      };
      await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
      await adminJson("GET", `/admin/api/races/start/${room}`);
      return { room, sorts, runId: `${runId}${scenario[0]}` };
    },

    /** The spec's NTP-style sync frames on one socket; the offset from the sample with the shortest round trip. */
    async clockOffset(socket) {
      let best = null;
      for (let id = 1; id <= 5; id++) {
        const t0 = Date.now();
        const { frame, at } = await socket.sync(id, t0);
        const t2 = at;
        if (!best || t2 - t0 < best.rtt) best = { rtt: t2 - t0, offset: frame.t1 - (t0 + t2) / 2 };
      }
      return Math.round(best.offset);
    },

    tapUrl(room, tap) {
      const query = new URLSearchParams({ tap: tap.id, at: String(tap.at), device: tap.device });
      return `${baseURL}/admin/api/races/finish/${room}/${tap.sort}?${query}`;
    },
    httpHeaders: { cookie, "x-loppet-client": "1" },
    answerOk: (tap) => tap.status === 200 && tap.body?.outcome === "recorded" && tap.body?.finished === tap.at,

    /** GET shows every runner finished at its tap's moment; every tap id again answers 'replayed' and changes nothing. */
    async check(prepared, taps, tracker, offset) {
      const before = await adminJson("GET", `/admin/api/races/get/${prepared.room}`);
      const finishedAsTapped = countFinishedAsTapped(before.json, taps);
      const eventsBefore = tracker.events;
      const replays = taps.map((tap) => ({ ...tap, arrivals: [], seqs: [] }));
      await Promise.all(replays.map((tap) => fire(this, prepared.room, tap, offset, { keepAt: true })));
      await waitFor(() => false, performance.now() + REPLAY_QUIET_MS);
      const after = await adminJson("GET", `/admin/api/races/get/${prepared.room}`);
      return {
        getFinished: finishedAsTapped,
        getRunners: Array.isArray(before.json) ? before.json.length - 1 : null,
        replay: {
          answered: replays.length,
          replayed: replays.filter((t) => t.status === 200 && t.body?.outcome === "replayed").length,
          sameMoment: replays.filter((t) => t.body?.finished === t.at).length,
          outcomes: countBy(replays.map((t) => (t.status === 200 ? t.body?.outcome : `HTTP ${t.status}`))),
          firstError: firstError(
            replays,
            (t) => t.status === 200 && t.body?.outcome === "replayed" && t.body?.finished === t.at,
          ),
          newSocketEvents: tracker.events - eventsBefore,
          raceUnchanged: JSON.stringify(before.json) === JSON.stringify(after.json),
        },
      };
    },
  };
}

/** The baseline: made-up runner sorts, one room (object) per scenario, the payload given in the query. */
function echoTargetFor(echoBaseURL, runId) {
  const wsBase = echoBaseURL.replace(/^http/, "ws");
  return {
    name: "echo",
    snapshotAfterHello: false,
    socketUrl: (room) => `${wsBase}/ws/${room}`,
    socketHeaders: {},
    async prepare(scenario, runners) {
      const tag = `${runId}${scenario[0]}`;
      const sorts = Array.from({ length: runners }, (_, i) => `runner-bench-${tag}-${i + 1}`);
      return { room: `${runId}-${scenario}`, sorts, runId: tag };
    },
    async clockOffset() {
      return 0;
    },
    tapUrl(room, tap) {
      const query = new URLSearchParams({
        type: "runner",
        sort: tap.sort,
        finished: String(tap.at),
        seq: String(tap.index + 1),
        tap: tap.id,
        device: tap.device,
      });
      return `${echoBaseURL}/tap/${room}?${query}`;
    },
    httpHeaders: {},
    answerOk: (tap) => tap.status === 200 && typeof tap.body?.sent === "number",
  };
}

// ——— taps and deliveries ———

function newTracker(sockets) {
  return {
    sockets,
    taps: [],
    bySort: new Map(),
    expected: 0,
    delivered: 0,
    /** Every runner finish event received after subscribing, matched or not. */
    events: 0,
    doubled: 0,
    /** The same runner's finish event again with another seq (a second finish: none is expected). */
    extra: 0,
    /** A finish event for a runner no tap was sent for. */
    stray: 0,
    /** An event whose `finished` is not the tap's moment. */
    finishedMismatch: 0,
  };
}

function newTap(tracker, prepared, index, device) {
  const tap = {
    index,
    sort: prepared.sorts[index],
    id: `bench-${prepared.runId}-${index}`,
    device,
    at: null,
    sentAt: null,
    httpAt: null,
    status: null,
    body: null,
    arrivals: new Array(tracker.sockets).fill(null),
    seqs: Array.from({ length: tracker.sockets }, () => new Set()),
  };
  tracker.taps.push(tap);
  tracker.bySort.set(tap.sort, tap);
  tracker.expected += tracker.sockets;
  return tap;
}

/** Sends one tap; resolves (never rejects) once the answer is in `tap`. */
function fire(target, room, tap, offset, { keepAt = false } = {}) {
  if (!keepAt) tap.at = Date.now() + offset;
  const url = target.tapUrl(room, tap);
  tap.sentAt = performance.now();
  return fetch(url, { headers: target.httpHeaders, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) })
    .then(async (res) => {
      const text = await res.text();
      tap.httpAt = performance.now();
      tap.status = res.status;
      tap.body = parseJson(text);
      tap.ok = target.answerOk(tap);
    })
    .catch((err) => {
      tap.httpAt = performance.now();
      tap.status = "error";
      tap.body = { error: String(err.message ?? err) };
      tap.ok = false;
    });
}

function onEvents(tracker, socket, events, at) {
  for (const event of events) {
    if (typeof event?.sort !== "string" || !event.sort.startsWith("runner-") || event.finished == null) continue;
    tracker.events += 1;
    const tap = tracker.bySort.get(event.sort);
    if (!tap) {
      tracker.stray += 1;
      continue;
    }
    const seen = tap.seqs[socket.index];
    if (seen.has(event.seq)) {
      tracker.doubled += 1;
      continue;
    }
    seen.add(event.seq);
    if (tap.arrivals[socket.index] !== null) {
      tracker.extra += 1;
      continue;
    }
    tap.arrivals[socket.index] = at;
    tracker.delivered += 1;
    if (tap.at !== null && event.finished !== tap.at) tracker.finishedMismatch += 1;
  }
}

/** Latency and loss over every (tap × socket) delivery. */
function deliveryFigures(tracker) {
  const samples = [];
  let lost = 0;
  let late = 0;
  for (const tap of tracker.taps) {
    for (const arrival of tap.arrivals) {
      if (arrival === null) lost += 1;
      else if (arrival - tap.sentAt > LOST_AFTER_MS) {
        lost += 1;
        late += 1;
      } else samples.push(arrival - tap.sentAt);
    }
  }
  const http = tracker.taps.filter((t) => t.httpAt !== null).map((t) => t.httpAt - t.sentAt);
  return {
    taps: tracker.taps.length,
    sockets: tracker.sockets,
    deliveriesExpected: tracker.expected,
    deliveries: samples.length,
    tapToSocketMs: stats(samples),
    httpMs: stats(http),
    lost,
    lostButArrivedLate: late,
    doubled: tracker.doubled,
    extraFinishEvents: tracker.extra,
    strayFinishEvents: tracker.stray,
    finishedMismatch: tracker.finishedMismatch,
    httpNotOk: tracker.taps.filter((t) => !t.ok).length,
    httpStatuses: countBy(tracker.taps.map((t) => String(t.status))),
    outcomes: countBy(tracker.taps.map((t) => t.body?.outcome ?? null).filter(Boolean)),
    firstError: firstError(tracker.taps, (t) => t.ok),
  };
}

/** p95 of the deliveries of each run of `size` consecutive taps: shows whether a bad p95 is one bad stretch. */
function windows(taps, size) {
  const out = [];
  for (let i = 0; i < taps.length; i += size) out.push(stats(taps.slice(i, i + size).flatMap(arrivalsMs)).p95);
  return out;
}

function arrivalsMs(tap) {
  return tap.arrivals.filter((a) => a !== null).map((a) => a - tap.sentAt);
}

function lastOrNull(tap) {
  return tap.arrivals.every((a) => a !== null) ? round(Math.max(...tap.arrivals) - tap.sentAt) : null;
}

/** The first answer that was not as expected, with its request: enough to tell a server bug from a bench bug. */
function firstError(taps, ok) {
  const bad = taps.find((t) => !ok(t));
  if (!bad) return null;
  return { tap: bad.id, sort: bad.sort, at: bad.at, device: bad.device, status: bad.status, body: bad.body };
}

function countFinishedAsTapped(snapshot, taps) {
  if (!Array.isArray(snapshot)) return null;
  const bySort = new Map(snapshot.map((r) => [r.sort, r]));
  return taps.filter((t) => bySort.get(t.sort)?.finished === t.at).length;
}

// ——— sockets ———

function openSockets(target, room, count, tracker) {
  return Promise.all(Array.from({ length: count }, (_, index) => openSocket(target, room, index, tracker)));
}

/**
 * Opens one socket and subscribes; resolves once it is subscribed (the race: hello and its snapshot frame have
 * arrived; the echo: hello). Every later array frame goes to the tracker.
 */
function openSocket(target, room, index, tracker) {
  const ws = new WebSocket(target.socketUrl(room), { headers: target.socketHeaders });
  const socket = { index, ws, ready: false, errors: [], closed: null, syncs: new Map() };
  socket.sync = (id, t0) =>
    withTimeout(
      new Promise((resolve) => {
        socket.syncs.set(id, resolve);
        ws.send(JSON.stringify({ action: "sync", id, t0 }));
      }),
      `sync på socket ${index}`,
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
        if (socket.ready) onEvents(tracker, socket, frame, at);
        else if (hello) ready();
      } else if (frame?.type === "hello") {
        hello = true;
        if (!target.snapshotAfterHello) ready();
      } else if (frame?.type === "sync") {
        const at2 = Date.now();
        socket.syncs.get(frame.id)?.({ frame, at: at2 });
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
  return withTimeout(opened, `socket ${index} till ${room}`).catch((err) => {
    ws.terminate();
    throw err;
  });
}

function closeAll(sockets) {
  for (const socket of sockets) {
    try {
      socket.ws.close(1000, "bench done");
    } catch {
      // already closing
    }
    setTimeout(() => socket.ws.terminate(), 1_000).unref();
  }
}

function socketErrors(sockets) {
  return {
    closedEarly: sockets.filter((s) => s.closed !== null).length,
    frames: sockets.flatMap((s) => s.errors).slice(0, 5),
  };
}

// ——— the echo Worker ———

/**
 * The race's figures come after some 650 untimed calls through the same Worker and object (sign-in, races,
 * runners, start); the echo gets ECHO_WARMUP_TAPS untimed taps in a room of its own so neither is measured cold.
 */
async function warmUpEcho(target) {
  const began = performance.now();
  const prepared = await target.prepare("warmup", ECHO_WARMUP_TAPS);
  const tracker = newTracker(1);
  const sockets = await openSockets(target, prepared.room, 1, tracker);
  try {
    for (let i = 0; i < ECHO_WARMUP_TAPS; i++)
      await fire(target, prepared.room, newTap(tracker, prepared, i, "warmup"), 0);
  } finally {
    closeAll(sockets);
  }
  return round(performance.now() - began);
}

/** Starts bench/echo on the project's wrangler, on free loopback ports with a temporary state directory. */
async function startEcho() {
  const began = performance.now();
  const port = await freePort();
  const inspectorPort = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), "loppet-echo-"));
  const tmpOfWrangler = path.join(ECHO_DIR, ".wrangler");
  const madeTmp = !existsSync(tmpOfWrangler);
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(
    NODE,
    [
      bin("wrangler"),
      "dev",
      "-c",
      path.join(ECHO_DIR, "wrangler.toml"),
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
    ],
    { cwd: ROOT, env: toolEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk) => (output = (output + chunk.toString()).slice(-8_000));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = signal ?? code))));
  // A crash of this process must not leave wrangler running.
  const onExit = () => killGroup(child.pid, "SIGKILL");
  process.on("exit", onExit);

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (exited === null) {
      killGroup(child.pid, "SIGTERM");
      const gone = await Promise.race([exit.then(() => true), sleep(5_000).then(() => false)]);
      if (!gone) killGroup(child.pid, "SIGKILL");
    }
    killGroup(child.pid, "SIGKILL");
    process.off("exit", onExit);
    rmSync(stateDir, { recursive: true, force: true });
    if (madeTmp) rmSync(tmpOfWrangler, { recursive: true, force: true });
  }

  const until = Date.now() + ECHO_START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (exited !== null) {
      await stop();
      throw new Error(`Eko-Workern slutade (${exited}) innan den svarade:\n${output}`);
    }
    try {
      const res = await fetch(`${baseURL}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) {
        return { baseURL, stop, output: () => output, startMs: round(performance.now() - began) };
      }
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  await stop();
  throw new Error(`Eko-Workern svarade inte inom ${ECHO_START_TIMEOUT_MS / 1000} s:\n${output}`);
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

// ——— summary ———

function summarize(figures) {
  const race = figures.race;
  const echo = figures.echo.error ? null : figures.echo;
  const col = (value, width = 20) => String(value ?? "–").padEnd(width);
  const row = (label, a, b) => `  ${label.padEnd(34)}${col(a)}${col(b)}`;
  const ms = (v) => (v === null || v === undefined ? "–" : `${v} ms`);
  const rs = race.sustained;
  const es = echo?.sustained;
  const rb = race.burst;
  const eb = echo?.burst;
  const yes = (ok) => (ok ? "uppfyllt" : "EJ uppfyllt");
  const lines = [
    `Ihållande: ${SUSTAINED_SOCKETS} sockets, ${TAPS_PER_SECOND} tryck/s, ${rs.taps} tryck ` +
      `(${rs.deliveriesExpected} leveranser)${rs.cutShort ? " – AVKORTAT av tidsbudgeten" : ""}`,
    row("", "loppobjektet", "eko-baslinje"),
    row("tryck → socket p50", ms(rs.tapToSocketMs.p50), ms(es?.tapToSocketMs.p50)),
    row("tryck → socket p95", ms(rs.tapToSocketMs.p95), ms(es?.tapToSocketMs.p95)),
    row("tryck → socket p99", ms(rs.tapToSocketMs.p99), ms(es?.tapToSocketMs.p99)),
    row("tryck → socket max", ms(rs.tapToSocketMs.max), ms(es?.tapToSocketMs.max)),
    row(
      "HTTP-svar p50 / p95",
      `${rs.httpMs.p50} / ${rs.httpMs.p95} ms`,
      es && `${es.httpMs.p50} / ${es.httpMs.p95} ms`,
    ),
    row("förlorade / dubbla", `${rs.lost} / ${rs.doubled}`, es && `${es.lost} / ${es.doubled}`),
    row("HTTP-svar ej som väntat", rs.httpNotOk, es?.httpNotOk),
    `  p95 per ${WINDOW_S} s: loppet ${rs.p95PerWindowMs.join(" ")}   eko ${es?.p95PerWindowMs.join(" ") ?? "–"} (ms)`,
    `  mål (p95 ≤ ${TARGET_P95_MS} ms, 0 förlorade): ${yes(rs.tapToSocketMs.p95 <= TARGET_P95_MS && rs.lost === 0)}`,
    `Skur: ${BURST_TAPS} tryck samtidigt från ${BURST_SOCKETS} enheter, ${BURST_SOCKETS} sockets`,
    row("första sändning → alla har alla", ms(rb.firstSendToAllDeliveredMs), ms(eb?.firstSendToAllDeliveredMs)),
    row("första sändning → alla HTTP-svar", ms(rb.firstSendToAllAnsweredMs), ms(eb?.firstSendToAllAnsweredMs)),
    row(
      "tryck → socket p50 / max",
      `${rb.tapToSocketMs.p50} / ${rb.tapToSocketMs.max} ms`,
      eb && `${eb.tapToSocketMs.p50} / ${eb.tapToSocketMs.max} ms`,
    ),
    row("förlorade / dubbla", `${rb.lost} / ${rb.doubled}`, eb && `${eb.lost} / ${eb.doubled}`),
    `  kontroll: GET visar ${rb.checks.getFinished}/${BURST_TAPS} i mål på tryckets tid; ` +
      `återspelning: ${rb.checks.replay.replayed}/${BURST_TAPS} 'replayed', ` +
      `${rb.checks.replay.newSocketEvents} nya händelser, loppet ${rb.checks.replay.raceUnchanged ? "oförändrat" : "ÄNDRAT"}`,
    `  mål (≤ ${TARGET_BURST_MS} ms, inga förlorade eller dubbla): ${yes(
      rb.firstSendToAllDeliveredMs !== null &&
        rb.firstSendToAllDeliveredMs <= TARGET_BURST_MS &&
        rb.lost === 0 &&
        rb.doubled === 0 &&
        rb.extraFinishEvents === 0,
    )}`,
  ];
  if (!echo) lines.push(`Eko-baslinjen misslyckades: ${figures.echo.error.split("\n")[0]}`);
  else {
    lines.push(
      `  (eko-Workern startade på ${echo.startMs} ms, parallellt med förberedelserna; ` +
        `${ECHO_WARMUP_TAPS} otajmade uppvärmningstryck)`,
    );
  }
  lines.push(
    `  belastning (1 min) vid start: ihållande ${rs.loadAverage1m} / ${es?.loadAverage1m ?? "–"}, ` +
      `skur ${rb.loadAverage1m} / ${eb?.loadAverage1m ?? "–"}`,
  );
  const odd = [rs, rb, es, eb]
    .filter(Boolean)
    .filter((f) => f.firstError || f.strayFinishEvents || f.extraFinishEvents || f.finishedMismatch);
  if (odd.length > 0) lines.push(`Avvikelser: se firstError/strayFinishEvents/extraFinishEvents i JSON`);
  return lines.join("\n");
}

// ——— helpers ———

/** Waits until `done()` or the performance.now() moment `until`, checking every 20 ms. */
async function waitFor(done, until) {
  while (!done() && performance.now() < until) await sleep(Math.min(20, Math.max(0, until - performance.now())));
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Inget svar inom ${STEP_TIMEOUT_MS} ms: ${what}`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function parseJson(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { body: String(text).slice(0, 200) };
  }
}

/** How busy the shared machine was as a phase began (other work skews every figure). */
function load() {
  return Math.round(loadavg()[0] * 100) / 100;
}

function isoDate(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

function positiveNumber(value) {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : null;
}

/** Nearest-rank percentiles, in ms to one decimal. */
function stats(values) {
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

function round(ms) {
  return Math.round(ms * 10) / 10;
}

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/**
 * Spectators on race day (issue 25), over loopback against the real server (`npm run bench spectators`):
 *
 * A started race of RUNNERS runners, 20 admin sockets on it (the timing phones), and one finish tap every
 * TAP_EVERY_MS through the admin's finish call. Alternating rounds of ROUND_SECONDS each, "utan publik" (no
 * spectator connected) then "med publik", ROUND_PAIRS pairs (3 × 30 s = 90 s with the crowd by default):
 *
 * - Before a crowd round, N spectators arrive as the page does: each reads the public JSON once
 *   (`GET /api/races/get/{raceId}`), then opens the spectators' socket (`{wsUrl}/spectate/{raceId}`), CONNECT_PARALLEL
 *   at a time; the round starts when all are open. A tenth of them (POLL_SHARE) also poll the JSON every 5 s with
 *   `If-None-Match`, as a page does whose socket cannot open (the fallback). After the round all are closed.
 * - Figures: failed requests and sockets (target 0), spectator request latency (the first read, and the polls: 200
 *   or 304), for each tap the time from sending the tap's HTTP request to the first spectator socket and to every
 *   spectator socket having the runner's finish (target ≤ 2 s p95), deliveries lost (not within LOST_AFTER_MS), and
 *   the tap → admin socket latency per round, with the ratio of the crowd rounds' p95 to the quiet rounds' p95
 *   (issue: within 1.5x with 200 spectators).
 * - Reads that reached the race object: the fan-out object's own counter (`raceReads` from
 *   GET /admin/api/races/spectators/{raceId}, counted where the read happens, src/durable/spectators.ts), before and
 *   after; also its count of public reads (those that got past each isolate's copy) and sockets opened.
 * - At the end, CHURN sockets opened at once and dropped as soon as they open (bad input): the race object is not
 *   read for it (raceReads unchanged), and the 20 admin sockets are still open and still get the next tap.
 *
 * Everything (the server under test, wrangler dev on workerd, and this load generator with every socket in one Node
 * process) shares this machine's 2 cores: the figures measure this machine's loopback, not Cloudflare's edge, where
 * the fan-out object runs apart from the crowd's clients and from the Worker isolates.
 *
 * `SPECTATOR_BENCH_N` (default 1000), `SPECTATOR_BENCH_SECONDS` (round length, 30), `SPECTATOR_BENCH_ROUNDS`
 * (pairs, 3), `SPECTATOR_BENCH_CHURN` (2000; 0 skips it).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { inParallel } from "./lib/async.mjs";
import { devAdmin } from "./lib/http.mjs";
import { clientDelays, machineLoad } from "./lib/machine.mjs";

const N = positiveInteger(process.env.SPECTATOR_BENCH_N) ?? 1_000;
const ROUND_SECONDS = positiveNumber(process.env.SPECTATOR_BENCH_SECONDS) ?? 30;
const ROUND_PAIRS = positiveInteger(process.env.SPECTATOR_BENCH_ROUNDS) ?? 3;
const CHURN = nonNegativeInteger(process.env.SPECTATOR_BENCH_CHURN) ?? 2_000;
const RUNNERS = 200;
const ADMIN_SOCKETS = 20;
const TAP_EVERY_MS = 2_000;
const POLL_SHARE = 0.1;
const POLL_EVERY_MS = 5_000;
const CONNECT_PARALLEL = 100;
const LOST_AFTER_MS = 10_000;
const STEP_TIMEOUT_MS = 30_000;
/** After the churn, how long the bench waits for the server to answer again before it checks anything. */
const RECOVERY_LIMIT_MS = 180_000;
const TARGET_EVERY_P95_MS = 2_000;
const TARGET_ADMIN_RATIO = 1.5;

export async function run({ baseURL }) {
  const runId = Date.now().toString(36);
  const site = await signIn(baseURL);
  console.log(`  loppet förbereds: ${RUNNERS} löpare …`);
  const race = await prepareRace(site, runId);
  const socketBase = `${site.wsUrl}/spectate/${encodeURIComponent(race.id)}`;
  const admins = await Promise.all(Array.from({ length: ADMIN_SOCKETS }, (_, i) => openAdminSocket(site, race.id, i)));
  const offset = await clockOffset(admins[0]);
  for (const a of admins) a.offset = offset;
  const statsBefore = await site.json("GET", `/admin/api/races/spectators/${race.id}`);

  const tapsPerRound = Math.floor((ROUND_SECONDS * 1_000) / TAP_EVERY_MS);
  const rounds = [];
  let next = 0;
  const takeRunner = () => {
    if (next >= race.sorts.length) throw new Error("Inga fler löpare att ta i mål");
    return race.sorts[next++];
  };
  for (let pair = 1; pair <= ROUND_PAIRS; pair++) {
    for (const crowd of [false, true]) {
      const round = await runRound({ site, race, admins, socketBase, crowd, taps: tapsPerRound, takeRunner });
      round.round = pair;
      rounds.push(round);
      console.log(`  ${roundLine(round)}`);
    }
  }
  // A server that no longer answers still gets its figures written (the counters then say null).
  const statsAfterRounds = await site
    .json("GET", `/admin/api/races/spectators/${race.id}`)
    .catch((err) => ({ json: null, error: String(err.message ?? err) }));
  const churn =
    CHURN > 0 && statsAfterRounds.json ? await churnCheck({ site, race, admins, socketBase, takeRunner }) : null;
  if (churn) console.log(`  ${churnLine(churn)}`);
  for (const a of admins) a.ws.terminate();

  const quiet = rounds.filter((r) => !r.crowd);
  const withCrowd = rounds.filter((r) => r.crowd);
  const adminQuiet = stats(quiet.flatMap((r) => r.adminSamples));
  const adminCrowd = stats(withCrowd.flatMap((r) => r.adminSamples));
  const first = stats(withCrowd.flatMap((r) => r.firstSamples));
  const every = stats(withCrowd.flatMap((r) => r.everySamples));
  for (const r of rounds) {
    delete r.adminSamples;
    delete r.firstSamples;
    delete r.everySamples;
  }
  const sum = (key) => withCrowd.reduce((n, r) => n + (r.spectators?.[key] ?? 0), 0);
  const figures = {
    method: {
      n: N,
      runners: RUNNERS,
      adminSockets: ADMIN_SOCKETS,
      tapEveryMs: TAP_EVERY_MS,
      roundSeconds: ROUND_SECONDS,
      roundPairs: ROUND_PAIRS,
      pollers: Math.round(N * POLL_SHARE),
      pollEveryMs: POLL_EVERY_MS,
      lostAfterMs: LOST_AFTER_MS,
      machine:
        "allt på samma 2-kärniga maskin: servern (wrangler dev, lokal workerd, utan lokal observability), och alla " +
        "åskådare och admin-sockets i en Node-process; mäter loopback här, inte Cloudflares kant",
      latency:
        "från performance.now() före tryckets fetch till att sockeln fick löparens målgång (ws-klientens " +
        "message-hanterare); 'första' = den första åskådarsockeln, 'alla' = den sista",
    },
    rounds,
    spectators: {
      tapToFirstMs: first,
      tapToEveryMs: every,
      lostDeliveries: sum("lost"),
      failedRequests: sum("failedRequests"),
      failedSockets: sum("failedSockets"),
      errorFrames: sum("errorFrames"),
    },
    admin: { quietMs: adminQuiet, crowdMs: adminCrowd, p95Ratio: ratio(adminCrowd.p95, adminQuiet.p95) },
    fanOut: {
      before: statsBefore.json,
      afterRounds: statsAfterRounds.json,
      statsError: statsAfterRounds.error ?? null,
      raceReadsDuringRounds: difference(statsAfterRounds.json, statsBefore.json, "raceReads"),
      publicReadsDuringRounds: difference(statsAfterRounds.json, statsBefore.json, "reads"),
      connectsDuringRounds: difference(statsAfterRounds.json, statsBefore.json, "connects"),
    },
    churn,
  };
  figures.verdict = {
    noFailures:
      figures.spectators.failedRequests === 0 &&
      figures.spectators.failedSockets === 0 &&
      figures.spectators.lostDeliveries === 0,
    everyP95Met: every.p95 !== null && every.p95 <= TARGET_EVERY_P95_MS,
    adminRatioMet: figures.admin.p95Ratio !== null && figures.admin.p95Ratio <= TARGET_ADMIN_RATIO,
    churnLeftRaceAlone: churn
      ? churn.raceReads === 0 && churn.adminSocketsOpen === ADMIN_SOCKETS && churn.adminGotTap
      : null,
  };
  writeFileSync(
    path.join(import.meta.dirname, "results", `spectators-n${N}.json`),
    JSON.stringify({ date: new Date().toISOString(), figures }, null, 2) + "\n",
  );
  return { figures, summary: summarize(figures) };
}

// ——— rounds ———

async function runRound({ site, race, admins, socketBase, crowd, taps, takeRunner }) {
  const crowdState = crowd ? await arrive(site, race, socketBase) : null;
  const load = machineLoad();
  const client = clientDelays();
  const tapped = [];
  const bySort = new Map();
  const onAdmin = (socket, events, at) => {
    for (const e of events) {
      const tap = bySort.get(e?.sort);
      if (tap && e.finished != null && tap.admin[socket.index] === null) tap.admin[socket.index] = at;
    }
  };
  const onSpectator = (index, runners, at) => {
    for (const r of runners) {
      const tap = bySort.get(r?.sort);
      if (tap && r.finished != null && tap.spectators[index] === null) tap.spectators[index] = at;
    }
  };
  for (const a of admins) a.onEvents = onAdmin;
  if (crowdState) crowdState.onRunners = onSpectator;

  const requests = [];
  const t0 = performance.now();
  for (let i = 0; i < taps; i++) {
    await sleep(t0 + i * TAP_EVERY_MS - performance.now());
    const tap = {
      sort: takeRunner(),
      sentAt: 0,
      httpMs: null,
      status: null,
      admin: new Array(admins.length).fill(null),
      spectators: crowdState ? new Array(crowdState.sockets.length).fill(null) : [],
    };
    bySort.set(tap.sort, tap);
    tapped.push(tap);
    requests.push(sendTap(site, race.id, tap, admins[i % admins.length].offset));
  }
  await Promise.all(requests);
  const last = tapped.at(-1);
  await waitFor(
    () => tapped.every((t) => !t.admin.includes(null) && !t.spectators.includes(null)),
    last.sentAt + LOST_AFTER_MS,
  );
  const machine = { ...load.end(), client: client.end() };
  for (const a of admins) a.onEvents = null;

  const adminSamples = tapped.flatMap((t) => t.admin.filter((x) => x !== null).map((x) => x - t.sentAt));
  const adminLost = tapped.reduce((n, t) => n + t.admin.filter((x) => x === null).length, 0);
  const result = {
    crowd,
    taps: tapped.length,
    tapHttpMs: stats(tapped.map((t) => t.httpMs).filter((x) => x !== null)),
    tapStatuses: countBy(tapped.map((t) => String(t.status))),
    adminMs: stats(adminSamples),
    adminLost,
    machine,
    adminSamples,
    firstSamples: [],
    everySamples: [],
  };
  if (crowdState) {
    const firstSamples = [];
    const everySamples = [];
    let lost = 0;
    for (const t of tapped) {
      const got = t.spectators.filter((x) => x !== null);
      lost += t.spectators.length - got.length;
      if (got.length > 0) firstSamples.push(Math.min(...got) - t.sentAt);
      if (got.length === t.spectators.length) everySamples.push(Math.max(...got) - t.sentAt);
    }
    crowdState.stopPolling();
    result.firstSamples = firstSamples;
    result.everySamples = everySamples;
    result.spectators = {
      connected: crowdState.sockets.length,
      connectMs: crowdState.connectMs,
      firstReadMs: stats(crowdState.firstReads),
      pollMs: stats(crowdState.polls.map((p) => p.ms)),
      polls: crowdState.polls.length,
      pollStatuses: countBy(crowdState.polls.map((p) => String(p.status))),
      failedRequests: crowdState.failedRequests,
      failedSockets: crowdState.failedSockets,
      firstError: crowdState.firstError,
      errorFrames: crowdState.errorFrames,
      closedEarly: crowdState.sockets.filter((s) => s.closedEarly).length,
      lost,
      tapToFirstMs: stats(firstSamples),
      tapToEveryMs: stats(everySamples),
    };
    await crowdState.leave();
  }
  return result;
}

/**
 * N spectators arrive as the page does: one read of the public JSON each, then the socket; CONNECT_PARALLEL at a
 * time. Resolves once every socket has had its snapshot (or failed). The pollers start once all are in.
 */
async function arrive(site, race, socketBase) {
  const state = {
    sockets: [],
    firstReads: [],
    polls: [],
    failedRequests: 0,
    failedSockets: 0,
    errorFrames: 0,
    firstError: null,
    onRunners: null,
    timers: [],
    connectMs: null,
  };
  const fail = (what) => {
    state.firstError ??= what;
  };
  const t0 = performance.now();
  let etag = null;
  await inParallel(N, CONNECT_PARALLEL, async (index) => {
    const read = await timedGet(site.baseURL, `/api/races/get/${race.id}`);
    if (read.status === 200) {
      state.firstReads.push(read.ms);
      etag ??= read.etag;
    } else {
      state.failedRequests += 1;
      fail(`GET ${read.status} ${read.error ?? ""}`);
    }
    try {
      state.sockets.push(await openSpectator(socketBase, index, state));
    } catch (err) {
      state.failedSockets += 1;
      fail(String(err.message ?? err));
    }
  });
  state.connectMs = Math.round(performance.now() - t0);
  const pollers = Math.round(N * POLL_SHARE);
  for (let i = 0; i < pollers; i++) {
    let tag = etag;
    const poll = async () => {
      const res = await timedGet(site.baseURL, `/api/races/get/${race.id}`, tag);
      if (res.status === 200 || res.status === 304) {
        state.polls.push({ ms: res.ms, status: res.status });
        if (res.etag) tag = res.etag;
      } else {
        state.failedRequests += 1;
        fail(`poll ${res.status} ${res.error ?? ""}`);
      }
    };
    // Spread over the 5 s, as phones that opened the page at different moments.
    const start = setTimeout(
      () => {
        void poll();
        state.timers.push(setInterval(() => void poll(), POLL_EVERY_MS));
      },
      (i * POLL_EVERY_MS) / pollers,
    );
    state.timers.push(start);
  }
  state.stopPolling = () => {
    for (const t of state.timers) clearTimeout(t);
  };
  state.leave = async () => {
    for (const s of state.sockets) {
      s.leaving = true;
      s.ws.terminate();
    }
    await sleep(1_000);
  };
  return state;
}

/**
 * A spectator's own address: the public sockets are capped per client (src/durable/socket-clients.ts), and a crowd is
 * many phones, not one. Locally the runtime keeps a CF-Connecting-IP the request already has.
 */
const spectatorAddress = (index) => ({
  headers: { "cf-connecting-ip": `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}` },
});

function openSpectator(socketBase, index, state) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketBase, spectatorAddress(index));
    const socket = { ws, index, closedEarly: false, ready: false, leaving: false };
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`åskådarsocket ${index}: ingen snapshot inom ${STEP_TIMEOUT_MS} ms`));
    }, STEP_TIMEOUT_MS);
    ws.on("message", (data) => {
      const at = performance.now();
      const frame = parseJson(String(data));
      if (frame?.type === "snapshot" && !socket.ready) {
        socket.ready = true;
        clearTimeout(timer);
        resolve(socket);
      } else if (frame?.type === "delta") {
        state.onRunners?.(socket.index, frame.runners ?? [], at);
      } else if (frame?.type === "error") {
        state.errorFrames += 1;
      }
    });
    ws.on("error", (err) => {
      clearTimeout(timer);
      if (!socket.ready) reject(err);
    });
    ws.once("unexpected-response", (req, res) => {
      clearTimeout(timer);
      reject(new Error(`åskådarsocket svarade HTTP ${res.statusCode}`));
      req.destroy();
    });
    ws.on("close", () => {
      if (socket.ready) socket.closedEarly = !socket.leaving;
    });
  });
}

/**
 * CHURN sockets opened at once and each dropped as soon as it opens (or fails). Then: the fan-out's raceReads must
 * not have moved, all admin sockets must be open, and one more tap must reach all of them.
 */
async function churnCheck({ site, race, admins, socketBase, takeRunner }) {
  const before = (await site.json("GET", `/admin/api/races/spectators/${race.id}`)).json;
  const t0 = performance.now();
  const outcomes = await Promise.all(
    Array.from(
      { length: CHURN },
      (_, i) =>
        new Promise((resolve) => {
          const ws = new WebSocket(socketBase, spectatorAddress(100_000 + i));
          const timer = setTimeout(() => {
            ws.terminate();
            resolve("timeout");
          }, STEP_TIMEOUT_MS);
          ws.on("open", () => {
            clearTimeout(timer);
            ws.terminate();
            resolve("opened");
          });
          ws.on("error", () => {
            clearTimeout(timer);
            resolve("error");
          });
          ws.once("unexpected-response", (req, res) => {
            clearTimeout(timer);
            req.destroy();
            resolve(`HTTP ${res.statusCode}`);
          });
        }),
    ),
  );
  const churnMs = Math.round(performance.now() - t0);
  // Until the server answers a bare request again (locally one workerd process takes every connection).
  let answering = false;
  while (!answering && performance.now() - t0 < RECOVERY_LIMIT_MS) {
    const health = await timedGet(site.baseURL, "/api/health");
    answering = health.status === 200;
    if (!answering) await sleep(500);
  }
  const answeringAgainMs = answering ? Math.round(performance.now() - t0) : null;
  await sleep(2_000);
  const tap = { sort: takeRunner(), sentAt: 0, httpMs: null, status: null, admin: new Array(admins.length).fill(null) };
  for (const a of admins) {
    a.onEvents = (socket, events, at) => {
      for (const e of events) if (e?.sort === tap.sort && e.finished != null) tap.admin[socket.index] ??= at;
    };
  }
  await sendTap(site, race.id, tap, admins[0].offset);
  await waitFor(() => !tap.admin.includes(null), tap.sentAt + LOST_AFTER_MS);
  for (const a of admins) a.onEvents = null;
  const after = await site
    .json("GET", `/admin/api/races/spectators/${race.id}`)
    .then((r) => r.json)
    .catch(() => null);
  return {
    sockets: CHURN,
    outcomes: countBy(outcomes),
    churnMs,
    answeringAgainMs,
    tapStatus: tap.status,
    tapHttpMs: tap.httpMs === null ? null : round(tap.httpMs),
    raceReads: difference(after, before, "raceReads"),
    errorFrames: difference(after, before, "errorFrames"),
    adminSocketsOpen: admins.filter((a) => a.ws.readyState === WebSocket.OPEN).length,
    adminGotTap: !tap.admin.includes(null),
    tapAfterMs: tap.admin.includes(null) ? null : round(Math.max(...tap.admin) - tap.sentAt),
  };
}

// ——— the site ———

async function signIn(baseURL) {
  const { cookie, callJson, config } = await devAdmin(baseURL, STEP_TIMEOUT_MS);
  return { baseURL, cookie, json: callJson, wsUrl: config.wsUrl };
}

/** A started race of its own (a far-future date per run) with RUNNERS runners. */
async function prepareRace(site, runId) {
  const day = Math.floor(Date.now() / 60_000) % 9_000;
  let id = null;
  for (let attempt = 0; attempt < 5 && !id; attempt++) {
    const date = new Date(Date.UTC(2070, 0, 1) + (day + attempt) * 86_400_000).toISOString().slice(0, 10);
    const candidate = `race-${date.slice(2).replaceAll("-", "")}-56`;
    const made = await site.json(
      "POST",
      `/admin/api/races/create-race/${candidate}`,
      { date, distance: 5_600, openForReg: false },
      [200, 409],
    );
    if (made.status === 200) id = candidate;
  }
  if (!id) throw new Error("Kunde inte skapa något lopp (alla datum upptagna)");
  const sorts = new Array(RUNNERS);
  await inParallel(RUNNERS, 4, async (i) => {
    const { json } = await site.json("POST", `/admin/api/races/add-runner/${id}`, {
      firstname: `Åskådad${i + 1}`,
      lastname: `Löpare ${runId}`,
      age: 10 + (i % 50),
      bib: i + 1,
      group: "Ingen",
      company: "",
    });
    sorts[i] = json.sort;
  });
  await site.json("GET", `/admin/api/races/start/${id}`);
  return { id, sorts };
}

function openAdminSocket(site, raceId, index) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${site.wsUrl}/race/${encodeURIComponent(raceId)}`, {
      headers: { cookie: site.cookie, origin: site.baseURL },
    });
    const socket = { ws, index, onEvents: null, offset: 0, synced: null };
    let hello = false;
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`admin-socket ${index} prenumererade inte`)), STEP_TIMEOUT_MS);
    ws.on("open", () => ws.send(JSON.stringify({ action: "subscribe-to-race" })));
    ws.on("message", (data) => {
      const at = performance.now();
      const frame = parseJson(String(data));
      if (Array.isArray(frame)) {
        if (ready) socket.onEvents?.(socket, frame, at);
        else if (hello) {
          ready = true;
          clearTimeout(timer);
          resolve(socket);
        }
      } else if (frame?.type === "hello") {
        hello = true;
      } else if (frame?.type === "sync") {
        socket.synced?.(frame);
      }
    });
    ws.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The server clock's offset from the spec's sync frames (the sample with the shortest round trip). */
async function clockOffset(socket) {
  let best = null;
  for (let id = 1; id <= 5; id++) {
    const t0 = Date.now();
    const frame = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("ingen sync-ram")), STEP_TIMEOUT_MS);
      socket.synced = (f) => {
        clearTimeout(timer);
        resolve(f);
      };
      socket.ws.send(JSON.stringify({ action: "sync", id, t0 }));
    });
    const t2 = Date.now();
    if (!best || t2 - t0 < best.rtt) best = { rtt: t2 - t0, offset: frame.t1 - (t0 + t2) / 2 };
  }
  socket.synced = null;
  return Math.round(best.offset);
}

function sendTap(site, raceId, tap, offset) {
  const at = Date.now() + Math.round(offset);
  const query = new URLSearchParams({ tap: `spect-${tap.sort}`, at: String(at), device: "bench-spectators" });
  tap.sentAt = performance.now();
  return fetch(`${site.baseURL}/admin/api/races/finish/${raceId}/${tap.sort}?${query}`, {
    headers: { cookie: site.cookie, "x-loppet-client": "1" },
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  })
    .then(async (res) => {
      await res.text();
      tap.status = res.status;
    })
    .catch((err) => {
      tap.status = `error ${err.message ?? err}`;
    })
    .finally(() => {
      tap.httpMs = performance.now() - tap.sentAt;
    });
}

async function timedGet(baseURL, pathname, ifNoneMatch) {
  const t0 = performance.now();
  try {
    const res = await fetch(baseURL + pathname, {
      headers: ifNoneMatch ? { "if-none-match": ifNoneMatch } : {},
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0, etag: res.headers.get("etag") };
  } catch (err) {
    return { status: "error", ms: performance.now() - t0, error: String(err.message ?? err) };
  }
}

// ——— summary ———

function summarize(f) {
  const s = f.spectators;
  const crowdRounds = f.rounds.filter((r) => r.crowd);
  const firstReads = crowdRounds.map((r) => r.spectators.firstReadMs.p95).join(" / ");
  const polls = crowdRounds.map((r) => r.spectators.pollMs.p95).join(" / ");
  return [
    `${N} åskådare (varav ${f.method.pollers} som även pollar var 5 s), ${RUNNERS} löpare, en målgång var ` +
      `${TAP_EVERY_MS / 1_000} s, ${ROUND_PAIRS} par omgångar à ${ROUND_SECONDS} s (utan publik / med publik), ` +
      `${ADMIN_SOCKETS} admin-sockets:`,
    ...f.rounds.map((r) => `  ${roundLine(r)}`),
    `  misslyckade anrop ${s.failedRequests}, misslyckade sockets ${s.failedSockets}, förlorade leveranser ` +
      `${s.lostDeliveries}, felramar ${s.errorFrames}`,
    `  tryck → första åskådare p50/p95 ${s.tapToFirstMs.p50}/${s.tapToFirstMs.p95} ms; → alla åskådare ` +
      `p50/p95 ${s.tapToEveryMs.p50}/${s.tapToEveryMs.p95} ms (mål p95 ≤ ${TARGET_EVERY_P95_MS} ms): ` +
      `${f.verdict.everyP95Met ? "uppfyllt" : "EJ uppfyllt"}`,
    `  åskådarnas anrop p95 per publikomgång: första läsningen ${firstReads} ms; polling (200/304) ${polls} ms`,
    `  admin tryck → socket p95: utan publik ${f.admin.quietMs.p95} ms, med publik ${f.admin.crowdMs.p95} ms, ` +
      `kvot ${f.admin.p95Ratio} (mål ≤ ${TARGET_ADMIN_RATIO} vid 200 åskådare)`,
    `  läsningar av loppets objekt för åskådare (fan-outens räknare raceReads): ${f.fanOut.raceReadsDuringRounds}; ` +
      `publika läsningar som nådde fan-outen: ${f.fanOut.publicReadsDuringRounds}; sockets öppnade: ` +
      `${f.fanOut.connectsDuringRounds}`,
    ...(f.churn ? [`  ${churnLine(f.churn)}`] : []),
  ].join("\n");
}

function roundLine(r) {
  const base =
    `omgång ${r.round} ${r.crowd ? "med publik " : "utan publik"}: admin p50/p95 ${r.adminMs.p50}/${r.adminMs.p95} ms` +
    ` (förlorade ${r.adminLost}), tryckets HTTP p95 ${r.tapHttpMs.p95} ms`;
  const m = r.machine;
  const load = `; belastning ${m.load1mStart}→${m.load1mEnd}, CPU-tryck ${m.cpuPressurePct ?? "–"} %`;
  if (!r.spectators) return base + load;
  const s = r.spectators;
  return (
    `${base}; ${s.connected} åskådare anslöt på ${s.connectMs} ms, tryck → första/alla p95 ` +
    `${s.tapToFirstMs.p95}/${s.tapToEveryMs.p95} ms, förlorade ${s.lost}, misslyckade anrop ${s.failedRequests}` +
    (s.failedSockets ? `, misslyckade sockets ${s.failedSockets}` : "") +
    (s.firstError ? ` (första felet: ${s.firstError.slice(0, 120)})` : "") +
    load
  );
}

function churnLine(c) {
  return (
    `${c.sockets} sockets öppnade samtidigt och släppta (${JSON.stringify(c.outcomes)}, ${c.churnMs} ms; servern ` +
    `svarade igen efter ${c.answeringAgainMs ?? "–"} ms): ` +
    `läsningar av loppets objekt ${c.raceReads}, admin-sockets öppna ${c.adminSocketsOpen}/${ADMIN_SOCKETS}, ` +
    `nästa tryck nådde alla: ${c.adminGotTap ? `ja (${c.tapAfterMs} ms)` : "NEJ"}`
  );
}

// ——— helpers ———

function difference(after, before, key) {
  return after && before ? after[key] - before[key] : null;
}

async function waitFor(done, untilMs) {
  while (!done() && performance.now() < untilMs) await sleep(20);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function parseJson(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function ratio(a, b) {
  return a === null || b === null || !b ? null : Math.round((a / b) * 100) / 100;
}

/** Nearest-rank percentiles, in ms to one decimal. */
function stats(values) {
  if (values.length === 0) return { n: 0, p50: null, p95: null, p99: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  return {
    n: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    p99: round(rank(99)),
    max: round(sorted.at(-1)),
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

function positiveNumber(value) {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : null;
}

function positiveInteger(value) {
  const n = positiveNumber(value);
  return n !== null && Number.isInteger(n) ? n : null;
}

function nonNegativeInteger(value) {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n >= 0 ? n : null;
}

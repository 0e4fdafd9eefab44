/**
 * Rapid timing on race day (issue 26): 'Mål!' slots and bibs typed in finish order reaching every phone, over
 * loopback against the real server, beside the minimal echo Durable Object (bench/echo/: hibernating sockets, a
 * broadcast of what an HTTP call gives it, no storage, no D1, no sign-in) measured in the same run, in
 * alternating rounds, so a busy moment of the shared machine weighs on both alike. Both get the same requests: the
 * race's rapid and bib calls are POSTs with a JSON body, so the echo gets the same POSTs (headers and body), and its
 * Worker reads the body before calling its object.
 *
 * 1. Sustained: 20 sockets on one started race (150 runners, bibs 1–150) and 20 on one echo room, opened once and
 *    kept. Each round is ROUND_SECONDS of, on their own schedule (a slow answer does not delay the next call):
 *    rapid taps at 10 a second (two phones timing the same finishers: phone A every 200 ms, phone B 150 ms after
 *    it, so the race merges them in pairs) and bibs at 2 a second typed in finish order by a third phone (so the
 *    race pairs a runner with a slot each time). One uncounted round on each target first, then ROUND_PAIRS pairs
 *    of rounds, the race's then the echo's. Figure: for every change (a tap's `slot-` record, a bib's `bib-`
 *    record) and every socket, the time from sending its HTTP request to that socket receiving the record
 *    (matched by sort); per round its p50/p95/p99/max, the HTTP answers' p50/p95, lost deliveries (not within
 *    5 s) and doubled ones (the same record with the same seq twice on one socket). Ratios: race p95 / echo p95
 *    per pair, and pooled over every round. Target: 1.2. Beside each round's latency, what each change cost in CPU
 *    (lib/machine.mjs): the target's workerd runtime (Worker and object), wrangler's proxy, and this client.
 * 2. Burst: 20 sockets on a second race (and a second echo room); BURST_PAIRS pairs, the race's then the echo's,
 *    of 30 rapid taps in 3 s from two phones (one every 100 ms, alternating). Figure: every socket has all 30
 *    (none lost), the time from the first send until the last socket has the last, and each delivery's p95. After
 *    each race burst (untimed) the race's slots must hold all 30 taps, and every tap sent again must answer
 *    'replayed' and bring no new socket record.
 *
 * `RAPID_BENCH_SECONDS` changes the round length (default 10), `RAPID_BENCH_ROUNDS` the number of sustained pairs
 * (default 6: 60 s of taps on each target), `RAPID_BENCH_BURSTS` the number of burst pairs (default 3). The whole
 * benchmark keeps to BUDGET_MS: a round that would overrun it stops sending early, and the figures say so.
 */
import { performance } from "node:perf_hooks";
import {
  closeAll,
  openBenchSocket,
  parseJson,
  positiveInteger,
  positiveNumber,
  round,
  stats,
  waitUntil,
} from "./lib/socket-bench.mjs";
import { inParallel, sleep } from "./lib/async.mjs";
import { devAdmin } from "./lib/http.mjs";
import { startEcho } from "./lib/echo-server.mjs";
import { clientDelays, machineLine, machineLoad } from "./lib/machine.mjs";

const ROUND_SECONDS = positiveNumber(process.env.RAPID_BENCH_SECONDS) ?? 10;
const ROUND_PAIRS = positiveInteger(process.env.RAPID_BENCH_ROUNDS) ?? 6;
const BURST_PAIRS = positiveInteger(process.env.RAPID_BENCH_BURSTS) ?? 3;
const WARMUP_SECONDS = 3;
const SOCKETS = 20;
/** Phone A taps every FINISHER_GAP_MS, phone B PAIR_LAG_MS after it: 10 taps a second. */
const FINISHER_GAP_MS = 200;
const PAIR_LAG_MS = 150;
const BIB_GAP_MS = 500;
const RUNNERS = 150;
const BURST_TAPS = 30;
const BURST_GAP_MS = 100;
const LOST_AFTER_MS = 5_000;
const REPLAY_QUIET_MS = 1_000;
const TARGET_RATIO = 1.2;
const BUDGET_MS = 8 * 60_000;
const STEP_TIMEOUT_MS = 20_000;

const LATENCY_DEFINITION =
  "Från starten av HTTP-anropet (performance.now() före fetch) till att sockeln fick ändringens post " +
  "(slot-… för en måltid, bib-… för ett startnummer; performance.now() först i ws-klientens message-hanterare), " +
  "en gång per ändring och socket. Innehåller HTTP över loopback till wrangler dev, Workerns routning (för loppet " +
  "även admin-sessionen och validering), anropet till Durable Object (loppet: RPC med SQLite-transaktion, " +
  "audit-rad, sammanslagning av två telefoners måltider och parning med startnumren; ekot: fetch utan lagring), " +
  "JSON och sändningen till varje socket, samt Node-klientens mottagning av alla sockets i en och samma process.";

export async function run({ baseURL }) {
  const deadline = Date.now() + BUDGET_MS;
  const runId = Date.now().toString(36);
  const echoStarting = startEcho();
  echoStarting.catch(() => {});
  let echo = null;
  const phases = [];
  try {
    const site = await siteTarget(baseURL, runId);
    const raceSustained = await openPhase(site, "sustained");
    phases.push(raceSustained);
    const raceBurst = await openPhase(site, "burst");
    phases.push(raceBurst);
    echo = await echoStarting;
    const echoTarget = echoTargetFor(echo.baseURL, runId, site);
    const echoSustained = await openPhase(echoTarget, "sustained");
    phases.push(echoSustained);
    const echoBurst = await openPhase(echoTarget, "burst");
    phases.push(echoBurst);

    for (const phase of [raceSustained, echoSustained]) {
      await sustainedRound(phase, { seconds: WARMUP_SECONDS, label: "uppvärmning", deadline });
    }
    const rounds = [];
    for (let pair = 1; pair <= ROUND_PAIRS; pair++) {
      for (const phase of [raceSustained, echoSustained]) {
        const round = await sustainedRound(phase, { seconds: ROUND_SECONDS, label: `${pair}`, deadline });
        rounds.push(round);
        console.log(`  ${roundLine(round)}`);
      }
    }
    const sustainedCheck = await site.checkSlots(raceSustained);

    const bursts = [];
    for (let pair = 1; pair <= BURST_PAIRS; pair++) {
      for (const phase of [raceBurst, echoBurst]) {
        const burst = await burstRound(phase, `${pair}`);
        bursts.push(burst);
        console.log(`  ${burstLine(burst)}`);
      }
    }

    const figures = {
      method: {
        transport: "loopback, wrangler dev (lokal workerd) för både sajten och eko-Workern",
        timer: "performance.now() i Node-klienten; alla sockets och HTTP-anrop i samma process",
        latencyDefinition: LATENCY_DEFINITION,
        order: "växelvis: loppets omgång, sedan ekots, i varje par; en oräknad omgång på vardera först",
        roundSeconds: ROUND_SECONDS,
        roundPairs: ROUND_PAIRS,
        burstPairs: BURST_PAIRS,
        sockets: SOCKETS,
        tapsPerSecond: 1_000 / FINISHER_GAP_MS + 1_000 / FINISHER_GAP_MS,
        bibsPerSecond: 1_000 / BIB_GAP_MS,
        burstTaps: BURST_TAPS,
        lostAfterMs: LOST_AFTER_MS,
        targetRatio: TARGET_RATIO,
        echoStartMs: echo.startMs,
      },
      sustained: { rounds, ratios: sustainedRatios(rounds), raceCheck: sustainedCheck },
      burst: { rounds: bursts },
    };
    return { figures, summary: summarize(figures) };
  } finally {
    for (const phase of phases) closeAll(phase.sockets);
    echo ??= await echoStarting.catch(() => null);
    await echo?.stop();
  }
}

// ——— targets ———

/** The site: admin sign-in, races through the admin API, rapid taps and bibs through their calls. */
async function siteTarget(baseURL, runId) {
  const { cookie, callJson, config } = await devAdmin(baseURL, STEP_TIMEOUT_MS);

  const day = Math.floor(Date.now() / 60_000) % 9_000;
  const distances = { sustained: 5_500, burst: 5_400 };
  return {
    name: "race",
    snapshotAfterHello: true,
    socketUrl: (room) => `${config.wsUrl}/race/${encodeURIComponent(room)}`,
    socketHeaders: { cookie, origin: baseURL },

    /** A started race of its own (a far-future date per run) with RUNNERS runners, bibs 1…RUNNERS. */
    async prepare(scenario) {
      let room = null;
      for (let attempt = 0; attempt < 5 && !room; attempt++) {
        const date = new Date(Date.UTC(2061, 0, 1) + (day + attempt) * 86_400_000).toISOString().slice(0, 10);
        const distance = distances[scenario];
        const id = `race-${date.slice(2).replaceAll("-", "")}-${String(distance / 100).padStart(2, "0")}`;
        const made = await callJson("POST", `/admin/api/races/create-race/${id}`, { date, distance }, [200, 409]);
        if (made.status === 200) room = id;
      }
      if (!room) throw new Error("Kunde inte skapa något lopp (alla datum upptagna)");
      if (scenario === "sustained") {
        await inParallel(RUNNERS, 4, (i) =>
          callJson("POST", `/admin/api/races/add-runner/${room}`, {
            firstname: `Snabb${i + 1}`,
            lastname: `Löpare ${runId}`,
            age: 10 + (i % 30),
            bib: i + 1,
          }),
        );
      }
      await callJson("GET", `/admin/api/races/start/${room}`);
      return { room };
    },

    async clockOffset(socket) {
      let best = null;
      for (let id = 1; id <= 5; id++) {
        const t0 = Date.now();
        const { frame, at } = await socket.sync(id, t0);
        if (!best || at - t0 < best.rtt) best = { rtt: at - t0, offset: frame.t1 - (t0 + at) / 2 };
      }
      return Math.round(best.offset);
    },

    request(room, change, offset) {
      if (change.kind === "tap") {
        const query = new URLSearchParams({ tap: change.id, at: String(Date.now() + offset), device: change.device });
        return { method: "POST", url: `${baseURL}/admin/api/races/rapid/${room}?${query}`, body: "{}" };
      }
      return {
        method: "POST",
        url: `${baseURL}/admin/api/races/bibs/${room}?device=${change.device}`,
        body: JSON.stringify({ entry: change.id, bib: change.bib }),
      };
    },
    headers: { cookie, "x-loppet-client": "1", "content-type": "application/json" },

    /** The race's slots hold every tap sent in the sustained rounds, and every typed bib paired a runner. */
    async checkSlots(phase) {
      const { json } = await callJson("GET", `/admin/api/races/slots/${phase.room}`);
      const held = new Set(json.slots.flatMap((s) => s.taps.map((t) => t.id)));
      const taps = phase.sent.filter((c) => c.kind === "tap");
      const [, ...runners] = (await callJson("GET", `/admin/api/races/get/${phase.room}`)).json;
      return {
        tapsSent: taps.length,
        tapsHeld: taps.filter((c) => held.has(c.id)).length,
        slots: json.slots.length,
        pairedSlots: json.slots.filter((s) => s.taps.length === 2).length,
        bibsSent: phase.sent.filter((c) => c.kind === "bib").length,
        runnersTimed: runners.filter((r) => r.finished !== null).length,
      };
    },

    /** After a burst: all 30 held; each sent again answers 'replayed' and brings no new record. */
    async checkBurst(phase, changes) {
      const { json } = await callJson("GET", `/admin/api/races/slots/${phase.room}`);
      const held = new Set(json.slots.flatMap((s) => s.taps.map((t) => t.id)));
      const before = phase.tracker.records;
      const replays = changes.map((c) => ({ ...c, status: null, body: null }));
      await Promise.all(replays.map((c) => send(this, phase.room, c, phase.offset)));
      await sleep(REPLAY_QUIET_MS);
      return {
        held: changes.filter((c) => held.has(c.id)).length,
        replayed: replays.filter((c) => c.status === 200 && c.body?.outcome === "replayed").length,
        newSocketRecords: phase.tracker.records - before,
      };
    },
  };
}

/**
 * The baseline: the same calls' records made up and broadcast as they are. Each change is sent as the race gets it:
 * a POST with the same headers (the session cookie too) and the same JSON body, which the echo's Worker reads before
 * it calls its object, as the race's Worker does; only the answer's content differs.
 */
function echoTargetFor(echoBaseURL, runId, site) {
  const wsBase = echoBaseURL.replace(/^http/, "ws");
  let seq = 0;
  return {
    name: "echo",
    snapshotAfterHello: false,
    socketUrl: (room) => `${wsBase}/ws/${room}`,
    socketHeaders: {},
    async prepare(scenario) {
      return { room: `${runId}-rapid-${scenario}` };
    },
    async clockOffset() {
      return 0;
    },
    request(room, change) {
      seq += 1;
      const query = new URLSearchParams({ type: change.kind === "tap" ? "slot" : "bib", sort: change.sort, seq });
      const body = change.kind === "tap" ? "{}" : JSON.stringify({ entry: change.id, bib: change.bib });
      return { method: "POST", url: `${echoBaseURL}/tap/${room}?${query}`, body };
    },
    headers: site.headers,
  };
}

// ——— phases and rounds ———

/** A target's room for one scenario with its SOCKETS sockets open and subscribed. */
async function openPhase(target, scenario) {
  const { room } = await target.prepare(scenario);
  const tracker = { changes: new Map(), records: 0 };
  const sockets = await Promise.all(Array.from({ length: SOCKETS }, (_, i) => openSocket(target, room, i, tracker)));
  const offset = await target.clockOffset(sockets[0]);
  return { target, scenario, room, tracker, sockets, offset, sent: [], nextBib: 1, counter: 0 };
}

function newChange(phase, kind, device, extra = {}) {
  phase.counter += 1;
  const id = `rb${phase.target.name[0]}${phase.scenario[0]}${phase.counter}x${Math.random().toString(36).slice(2, 10)}`;
  const change = {
    kind,
    id,
    sort: `${kind === "tap" ? "slot" : "bib"}-${id}`,
    device,
    ...extra,
    sentAt: null,
    httpMs: null,
    status: null,
    body: null,
    arrivals: new Array(SOCKETS).fill(null),
    seqs: Array.from({ length: SOCKETS }, () => new Set()),
    doubled: 0,
  };
  phase.tracker.changes.set(change.sort, change);
  phase.sent.push(change);
  return change;
}

/** Sends one change; resolves (never rejects) once its answer is in `change`. */
async function send(target, room, change, offset) {
  const req = target.request(room, change, offset);
  change.sentAt = performance.now();
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: target.headers,
      body: req.body,
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    change.status = res.status;
    change.body = parseJson(await res.text());
  } catch (err) {
    change.status = `fel: ${err.message}`;
  }
  change.httpMs = performance.now() - change.sentAt;
}

/** `seconds` of taps at 10 a second from two phones and bibs at 2 a second, each on its own schedule. */
async function sustainedRound(phase, { seconds, label, deadline }) {
  const schedule = [];
  for (let t = 0; t < seconds * 1_000; t += FINISHER_GAP_MS) {
    schedule.push({ at: t, kind: "tap", device: "phone-a" });
    schedule.push({ at: t + PAIR_LAG_MS, kind: "tap", device: "phone-b" });
  }
  for (let t = 100; t < seconds * 1_000; t += BIB_GAP_MS) schedule.push({ at: t, kind: "bib", device: "phone-c" });
  schedule.sort((a, b) => a.at - b.at);
  const load = machineLoad();
  const client = clientDelays();
  const t0 = performance.now();
  const changes = [];
  const requests = [];
  let cutShort = false;
  for (const step of schedule) {
    await sleep(t0 + step.at - performance.now());
    if (Date.now() > deadline - 60_000) {
      cutShort = true;
      break;
    }
    const extra = step.kind === "bib" ? { bib: phase.nextBib++ } : {};
    const change = newChange(phase, step.kind, step.device, extra);
    changes.push(change);
    requests.push(send(phase.target, phase.room, change, phase.offset));
  }
  await Promise.all(requests);
  await waitDelivered(changes, (changes.at(-1)?.sentAt ?? 0) + LOST_AFTER_MS);
  const machine = { ...load.end(), client: client.end() };
  return {
    target: phase.target.name,
    label,
    ...deliveryFigures(changes),
    cpuPerChangeMs: cpuPerChange(phase.target.name, machine, changes.length),
    cutShort,
    machine,
  };
}

/**
 * What each change cost the target's own processes in CPU (lib/machine.mjs's cpuMsByProcess): its workerd runtime
 * (the Worker and the object) and wrangler's proxy in front of it, and this client. The other target's servers sit
 * idle meanwhile.
 */
function cpuPerChange(target, machine, changes) {
  const byProcess = machine.cpuMsByProcess;
  if (!byProcess || changes === 0) return null;
  const prefix = target === "race" ? "site" : "echo";
  const per = (name) => round2((byProcess[name] ?? 0) / changes);
  return { runtime: per(`${prefix}Runtime`), proxy: per(`${prefix}Proxy`), client: per("client") };
}

/** BURST_TAPS rapid taps in 3 s from two phones, then (the race) the checks. */
async function burstRound(phase, label) {
  const load = machineLoad();
  const client = clientDelays();
  const changes = [];
  const requests = [];
  const t0 = performance.now();
  for (let i = 0; i < BURST_TAPS; i++) {
    await sleep(t0 + i * BURST_GAP_MS - performance.now());
    const change = newChange(phase, "tap", i % 2 === 0 ? "phone-a" : "phone-b");
    changes.push(change);
    requests.push(send(phase.target, phase.room, change, phase.offset));
  }
  await Promise.all(requests);
  await waitDelivered(changes, t0 + BURST_TAPS * BURST_GAP_MS + LOST_AFTER_MS);
  const complete = changes.every((c) => c.arrivals.every((a) => a !== null));
  const lastArrival = Math.max(
    ...changes.flatMap((c) => c.arrivals.filter((a) => a !== null).map((a) => c.sentAt + a)),
  );
  const figures = {
    target: phase.target.name,
    label,
    ...deliveryFigures(changes),
    firstSendToAllDeliveredMs: complete ? round(lastArrival - t0) : null,
    lastSendToAllDeliveredMs: complete ? round(lastArrival - changes.at(-1).sentAt) : null,
    machine: { ...load.end(), client: client.end() },
  };
  if (phase.target.checkBurst) figures.checks = await phase.target.checkBurst(phase, changes);
  return figures;
}

function waitDelivered(changes, until) {
  return waitUntil(() => changes.every((c) => c.arrivals.every((a) => a !== null)), until);
}

function deliveryFigures(changes) {
  const all = changes.flatMap((c) => c.arrivals.filter((a) => a !== null));
  const taps = changes.filter((c) => c.kind === "tap").flatMap((c) => c.arrivals.filter((a) => a !== null));
  const bibs = changes.filter((c) => c.kind === "bib").flatMap((c) => c.arrivals.filter((a) => a !== null));
  const notOk = changes.filter((c) => !okAnswer(c));
  return {
    changes: changes.length,
    deliveries: all.length,
    lost: changes.reduce((n, c) => n + c.arrivals.filter((a) => a === null).length, 0),
    doubled: changes.reduce((n, c) => n + c.doubled, 0),
    httpNotOk: notOk.length,
    firstHttpNotOk: notOk[0] ? { kind: notOk[0].kind, status: notOk[0].status, body: notOk[0].body } : null,
    changeToSocketMs: stats(all),
    tapToSocketP95Ms: stats(taps).p95,
    bibToSocketP95Ms: stats(bibs).p95,
    httpMs: stats(changes.map((c) => c.httpMs).filter((v) => v !== null)),
  };
}

function okAnswer(change) {
  if (change.status !== 200) return false;
  return typeof change.body?.sent === "number" || ["recorded", "replayed"].includes(change.body?.outcome);
}

function sustainedRatios(rounds) {
  const race = rounds.filter((r) => r.target === "race" && r.label !== "uppvärmning");
  const echo = rounds.filter((r) => r.target === "echo" && r.label !== "uppvärmning");
  const perPair = race.map((r, i) => {
    const e = echo[i];
    return {
      pair: r.label,
      raceP95: r.changeToSocketMs.p95,
      echoP95: e?.changeToSocketMs.p95 ?? null,
      ratio: ratio(r, e),
      raceRuntimeCpuMs: r.cpuPerChangeMs?.runtime ?? null,
      echoRuntimeCpuMs: e?.cpuPerChangeMs?.runtime ?? null,
    };
  });
  return { perPair };

  function ratio(r, e) {
    return e?.changeToSocketMs.p95 ? round2(r.changeToSocketMs.p95 / e.changeToSocketMs.p95) : null;
  }
}

// ——— sockets ———

/** One subscribed socket (lib/socket-bench.mjs); its later frames go to the tracker. */
function openSocket(target, room, index, tracker) {
  const onFrame = (socket, frame, at) => onRecords(tracker, socket.index, frame, at);
  return openBenchSocket(target, room, index, onFrame, STEP_TIMEOUT_MS);
}

function onRecords(tracker, index, frame, at) {
  for (const record of frame) {
    const change = tracker.changes.get(record?.sort);
    if (!change) continue;
    tracker.records += 1;
    if (change.seqs[index].has(record.seq)) change.doubled += 1;
    change.seqs[index].add(record.seq);
    if (change.arrivals[index] === null && change.sentAt !== null) change.arrivals[index] = at - change.sentAt;
  }
}

// ——— summary ———

function roundLine(r) {
  return (
    `${r.target.padEnd(5)} omgång ${r.label}: p50 ${r.changeToSocketMs.p50} p95 ${r.changeToSocketMs.p95} ` +
    `p99 ${r.changeToSocketMs.p99} max ${r.changeToSocketMs.max} ms (måltider p95 ${r.tapToSocketP95Ms}, ` +
    `startnummer p95 ${r.bibToSocketP95Ms}), ${r.changes} ändringar, förlorade ${r.lost}, dubbla ${r.doubled}, ` +
    `HTTP ej ok ${r.httpNotOk}${r.cutShort ? " – AVKORTAD" : ""}; ${cpuLine(r.cpuPerChangeMs)}${machineLine(r.machine)}`
  );
}

function cpuLine(cpu) {
  return cpu ? `CPU per ändring: workerd ${cpu.runtime} ms, proxy ${cpu.proxy} ms, klient ${cpu.client} ms; ` : "";
}

function burstLine(b) {
  const checks = b.checks
    ? `; kvar ${b.checks.held}/${BURST_TAPS}, återspelade ${b.checks.replayed}/${BURST_TAPS}, ` +
      `nya poster ${b.checks.newSocketRecords}`
    : "";
  return (
    `${b.target.padEnd(5)} skur ${b.label}: alla har alla ${b.firstSendToAllDeliveredMs ?? "–"} ms efter första ` +
    `(${b.lastSendToAllDeliveredMs ?? "–"} ms efter sista), p95 ` +
    `${b.changeToSocketMs.p95} ms, förlorade ${b.lost}, dubbla ${b.doubled}${checks}; ${machineLine(b.machine)}`
  );
}

function summarize(figures) {
  const lines = [
    `Ihållande: ${SOCKETS} sockets, 10 måltider/s (två telefoner) + 2 startnummer/s, ${ROUND_PAIRS} par om ` +
      `${ROUND_SECONDS} s, växelvis lopp/eko`,
  ];
  for (const r of figures.sustained.rounds) lines.push(`  ${roundLine(r)}`);
  const counted = figures.sustained.rounds.filter((r) => r.label !== "uppvärmning");
  const pooled = (target) => counted.filter((r) => r.target === target);
  for (const p of figures.sustained.ratios.perPair) {
    const cpu =
      p.raceRuntimeCpuMs === null ? "" : `; workerd-CPU per ändring ${p.raceRuntimeCpuMs} / ${p.echoRuntimeCpuMs} ms`;
    lines.push(`  par ${p.pair}: loppets p95 ${p.raceP95} / ekots ${p.echoP95} ms = ${p.ratio ?? "–"}${cpu}`);
  }
  const p95s = (target) => pooled(target).map((r) => r.changeToSocketMs.p95);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const ratioOfMedians = round2(median(p95s("race")) / median(p95s("echo")));
  const lost = counted.reduce((n, r) => n + r.lost + r.doubled, 0);
  lines.push(
    `  medianen av loppets p95 / ekots: ${ratioOfMedians} (mål ≤ ${TARGET_RATIO}); förlorade + dubbla ${lost}; ` +
      `kontroll: ${figures.sustained.raceCheck.tapsHeld}/${figures.sustained.raceCheck.tapsSent} måltider kvar, ` +
      `${figures.sustained.raceCheck.slots} platser (${figures.sustained.raceCheck.pairedSlots} parade), ` +
      `${figures.sustained.raceCheck.runnersTimed} löpare med tid av ${figures.sustained.raceCheck.bibsSent} startnummer`,
  );
  lines.push(`Skur: ${BURST_TAPS} måltider på 3 s från två telefoner, ${SOCKETS} sockets, ${BURST_PAIRS} par`);
  for (const b of figures.burst.rounds) lines.push(`  ${burstLine(b)}`);
  return lines.join("\n");
}

// ——— helpers ———

function round2(x) {
  return Math.round(x * 100) / 100;
}

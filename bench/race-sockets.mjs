/**
 * Race day's live sockets (DESIGN.md's quality bar: "a finish tap reaches 20 admin devices within 1.2x the p95 of
 * a minimal echo Durable Object; a burst of 50 taps from 5 devices within 1.5x, zero lost or doubled", judged in
 * alternating rounds of one run), over loopback against the real server. The reference is a minimal Durable
 * Object in its own tiny Worker (bench/echo/) that only holds hibernating sockets and broadcasts what an HTTP call
 * gives it (no storage, no D1, no sign-in), started here on the project's wrangler and stopped at the end.
 *
 * 1. Sustained: 20 sockets on the race (and 20 on one echo room), opened once and kept. One uncounted round on
 *    each first (the echo Worker has just started), then ROUND_PAIRS pairs of rounds, the race's then the echo's,
 *    each ROUND_SECONDS of 10 finish taps a second on their own schedule (a slow answer does not delay the next
 *    tap); each tap on its own runner, round-robin over 20 device ids, with its own tap id and `at` = now on the
 *    server's clock. Figure: for every tap and every socket, the time from sending the HTTP request to that socket
 *    receiving the runner's finish event (matched by sort; `finished` must be the tap's moment); its p50/p95/p99/max
 *    per round, the HTTP answer's latency, lost deliveries (not within 5 s) and doubled ones (the same runner's
 *    event with the same seq twice on one socket). Ratios: race p95 / echo p95 for each pair, and over all rounds
 *    (every race delivery pooled against every echo delivery). Afterwards GET /admin/api/races/get/{raceId} must
 *    show every tapped runner finished at its tap's moment.
 * 2. Burst: 5 sockets on a second race (and on a second echo room); BURST_PAIRS pairs, the race's then the
 *    echo's, of 50 taps (10 from each of 5 devices, each on a runner of its own) whose HTTP requests all start at
 *    once. Figure: from the first send until all 5 sockets have all 50 events. After each race burst (untimed) the
 *    GET must show the 50 finished, and every tap id sent again must answer 'replayed' with the same moment and
 *    bring no new socket event. Ratio: the race's time / the echo's for each pair, and the ratio of the medians.
 *
 * The echo's runners are made-up sorts; the get and replay checks do not apply to it. Both servers run on wrangler
 * dev without its local observability (bench/lib/server-env.mjs). Each round records how busy the shared machine
 * was meanwhile (bench/lib/machine.mjs): load average, CPU pressure, the time the servers' and the client's
 * threads waited for a core, and the client's event-loop delay and garbage collections. `RACE_BENCH_SECONDS` changes the round length,
 * `RACE_BENCH_ROUNDS` the number of sustained pairs, `RACE_BENCH_BURSTS` the number of burst pairs. The whole
 * benchmark keeps to BUDGET_MS: a round that would overrun it stops sending early, and the figures say so.
 */
import { performance } from "node:perf_hooks";
import { sleep } from "./lib/async.mjs";
import { devAdmin } from "./lib/http.mjs";
import {
  closeAll,
  openBenchSocket,
  parseJson,
  positiveInteger,
  positiveNumber,
  round,
  stats,
  waitUntil as waitFor,
} from "./lib/socket-bench.mjs";
import { clientDelays, machineLine, machineLoad } from "./lib/machine.mjs";
import { startEcho } from "./lib/echo-server.mjs";

const ROUND_SECONDS = positiveNumber(process.env.RACE_BENCH_SECONDS) ?? 10;
const ROUND_PAIRS = positiveInteger(process.env.RACE_BENCH_ROUNDS) ?? 3;
const BURST_PAIRS = positiveInteger(process.env.RACE_BENCH_BURSTS) ?? 3;
const TAPS_PER_SECOND = 10;
const TAPS_PER_ROUND = Math.max(1, Math.round(ROUND_SECONDS * TAPS_PER_SECOND));
/** The uncounted first round on each target. */
const WARMUP_TAPS = 30;
const SUSTAINED_SOCKETS = 20;
const BURST_SOCKETS = 5;
const BURST_TAPS_PER_DEVICE = 10;
const BURST_TAPS = BURST_SOCKETS * BURST_TAPS_PER_DEVICE;
/** A socket that has not received a tap's event this long after the tap was sent has lost it. */
const LOST_AFTER_MS = 5_000;
/** After the replayed taps have answered, this long without any new finish event on any socket. */
const REPLAY_QUIET_MS = 1_000;
/** DESIGN.md's bars, as ratios to the echo measured in the same run. */
const TARGET_SUSTAINED_RATIO = 1.2;
const TARGET_BURST_RATIO = 1.5;
/** The absolute bars, still shown. */
const TARGET_P95_MS = 50;
const TARGET_BURST_MS = 1_000;
/** The whole benchmark, echo server start and stop included. */
const BUDGET_MS = 6 * 60_000;
/** One request, socket answer or echo server start taking longer than this is a failure, not a sample. */
const STEP_TIMEOUT_MS = 20_000;
/** Parallel add-runner calls while setting up (the race object serialises them anyway). */
const SETUP_CONCURRENCY = 4;

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
  // Started at once, while the race is being set up (untimed), and ready before any timed round.
  const echoStarting = startEcho();
  echoStarting.catch(() => {});
  let echo = null;
  const phases = [];
  try {
    const race = await raceTarget(baseURL, runId);
    const sustainedTaps = WARMUP_TAPS + ROUND_PAIRS * TAPS_PER_ROUND;
    const raceSustained = await openPhase(race, "sustained", sustainedTaps, SUSTAINED_SOCKETS);
    phases.push(raceSustained);
    const raceBurst = await openPhase(race, "burst", BURST_PAIRS * BURST_TAPS, BURST_SOCKETS);
    phases.push(raceBurst);
    echo = await echoStarting;
    const echoTarget = echoTargetFor(echo.baseURL, runId);
    const echoSustained = await openPhase(echoTarget, "sustained", sustainedTaps, SUSTAINED_SOCKETS);
    phases.push(echoSustained);
    const echoBurst = await openPhase(echoTarget, "burst", BURST_PAIRS * BURST_TAPS, BURST_SOCKETS);
    phases.push(echoBurst);

    // Alternating rounds, so a busy moment of the shared machine weighs on both alike.
    const warmup = [];
    for (const phase of [raceSustained, echoSustained]) {
      warmup.push(await sustainedRound(phase, { taps: WARMUP_TAPS, label: "uppvärmning", deadline }));
    }
    const rounds = [];
    for (let pair = 1; pair <= ROUND_PAIRS; pair++) {
      for (const phase of [raceSustained, echoSustained]) {
        const round = await sustainedRound(phase, { taps: TAPS_PER_ROUND, label: `${pair}`, deadline });
        rounds.push(round);
        console.log(`  ${roundLine(round)}`);
      }
    }
    closeAll(raceSustained.sockets);
    closeAll(echoSustained.sockets);
    const sustainedCheck = await race.checkFinished(raceSustained);

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
        transport:
          "loopback, wrangler dev (lokal workerd) för både sajten och eko-Workern, utan wranglers lokala " +
          "observability (bench/lib/server-env.mjs)",
        timer: "performance.now() i Node-klienten; alla sockets och HTTP-anrop i samma process",
        latencyDefinition: LATENCY_DEFINITION,
        order: "växelvis: loppets omgång, sedan ekots, i varje par; en oräknad omgång på vardera först",
        lostAfterMs: LOST_AFTER_MS,
        roundSeconds: ROUND_SECONDS,
        roundPairs: ROUND_PAIRS,
        burstPairs: BURST_PAIRS,
        tapsPerSecond: TAPS_PER_SECOND,
        sustainedSockets: SUSTAINED_SOCKETS,
        burstSockets: BURST_SOCKETS,
        burstTaps: BURST_TAPS,
        targets: {
          sustainedP95Ratio: TARGET_SUSTAINED_RATIO,
          burstRatio: TARGET_BURST_RATIO,
          lostOrDoubled: 0,
          sustainedP95Ms: TARGET_P95_MS,
          burstMs: TARGET_BURST_MS,
        },
        ratios:
          "ihållande: loppets p95 / ekots p95 per par (intilliggande omgångar) och över alla omgångar (alla " +
          "leveranser sammanslagna); skur: loppets tid / ekots per par, och kvoten mellan medianerna",
        baseline:
          "bench/echo: en Durable Object med viloläges-sockets (ctx.acceptWebSocket) som bara sänder ut det " +
          "GET /tap ger den; ingen lagring, ingen D1, ingen inloggning.",
        load:
          "per omgång (bench/lib/machine.mjs): 1-minuters belastning vid start och slut, maskinens CPU-andel, " +
          "CPU-tryck (/proc/pressure/cpu some) och hur länge serverns och klientens trådar väntade på en kärna",
      },
      echoStartMs: echo.startMs,
      warmup: warmup.map(withoutSamples),
      rounds,
      bursts,
      sustainedCheck,
      verdict: verdict(rounds, bursts, sustainedCheck),
    };
    return { figures, summary: summarize(figures) };
  } catch (err) {
    if (!echo) {
      const started = await echoStarting.catch(() => null);
      if (!started) throw new Error(`${err.message}\n(eko-Workern startade inte)`, { cause: err });
    }
    throw err;
  } finally {
    for (const phase of phases) closeAll(phase.sockets);
    echo ??= await echoStarting.catch(() => null);
    await echo?.stop();
  }
}

// ——— phases and rounds ———

/**
 * A target's room for one scenario with `runners` runners (each tap takes the next one), and `sockets` sockets
 * subscribed to it, kept for all the scenario's rounds; each round gives them a tracker of its own.
 */
async function openPhase(target, scenario, runners, sockets) {
  const prepared = await target.prepare(scenario, runners);
  const phase = { target, scenario, prepared, next: 0, taps: [], sockets: [] };
  phase.sockets = await openSockets(target, prepared.room, sockets);
  return phase;
}

function takeTap(phase, tracker, device) {
  const index = phase.next++;
  if (index >= phase.prepared.sorts.length)
    throw new Error(`${phase.target.name}: inga fler löpare i ${phase.scenario}`);
  const tap = newTap(tracker, {
    index,
    sort: phase.prepared.sorts[index],
    id: `bench-${phase.prepared.runId}-${index}`,
    device,
  });
  phase.taps.push(tap);
  return tap;
}

/** `taps` taps at TAPS_PER_SECOND on their own schedule, round-robin over the phase's sockets' devices. */
async function sustainedRound(phase, { taps, label, deadline }) {
  const { target, prepared, sockets } = phase;
  const tracker = newTracker(sockets.length);
  listen(sockets, tracker);
  const offset = await target.clockOffset(sockets[0]);
  const load = machineLoad();
  const client = clientDelays();
  const requests = [];
  const interval = 1_000 / TAPS_PER_SECOND;
  const t0 = performance.now();
  let cutShort = false;
  for (let i = 0; i < taps; i++) {
    await sleep(t0 + i * interval - performance.now());
    if (Date.now() > deadline) {
      cutShort = true;
      break;
    }
    const tap = takeTap(phase, tracker, `bench-dev-${String(i % sockets.length).padStart(2, "0")}`);
    requests.push(fire(target, prepared.room, tap, offset));
  }
  const sendSpanMs = performance.now() - t0;
  await Promise.all(requests);
  const last = tracker.taps.at(-1);
  await waitFor(() => tracker.delivered === tracker.expected, (last?.sentAt ?? 0) + LOST_AFTER_MS);
  const machine = { ...load.end(), client: client.end() };
  listen(sockets, null);
  return {
    target: target.name,
    round: label,
    ...deliveryFigures(tracker),
    planned: taps,
    cutShort,
    sendSpanMs: round(sendSpanMs),
    clockOffsetMs: offset,
    machine,
    socketErrors: socketErrors(sockets),
    perTap: {
      columns: ["httpMs", "firstSocketMs", "lastSocketMs"],
      samples: tracker.taps.map((tap) => {
        const got = arrivalsMs(tap);
        return [round(tap.httpAt - tap.sentAt), got.length ? round(Math.min(...got)) : null, lastOrNull(tap)];
      }),
    },
    // For the pooled ratio; left out of the results file (withoutSamples).
    samples: tracker.taps.flatMap(arrivalsMs),
  };
}

/** BURST_TAPS taps whose requests all start at once, then the target's own checks. */
async function burstRound(phase, label) {
  const { target, prepared, sockets } = phase;
  const tracker = newTracker(sockets.length);
  listen(sockets, tracker);
  try {
    const offset = await target.clockOffset(sockets[0]);
    const taps = Array.from({ length: BURST_TAPS }, (_, i) =>
      takeTap(phase, tracker, `bench-burst-${Math.floor(i / BURST_TAPS_PER_DEVICE)}`),
    );
    const load = machineLoad();
    const client = clientDelays();
    const t0 = performance.now();
    await Promise.all(taps.map((tap) => fire(target, prepared.room, tap, offset)));
    const allAnsweredMs = Math.max(...taps.map((tap) => tap.httpAt)) - t0;
    await waitFor(() => tracker.delivered === tracker.expected, t0 + LOST_AFTER_MS);
    const machine = { ...load.end(), client: client.end() };
    const complete = tracker.delivered === tracker.expected;
    const allArrived = Math.max(...taps.flatMap((tap) => tap.arrivals.filter((a) => a !== null)));
    const figures = {
      target: target.name,
      round: label,
      ...deliveryFigures(tracker),
      firstSendToAllDeliveredMs: complete ? round(allArrived - t0) : null,
      firstSendToAllAnsweredMs: round(allAnsweredMs),
      machine,
      socketErrors: socketErrors(sockets),
    };
    if (target.check) figures.checks = await target.check(prepared, taps, tracker, offset);
    return figures;
  } finally {
    listen(sockets, null);
  }
}

// ——— verdict and summary ———

function verdict(rounds, bursts, sustainedCheck) {
  const of = (list, name) => list.filter((r) => r.target === name);
  const raceRounds = of(rounds, "race");
  const echoRounds = of(rounds, "echo");
  const pairRatios = raceRounds.map((r, i) => ratio(r.tapToSocketMs.p95, echoRounds[i]?.tapToSocketMs.p95));
  const racePooled = stats(raceRounds.flatMap((r) => r.samples));
  const echoPooled = stats(echoRounds.flatMap((r) => r.samples));
  for (const r of rounds) delete r.samples;
  const overallRatio = ratio(racePooled.p95, echoPooled.p95);
  const clean = (list) =>
    list.every((r) => r.lost === 0 && r.doubled === 0 && r.extraFinishEvents === 0 && r.httpNotOk === 0);

  const raceBursts = of(bursts, "race");
  const echoBursts = of(bursts, "echo");
  const burstPairRatios = raceBursts.map((b, i) =>
    ratio(b.firstSendToAllDeliveredMs, echoBursts[i]?.firstSendToAllDeliveredMs),
  );
  const median = (values) => (values.includes(null) ? null : stats(values).p50);
  const raceBurstMedian = median(raceBursts.map((b) => b.firstSendToAllDeliveredMs));
  const echoBurstMedian = median(echoBursts.map((b) => b.firstSendToAllDeliveredMs));
  const burstRatio = ratio(raceBurstMedian, echoBurstMedian);
  const checksOk = raceBursts.every(
    (b) =>
      b.checks?.getFinished === BURST_TAPS &&
      b.checks.replay.replayed === BURST_TAPS &&
      b.checks.replay.sameMoment === BURST_TAPS &&
      b.checks.replay.newSocketEvents === 0 &&
      b.checks.replay.raceUnchanged,
  );
  return {
    sustained: {
      raceP95Ms: racePooled.p95,
      echoP95Ms: echoPooled.p95,
      race: racePooled,
      echo: echoPooled,
      pairRatios,
      overallRatio,
      met: overallRatio !== null && overallRatio <= TARGET_SUSTAINED_RATIO && clean(rounds),
      pairsMet: pairRatios.filter((r) => r !== null && r <= TARGET_SUSTAINED_RATIO).length,
      noneLostOrDoubled: clean(rounds),
      getShowsAllFinished: sustainedCheck.getFinished === sustainedCheck.taps,
    },
    burst: {
      raceMedianMs: raceBurstMedian,
      echoMedianMs: echoBurstMedian,
      pairRatios: burstPairRatios,
      ratio: burstRatio,
      met: burstRatio !== null && burstRatio <= TARGET_BURST_RATIO && clean(bursts),
      pairsMet: burstPairRatios.filter((r) => r !== null && r <= TARGET_BURST_RATIO).length,
      noneLostOrDoubled: clean(bursts),
      checksOk,
    },
  };
}

function summarize(figures) {
  const { rounds, bursts, verdict: v } = figures;
  const yes = (ok) => (ok ? "uppfyllt" : "EJ uppfyllt");
  const list = (values) => values.map((x) => x ?? "–").join(" / ");
  const lines = [
    `Ihållande: ${SUSTAINED_SOCKETS} sockets, ${TAPS_PER_SECOND} tryck/s, ${ROUND_PAIRS} par omgångar à ` +
      `${ROUND_SECONDS} s (${TAPS_PER_ROUND} tryck, ${TAPS_PER_ROUND * SUSTAINED_SOCKETS} leveranser), ` +
      `växelvis lopp/eko; tryck → socket:`,
    ...rounds.map((r) => `  ${roundLine(r)}`),
    `  p95 lopp/eko per par: ${list(v.sustained.pairRatios)}; över alla omgångar ` +
      `${v.sustained.raceP95Ms} / ${v.sustained.echoP95Ms} ms = ${v.sustained.overallRatio} ` +
      `(mål ≤ ${TARGET_SUSTAINED_RATIO}, inga förlorade eller dubbla): ${yes(v.sustained.met)}`,
    `  alla rundor: lopp p50/p95/p99/max ${percentiles(v.sustained.race)}, eko ${percentiles(v.sustained.echo)}`,
    `  kontroll: GET visar ${figures.sustainedCheck.getFinished}/${figures.sustainedCheck.taps} i mål på tryckets tid`,
    `Skur: ${BURST_TAPS} tryck samtidigt från ${BURST_SOCKETS} enheter, ${BURST_SOCKETS} sockets, ${BURST_PAIRS} par; ` +
      `första sändning → alla har alla:`,
    ...bursts.map((b) => `  ${burstLine(b)}`),
    `  lopp/eko per par: ${list(v.burst.pairRatios)}; medianer ${v.burst.raceMedianMs} / ${v.burst.echoMedianMs} ms ` +
      `= ${v.burst.ratio} (mål ≤ ${TARGET_BURST_RATIO}, inga förlorade eller dubbla): ${yes(v.burst.met)}`,
    `  kontroller efter varje loppskur (GET 50/50 i mål, 50 'replayed' med samma tid, inga nya händelser, ` +
      `loppet oförändrat): ${v.burst.checksOk ? "alla gick igenom" : "MISSLYCKADES, se JSON"}`,
    `  (eko-Workern startade på ${figures.echoStartMs} ms, parallellt med förberedelserna; en oräknad ` +
      `omgång på ${WARMUP_TAPS} tryck på vardera först)`,
  ];
  const odd = [...rounds, ...bursts].filter(
    (f) => f.firstError || f.strayFinishEvents || f.extraFinishEvents || f.finishedMismatch || f.cutShort,
  );
  if (odd.length > 0) {
    lines.push(
      `Avvikelser i ${odd.length} omgångar: se firstError/strayFinishEvents/extraFinishEvents/cutShort i JSON`,
    );
  }
  return lines.join("\n");
}

function roundLine(r) {
  const name = r.target === "race" ? "lopp" : "eko ";
  return (
    `omgång ${r.round} ${name}: ${percentiles(r.tapToSocketMs)} ms, HTTP p95 ${r.httpMs.p95} ms, ` +
    `förlorade/dubbla ${r.lost}/${r.doubled}${r.cutShort ? ", AVKORTAD" : ""}; ${machineLine(r.machine)}`
  );
}

function burstLine(b) {
  const name = b.target === "race" ? "lopp" : "eko ";
  return (
    `skur ${b.round} ${name}: ${b.firstSendToAllDeliveredMs ?? "–"} ms (alla HTTP-svar ${b.firstSendToAllAnsweredMs} ms), ` +
    `förlorade/dubbla ${b.lost}/${b.doubled}; ${machineLine(b.machine)}`
  );
}

function percentiles(s) {
  return `${s.p50}/${s.p95}/${s.p99}/${s.max}`;
}

function ratio(a, b) {
  return a === null || a === undefined || !b ? null : Math.round((a / b) * 100) / 100;
}

function withoutSamples(round) {
  const { samples: _samples, ...rest } = round;
  return rest;
}

// ——— targets ———

/** The site: admin sign-in, races made through the admin API, taps through the spec's finish call. */
async function raceTarget(baseURL, runId) {
  const { cookie, callJson: adminJson, config } = await devAdmin(baseURL, STEP_TIMEOUT_MS);

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

    /** After the sustained rounds: how many of the phase's tapped runners GET shows finished at the tap's moment. */
    async checkFinished(phase) {
      const { json } = await adminJson("GET", `/admin/api/races/get/${phase.prepared.room}`);
      return { taps: phase.taps.length, getFinished: countFinishedAsTapped(json, phase.taps) };
    },

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

function newTap(tracker, { index, sort, id, device }) {
  const tap = {
    index,
    sort,
    id,
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

function openSockets(target, room, count) {
  return Promise.all(Array.from({ length: count }, (_, index) => openSocket(target, room, index)));
}

/** From now on the sockets' events go to `tracker` (null: ignored, between rounds). */
function listen(sockets, tracker) {
  for (const socket of sockets) socket.tracker = tracker;
}

/** One subscribed socket (lib/socket-bench.mjs); its later frames go to its tracker, if any. */
function openSocket(target, room, index) {
  const onFrame = (socket, frame, at) => socket.tracker && onEvents(socket.tracker, socket, frame, at);
  return openBenchSocket(target, room, index, onFrame, STEP_TIMEOUT_MS);
}

function socketErrors(sockets) {
  return {
    closedEarly: sockets.filter((s) => s.closed !== null).length,
    frames: sockets.flatMap((s) => s.errors).slice(0, 5),
  };
}

// ——— helpers ———

function isoDate(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

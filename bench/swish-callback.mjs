/**
 * DESIGN.md's callback bar, against the real server over loopback: "the callback is answered (200) within 3x a bare
 * request timed alongside, the settlement work running after the answer" (reference/swish.md §4: reply fast).
 *
 * Set-up, untimed: with the simulator's callbacks dropped (POST /dev/swish/settings), each visitor registers through
 * the public calls (its own e-mail and cf-connecting-ip, as in payment-flow.mjs), books with Swish and pays on the
 * simulator's phone; the payment stays CREATED here, since Swish's callback never came. The callback body is the
 * payment object from the simulator's retrieve path (what Swish would send), and the callbackIdentifier, a secret
 * only the server and Swish hold, is read from the server's local D1 with one
 * `wrangler d1 execute DB --local --persist-to <state dir>` (as admin-analytics.mjs writes there); no route hands
 * it out, in development either.
 *
 * 1. Answer time: CALLBACK_BENCH_PAYMENTS (default 100) first callbacks of paid payments, one at a time, each as
 *    Swish sends it (POST /swish/callback, JSON, the callbackIdentifier header, no cookies), after WARM_UP
 *    untimed ones. Beside each, the bare GET /api/health (no D1, no JSON) is timed, alternately just before the
 *    callback and just after its settlement, so neither runs beside the settlement work. Between callbacks the
 *    client waits (untimed) until the payment's receipt is in /dev/outbox.json, so no answer is timed beside the
 *    previous one's settlement. Time: the client's, from the request to the whole body. Then the same callback is
 *    sent once more (a replay: the payment is PAID, so nothing starts after the answer) and timed too: the gap
 *    between the two shows what the settlement work running beside the first answer costs it. Locally that work
 *    shares workerd's one thread (and local D1's) with the answer's way out; on Cloudflare D1 and Swish are
 *    remote I/O.
 * 2. Three callbacks at once while Swish takes 600 ms to answer (apiDelayMs 600): the time until all three are
 *    answered, over PARALLEL_ROUNDS payments; the answers must come before Swish's (the re-fetch runs after them),
 *    the payment must still be CREATED right after, and it must settle exactly once.
 *
 * Every payment is checked afterwards: PAID in the visitor's GET /get and exactly one receipt in the outbox.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { bin, NODE, ROOT, toolEnv } from "../scripts/lib/proc.mjs";
import { sleep } from "./lib/async.mjs";
import { newClient, percentile, request, round, STEP_TIMEOUT_MS } from "./lib/http.mjs";

const PAYMENTS = Number(process.env.CALLBACK_BENCH_PAYMENTS ?? 100);
const WARM_UP = 5;
const PARALLEL_ROUNDS = 5;
const PARALLEL_CALLBACKS = 3;
const SWISH_DELAY_MS = 600;
/** DESIGN.md: the callback's answer within 3x a bare request timed alongside. */
const TARGET_RATIO = 3;
/** How long a payment may take to settle (re-fetch, conditional write, runners, receipt) before it is a failure. */
const SETTLE_TIMEOUT_MS = 30_000;

const RUNNERS = [
  { firstname: "Vera", lastname: "Bänk", age: 41, company: "", distance: "5.6", group: "Dam" },
  { firstname: "Ivar", lastname: "Bänk", age: 9, company: "", distance: "1.6", group: "Ingen" },
];

export async function run({ baseURL, stateDir }) {
  if (!stateDir) throw new Error("swish-callback behöver serverns STATE_DIR (bench/run.mjs skickar den)");
  const config = await request(baseURL, "GET", "/api/config");
  if (!config.json?.season?.registrationOpen) throw new Error("Anmälan är stängd på servern; inget går att boka");
  const ctx = { baseURL, runId: Date.now().toString(36), visitors: 0 };

  await swishSettings(baseURL, { callbacks: "drop", apiDelayMs: 0 });
  try {
    const t0 = performance.now();
    const payments = [];
    for (let i = 0; i < WARM_UP + PAYMENTS + PARALLEL_ROUNDS; i++) payments.push(await paidPayment(ctx));
    const identifiers = callbackIdentifiers(
      stateDir,
      payments.map((p) => p.payid),
    );
    for (const p of payments) {
      p.identifier = identifiers.get(p.payid);
      if (!p.identifier) throw new Error(`Ingen callbackIdentifier i D1 för ${p.payid}`);
    }
    const setupMs = performance.now() - t0;

    // 1. One callback at a time, each with a bare request beside it.
    const samples = [];
    for (let i = 0; i < WARM_UP + PAYMENTS; i++) {
      const p = payments[i];
      const before = await paymentStatus(ctx, p);
      let bare;
      let answer;
      let replay;
      if (i % 2 === 0) {
        bare = await bareRequest(baseURL);
        answer = await sendCallback(baseURL, p);
        await receiptSent(ctx, p);
        replay = await sendCallback(baseURL, p);
      } else {
        answer = await sendCallback(baseURL, p);
        await receiptSent(ctx, p);
        replay = await sendCallback(baseURL, p);
        bare = await bareRequest(baseURL);
      }
      if (answer.status !== 200 || replay.status !== 200) {
        throw new Error(`Callbacken för ${p.payid} svarade ${answer.status}, upprepad ${replay.status}`);
      }
      if (i >= WARM_UP) {
        samples.push({ callbackMs: answer.ms, replayMs: replay.ms, bareMs: bare, createdBefore: before === "CREATED" });
      }
    }

    // 2. Three callbacks at once while Swish is slow.
    await swishSettings(baseURL, { apiDelayMs: SWISH_DELAY_MS });
    const rounds = [];
    for (const p of payments.slice(WARM_UP + PAYMENTS)) {
      const bareMs = await bareRequest(baseURL);
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: PARALLEL_CALLBACKS }, () => sendCallback(baseURL, p)));
      const allMs = performance.now() - started;
      const statusRightAfter = await paymentStatus(ctx, p);
      await receiptSent(ctx, p);
      const settledMs = performance.now() - started;
      if (answers.some((a) => a.status !== 200)) {
        throw new Error(`Callbackarna för ${p.payid} svarade ${answers.map((a) => a.status).join(", ")}`);
      }
      rounds.push({
        allAnsweredMs: allMs,
        eachMs: answers.map((a) => a.ms),
        bareMs,
        createdRightAfter: statusRightAfter === "CREATED",
        settledMs,
      });
    }
    await swishSettings(baseURL, { apiDelayMs: 0 });

    // Losers of the conditional write finish after the winner's receipt; give them a moment, then count.
    await sleep(1_000);
    const check = await settledOnce(ctx, payments);

    const callback = stats(samples.map((s) => s.callbackMs));
    const bare = stats(samples.map((s) => s.bareMs));
    const replay = stats(samples.map((s) => s.replayMs));
    const raw = (key, p) =>
      percentile(
        samples.map((s) => s[key]).sort((a, b) => a - b),
        p,
      );
    const ratio = {
      p50: round2(raw("callbackMs", 50) / raw("bareMs", 50)),
      p95: round2(raw("callbackMs", 95) / raw("bareMs", 95)),
    };
    const replayRatio = {
      p50: round2(raw("replayMs", 50) / raw("bareMs", 50)),
      p95: round2(raw("replayMs", 95) / raw("bareMs", 95)),
    };
    const allAnswered = stats(rounds.map((r) => r.allAnsweredMs));
    const figures = {
      method: {
        transport: "loopback (localhost), wrangler dev med Swish-simulatorn (callbacks: drop)",
        timer: "performance.now() i Node-klienten, från förfrågan till hela svaret",
        callback:
          "POST /swish/callback som Swish skickar den (betalningsobjektet, callbackIdentifier-huvudet), en i taget; " +
          "nästa först när förra betalningens kvitto finns i /dev/outbox.json",
        bare: "GET /api/health, växelvis strax före callbacken och strax efter dess avräkning",
        replay:
          "samma callback en gång till när betalningen är avräknad (PAID): samma svarsväg, men inget arbete " +
          "startar efter svaret; skillnaden mot den första visar vad avräkningen bredvid svaret kostar det",
        parallel: `${PARALLEL_CALLBACKS} samtidiga callbackar för samma betalning medan Swish svarar efter ${SWISH_DELAY_MS} ms`,
      },
      setupMs: Math.round(setupMs),
      warmUp: WARM_UP,
      payments: samples.length,
      callbackMs: callback,
      bareMs: bare,
      ratio,
      replayMs: replay,
      replayRatio,
      targetRatio: TARGET_RATIO,
      targetMet: ratio.p50 <= TARGET_RATIO && ratio.p95 <= TARGET_RATIO,
      createdBeforeCallback: samples.filter((s) => s.createdBefore).length,
      samplesMs: samples.map((s) => ({
        callback: round(s.callbackMs),
        replay: round(s.replayMs),
        bare: round(s.bareMs),
      })),
      parallel: {
        rounds: rounds.length,
        swishDelayMs: SWISH_DELAY_MS,
        allAnsweredMs: allAnswered,
        beforeSwish: rounds.filter((r) => r.allAnsweredMs < SWISH_DELAY_MS).length,
        createdRightAfter: rounds.filter((r) => r.createdRightAfter).length,
        samples: rounds.map((r) => ({
          allAnsweredMs: round(r.allAnsweredMs),
          eachMs: r.eachMs.map(round),
          bareMs: round(r.bareMs),
          createdRightAfter: r.createdRightAfter,
          settledMs: round(r.settledMs),
        })),
      },
      settledOnce: check,
    };

    const par = figures.parallel;
    const yes = (ok) => (ok ? "uppfyllt" : "EJ uppfyllt");
    const summary = [
      `Callback-svar, ${figures.payments} betalda betalningar en i taget (${WARM_UP} uppvärmning; ` +
        `förberedelse ${Math.round(setupMs / 1000)} s):`,
      `  callback p50 ${callback.p50} ms   p95 ${callback.p95} ms   max ${callback.max} ms`,
      `  bar förfrågan (GET /api/health) p50 ${bare.p50} ms   p95 ${bare.p95} ms   max ${bare.max} ms`,
      `  kvot p50 ${ratio.p50}×   p95 ${ratio.p95}×   (mål ≤ ${TARGET_RATIO}×: ${yes(figures.targetMet)})   ` +
        `CREATED före callbacken: ${figures.createdBeforeCallback}/${figures.payments}`,
      `  samma callback igen efter avräkningen (inget arbete efter svaret): p50 ${replay.p50} ms   ` +
        `p95 ${replay.p95} ms   kvot p50 ${replayRatio.p50}×   p95 ${replayRatio.p95}×`,
      `${PARALLEL_CALLBACKS} samtidiga callbackar medan Swish svarar efter ${SWISH_DELAY_MS} ms (${par.rounds} betalningar):`,
      `  alla svar: median ${allAnswered.p50} ms   max ${allAnswered.max} ms   ` +
        `(mål: före Swish, < ${SWISH_DELAY_MS} ms: ${par.beforeSwish}/${par.rounds}, ${yes(par.beforeSwish === par.rounds)})   ` +
        `fortfarande CREATED direkt efter: ${par.createdRightAfter}/${par.rounds}`,
      `Avräknade exakt en gång (PAID i /get, ett kvitto): ${check.paidOnce}/${check.payments}`,
    ].join("\n");
    return { figures, summary };
  } finally {
    // The next benchmark on this server gets the simulator's defaults back.
    await swishSettings(baseURL, { callbacks: "normal", apiDelayMs: 0 }).catch(() => {});
  }
}

/** A visitor registered and booked through the public calls, paid on the simulator's phone (callback dropped). */
async function paidPayment(ctx) {
  const n = ++ctx.visitors;
  const visitor = newClient(`10.78.${Math.floor(n / 250)}.${(n % 250) + 1}`);
  visitor.email = `callback-${ctx.runId}-${n}@example.se`;
  const call = async (method, path, body, who = visitor) => {
    const res = await request(ctx.baseURL, method, path, body, who);
    if (res.status < 200 || res.status > 299) {
      throw new Error(`${method} ${path} svarade ${res.status}: ${JSON.stringify(res.json)}`);
    }
    return res.json;
  };
  const login = await call("POST", "/email", { email: visitor.email });
  if (!/^\d{6}$/.test(login.code ?? "")) throw new Error("/email gav ingen kod (körs servern i utvecklingsläge?)");
  await call("POST", "/code", { email: visitor.email, codeId: login.id, code: login.code });
  const runners = Object.fromEntries(
    RUNNERS.map((r) => {
      const id = randomUUID();
      return [id, { id, ...r }];
    }),
  );
  const view = await call("POST", "/update", { runners });
  const booked = await call("POST", "/book-v2", { kampanj: "", barn: view.barn, vuxna: view.vuxna });
  if (!booked.token || booked.token === "kampanj") throw new Error(`Ingen Swish-betalning: ${JSON.stringify(booked)}`);
  const paid = await call("POST", `/dev/swish/pay/${booked.token}`, { status: "PAID" }, null);
  if (paid.payment?.status !== "PAID" || paid.callbackStatuses.length > 0) {
    throw new Error(`Simulatorn betalade inte utan callback: ${JSON.stringify(paid)}`);
  }
  const swishObject = await call("GET", `/dev/swish/swish-cpcapi/api/v1/paymentrequests/${booked.payref}`, null, null);
  return { payid: booked.payref, visitor, body: JSON.stringify(swishObject) };
}

/** The payments' callbackIdentifier, from the server's local D1 (one wrangler call for all of them). */
function callbackIdentifiers(stateDir, payids) {
  if (!payids.every((id) => /^[0-9A-F]{32}$/.test(id))) throw new Error("Oväntat betalnings-id");
  const sql = `SELECT id, callback_identifier FROM payments WHERE id IN (${payids.map((id) => `'${id}'`).join(",")})`;
  const out = execFileSync(
    NODE,
    [
      bin("wrangler"),
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      stateDir,
      "-c",
      "wrangler.toml",
      "--json",
      "--command",
      sql,
    ],
    { cwd: ROOT, env: toolEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 << 20 },
  );
  const rows = JSON.parse(out).flatMap((statement) => statement.results ?? []);
  return new Map(rows.map((r) => [r.id, r.callback_identifier]));
}

/** Swish's callback for `p`, answered: status and the client's time to the whole body. */
async function sendCallback(baseURL, p) {
  const started = performance.now();
  const res = await fetch(`${baseURL}/swish/callback`, {
    method: "POST",
    headers: { "content-type": "application/json", callbackIdentifier: p.identifier },
    body: p.body,
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

/** The bare request: GET /api/health (no D1, no JSON), time to the whole body. */
async function bareRequest(baseURL) {
  const started = performance.now();
  const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  await res.text();
  if (res.status !== 200) throw new Error(`/api/health svarade ${res.status}`);
  return performance.now() - started;
}

/** The payment's status as the visitor's page sees it (GET /get reads D1 only; it never asks Swish). */
async function paymentStatus(ctx, p) {
  const res = await request(ctx.baseURL, "GET", "/get", null, p.visitor);
  if (res.status !== 200) throw new Error(`/get svarade ${res.status}`);
  return res.json.swishtory?.[p.payid]?.status ?? null;
}

async function receipts(ctx, p) {
  const res = await request(ctx.baseURL, "GET", `/dev/outbox.json?to=${encodeURIComponent(p.visitor.email)}`, null);
  if (res.status !== 200) throw new Error(`/dev/outbox.json svarade ${res.status}`);
  return res.json.filter((mail) => mail.kind === "receipt").length;
}

/** Waits until the payment's receipt is sent: the last step of its settlement. */
async function receiptSent(ctx, p) {
  const until = Date.now() + SETTLE_TIMEOUT_MS;
  while ((await receipts(ctx, p)) === 0) {
    if (Date.now() > until) throw new Error(`${p.payid} avräknades inte inom ${SETTLE_TIMEOUT_MS / 1000} s`);
    await sleep(20);
  }
}

/** Every payment PAID in /get with exactly one receipt. */
async function settledOnce(ctx, payments) {
  let paidOnce = 0;
  const wrong = [];
  for (const p of payments) {
    const [status, count] = [await paymentStatus(ctx, p), await receipts(ctx, p)];
    if (status === "PAID" && count === 1) paidOnce++;
    else wrong.push({ payid: p.payid, status, receipts: count });
  }
  if (wrong.length > 0) throw new Error(`Inte avräknade exakt en gång: ${JSON.stringify(wrong.slice(0, 5))}`);
  return { payments: payments.length, paidOnce };
}

async function swishSettings(baseURL, settings) {
  const res = await request(baseURL, "POST", "/dev/swish/settings", settings, null);
  if (res.status !== 200) throw new Error(`/dev/swish/settings svarade ${res.status}: ${JSON.stringify(res.json)}`);
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
    min: round(sorted[0] ?? 0),
  };
}

function round2(n) {
  return Math.round(n * 100) / 100;
}

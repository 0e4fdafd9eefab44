/**
 * Issue 3's two payment figures, over loopback against the real server with the Swish simulator, one visitor at a
 * time (sequential: on two shared cores, parallel visitors would measure the queue, not the flow).
 *
 * 1. The whole flow: POST /email → POST /code → POST /update → POST /validate-kampanj → POST /book-v2 → socket
 *    `{wsUrl}/pay/{payref}` with `wait-pay` → the payer presses pay (POST /dev/swish/pay/{token}) the moment the
 *    socket has sent `wait-pay` → `{payment: "ok"}` on the socket. Timed from the start of POST /email.
 * 2. "Callback to socket": for separate visitors set up untimed, the time from the start of the payer's
 *    POST /dev/swish/pay/{token} to `{payment: "ok"}` on the socket. The moment the callback reaches
 *    /swish/callback is not visible from outside (the simulator delivers it in-process and the callback carries
 *    a secret identifier only the server knows, so a client cannot send it itself), so this is the nearest
 *    interval a client can see; CALLBACK_INTERVAL below says exactly what it contains.
 *
 * Every visitor has its own e-mail and its own cf-connecting-ip (login codes are rate-limited per address and
 * per client, and the local server takes the client from that header, as in test/e2e/registration.test.ts).
 * Each flow is checked afterwards (untimed): GET /get must show the payment PAID and the registration locked.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { cookieHeader, request as httpRequest, round } from "./lib/http.mjs";

const WARMUP_FLOWS = 3;
const FLOWS = 30;
const CALLBACK_PAYMENTS = 50;
/** The whole benchmark stops starting new iterations after this; the figures then say how many ran. */
const BUDGET_MS = 6 * 60_000;
/** One request or one socket answer taking longer than this is a failure, not a sample. */
const STEP_TIMEOUT_MS = 20_000;
/** The payment object's first poll of Swish (src/durable/payment.ts POLL_FIRST_MS): an answer sooner than
 * this after wait-pay cannot have come from the poll, so the callback path settled it. */
const POLL_FIRST_MS = 2_000;

const CALLBACK_INTERVAL =
  "Från starten av betalarens POST /dev/swish/pay/{token} till {payment:'ok'} på sockeln (klientens klocka). " +
  "Innehåller: simulatorns betala-anrop (D1: läs, villkorlig UPDATE, inställningar), callbacken till " +
  "/swish/callback (levereras inom processen via loopbackFetch, utan nätverk och TLS), callback-routens " +
  "uppslag och kontroll av callbackIdentifier, omhämtningen av betalningen från simulatorn (inom processen), " +
  "kontroll av belopp/valuta/mottagare, den villkorliga skrivningen i D1, audit-raden, RPC till betalningens " +
  "Durable Object (notifySettled) och ramen över sockeln via loopback. Innehåller inte afterPaid (löpare till " +
  "loppen, kvittomejl), som körs efter att sockeln fått svar; svaret på betala-anropet väntar även på den " +
  "(payToResponse). En riktig Swish-callback lägger till internets tur och retur och TLS.";

const RUNNERS = [
  { firstname: "Vera", lastname: "Bänk", age: 41, company: "", distance: "5.6", group: "Dam" },
  { firstname: "Olle", lastname: "Bänk", age: 43, company: "Loppets IK", distance: "5.6", group: "Herr" },
  { firstname: "Ivar", lastname: "Bänk", age: 9, company: "", distance: "1.6", group: "Ingen" },
];

export async function run({ baseURL }) {
  const deadline = Date.now() + BUDGET_MS;
  const config = await getJson(`${baseURL}/api/config`);
  if (typeof config.wsUrl !== "string") throw new Error("/api/config gav ingen wsUrl");
  if (!config.season?.registrationOpen) throw new Error("Anmälan är stängd på servern; flödet går inte att köra");
  const ctx = { baseURL, wsUrl: config.wsUrl, runId: Date.now().toString(36), visitors: 0 };
  // A fresh server starts with normal callbacks; said explicitly so a changed default cannot skew the figures.
  const settings = await request(ctx, "/dev/swish/settings", { callbacks: "normal" });
  if (settings.status !== 200) throw new Error(`/dev/swish/settings svarade ${settings.status}`);

  for (let i = 0; i < WARMUP_FLOWS; i++) await wholeFlow(ctx);
  const flows = [];
  while (flows.length < FLOWS && Date.now() < deadline) flows.push(await wholeFlow(ctx));

  const payments = [];
  while (payments.length < CALLBACK_PAYMENTS && Date.now() < deadline) payments.push(await callbackToSocket(ctx));

  const steps = ["email", "code", "update", "validateKampanj", "book", "socketOpen", "payToOk"];
  const figures = {
    method: {
      transport: "loopback (localhost), wrangler dev med Swish-simulatorn",
      sequential: true,
      runnersPerRegistration: RUNNERS.length,
      timer: "performance.now() i Node-klienten",
    },
    wholeFlow: {
      definition:
        "Från starten av POST /email till {payment:'ok'} på sockeln; betalaren trycker betala så fort " +
        "sockeln har skickat wait-pay. Stegen: email, code, update (3 löpare), validateKampanj (tom kod), " +
        "book (book-v2, skapar Swish-betalningen), socketOpen (ny WebSocket till öppen + wait-pay skickat), " +
        "payToOk (betala-anropets start till ok).",
      warmup: WARMUP_FLOWS,
      flows: flows.length,
      totalMs: stats(flows.map((f) => f.total)),
      stepsMs: Object.fromEntries(steps.map((s) => [s, stats(flows.map((f) => f[s]))])),
      samplesMs: flows.map(roundAll),
    },
    callbackToSocket: {
      definition: CALLBACK_INTERVAL,
      payments: payments.length,
      payToOkMs: stats(payments.map((p) => p.payToOk)),
      payToResponseMs: stats(payments.map((p) => p.payToResponse)),
      okBeforePayResponse: payments.filter((p) => p.okBeforeResponse).length,
      settledBeforeFirstPoll: payments.filter((p) => p.waitToOk < POLL_FIRST_MS).length,
      callbackStatuses: countBy(payments.flatMap((p) => p.callbackStatuses)),
      samplesMs: payments.map(roundAll),
    },
  };

  const f = figures.wholeFlow;
  const c = figures.callbackToSocket;
  const stepLine = steps.map((s) => `${s} ${f.stepsMs[s].p50}`).join("  ");
  const summary = [
    `Hela flödet (${f.flows} flöden efter ${f.warmup} uppvärmning, e-post → ok på sockeln):`,
    `  p50 ${f.totalMs.p50} ms   p95 ${f.totalMs.p95} ms   max ${f.totalMs.max} ms`,
    `  p50 per steg (ms): ${stepLine}`,
    `Callback → socket (${c.payments} betalningar, betala-anropets start → ok på sockeln):`,
    `  p50 ${c.payToOkMs.p50} ms   p95 ${c.payToOkMs.p95} ms   max ${c.payToOkMs.max} ms`,
    `  betala-anropets svar (inkl. afterPaid): p50 ${c.payToResponseMs.p50} ms   p95 ${c.payToResponseMs.p95} ms`,
    `  ok före betala-svaret: ${c.okBeforePayResponse}/${c.payments}   ` +
      `avgjord före första poll (${POLL_FIRST_MS} ms): ${c.settledBeforeFirstPoll}/${c.payments}   ` +
      `callback-statusar: ${JSON.stringify(c.callbackStatuses)}`,
  ].join("\n");
  return { figures, summary };
}

/** One visitor from e-mail to the paid registration, every step timed. */
async function wholeFlow(ctx) {
  const visitor = newVisitor(ctx);
  const t0 = performance.now();
  const { times, payref, token } = await registerAndBook(ctx, visitor);
  const s0 = performance.now();
  const socket = await openPaymentSocket(ctx, payref);
  const s1 = performance.now();
  const pay = await pressPay(ctx, token);
  const answer = await socket.answered;
  await pay.done;
  await checkPaid(ctx, visitor, payref);
  return {
    ...times,
    socketOpen: s1 - s0,
    payToOk: answer.at - pay.start,
    total: answer.at - t0,
  };
}

/** A visitor set up untimed; only the payment's settlement is timed. */
async function callbackToSocket(ctx) {
  const visitor = newVisitor(ctx);
  const { payref, token } = await registerAndBook(ctx, visitor);
  const socket = await openPaymentSocket(ctx, payref);
  const waitSent = performance.now();
  const pay = await pressPay(ctx, token);
  const answer = await socket.answered;
  const { at: responded, callbackStatuses } = await pay.done;
  await checkPaid(ctx, visitor, payref);
  return {
    payToOk: answer.at - pay.start,
    payToResponse: responded - pay.start,
    waitToOk: answer.at - waitSent,
    okBeforeResponse: answer.at <= responded,
    callbackStatuses,
  };
}

function newVisitor(ctx) {
  const n = ++ctx.visitors;
  return {
    email: `bench-${ctx.runId}-${n}@example.se`,
    ip: `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    cookies: new Map(),
  };
}

/** Steps 1–3 and the booking, as the SPA makes them; returns each step's duration and the booked payment. */
async function registerAndBook(ctx, visitor) {
  const times = {};
  const step = async (name, path, body, expected) => {
    const t = performance.now();
    const res = await request(ctx, path, body, visitor);
    times[name] = performance.now() - t;
    if (!expected.includes(res.status)) {
      throw new Error(`${path} svarade ${res.status}: ${JSON.stringify(res.json)}`);
    }
    return res.json;
  };

  const login = await step("email", "/email", { email: visitor.email }, [200]);
  if (!/^\d{6}$/.test(login.code ?? "")) throw new Error("/email gav ingen kod (körs servern i utvecklingsläge?)");
  await step("code", "/code", { email: visitor.email, codeId: login.id, code: login.code }, [200, 204]);
  if (!visitor.cookies.has("__Host-session")) throw new Error("/code satte ingen __Host-session-kaka");
  const runners = Object.fromEntries(
    RUNNERS.map((r) => {
      const id = randomUUID();
      return [id, { id, ...r }];
    }),
  );
  const view = await step("update", "/update", { runners }, [200]);
  const counts = { barn: view.barn, vuxna: view.vuxna };
  await step("validateKampanj", "/validate-kampanj", { kampanj: "", ...counts }, [200]);
  const booked = await step("book", "/book-v2", { kampanj: "", ...counts }, [200]);
  if (!booked.token || booked.token === "kampanj" || !booked.payref) {
    throw new Error(`/book-v2 gav ingen Swish-betalning: ${JSON.stringify(booked)}`);
  }
  return { times, payref: booked.payref, token: booked.token };
}

/**
 * Opens `{wsUrl}/pay/{payref}` and sends wait-pay as soon as it is open; resolves then. `answered` resolves with
 * the moment `{payment: "ok"}` arrived (the handler is in place before the socket opens, so no frame is missed).
 */
function openPaymentSocket(ctx, payref) {
  const ws = new WebSocket(`${ctx.wsUrl}/pay/${encodeURIComponent(payref)}`);
  let settle;
  const answered = withTimeout(
    new Promise((resolve, reject) => {
      settle = { resolve, reject };
      ws.on("message", (data) => {
        const at = performance.now();
        let frame;
        try {
          frame = JSON.parse(String(data));
        } catch {
          frame = null;
        }
        if (frame?.payment === "ok") resolve({ at });
        else reject(new Error(`Sockeln svarade ${String(data)}`));
      });
      ws.on("close", (code) => reject(new Error(`Sockeln stängdes (${code}) utan svar`)));
    }),
    `{payment:'ok'} för ${payref}`,
  ).finally(() => {
    // The object closes the socket after its answer; a socket left open by a failure must not keep Node alive.
    setTimeout(() => ws.terminate(), 1_000).unref();
  });
  // Keeps an early failure (before anyone awaits `answered`) from being an unhandled rejection.
  answered.catch(() => {});
  const opened = withTimeout(
    new Promise((resolve, reject) => {
      ws.once("open", () => {
        ws.send(JSON.stringify({ action: "wait-pay", payid: payref }));
        resolve({ answered });
      });
      ws.on("error", (err) => {
        reject(err);
        settle.reject(err);
      });
      ws.once("unexpected-response", (req, res) => {
        const err = new Error(`Sockeln svarade HTTP ${res.statusCode}`);
        reject(err);
        settle.reject(err);
        req.destroy();
      });
    }),
    `sockeln för ${payref}`,
  );
  return opened;
}

/** The payer presses Betala on the simulator's phone page (its JSON control). `done` resolves with its answer. */
async function pressPay(ctx, token) {
  const start = performance.now();
  const done = request(ctx, `/dev/swish/pay/${token}`, { status: "PAID" }).then((res) => {
    const at = performance.now();
    if (res.status !== 200 || res.json?.payment?.status !== "PAID") {
      throw new Error(`/dev/swish/pay svarade ${res.status}: ${JSON.stringify(res.json)}`);
    }
    return { at, callbackStatuses: res.json.callbackStatuses ?? [] };
  });
  done.catch(() => {});
  return { start, done };
}

/** Untimed: what the visitor's page would show after reloading (PAID in swishtory, editing locked). */
async function checkPaid(ctx, visitor, payref) {
  const res = await fetch(`${ctx.baseURL}/get`, {
    headers: { cookie: cookieHeader(visitor), "cf-connecting-ip": visitor.ip },
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  const view = await res.json();
  if (res.status !== 200 || view.swishtory?.[payref]?.status !== "PAID" || view.locked !== true) {
    throw new Error(`Betalningen ${payref} syns inte som betald i /get: ${res.status} ${JSON.stringify(view)}`);
  }
}

/** A POST as the SPA makes it: JSON, the site's header, the visitor's cookies and client address. */
/** A POST as the SPA makes it, as `visitor` (its cookies and client address) or as nobody. */
function request(ctx, path, body, visitor) {
  return httpRequest(ctx.baseURL, "POST", path, body, visitor ?? null, STEP_TIMEOUT_MS);
}

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  if (res.status !== 200) throw new Error(`${url} svarade ${res.status}`);
  return res.json();
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Inget svar inom ${STEP_TIMEOUT_MS} ms: ${what}`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Nearest-rank percentiles, in ms to one decimal. */
function stats(values) {
  if (values.length === 0) return { n: 0, p50: null, p95: null, max: null, min: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return {
    n: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    max: round(sorted.at(-1)),
    min: round(sorted[0]),
    mean: round(mean),
  };
}

function roundAll(sample) {
  return Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, typeof v === "number" ? round(v) : v]));
}

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

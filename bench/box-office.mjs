/**
 * The box office from 'Nästa' to the runner on a second phone's race screen, over loopback against the real server
 * with the Swish simulator, one sign-up at a time (sequential: on two shared cores, parallel sign-ups would
 * measure the queue, not the flow).
 *
 * Per sign-up: POST /admin/api/quickreg (what 'Nästa' sends; a Swish sign-up answers {token}) → the box office's
 * own socket `{wsUrl}/pay/{payid}` sends wait-pay → the payer presses pay (POST /dev/swish/pay/{token}) → the
 * runner event (with the bib) arrives on a second admin's socket subscribed to the race (`{wsUrl}/race/{id}`, as a
 * timing phone holds it). Timed from the start of the quickreg POST (client clock, performance.now()). Also timed:
 * the payer's press to `{payment:'ok'}` on the box office's socket, and to the runner on the timing socket.
 * Afterwards (untimed) the race's snapshot must hold every runner exactly once with its bib.
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import WebSocket from "ws";
import { devAdmin } from "./lib/http.mjs";

const WARMUP = 3;
const SIGN_UPS = Number(process.env.BOX_OFFICE_SIGN_UPS) || 30;
const BUDGET_MS = 5 * 60_000;
const STEP_TIMEOUT_MS = 20_000;
/** The season's 5.6 km race (src/shared/season.ts: race day 2025-09-13). */
const RACE = "race-250913-56";

export async function run({ baseURL }) {
  const deadline = Date.now() + BUDGET_MS;
  const kassa = await signIn(baseURL);
  const timing = await signIn(baseURL);
  const config = await kassa.json("GET", "/api/config");
  if (typeof config.wsUrl !== "string") throw new Error("/api/config gav ingen wsUrl");
  const settings = await kassa.request("POST", "/dev/swish/settings", { callbacks: "normal", apiDelayMs: 0 });
  if (settings.status !== 200) throw new Error(`/dev/swish/settings svarade ${settings.status}`);

  const phone = await subscribe(`${config.wsUrl}/race/${RACE}`, timing.cookie, baseURL);
  const runId = Date.now().toString(36);
  let bib = 40_000 + Math.floor(Math.random() * 50_000);
  const ctx = { baseURL, wsUrl: config.wsUrl, kassa, phone, runId, next: 0, nextBib: () => bib++ };
  const loadAtStart = load();
  try {
    for (let i = 0; i < WARMUP; i++) await signUp(ctx);
    const samples = [];
    while (samples.length < SIGN_UPS && Date.now() < deadline) samples.push(await signUp(ctx));

    const snapshot = await kassa.json("GET", `/admin/api/races/get/${RACE}`);
    const ours = snapshot.slice(1).filter((r) => r.lastname === `Bänk${runId}`);
    const perName = countBy(ours.map((r) => r.firstname));
    const doubled = Object.values(perName).filter((n) => n > 1).length;
    const missing = ctx.next - Object.keys(perName).length;
    const wrongBib = ours.filter((r) => r.bib !== ctx.bibs.get(r.firstname)).length;

    const figures = {
      method: {
        transport: "loopback (localhost), wrangler dev med Swish-simulatorn",
        sequential: true,
        timer: "performance.now() i Node-klienten",
        race: RACE,
        definition:
          "nastaToRunner: från starten av POST /admin/api/quickreg (det 'Nästa' skickar) till att löparens " +
          "händelse med startnumret kommer på en annan admins socket som prenumererar på loppet. Däremellan: " +
          "kassans socket {wsUrl}/pay/{payid} öppnas och skickar wait-pay, betalaren trycker betala " +
          "(POST /dev/swish/pay/{token}) så fort wait-pay är skickat. payToKassaOk: betala-tryckets start till " +
          "{payment:'ok'} på kassans socket. payToRunner: betala-tryckets start till löparen på loppets socket.",
      },
      warmup: WARMUP,
      loadAverage1mAtStart: loadAtStart,
      loadAverage1mAtEnd: load(),
      nastaToRunner: stats(samples.map((s) => s.total)),
      quickreg: stats(samples.map((s) => s.quickreg)),
      payToKassaOk: stats(samples.map((s) => s.payToOk)),
      payToRunner: stats(samples.map((s) => s.payToRunner)),
      check: { signUps: ctx.next, inRaceOnce: Object.keys(perName).length, doubled, missing, wrongBib },
    };
    if (doubled || missing || wrongBib) throw new Error(`Kontrollen misslyckades: ${JSON.stringify(figures.check)}`);
    return { figures, summary: summarize(figures) };
  } finally {
    phone.close();
  }
}

/** One sign-up, timed from 'Nästa' to the runner on the timing socket. */
async function signUp(ctx) {
  const n = ctx.next++;
  const firstname = `Kassa${n}`;
  const bib = ctx.nextBib();
  (ctx.bibs ??= new Map()).set(firstname, bib);
  const onPhone = ctx.phone.waitForRunner(firstname);
  const t0 = performance.now();
  const started = await ctx.kassa.json("POST", "/admin/api/quickreg", {
    firstname,
    lastname: `Bänk${ctx.runId}`,
    age: "38",
    distance: "5.6",
    group: "Dam",
    phone: "070-123 45 67",
    bib: String(bib),
  });
  const t1 = performance.now();
  if (!started.token) throw new Error(`quickreg gav ingen token: ${JSON.stringify(started)}`);
  const { ok: paid } = await paymentSocket(ctx, started.payid);
  const t2 = performance.now();
  const pay = ctx.kassa.request("POST", `/dev/swish/pay/${started.token}`, { status: "PAID" });
  const [event, okAt, payRes] = await Promise.all([
    withTimeout(onPhone, `löparen ${firstname} på loppets socket`),
    withTimeout(paid, `{payment:'ok'} för ${started.payid}`),
    pay,
  ]);
  if (payRes.status !== 200) throw new Error(`/dev/swish/pay svarade ${payRes.status}`);
  if (event.runner.bib !== bib) throw new Error(`${firstname} kom med startnummer ${event.runner.bib}, inte ${bib}`);
  return { total: event.at - t0, quickreg: t1 - t0, payToOk: okAt - t2, payToRunner: event.at - t2 };
}

/** The box office's wait: `{wsUrl}/pay/{payid}` with wait-pay; resolves once wait-pay is sent, with `ok` to come. */
function paymentSocket(ctx, payid) {
  return new Promise((resolveSent, reject) => {
    const ws = new WebSocket(`${ctx.wsUrl}/pay/${payid}`, { headers: { origin: ctx.baseURL } });
    const ok = new Promise((resolveOk, rejectOk) => {
      ws.on("message", (data) => {
        const frame = JSON.parse(String(data));
        if (frame.payment === "ok") resolveOk(performance.now());
        else rejectOk(new Error(`betalningssockeln svarade ${String(data)}`));
        ws.close();
      });
    });
    ok.catch(() => {});
    ws.on("open", () => {
      ws.send(JSON.stringify({ action: "wait-pay", payid }));
      // Wrapped: resolving with the promise itself would wait for it.
      resolveSent({ ok });
    });
    ws.on("error", reject);
  });
}

/** A second admin's race socket: every runner event by first name, as the phone's race screen receives it. */
async function subscribe(url, cookie, origin) {
  const ws = new WebSocket(url, { headers: { cookie, origin } });
  const waiting = new Map();
  let hello = false;
  await withTimeout(
    new Promise((resolve, reject) => {
      ws.on("open", () => ws.send(JSON.stringify({ action: "subscribe-to-race" })));
      ws.on("message", (data) => {
        const at = performance.now();
        const frame = JSON.parse(String(data));
        if (frame?.type === "hello") hello = true;
        else if (Array.isArray(frame)) {
          if (hello) resolve();
          for (const event of frame) {
            const wanted = event.type === "runner" ? waiting.get(event.firstname) : undefined;
            if (wanted) {
              waiting.delete(event.firstname);
              wanted({ runner: event, at });
            }
          }
        }
      });
      ws.on("error", reject);
    }),
    "prenumerationen på loppet",
  );
  return {
    waitForRunner: (firstname) => new Promise((resolve) => waiting.set(firstname, resolve)),
    close: () => ws.close(1000, "bench done"),
  };
}

async function signIn(baseURL) {
  const { cookie, call, callJson } = await devAdmin(baseURL, STEP_TIMEOUT_MS);
  return {
    cookie,
    request: call,
    json: async (method, pathname, body) => (await callJson(method, pathname, body)).json,
  };
}

function summarize(f) {
  const line = (name, s) => `${name.padEnd(16)} p50 ${s.p50} ms  p95 ${s.p95} ms  (n=${s.n}, max ${s.max} ms)`;
  return [
    `Kassan, 'Nästa' → löparen på en annan telefons loppsocket (last ${f.loadAverage1mAtStart}→${f.loadAverage1mAtEnd}):`,
    line("Nästa→löpare", f.nastaToRunner),
    line("quickreg", f.quickreg),
    line("betala→kassa ok", f.payToKassaOk),
    line("betala→löpare", f.payToRunner),
    `Kontroll: ${f.check.inRaceOnce}/${f.check.signUps} i loppet en gång var, dubbletter ${f.check.doubled}, fel nummer ${f.check.wrongBib}`,
  ].join("\n");
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Tidsgräns: ${what}`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function load() {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** Nearest-rank percentiles, in ms to one decimal. */
function stats(values) {
  if (values.length === 0) return { n: 0, p50: null, p95: null, max: null, min: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    n: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    max: round(sorted.at(-1)),
    min: round(sorted[0]),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

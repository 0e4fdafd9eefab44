/**
 * Issue 8's overview figure: `GET /admin/registrations` (the admin registrations list) over a season of 2,000
 * registrations on the real server, target ≤ 300 ms.
 *
 * Set-up, untimed: 2,000 families register through the public calls (/email → /code → /update → /book-v2), each
 * with its own address and client address and 1–3 runners on the four distances. Half pay with Swish through the
 * simulator (POST /dev/swish/pay/{token}, so their swishtory holds real Swish records), four in ten take the free
 * campaign code, one in ten leaves its Swish payment open; every 40th paid family then gets a partial refund, so the
 * answer carries refunds too. The demo season's own registrations come on top.
 * Timed: 5 warm-up requests, then ADMIN_OVERVIEW_BENCH_REQUESTS (default 40) one after another as the admin: time to
 * the whole body (p50/p95/max), its size, and the registrations and refunds it holds.
 * ADMIN_OVERVIEW_BENCH_FAMILIES changes the number of new families.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { benchFreeCode, request, cookieHeader, percentile, round, STEP_TIMEOUT_MS } from "./lib/http.mjs";
import { inParallel, sleep } from "./lib/async.mjs";

const FAMILIES = Number(process.env.ADMIN_OVERVIEW_BENCH_FAMILIES ?? 2000);
const REQUESTS = Number(process.env.ADMIN_OVERVIEW_BENCH_REQUESTS ?? 40);
const WARM_UP = 5;
/** Families registered at once during the set-up (two shared cores: more only queues on the server). */
const SETUP_PARALLEL = 6;
const TARGET_MS = 300;
const DISTANCES = ["5.6", "2.8", "1.6", "0.8"];

export async function run({ baseURL }) {
  const runId = Date.now().toString(36);
  const admin = { ip: "10.97.0.1", cookies: new Map() };
  const login = await request(baseURL, "POST", "/admin/api/dev-login", { email: "arrangor@example.se" }, admin);
  if (login.status !== 200) throw new Error(`dev-login svarade ${login.status}`);
  const freeCode = await benchFreeCode(baseURL, admin, runId);

  const t0 = performance.now();
  const paid = [];
  await inParallel(FAMILIES, SETUP_PARALLEL, async (n) => {
    const payid = await registerFamily(baseURL, runId, n, freeCode);
    if (payid) paid.push(payid);
  });
  let refunds = 0;
  for (const payid of paid.filter((_, i) => i % 40 === 0)) {
    const res = await request(
      baseURL,
      "POST",
      "/admin/api/refunds",
      { payid, amount: 50, idempotencyKey: randomUUID() },
      admin,
    );
    if (res.status !== 201) throw new Error(`/admin/api/refunds svarade ${res.status}: ${JSON.stringify(res.json)}`);
    refunds++;
  }
  const setupMs = performance.now() - t0;

  const times = [];
  let last = null;
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(`${baseURL}/admin/registrations`, {
      headers: { "x-loppet-client": "1", "cf-connecting-ip": admin.ip, cookie: cookieHeader(admin) },
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`/admin/registrations svarade ${res.status}: ${body.slice(0, 200)}`);
    if (i >= WARM_UP) times.push(ms);
    last = body;
  }
  const list = JSON.parse(last);
  const ours = list.filter((r) => r.email.startsWith(`oversikt-${runId}-`));
  if (ours.length !== FAMILIES) throw new Error(`Listan har ${ours.length} av ${FAMILIES} nya anmälningar`);
  const refundsListed = ours.reduce(
    (n, r) => n + Object.values(r.swishtory).reduce((m, p) => m + p.refunds.length, 0),
    0,
  );
  if (refundsListed !== refunds) throw new Error(`Listan har ${refundsListed} av ${refunds} återbetalningar`);

  times.sort((a, b) => a - b);
  const figures = {
    registrations: list.length,
    newFamilies: FAMILIES,
    runners: list.reduce((n, r) => n + Object.keys(r.deltagare).length, 0),
    refunds,
    requests: REQUESTS,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times.at(-1)),
    bodyKb: round(Buffer.byteLength(last) / 1024),
    targetMs: TARGET_MS,
    withinTarget: percentile(times, 95) <= TARGET_MS,
    setupSeconds: round(setupMs / 1000),
  };
  const summary =
    `GET /admin/registrations, ${figures.registrations} anmälningar (${figures.runners} löpare, ` +
    `${refunds} återbetalningar), ${figures.bodyKb} kB: p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, ` +
    `max ${figures.maxMs} ms (mål ≤ ${TARGET_MS} ms: ${figures.withinTarget ? "ja" : "NEJ"}). ` +
    `Förberedelse ${figures.setupSeconds} s.`;
  return { figures, summary };
}

/** One family: 1–3 runners; pays with Swish (5 in 10), the free code (4 in 10) or leaves it open. */
async function registerFamily(baseURL, runId, n, freeCode) {
  const visitor = { ip: `10.87.${Math.floor(n / 250)}.${(n % 250) + 1}`, cookies: new Map() };
  const email = `oversikt-${runId}-${n}@example.se`;
  const login = expectStatus(await request(baseURL, "POST", "/email", { email }, visitor), "/email");
  expectStatus(
    await request(baseURL, "POST", "/code", { email, codeId: login.id, code: login.code }, visitor),
    "/code",
    [200, 204],
  );
  const runners = {};
  for (let i = 0; i < 1 + (n % 3); i++) {
    const id = randomUUID();
    const age = i === 0 ? 30 + (n % 30) : 4 + ((n + i) % 12);
    runners[id] = {
      id,
      firstname: `Löpare${i}`,
      lastname: `Översikt${n}`,
      age,
      company: n % 4 === 0 ? "IK Prov" : "",
      distance: DISTANCES[(n + i) % 4],
      group: i % 2 ? "Herr" : "Dam",
    };
  }
  const view = expectStatus(await request(baseURL, "POST", "/update", { runners }, visitor), "/update");
  const kind = n % 10;
  const kampanj = kind >= 5 && kind <= 8 ? freeCode : "";
  const booked = expectStatus(
    await request(baseURL, "POST", "/book-v2", { kampanj, barn: view.barn, vuxna: view.vuxna }, visitor),
    "/book-v2",
  );
  if (kampanj) return null;
  if (!booked.token || booked.token === "kampanj") throw new Error(`/book-v2 gav ingen Swish-betalning`);
  if (kind === 9) return null;
  expectStatus(await request(baseURL, "POST", `/dev/swish/pay/${booked.token}`, { status: "PAID" }, visitor), "pay");
  // The callback settles the payment after answering; wait for it so the refunds find it paid.
  for (let i = 0; i < 100; i++) {
    const verify = await request(baseURL, "GET", `/verify?id=${booked.payref}`, null, visitor);
    if (verify.status === 200) return booked.payref;
    await sleep(100);
  }
  throw new Error(`Betalningen ${booked.payref} blev aldrig betald`);
}

function expectStatus(res, path, statuses = [200]) {
  if (!statuses.includes(res.status)) throw new Error(`${path} svarade ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/**
 * Issue 8's analytics figure: `GET /admin/api/registration-analytics` over 10 seasons × 500 registrations on the
 * real server, target ≤ 200 ms.
 *
 * Set-up, untimed: the registrations of ten past seasons cannot be made through the public calls (they only take
 * the current season), so they are written as SQL straight into the server's local D1 with
 * `wrangler d1 execute DB --local --persist-to <state dir>` (the database `npm start` migrated and seeded; the
 * running server reads the same file). Seasons 2016–2025, 500 registrations each, 1–4 runners on the four
 * distances, made April–September; 80 % paid (one in eight of those with a free campaign code, one in 25 of the
 * Swish ones partly refunded), the rest declined, failed, open or without a payment; one in 50 has no runners (it
 * must not count). The demo season's own registrations come on top; the answer is checked against the figures
 * before the insert plus what was inserted.
 * Timed: 5 warm-up requests, then ANALYTICS_BENCH_REQUESTS (default 50) one after another as the admin: time to
 * the whole body (p50/p95/max).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bin, NODE, ROOT, toolEnv } from "../scripts/lib/proc.mjs";
import { request, cookieHeader, percentile, round, STEP_TIMEOUT_MS } from "./lib/http.mjs";

const SEASONS = Array.from({ length: 10 }, (_, i) => 2016 + i);
const PER_SEASON = 500;
const REQUESTS = Number(process.env.ANALYTICS_BENCH_REQUESTS ?? 50);
const WARM_UP = 5;
const TARGET_MS = 200;
const DISTANCES = ["5.6", "2.8", "1.6", "0.8"];
const ROWS_PER_INSERT = 200;

export async function run({ baseURL, stateDir }) {
  if (!stateDir) throw new Error("admin-analytics behöver serverns STATE_DIR (bench/run.mjs skickar den)");
  const admin = { cookies: new Map() };
  const login = await request(baseURL, "POST", "/admin/api/dev-login", { email: "arrangor@example.se" }, admin);
  if (login.status !== 200) throw new Error(`dev-login svarade ${login.status}`);
  const before = await analytics(baseURL, admin);

  const t0 = performance.now();
  const runId = Date.now().toString(36);
  const data = generate(runId);
  insert(stateDir, data.sql);
  const setupMs = performance.now() - t0;

  const times = [];
  let last = null;
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(`${baseURL}/admin/api/registration-analytics`, {
      headers: { "x-loppet-client": "1", cookie: cookieHeader(admin) },
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`registration-analytics svarade ${res.status}: ${body.slice(0, 200)}`);
    if (i >= WARM_UP) times.push(ms);
    last = body;
  }
  const after = JSON.parse(last);
  check(before, after, data.expected);

  times.sort((a, b) => a - b);
  const figures = {
    seasons: after.summary.yearsActive,
    registrations: after.summary.totalRegistrations,
    participants: after.summary.totalParticipants,
    inserted: data.expected,
    setupMs: Math.round(setupMs),
    requests: REQUESTS,
    warmUp: WARM_UP,
    bodyBytes: Buffer.byteLength(last),
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times.at(-1)),
    minMs: round(times[0]),
    targetMs: TARGET_MS,
    method:
      "Klientens tid till hela svaret (fetch + text) över loopback, en förfrågan i taget, som inloggad admin; " +
      "5 uppvärmningar räknas inte.",
  };
  const summary = [
    `Analytics över ${figures.seasons} säsonger, ${figures.registrations} anmälningar, ` +
      `${figures.participants} deltagare (${data.expected.registrations} nya via SQL på ${figures.setupMs} ms)`,
    `  ${REQUESTS} förfrågningar: p50 ${figures.p50Ms} ms   p95 ${figures.p95Ms} ms   max ${figures.maxMs} ms   ` +
      `(mål ≤ ${TARGET_MS} ms)   svar ${figures.bodyBytes} byte`,
  ].join("\n");
  return { figures, summary };
}

/** Deterministic pseudo-random numbers (mulberry32), so every run inserts the same shape of data. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const q = (s) => (s === null ? "NULL" : typeof s === "number" ? String(s) : `'${String(s).replaceAll("'", "''")}'`);

/** The SQL for every season, and what it adds to the analytics (registrations with runners, paid, revenue). */
function generate(runId) {
  const next = random(20250913);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const rows = { registrations: [], participants: [], payments: [], refunds: [] };
  const expected = { registrations: 0, paid: 0, participants: 0, revenue: 0 };
  let hexCounter = 0;
  const hex = () =>
    (runId + String(++hexCounter))
      .replace(/[^0-9a-f]/gi, "")
      .toUpperCase()
      .padStart(32, "0");

  for (const season of SEASONS) {
    for (let n = 0; n < PER_SEASON; n++) {
      const id = `bench-${runId}-${season}-${n}`;
      // April–September, any time of day, Stockholm summer time.
      const created = Date.UTC(season, int(3, 8), int(1, 28), int(5, 20), int(0, 59), int(0, 59));
      const runners = n % 50 === 0 ? 0 : int(1, 4);
      const roll = next();
      let payment = null;
      if (runners > 0 && roll < 0.8) {
        const free = next() < 0.125;
        const amount = free ? 0 : runners * 150;
        payment = {
          id: free ? `kampanj_FRIBILJETT_${id}` : hex(),
          status: "PAID",
          amount,
          kampanj: free ? "FRIBILJETT" : null,
          paid: created + int(1, 600) * 1000,
        };
      } else if (runners > 0 && roll < 0.95) {
        payment = { id: hex(), status: ["DECLINED", "ERROR", "CREATED"][int(0, 2)], amount: runners * 150 };
      }
      rows.registrations.push(
        `(${q(id)}, ${season}, ${q(`analys-${runId}-${season}-${n}@example.se`)}, ${q(payment?.id ?? null)}, 1, ${created}, ${created})`,
      );
      for (let r = 0; r < runners; r++) {
        const distance = DISTANCES[int(0, 3)];
        const age = distance === "0.8" ? int(4, 10) : int(8, 70);
        rows.participants.push(
          `(${q(`${id}-${r}`)}, ${q(id)}, ${season}, ${q(`Löpare${r}`)}, ${q(`Analys${n}`)}, ${age}, ${q(next() < 0.2 ? `Klubb ${int(1, 40)}` : "")}, ${q(distance)}, 'Ingen', ${created + r})`,
        );
      }
      if (payment) {
        rows.payments.push(
          `(${q(payment.id)}, ${q(id)}, ${season}, ${payment.amount}, ${q(payment.status)}, ${created}, ${q(payment.paid ?? null)}, ${q(payment.kampanj ?? null)})`,
        );
      }
      let refunded = 0;
      if (payment?.status === "PAID" && payment.amount > 0 && n % 25 === 1) {
        refunded = 50;
        rows.refunds.push(
          `(${q(hex())}, ${q(payment.id)}, ${season}, 50, 'PAID', ${q(`bench-${id}`)}, ${q(`cb-${id}`)}, 'arrangor@example.se', ${created})`,
        );
      }
      if (runners > 0) {
        expected.registrations++;
        expected.participants += runners;
        if (payment?.status === "PAID") {
          expected.paid++;
          expected.revenue += payment.amount - refunded;
        }
      }
    }
  }

  const inserts = (table, columns, values) => {
    const out = [];
    for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
      out.push(`INSERT INTO ${table} (${columns}) VALUES\n${values.slice(i, i + ROWS_PER_INSERT).join(",\n")};`);
    }
    return out;
  };
  const sql = [
    ...inserts("registrations", "id, season, email, payid, version, created_at, updated_at", rows.registrations),
    ...inserts(
      "participants",
      `id, registration_id, season, firstname, lastname, age, company, distance, "group", created_at`,
      rows.participants,
    ),
    ...inserts(
      "payments",
      "id, registration_id, season, amount, status, date_created, date_paid, kampanj",
      rows.payments,
    ),
    ...inserts(
      "refunds",
      "id, payid, season, amount, status, idempotency_key, callback_identifier, created_by, created_at",
      rows.refunds,
    ),
  ].join("\n");
  return { sql, expected };
}

/** Runs the SQL on the server's local D1 (the same command as scripts/start.mjs's seed). */
function insert(stateDir, sql) {
  const dir = mkdtempSync(path.join(tmpdir(), "loppet-analytics-"));
  try {
    const file = path.join(dir, "analytics.sql");
    writeFileSync(file, sql);
    execFileSync(
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
        "--file",
        file,
      ],
      { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "ignore", "inherit"] },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The answer after the insert is the answer before plus exactly what was inserted. */
function check(before, after, expected) {
  const want = {
    totalRegistrations: before.summary.totalRegistrations + expected.registrations,
    paidRegistrations: before.summary.paidRegistrations + expected.paid,
    totalParticipants: before.summary.totalParticipants + expected.participants,
    totalRevenue: before.summary.totalRevenue + expected.revenue,
  };
  for (const [key, value] of Object.entries(want)) {
    if (after.summary[key] !== value) {
      throw new Error(`summary.${key} är ${after.summary[key]}, väntat ${value}`);
    }
  }
  const seasons = new Set(after.yearComparison.map((y) => y.year));
  for (const season of SEASONS) if (!seasons.has(season)) throw new Error(`Säsongen ${season} saknas i svaret`);
}

async function analytics(baseURL, admin) {
  const res = await request(baseURL, "GET", "/admin/api/registration-analytics", undefined, admin);
  if (res.status !== 200) throw new Error(`registration-analytics svarade ${res.status}`);
  return res.json;
}

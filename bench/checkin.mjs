/**
 * Issue 27's bib-desk figure: 300 families checked in by 3 desks in 5 minutes through the API, against the real
 * server, with two timing phones (admin sockets subscribed to the 5.6 km and 1.6 km races) listening.
 *
 * Set-up, untimed: 300 families register and book through the public calls (/email → /code → /update → /book-v2
 * with a free campaign code made for the run, PAID at once), each with a runner on 5.6 km and a child on 1.6 km;
 * each family's check-in code is read from its own page (`/get`'s checkinCode, the QR on /anmalan/3).
 *
 * Timed, per family, on one of three desks (each its own admin session), paced so the 300 take 5 minutes (one
 * family a second across the desks; CHECKIN_BENCH_SECONDS shortens it):
 * - scanToConfirmed: from the start of `GET /admin/api/checkin/code/{code}` (what a scan sends) to the answer of
 *   `POST /admin/api/checkin/pickup` for the whole family ('Hämtat – hela familjen');
 * - checkinToPhone: from the start of that POST to the runner's event with `pickedUpAt` on the timing phone of the
 *   runner's race (one sample per runner).
 * Checked afterwards: every runner's pick-up reached its timing phone, once; each race's audit trail has exactly
 * one 'picked-up' row naming each runner; each desk's first action sent again answers 'replayed'.
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { inParallel, sleep } from "./lib/async.mjs";
import { benchFreeCode, cookieHeader, percentile, request, round } from "./lib/http.mjs";

const FAMILIES = Number(process.env.CHECKIN_BENCH_FAMILIES ?? 300);
const DESKS = 3;
const SECONDS = Number(process.env.CHECKIN_BENCH_SECONDS ?? 300);
const SETUP_PARALLEL = 6;
const RACES = { 5.6: "race-250913-56", 1.6: "race-250913-16" };
const PHONE_TIMEOUT_MS = 30_000;

export async function run({ baseURL }) {
  const runId = Date.now().toString(36);
  const admin = { ip: "10.97.0.1", cookies: new Map() };
  await signIn(baseURL, admin);
  const freeCode = await benchFreeCode(baseURL, admin, `DESK${runId}`);
  const config = (await request(baseURL, "GET", "/api/config", null, admin)).json;

  const setupStart = performance.now();
  const families = new Array(FAMILIES);
  await inParallel(FAMILIES, SETUP_PARALLEL, async (n) => {
    families[n] = await registerPaidFamily(baseURL, runId, n, freeCode);
  });
  const setupMs = performance.now() - setupStart;

  const phones = await Promise.all(
    Object.values(RACES).map(async (part) => {
      const phone = { ip: `10.97.1.${Object.values(RACES).indexOf(part) + 1}`, cookies: new Map() };
      await signIn(baseURL, phone);
      return timingPhone(`${config.wsUrl}/race/${part}`, cookieHeader(phone), baseURL);
    }),
  );
  const desks = await Promise.all(
    Array.from({ length: DESKS }, async (_, i) => {
      const desk = { ip: `10.97.2.${i + 1}`, cookies: new Map() };
      await signIn(baseURL, desk);
      return desk;
    }),
  );

  const scanToConfirmed = [];
  const checkinToPhone = [];
  const firstActions = [];
  const load1 = load();
  const spacingMs = (SECONDS * 1000) / FAMILIES;
  const runStart = performance.now();
  try {
    await Promise.all(
      desks.map(async (desk, d) => {
        for (let n = d; n < FAMILIES; n += DESKS) {
          const due = runStart + n * spacingMs;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          const family = families[n];
          const t0 = performance.now();
          const scanned = await request(baseURL, "GET", `/admin/api/checkin/code/${family.code}`, null, desk);
          if (scanned.status !== 200)
            throw new Error(`Skanningen svarade ${scanned.status}: ${JSON.stringify(scanned.json)}`);
          const runners = scanned.json.runners.map((r) => ({ id: r.id, raceId: r.raceId }));
          if (runners.some((r) => !r.raceId)) throw new Error(`Familj ${n} har en löpare utan lopp`);
          const action = { runners, pickedUp: true, actionId: randomUUID().replaceAll("-", ""), device: `desk-${d}` };
          const arrivals = runners.map((r) => phones.find((p) => p.part === r.raceId).waitFor(r.id));
          const t1 = performance.now();
          const done = await request(baseURL, "POST", "/admin/api/checkin/pickup", action, desk);
          const t2 = performance.now();
          if (done.status !== 200 || done.json.outcome !== "picked-up") {
            throw new Error(`Incheckningen svarade ${done.status}: ${JSON.stringify(done.json)}`);
          }
          scanToConfirmed.push(t2 - t0);
          if (n < DESKS) firstActions.push({ desk, action });
          for (const at of await Promise.all(arrivals.map((a) => withTimeout(a, PHONE_TIMEOUT_MS)))) {
            checkinToPhone.push(at - t1);
          }
        }
      }),
    );
    const elapsedMs = performance.now() - runStart;

    // Each desk's first action once more (a queue replaying it): answered before, so nothing is done again.
    const replays = [];
    for (const { desk, action } of firstActions) {
      replays.push((await request(baseURL, "POST", "/admin/api/checkin/pickup", action, desk)).json.outcome);
    }

    const audit = {};
    for (const part of Object.values(RACES)) {
      const rows = (await request(baseURL, "GET", `/admin/api/races/audit/${part}?limit=5000`, null, admin)).json;
      for (const row of rows.filter((r) => r.type === "picked-up")) {
        for (const r of JSON.parse(row.payload).runners) audit[r.id] = (audit[r.id] ?? 0) + 1;
      }
    }
    const ids = families.flatMap((f) => f.runnerIds);
    const check = {
      families: FAMILIES,
      runners: ids.length,
      onPhones: ids.filter((id) => phones.some((p) => p.seen.has(id))).length,
      doubledOnAudit: ids.filter((id) => (audit[id] ?? 0) > 1).length,
      missingOnAudit: ids.filter((id) => !audit[id]).length,
      replays,
    };
    const figures = {
      method: {
        transport: "loopback (localhost), wrangler dev",
        desks: DESKS,
        pacedSeconds: SECONDS,
        timer: "performance.now() i Node-klienten",
        definition:
          "scanToConfirmed: från starten av GET /admin/api/checkin/code/{kod} (skanningen) till svaret på " +
          "POST /admin/api/checkin/pickup för hela familjen. checkinToPhone: från starten av den POST:en till " +
          "löparens händelse med pickedUpAt på tidtagartelefonen för löparens lopp (ett värde per löpare).",
      },
      setupSeconds: Math.round(setupMs / 1000),
      elapsedSeconds: Math.round(elapsedMs / 1000),
      loadAverage1mAtStart: load1,
      loadAverage1mAtEnd: load(),
      scanToConfirmed: stats(scanToConfirmed),
      checkinToPhone: stats(checkinToPhone),
      check,
    };
    const ok =
      check.onPhones === ids.length &&
      check.doubledOnAudit === 0 &&
      check.missingOnAudit === 0 &&
      replays.every((r) => r === "replayed");
    if (!ok) throw new Error(`Kontrollen misslyckades: ${JSON.stringify(check)}`);
    return { figures, summary: summarize(figures) };
  } finally {
    for (const phone of phones) phone.close();
  }
}

async function signIn(baseURL, client) {
  const res = await request(baseURL, "POST", "/admin/api/dev-login", { email: "arrangor@example.se" }, client);
  if (res.status !== 200) throw new Error(`dev-login svarade ${res.status}`);
}

/** One family of two, paid with the free code; its check-in code from its own page. */
async function registerPaidFamily(baseURL, runId, n, freeCode) {
  const visitor = { ip: `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`, cookies: new Map() };
  const email = `disk-${runId}-${n}@example.se`;
  const ok = (res, path, statuses = [200]) => {
    if (!statuses.includes(res.status)) throw new Error(`${path} svarade ${res.status}: ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const login = ok(await request(baseURL, "POST", "/email", { email }, visitor), "/email");
  ok(
    await request(baseURL, "POST", "/code", { email, codeId: login.id, code: login.code }, visitor),
    "/code",
    [200, 204],
  );
  const adult = randomUUID();
  const child = randomUUID();
  const runners = {
    [adult]: {
      id: adult,
      firstname: "Disk",
      lastname: `Vuxen${n}`,
      age: 40,
      company: "",
      distance: "5.6",
      group: "Dam",
    },
    [child]: {
      id: child,
      firstname: "Disk",
      lastname: `Barn${n}`,
      age: 9,
      company: "",
      distance: "1.6",
      group: "Herr",
    },
  };
  const view = ok(await request(baseURL, "POST", "/update", { runners }, visitor), "/update");
  const booked = ok(
    await request(baseURL, "POST", "/book-v2", { kampanj: freeCode, barn: view.barn, vuxna: view.vuxna }, visitor),
    "/book-v2",
  );
  if (booked.token !== "kampanj") throw new Error(`/book-v2 gav ingen gratisorder: ${JSON.stringify(booked)}`);
  const page = ok(await request(baseURL, "GET", "/get", null, visitor), "/get");
  if (!page.checkinCode) throw new Error(`Familj ${n} fick ingen incheckningskod`);
  return { code: page.checkinCode, runnerIds: [adult, child] };
}

/** A timing phone: the race's socket, and when each runner's pick-up event arrived. */
async function timingPhone(url, cookie, origin) {
  const part = url.slice(url.lastIndexOf("/") + 1);
  const ws = new WebSocket(url, { headers: { cookie, origin } });
  const seen = new Map();
  const waiting = new Map();
  await withTimeout(
    new Promise((resolve, reject) => {
      let hello = false;
      ws.on("open", () => ws.send(JSON.stringify({ action: "subscribe-to-race" })));
      ws.on("message", (data) => {
        const at = performance.now();
        const frame = JSON.parse(String(data));
        if (frame?.type === "hello") hello = true;
        else if (Array.isArray(frame)) {
          if (hello) resolve();
          for (const event of frame) {
            if (event.type !== "runner" || typeof event.pickedUpAt !== "number" || seen.has(event.id)) continue;
            seen.set(event.id, at);
            waiting.get(event.id)?.(at);
            waiting.delete(event.id);
          }
        }
      });
      ws.on("error", reject);
    }),
    PHONE_TIMEOUT_MS,
  );
  return {
    part,
    seen,
    waitFor: (id) => (seen.has(id) ? Promise.resolve(seen.get(id)) : new Promise((r) => waiting.set(id, r))),
    close: () => ws.close(1000, "bench done"),
  };
}

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`ingen händelse inom ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
  };
}

function load() {
  return Math.round(loadavg()[0] * 100) / 100;
}

function summarize(f) {
  const line = (name, s) => `${name.padEnd(16)} p50 ${s.p50} ms  p95 ${s.p95} ms  (n=${s.n}, max ${s.max} ms)`;
  return [
    `${f.check.families} familjer (${f.check.runners} löpare) incheckade av ${f.method.desks} diskar på ` +
      `${f.elapsedSeconds} s; alla på tidtagartelefonerna: ${f.check.onPhones}/${f.check.runners}, ` +
      `dubbla ${f.check.doubledOnAudit}, omspelade: ${f.check.replays.join(", ")}`,
    line("scanToConfirmed", f.scanToConfirmed),
    line("checkinToPhone", f.checkinToPhone),
    `  (last ${f.loadAverage1mAtStart} → ${f.loadAverage1mAtEnd}; förberedelse ${f.setupSeconds} s, otajmat)`,
  ].join("\n");
}

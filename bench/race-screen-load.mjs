/**
 * The race screen on a cheap phone with poor signal (issue 23 item 11): Debian Chromium through playwright-core at
 * 375 px, the CPU slowed 4× and the network held to 150 ms round trip and 1.6 Mbit/s down (750 kbit/s up), both through
 * the DevTools protocol, applied to the page and to its service worker (whose own fetches the page's settings do not
 * cover): the worker from before its first script runs (lib/service-worker-throttle.mjs); a round whose worker ran
 * before it was throttled is not counted but done again with a new phone (at most MAX_REDO times). A race of 60
 * runners; each of RUNS rounds is a new phone (a fresh browser profile, signed in) that opens /admin/race/{id} for the
 * first time, and then opens it again in a new tab: the time from the navigation's start to all 60 tiles painted, and
 * the JavaScript the first load downloaded (kB over the wire and unpacked). Targets: first load within 2 s, repeat
 * within 1 s. Also, on the first load, how long after its tiles the race screen says the phone is ready to work offline
 * ('Klar att användas utan nät', issue 41; target within 5 s): the repeat load waits for that (or, on a build without
 * that line, for the service worker), as a volunteer would. Medians of RUNS (RACE_LOAD_RUNS, default 3), each round
 * with the machine's load average when it began (other work on the two cores slows a 4× slowed CPU further).
 * RACE_LOAD_TIMELINE=1 prints each load's requests (start–end, ms since the navigation began) and long tasks.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../scripts/lib/chromium.mjs";
import { freePort } from "../scripts/lib/server.mjs";
import { throttleServiceWorkers } from "./lib/service-worker-throttle.mjs";

const RUNS = Number(process.env.RACE_LOAD_RUNS ?? 3);
const RUNNERS = 60;
const CLIENT = { "x-loppet-client": "1" };
/** Chromium's DevTools settings: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (bytes per second). */
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const CPU_SLOWDOWN = 4;
const FIRST_TARGET_MS = 2_000;
const REPEAT_TARGET_MS = 1_000;
const READY_TARGET_MS = 5_000;
/** How many times a round whose service worker ran before it was throttled is done again before the run fails. */
const MAX_REDO = 3;

const FIRST_NAMES = ["Alva", "Bo", "Cecilia", "David", "Elsa", "Filip", "Greta", "Hugo", "Ines", "Jonas"];
const LAST_NAMES = ["Andersson", "Berg", "Carlsson", "Dahl", "Ek", "Forsberg"];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function signIn(context) {
  const res = await context.request.post("/admin/api/dev-login", {
    headers: CLIENT,
    data: { email: "arrangor@example.se" },
  });
  if (res.status() !== 200) throw new Error(`dev-login: ${res.status()} ${await res.text()}`);
}

/** A race of RUNNERS runners with bibs, on a random day far ahead (nobody else's race). */
async function makeRace(context) {
  for (;;) {
    const year = 2040 + Math.floor(Math.random() * 59);
    const day = `${year}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
    const distance = 100 * (1 + Math.floor(Math.random() * 9_000));
    const part = `race-${day.slice(2).replaceAll("-", "")}-${String(distance / 100).padStart(2, "0")}`;
    const res = await context.request.post(`/admin/api/races/create-race/${part}`, {
      headers: CLIENT,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    if (res.status() !== 200) throw new Error(`create-race: ${res.status()} ${await res.text()}`);
    for (let i = 0; i < RUNNERS; i++) {
      const add = await context.request.post(`/admin/api/races/add-runner/${part}`, {
        headers: CLIENT,
        data: {
          firstname: FIRST_NAMES[i % FIRST_NAMES.length],
          lastname: `${LAST_NAMES[i % LAST_NAMES.length]}-${i + 1}`,
          age: 20 + (i % 40),
          bib: 100 + i,
          group: i % 2 ? "Dam" : "Herr",
          company: "",
        },
      });
      if (add.status() !== 200) throw new Error(`add-runner: ${add.status()} ${await add.text()}`);
    }
    return part;
  }
}

/**
 * Throttles each page of the browser (CPU and network) as it appears. Answers `ready(targetId)`, resolved once that
 * page is throttled, and `stop`. Service workers: lib/service-worker-throttle.mjs.
 */
async function throttlePages(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const done = new Map();
  const throttle = (targetInfo) => {
    if (targetInfo.type !== "page" || done.has(targetInfo.targetId)) return;
    const applied = (async () => {
      let sessionId;
      try {
        ({ sessionId } = await cdp.send("Target.attachToTarget", { targetId: targetInfo.targetId, flatten: false }));
      } catch {
        return; // gone already
      }
      let id = 0;
      const send = (method, params) =>
        cdp
          .send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: ++id, method, params }) })
          .catch(() => {});
      await send("Network.enable", {});
      await send("Network.emulateNetworkConditions", NETWORK);
      await send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    })();
    done.set(targetInfo.targetId, applied);
  };
  cdp.on("Target.targetCreated", ({ targetInfo }) => throttle(targetInfo));
  await cdp.send("Target.setDiscoverTargets", { discover: true });
  const { targetInfos } = await cdp.send("Target.getTargets");
  targetInfos.forEach(throttle);
  return {
    ready: async (targetId) => {
      while (!done.has(targetId)) await new Promise((resolve) => setTimeout(resolve, 20));
      await done.get(targetId);
    },
    stop: () => cdp.detach().catch(() => {}),
  };
}

/**
 * Installed before the page's own scripts: the moment (ms since the navigation started) at which RUNNERS tiles are
 * in the page and the frame after them has been painted, and the moment the page first says it is ready to work
 * offline. Watched from inside the page: polling from outside would run Playwright's scripts on the slowed main
 * thread.
 */
function watchTiles(count) {
  window.__seen = {};
  new MutationObserver(() => {
    for (const selector of [".admin-bar", ".page-loading", ".race-screen", ".runner-tiles"]) {
      if (!(selector in window.__seen) && document.querySelector(selector))
        window.__seen[selector] = Math.round(performance.now());
    }
  }).observe(document, { childList: true, subtree: true });
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(`${Math.round(e.startTime)}+${Math.round(e.duration)}`);
  }).observe({ type: "longtask", buffered: true });
  window.__tilesAt = new Promise((done) => {
    const check = () => {
      if (document.querySelectorAll(".tile-cell").length < count) return false;
      requestAnimationFrame(() => setTimeout(() => done(performance.now())));
      return true;
    };
    const start = () => {
      if (check()) return;
      const observer = new MutationObserver(() => {
        if (check()) observer.disconnect();
      });
      observer.observe(document.documentElement, { childList: true, subtree: true });
    };
    if (document.documentElement) start();
    else document.addEventListener("readystatechange", start, { once: true });
  });
  window.__readyAt = new Promise((done) => {
    const ready = () => document.querySelector('.offline-line[data-state="ready"]') !== null;
    const observer = new MutationObserver(() => {
      if (!ready()) return;
      observer.disconnect();
      done(performance.now());
    });
    const start = () =>
      observer.observe(document.documentElement, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
      });
    if (document.documentElement) start();
    else document.addEventListener("readystatechange", start, { once: true });
  });
}

export const TRACE_CATEGORIES = [
  "devtools.timeline",
  "v8",
  "v8.execute",
  "blink",
  "loading",
  "toplevel",
  "disabled-by-default-v8.cpu_profiler",
];

/**
 * RACE_LOAD_TRACE=<file>: the repeat load is traced (RACE_LOAD_TRACE_FIRST=<file>: the first load) (Chromium's own trace, written to <file>) and the renderer's main
 * thread summed by event name up to the tiles: where its time went (script compiling and running, style, layout,
 * paint, idle). Nested events are each counted, so the lines overlap; RunTask is the main thread's busy time. Then
 * the functions that took the most time themselves (V8's sampling profiler in the same trace).
 */
export function printMainThread(buffer, wallMs, file, what = "the repeat load") {
  writeFileSync(file, buffer);
  const events = JSON.parse(buffer.toString()).traceEvents ?? [];
  const mains = new Set(
    events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const timed = events.filter((e) => e.ph === "X" && typeof e.dur === "number" && mains.has(`${e.pid}:${e.tid}`));
  const byPid = new Map();
  const task = (name) => name === "RunTask" || name === "ThreadControllerImpl::RunTask";
  for (const e of timed) byPid.set(e.pid, (byPid.get(e.pid) ?? 0) + (task(e.name) ? e.dur : 0));
  const busiest = [...byPid].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map();
  for (const e of timed.filter((x) => x.pid === busiest)) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
  const top = [...sums].sort((a, b) => b[1] - a[1]).slice(0, 18);
  console.log(`    main thread of ${what} (${wallMs} ms wall, trace in ${file}):`);
  for (const [name, ms] of top) console.log(`      ${Math.round(ms).toString().padStart(6)} ms  ${name}`);
  // V8's samples: ProfileChunk events carry the call tree's new nodes, the sampled node ids and the time deltas.
  const nodes = new Map();
  const self = new Map();
  for (const e of events.filter((x) => x.name === "ProfileChunk" && x.pid === busiest)) {
    const profile = e.args?.data?.cpuProfile ?? {};
    for (const node of profile.nodes ?? []) nodes.set(`${e.id}:${node.id}`, node.callFrame);
    const deltas = e.args?.data?.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const frame = nodes.get(`${e.id}:${id}`);
      if (!frame) return;
      const where = `${frame.functionName || "(anonymous)"} ${(frame.url ?? "").replace(/^.*\/assets\//, "")}:${frame.lineNumber}`;
      self.set(where, (self.get(where) ?? 0) + (deltas[i] ?? 0) / 1000);
    });
  }
  console.log("    functions by their own time:");
  for (const [where, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`      ${Math.round(ms).toString().padStart(6)} ms  ${where}`);
}

/**
 * One load of the race screen in a new tab of `context`: ms to tiles painted, the scripts it downloaded, and the
 * browser context's id (DevTools').
 */
async function load(context, throttled, part, traceFile, what = "the repeat load") {
  const page = await context.newPage();
  const session = await context.newCDPSession(page);
  const { targetInfo } = await session.send("Target.getTargetInfo");
  await session.detach();
  await throttled.ready(targetInfo.targetId);
  const scripts = [];
  page.on("response", async (res) => {
    if (res.request().resourceType() !== "script") return;
    const sizes = await res
      .request()
      .sizes()
      .catch(() => null);
    scripts.push({
      url: new URL(res.url()).pathname,
      fromServiceWorker: res.fromServiceWorker(),
      wireBytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
      bodyBytes: Number(res.headers()["content-length"] ?? 0) || (await res.body().catch(() => Buffer.alloc(0))).length,
    });
  });
  const trace = traceFile && context.browser();
  if (trace) await trace.startTracing(undefined, { categories: TRACE_CATEGORIES });
  const startedAt = Date.now();
  await page.goto(`/admin/race/${part}`, { waitUntil: "commit" });
  const ms = await page.evaluate(() => window.__tilesAt);
  if (trace) printMainThread(await trace.stopTracing(), Date.now() - startedAt, traceFile, what);
  await page.waitForLoadState("networkidle");
  if (process.env.RACE_LOAD_TIMELINE === "1") {
    // Where the time went: the document and every request, start → end (ms since the navigation started).
    const timeline = await page.evaluate(() =>
      [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map(
        (e) => `${Math.round(e.startTime)}–${Math.round(e.responseEnd)} ${e.name.replace(location.origin, "")}`,
      ),
    );
    const tasks = await page.evaluate(
      () => `${window.__longTasks.join(" ")}\n    seen: ${JSON.stringify(window.__seen)}`,
    );
    console.log(`  ${Math.round(ms)} ms\n    ${timeline.join("\n    ")}\n    long tasks: ${tasks}`);
  }
  return { page, ms, scripts, browserContextId: targetInfo.browserContextId };
}

export async function run({ baseURL }) {
  // A debugging port besides Playwright's pipe: the service workers' throttling has a connection of its own.
  const debugPort = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debugPort}`],
    headless: true,
  });
  let workers = null;
  try {
    const { offline, ...conditions } = NETWORK;
    workers = await throttleServiceWorkers(debugPort, {
      offline,
      matchedNetworkConditions: [{ urlPattern: "", ...conditions }],
    });
    const setup = await browser.newContext({ baseURL });
    await signIn(setup);
    const part = await makeRace(setup);
    await setup.close();

    const rounds = [];
    const redone = [];
    for (let i = 1; i <= RUNS;) {
      // A new phone: an empty profile (no cache, no service worker), signed in before the clock starts.
      const context = await browser.newContext({
        baseURL,
        viewport: { width: 375, height: 740 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: "sv-SE",
        timezoneId: "Europe/Stockholm",
      });
      await signIn(context);
      await context.addInitScript(watchTiles, RUNNERS);
      const loadAverage1m = Math.round(loadavg()[0] * 100) / 100;
      const throttled = await throttlePages(browser);
      let unheld = null;
      try {
        const first = await load(context, throttled, part, process.env.RACE_LOAD_TRACE_FIRST, "the first load");
        // The phone keeps the page open until it says it is ready to work offline (the service worker installs
        // meanwhile), then opens it again. A build without that line: until its service worker is ready. (At most
        // 20 s: a build without a service worker never gets ready.)
        const readyAt = await first.page.evaluate(async () => {
          const limit = new Promise((done) => setTimeout(() => done(null), 20_000));
          if (document.querySelector(".offline-line")) return Promise.race([window.__readyAt, limit]);
          await Promise.race([navigator.serviceWorker?.ready, limit]);
          return null;
        });
        // RACE_LOAD_SHOT=<file.png>: what the phone shows once ready (the whole page, the first round).
        if (process.env.RACE_LOAD_SHOT && i === 1)
          await first.page.screenshot({ path: process.env.RACE_LOAD_SHOT, fullPage: true });
        // A round counts only if its service worker was stopped before its script ran and throttled then
        // (lib/service-worker-throttle.mjs); else it is done again with a new phone.
        const serviceWorkers = await workers.of(first.browserContextId);
        if (serviceWorkers.some((w) => !w.beforeScript || !w.throttled)) unheld = serviceWorkers;
        else {
          await first.page.close();
          const repeat = await load(context, throttled, part, process.env.RACE_LOAD_TRACE);
          await repeat.page.close();
          const sum = (list, key) => list.reduce((s, x) => s + x[key], 0);
          rounds.push({
            loadAverage1m,
            firstMs: Math.round(first.ms),
            readyAfterTilesMs: readyAt === null ? null : Math.round(readyAt - first.ms),
            repeatMs: Math.round(repeat.ms),
            firstScriptWireKB: Math.round(sum(first.scripts, "wireBytes") / 100) / 10,
            firstScriptKB: Math.round(sum(first.scripts, "bodyBytes") / 100) / 10,
            firstScripts: first.scripts.map((s) => s.url),
            repeatScriptsFromNetwork: repeat.scripts
              .filter((s) => !s.fromServiceWorker && s.wireBytes > 0)
              .map((s) => s.url),
            // Where each of its service workers stood when it was throttled.
            serviceWorkers: serviceWorkers.map(({ url, pause }) => ({ url: new URL(url).pathname, pause })),
          });
        }
      } finally {
        await throttled.stop();
        await context.close();
      }
      if (unheld) {
        redone.push({ round: i, loadAverage1m, serviceWorkers: unheld });
        const where = unheld.map((w) => `${new URL(w.url).pathname}: ${w.pause ?? "ej stoppad"}`).join(", ");
        console.log(`  körning ${i} görs om: service workern körde innan den ströps (${where})`);
        if (redone.filter((r) => r.round === i).length > MAX_REDO)
          throw new Error(`körning ${i}: service workern körde innan den ströps ${MAX_REDO + 1} gånger`);
        continue;
      }
      const r = rounds.at(-1);
      console.log(
        `  körning ${i}: första ${r.firstMs} ms, klar utan nät ${r.readyAfterTilesMs ?? "–"} ms efter rutorna, igen ${r.repeatMs} ms, skript ${r.firstScriptWireKB} kB över nätet (${r.firstScriptKB} kB), last ${r.loadAverage1m}`,
      );
      i++;
    }
    const figures = {
      runners: RUNNERS,
      cpuSlowdown: CPU_SLOWDOWN,
      network: { rttMs: NETWORK.latency, downMbit: 1.6, upMbit: 0.75 },
      firstLoadMedianMs: median(rounds.map((r) => r.firstMs)),
      repeatLoadMedianMs: median(rounds.map((r) => r.repeatMs)),
      readyAfterTilesMedianMs: rounds.some((r) => r.readyAfterTilesMs === null)
        ? null
        : median(rounds.map((r) => r.readyAfterTilesMs)),
      firstScriptWireKBMedian: median(rounds.map((r) => r.firstScriptWireKB)),
      firstScriptKBMedian: median(rounds.map((r) => r.firstScriptKB)),
      rounds,
      /** Rounds not counted: their service worker ran before it was throttled. */
      redone,
    };
    const summary = [
      `Loppskärmen, ${RUNNERS} löpare, telefon, ${CPU_SLOWDOWN}× långsammare CPU, 150 ms RTT, 1,6 Mbit/s, median av ${RUNS}:`,
      `  första laddningen till rutorna: ${figures.firstLoadMedianMs} ms (mål ≤ ${FIRST_TARGET_MS} ms)`,
      `  samma telefon igen:             ${figures.repeatLoadMedianMs} ms (mål ≤ ${REPEAT_TARGET_MS} ms)`,
      `  klar utan nät efter rutorna:    ${figures.readyAfterTilesMedianMs ?? "–"} ms (mål ≤ ${READY_TARGET_MS} ms)`,
      `  JavaScript vid första laddningen: ${figures.firstScriptWireKBMedian} kB över nätet, ${figures.firstScriptKBMedian} kB uppackat`,
      ...(redone.length > 0 ? [`  omgjorda körningar (service workern körde innan den ströps): ${redone.length}`] : []),
    ].join("\n");
    return { figures, summary };
  } finally {
    workers?.stop();
    await browser.close();
  }
}

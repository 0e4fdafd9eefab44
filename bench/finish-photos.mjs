/**
 * Målfoto (issue 44) on a cheap phone with poor signal: Debian Chromium with a fake camera (a .y4m of moving
 * squares, 30 frames a second, 1280×720), its page slowed as bench/race-screen-load.mjs slows one (CPU 4×, 150 ms round
 * trip, 1.6 Mbit/s down, 750 kbit/s up, through the DevTools protocol).
 *
 * 1. Press → tap queued, camera on against off: ROUNDS alternating rounds (off, on, off, on …) of PRESSES 'Mål!'
 *    presses each, a press every 300 ms. Measured inside the page: from the pointerdown event's time to the moment the
 *    tap queue writes the tap into localStorage (the queue's synchronous write in the press's handler). Figures: the
 *    median and p95 of each mode over all its rounds, and their ratio (target: within 1.1×).
 * 2. Photo to the second phone: SECOND presses before the start (each goes to 'Att granska'); a second phone (not
 *    slowed) has the race screen open, and the time from the press on the first phone to the photo showing (loaded)
 *    in the second phone's review item, both on this machine's clock. Figures: each, and their median, and the
 *    photos' journey (`journey`: the first phone's uploads with their answers, the second phone's socket frames that
 *    name a photo and its requests for them, in seconds from the start).
 * Diagnosis: `inputDelayMs`, the part of press → queued before the page's first pointerdown listener ran (the main
 * thread was busy with something else); MALFOTO_TRACE=<file> traces the first round of each mode (Chromium's trace,
 * written to <file>.off.json and <file>.on.json) and sums the renderer's main thread as bench/race-screen-load.mjs
 * does (its V8 samples are the renderer's, workers included).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeCameraArgs } from "../scripts/lib/chromium.mjs";
import { printMainThread, TRACE_CATEGORIES } from "./race-screen-load.mjs";

const ROUNDS = Number(process.env.MALFOTO_ROUNDS ?? 6);
const PRESSES = 20;
const SECOND = 5;
const TARGET_RATIO = 1.1;
const CLIENT = { "x-loppet-client": "1" };
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const CPU_SLOWDOWN = 4;
const TRACE = process.env.MALFOTO_TRACE;

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const round1 = (x) => Math.round(x * 10) / 10;

/** A 1280×720 grey video of a square moving a step per frame (what a camera sees), 3 s at 30 frames a second. */
function writeVideo() {
  const width = 1280;
  const height = 720;
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frames = [];
  for (let n = 0; n < 90; n += 1) {
    const y = Buffer.alloc(width * height, 200);
    const x0 = (n * 12) % (width - 200);
    for (let r = 260; r < 460; r += 1) y.fill(30, r * width + x0, r * width + x0 + 200);
    frames.push(Buffer.from("FRAME\n"), y, chroma, chroma);
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), "malfoto-bench-")), "camera.y4m");
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`), ...frames]),
  );
  return file;
}

async function signedIn(browser, baseURL) {
  const context = await browser.newContext({
    baseURL,
    locale: "sv-SE",
    timezoneId: "Europe/Stockholm",
    viewport: { width: 390, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const res = await context.request.post("/admin/api/dev-login", {
    headers: CLIENT,
    data: { email: "arrangor@example.se" },
  });
  if (res.status() !== 200) throw new Error(`dev-login: ${res.status()}`);
  return context;
}

async function makeRace(context) {
  const config = await (await context.request.get("/api/config")).json();
  const today = new Date(config.serverTime).toLocaleDateString("sv-SE", { timeZone: "Europe/Stockholm" });
  for (;;) {
    const distance = 100 * (1 + Math.floor(Math.random() * 9_000));
    const part = `race-${today.slice(2).replaceAll("-", "")}-${String(distance / 100).padStart(2, "0")}`;
    const res = await context.request.post(`/admin/api/races/create-race/${part}`, {
      headers: CLIENT,
      data: { date: today, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    if (res.status() !== 200) throw new Error(`create-race: ${res.status()} ${await res.text()}`);
    return part;
  }
}

/** In the page: each press's pointerdown time, and when the tap queue's write of it happened. */
function watchPresses() {
  window.__press = null;
  window.__queued = [];
  window.__delay = [];
  window.addEventListener(
    "pointerdown",
    (e) => {
      window.__press = e.timeStamp;
      // The input delay: how long the event waited for the main thread before its first listener ran.
      window.__delay.push(performance.now() - e.timeStamp);
    },
    { capture: true },
  );
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    setItem.call(this, key, value);
    if (key.startsWith("race-day:taps:") && window.__press !== null) {
      window.__queued.push(performance.now() - window.__press);
      window.__press = null;
    }
  };
}

export async function run({ baseURL }) {
  const video = writeVideo();
  const camera = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: fakeCameraArgs(video),
  });
  const plain = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const loads = [loadavg()[0]];
  try {
    const phoneContext = await signedIn(camera, baseURL);
    await phoneContext.grantPermissions(["camera"], { origin: baseURL });
    const part = await makeRace(phoneContext);
    const phone = await phoneContext.newPage();
    await phone.addInitScript(watchPresses);
    const cdp = await phoneContext.newCDPSession(phone);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", NETWORK);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await phone.goto(`/admin/race/${part}`);
    await phone.getByText("socket ansluten").waitFor({ timeout: 60_000 });
    await phone.getByRole("button", { name: "Mål!", exact: true }).click();
    const finish = phone.getByRole("button", { name: /^Mål! \(\d+ tider\)$/ });
    const cameraOn = () => phone.getByText("Kameran är på: varje måltid får ett foto.").waitFor({ timeout: 60_000 });

    // 2. Photo to the second phone, before the start.
    const other = await (await signedIn(plain, baseURL)).newPage();
    // What happened to the photos on their way, on this machine's clock: the first phone's uploads (answer and
    // status), the second phone's socket frames that name a photo and its requests for them.
    const start = Date.now();
    const journey = [];
    const note = (what) => journey.push(`${((Date.now() - start) / 1000).toFixed(1)} s ${what}`);
    const photoPath = (url) => new URL(url).pathname.replace(/^.*\/photo\//, "");
    phone.on("requestfinished", async (req) => {
      if (!req.url().includes("/races/photo/")) return;
      note(`telefon 1 ${req.method()} ${photoPath(req.url())} → ${(await req.response())?.status()}`);
    });
    phone.on("requestfailed", (req) => {
      if (req.url().includes("/races/photo/")) note(`telefon 1 ${req.method()} ${photoPath(req.url())} misslyckades`);
    });
    other.on("requestfinished", async (req) => {
      if (!req.url().includes("/races/photo/")) return;
      note(`telefon 2 ${req.method()} ${photoPath(req.url())} → ${(await req.response())?.status()}`);
    });
    other.on("websocket", (ws) =>
      ws.on("framereceived", ({ payload }) => {
        const text = String(payload);
        for (const m of text.matchAll(/"id":"(photo-[^"]+|[^"]+)","frames":\[([0-9,]*)\]/g))
          note(`telefon 2 socket ${m[1]} bilder [${m[2]}]`);
        if (text.includes("review")) note(`telefon 2 socket ${text.slice(0, 160)}`);
      }),
    );
    await other.goto(`/admin/race/${part}`);
    await other.getByText("socket ansluten").waitFor({ timeout: 60_000 });
    // Each review item's photo, by tap (the address's second-last segment), when it first shows loaded, in the
    // list's order (oldest first: the presses' order).
    await other.evaluate(() => {
      window.__shown = new Map();
      setInterval(() => {
        document.querySelectorAll(".race-review .review-item").forEach((item, index) => {
          const img = item.querySelector(".photo-thumb img");
          if (img && img.complete && img.naturalWidth > 0 && !window.__shown.has(index))
            window.__shown.set(index, Date.now());
        });
      }, 20);
    });
    await phone.getByRole("checkbox", { name: "Målfoto" }).check();
    await cameraOn();
    const pressedAt = [];
    for (let i = 0; i < SECOND; i += 1) {
      pressedAt.push(Date.now());
      await finish.click();
      await phone.waitForTimeout(3_000);
    }
    await other
      .waitForFunction((n) => window.__shown.size >= n, SECOND, { timeout: 60_000, polling: 200 })
      .catch(() => undefined);
    const shown = await other.evaluate(() => [...window.__shown.entries()]);
    const toSecond = pressedAt.map((t, i) => {
      const at = shown.find(([index]) => index === i)?.[1];
      return at === undefined ? null : at - t;
    });
    const arrived = toSecond.filter((x) => x !== null);
    note("slut på väntan");

    // 1. Press → queued, camera off and on in alternating rounds, the race started.
    await phone.getByRole("button", { name: /^Starta/ }).click();
    await phone.getByRole("timer").waitFor({ timeout: 30_000 });
    const samples = { off: [], on: [] };
    const delays = { off: [], on: [] };
    const rounds = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      const mode = r % 2 === 0 ? "off" : "on";
      const box = phone.getByRole("checkbox", { name: "Målfoto" });
      if (mode === "on") {
        await box.check();
        await cameraOn();
      } else if (await box.isChecked()) await box.uncheck();
      await phone.evaluate(() => {
        window.__queued = [];
        window.__delay = [];
      });
      // MALFOTO_TRACE=<file>: the first round of each mode is traced (Chromium's trace), the main thread summed.
      const traced = TRACE && r < 2 ? `${TRACE}.${mode}.json` : null;
      if (traced) await camera.startTracing(phone, { categories: TRACE_CATEGORIES });
      const began = Date.now();
      for (let i = 0; i < PRESSES; i += 1) {
        await finish.click();
        await phone.waitForTimeout(300);
      }
      if (traced) printMainThread(await camera.stopTracing(), Date.now() - began, traced, `a round, camera ${mode}`);
      const { queued, delay } = await phone.evaluate(() => ({ queued: window.__queued, delay: window.__delay }));
      samples[mode].push(...queued);
      delays[mode].push(...delay);
      rounds.push({
        mode,
        median: round1(quantile(queued, 0.5)),
        p95: round1(quantile(queued, 0.95)),
        n: queued.length,
      });
      loads.push(loadavg()[0]);
    }
    const stat = (xs) => ({ median: round1(quantile(xs, 0.5)), p95: round1(quantile(xs, 0.95)), n: xs.length });
    const off = stat(samples.off);
    const on = stat(samples.on);
    const ratio = {
      median: Math.round((on.median / off.median) * 100) / 100,
      p95: Math.round((on.p95 / off.p95) * 100) / 100,
    };
    const figures = {
      pressToQueuedMs: { off, on, ratio, rounds, target: TARGET_RATIO },
      /** Of press → queued, the part before the page's first listener ran (the main thread was busy). */
      inputDelayMs: { off: stat(delays.off), on: stat(delays.on) },
      photoToSecondPhoneMs: {
        each: toSecond,
        median: quantile(arrived, 0.5),
        missing: toSecond.length - arrived.length,
        journey,
      },
      loadAverage: loads.map((l) => Math.round(l * 100) / 100),
    };
    const summary = [
      `Tryck → i kön (4× CPU, 150 ms, 1,6 Mbit/s), ${ROUNDS} omgångar om ${PRESSES}:`,
      `  kameran av: median ${off.median} ms, p95 ${off.p95} ms; på: median ${on.median} ms, p95 ${on.p95} ms`,
      `  kvot på/av: median ${ratio.median}, p95 ${ratio.p95} (mål ≤ ${TARGET_RATIO})`,
      `  varav väntan på huvudtråden före första lyssnaren: av median ${figures.inputDelayMs.off.median} ms, på ${figures.inputDelayMs.on.median} ms`,
      `Målfoto till andra telefonen: ${toSecond.map((x) => x ?? "kom inte").join(", ")} ms (median ${quantile(arrived, 0.5)} ms)`,
      `Belastning: ${figures.loadAverage.join(" → ")}`,
    ].join("\n");
    return { figures, summary };
  } finally {
    await camera.close();
    await plain.close();
  }
}

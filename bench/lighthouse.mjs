/**
 * The public pages as Lighthouse 13 sees them on a phone (PAGES; `LIGHTHOUSE_PAGES=/,/resultat` picks some): the default mobile config (simulated slow 4G, 4× CPU),
 * five runs, each in a fresh Debian Chromium, median of each figure (one run at a time: on two cores a second
 * run would be throttling noise). Plus the public entry's JavaScript: the module script and modulepreloads
 * of the built SPA shell (the same entry the landing page loads once painted), gzip level 9, summed
 * (DESIGN.md: ≤ 120 kB).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "../scripts/lib/chromium.mjs";
import { ROOT } from "../scripts/lib/proc.mjs";

const RUNS = 5;
/** Every public page (issue 7 names these eight). */
const PAGES = [
  "/",
  "/startlistor",
  "/resultat",
  "/galleri",
  "/galleri/2019",
  "/banor",
  "/allmanna-villkor",
  "/tidtagning",
];
const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_ARGS];

const METRICS = {
  lcpMs: "largest-contentful-paint",
  fcpMs: "first-contentful-paint",
  tbtMs: "total-blocking-time",
  cls: "cumulative-layout-shift",
  speedIndexMs: "speed-index",
};

async function lighthouseRun(url) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse gav inget resultat");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const run = { score: Math.round((lhr.categories.performance.score ?? 0) * 100) };
    for (const [key, audit] of Object.entries(METRICS)) run[key] = lhr.audits[audit]?.numericValue ?? null;
    run.warnings = lhr.runWarnings;
    run.chromium = lhr.environment.hostUserAgent;
    return run;
  } finally {
    chrome.kill();
  }
}

function median(values) {
  const sorted = values.filter((v) => typeof v === "number").sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The JS a visitor downloads before the landing page is interactive. The pre-rendered landing loads the entry
 * from a tiny after-first-paint loader (scripts/prerender.mjs), so the tags are read from the shell
 * index.html, which names the same entry and its static imports.
 */
export function entryJs(clientDir = path.join(ROOT, "dist", "client")) {
  const htmlFile = path.join(clientDir, "index.html");
  const html = readFileSync(htmlFile, "utf8");
  const urls = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']?([^"'\\s>]+)`, "i"))?.[1];
    if (/^<script/i.test(tag) && attr("type") === "module" && attr("src")) urls.add(attr("src"));
    if (/^<link/i.test(tag) && attr("rel") === "modulepreload" && attr("href")) urls.add(attr("href"));
  }
  const files = [...urls].map((url) => {
    const bytes = readFileSync(path.join(clientDir, new URL(url, "http://x/").pathname));
    return { url, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return { html: path.relative(ROOT, htmlFile), files, gzipBytes, gzipKb: Math.round(gzipBytes / 102.4) / 10 };
}

async function measure(url) {
  const runs = [];
  for (let i = 1; i <= RUNS; i++) {
    // One retry: on a shared machine the local server can miss a beat (Chrome then shows an error page).
    const r = await lighthouseRun(url).catch((err) => {
      console.warn(`  körning ${i} misslyckades (${err.message}), försöker igen`);
      return lighthouseRun(url);
    });
    runs.push(r);
    console.log(
      `  körning ${i}: ${r.score}  LCP ${fmtMs(r.lcpMs)}  TBT ${fmtMs(r.tbtMs)}  CLS ${r.cls?.toFixed(3)}  FCP ${fmtMs(r.fcpMs)}`,
    );
  }
  const med = { score: median(runs.map((r) => r.score)) };
  for (const key of Object.keys(METRICS)) med[key] = median(runs.map((r) => r[key]));
  return { url, runs: RUNS, median: med, perRun: runs };
}

export async function run({ baseURL }) {
  const paths = process.env.LIGHTHOUSE_PAGES ? process.env.LIGHTHOUSE_PAGES.split(",") : PAGES;
  const pages = {};
  for (const page of paths) {
    console.log(`  ${page}`);
    pages[page] = await measure(`${baseURL}${page}`);
  }
  const js = entryJs();
  const figures = { pages, entryJs: js };
  const summary = [
    `Lighthouse mobil, median av ${RUNS}:`,
    ...Object.entries(pages).map(
      ([page, { median: med }]) =>
        `  ${page.padEnd(14)} prestanda ${med.score}   LCP ${fmtMs(med.lcpMs)}   TBT ${fmtMs(med.tbtMs)}   CLS ${med.cls.toFixed(3)}   FCP ${fmtMs(med.fcpMs)}   SI ${fmtMs(med.speedIndexMs)}`,
    ),
    `Publik entry-JS (${js.html}): ${js.gzipKb} kB gzip i ${js.files.length} fil(er)`,
    ...js.files.map((f) => `  ${f.url}  ${(f.gzipBytes / 1024).toFixed(1)} kB gzip`),
  ].join("\n");
  return { figures, summary };
}

function fmtMs(ms) {
  return ms == null ? "–" : `${Math.round(ms)} ms`;
}

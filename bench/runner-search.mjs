/**
 * 'Sök löpare' on a 500-row results list (issue 28: "under 50 ms per keystroke over 500 rows on a 4× slowed CPU"):
 * Debian Chromium through playwright-core on a 390 px phone (device pixel ratio 2, as in the browser tests) with
 * the CPU slowed 4× (Lighthouse's mobile setting).
 * The organiser's import stores 500 runners as one year's 5.6K results; each of RUNS rounds opens that year's
 * page, waits for all 500 rows, slows the CPU and types 'lopare123' key by key (accents do not matter: it finds
 * 'Löpare123'), then erases it key by key: 500 → 111 → 11 → 1 row and back to 500.
 *
 * Per keystroke: from the keydown event's timestamp until the updated list is drawn (armKeystroke), measured
 * inside the page, so no poll from here runs on the slowed main thread. Each round is followed by the same keys on
 * a 3-row year (the reference: what a keystroke costs the page whatever the list), and the ratio of the medians is
 * reported, as DESIGN.md asks of timings on these shared machines. The Chromium is Debian's, like the tests';
 * the machine's load at the start is in the results file (bench/run.mjs): on a shared machine, a busy moment
 * shows as a few slow keystrokes, so the median and p95 say more than the maximum.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../scripts/lib/chromium.mjs";

const RUNS = 3;
const ROWS = 500;
const YEAR = 2010;
/** The reference: the same page and keys over a list of 3 rows. */
const REFERENCE_YEAR = 2009;
const REFERENCE_ROWS = 3;
const QUERY = "lopare123";
const TARGET_MS = 50;
const CLIENT = { "x-loppet-client": "1" };

function resultsFile(n) {
  const time = (ms) => {
    const m = Math.floor(ms / 60_000);
    const s = Math.floor((ms % 60_000) / 1000);
    return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
  };
  const lines = ["Placering;Namn;Resultat;Klass;Startnummer;Förening"];
  for (let i = 0; i < n; i++) {
    const club = i % 3 ? "" : "Idrottsklubben Ekbacken";
    const ms = 40 * 60_000 + i * 1_517;
    lines.push(
      `${i + 1};Löpare${i + 1} Långnamnsson-Åkerlund;${time(ms)};${i % 2 ? "Dam" : "Herr"};${600 + i};${club}`,
    );
  }
  return lines.join("\n") + "\n";
}

const ROW_SELECTOR = "[role='tabpanel'][data-state='active'] .data-grid-block [role='row']";

/**
 * In the page: resolves with the ms from the next keydown until the list shows `query`'s rows on screen. The list
 * has updated when its status line names the query and exactly that many rows are shown (a MutationObserver
 * notices, so no poll from here runs on the slowed main thread); it is on screen once a frame has been drawn
 * after that. A block of rows that the browser skipped until then (`content-visibility: auto`) and that comes
 * into view is drawn in the frame after (a `contentvisibilityautostatechange` event says so), so frames are
 * counted until one brings no such block. The time is taken at the start of the next frame (requestAnimationFrame):
 * an upper bound, by at most one frame's wait when the phone is idle.
 */
function armKeystroke(page, query) {
  return page.evaluate(
    ({ query, rowSelector }) => {
      window.__keystroke = new Promise((resolve) => {
        let started = null;
        addEventListener("keydown", (e) => (started = e.timeStamp), { once: true, capture: true });
        const shownRows = () => document.querySelectorAll(`${rowSelector}:not([hidden])`).length;
        const updated = () => {
          const text = document.querySelector("[role='tabpanel'][data-state='active'] .results-count")?.textContent;
          if (text === undefined) return false;
          if (query === "") return text === `${document.querySelectorAll(rowSelector).length} löpare i mål`;
          const m = /^(\d+|Ingen) av \d+ löpare i mål matchar "(.*)"\.$/.exec(text);
          return m !== null && m[2] === query && shownRows() === (m[1] === "Ingen" ? 0 : Number(m[1]));
        };
        let revealed = false;
        const onReveal = (e) => {
          if (!e.skipped) revealed = true;
        };
        document.addEventListener("contentvisibilityautostatechange", onReveal, true);
        const observer = new MutationObserver(() => {
          if (started === null || !updated()) return;
          observer.disconnect();
          revealed = false;
          // The first frame draws the update; each later one only while the one before revealed skipped rows.
          requestAnimationFrame(function afterFrame() {
            requestAnimationFrame(() => {
              if (revealed) {
                revealed = false;
                afterFrame();
                return;
              }
              document.removeEventListener("contentvisibilityautostatechange", onReveal, true);
              resolve({ ms: performance.now() - started, shown: shownRows() });
            });
          });
        });
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
          attributeFilter: ["hidden"],
        });
      });
    },
    { query, rowSelector: ROW_SELECTOR },
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];

/** One round on one year's page: every keystroke's time, and the rows shown after each. */
async function typeAndErase(browser, baseURL, year, rows) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "sv-SE",
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`/resultat/${year}`, { waitUntil: "networkidle" });
    await page.waitForFunction(({ sel, n }) => document.querySelectorAll(sel).length === n, {
      sel: ROW_SELECTOR,
      n: rows,
    });
    await page.getByLabel("Sök löpare").focus();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const steps = [
      ...[...QUERY].map((key, i) => ({ key, query: QUERY.slice(0, i + 1) })),
      ...[...QUERY].map((_, i) => ({ key: "Backspace", query: QUERY.slice(0, QUERY.length - 1 - i) })),
    ];
    const keystrokes = [];
    for (const { key, query } of steps) {
      await armKeystroke(page, query);
      await page.keyboard.press(key);
      const { ms, shown } = await page.evaluate(() => window.__keystroke);
      keystrokes.push({ key, query, ms: Math.round(ms * 10) / 10, rowsShown: shown });
    }
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    return keystrokes;
  } finally {
    await context.close();
  }
}

const stats = (times) => ({
  medianMs: median(times),
  p95Ms: percentile(times, 95),
  maxMs: Math.max(...times),
  under50: times.filter((t) => t < TARGET_MS).length,
  count: times.length,
});

export async function run({ baseURL }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const admin = await browser.newContext({ baseURL });
    const login = await admin.request.post("/admin/api/dev-login", {
      headers: CLIENT,
      data: { email: "arrangor@example.se" },
    });
    if (login.status() !== 200) throw new Error(`dev-login: ${login.status()}`);
    for (const [year, rows] of [
      [YEAR, ROWS],
      [REFERENCE_YEAR, REFERENCE_ROWS],
    ]) {
      const imported = await admin.request.post("/admin/api/results/import", {
        headers: CLIENT,
        data: { kind: "results", year, distance: "5.6", text: resultsFile(rows) },
      });
      if (imported.status() !== 200) throw new Error(`import ${year}: ${imported.status()} ${await imported.text()}`);
    }
    await admin.close();

    // One round first that is not counted: the server just started and the browser's code is cold.
    await typeAndErase(browser, baseURL, YEAR, ROWS);
    // Alternating rounds: the 500-row list, then the reference (the same page and keys over 3 rows: what a
    // keystroke costs whatever the list), so a busy moment of the machine weighs on both alike.
    const rounds = [];
    for (let run = 1; run <= RUNS; run++) {
      const list = await typeAndErase(browser, baseURL, YEAR, ROWS);
      const found = list[QUERY.length - 1].rowsShown;
      if (found !== 1) throw new Error(`'${QUERY}' showed ${found} rows, not 1`);
      const reference = await typeAndErase(browser, baseURL, REFERENCE_YEAR, REFERENCE_ROWS);
      rounds.push({ run, list, reference });
      const ms = (ks) => ks.map((k) => Math.round(k.ms)).join(", ");
      console.log(`  körning ${run}: ${ROWS} rader ${ms(list)} ms`);
      console.log(`  körning ${run}: ${REFERENCE_ROWS} rader ${ms(reference)} ms`);
    }
    const list = stats(rounds.flatMap((r) => r.list.map((k) => k.ms)));
    const reference = stats(rounds.flatMap((r) => r.reference.map((k) => k.ms)));
    const figures = {
      rows: ROWS,
      referenceRows: REFERENCE_ROWS,
      cpuSlowdown: 4,
      viewport: "390x844@2x",
      targetMs: TARGET_MS,
      list,
      reference,
      medianRatio: Math.round((list.medianMs / reference.medianMs) * 100) / 100,
      rounds,
    };
    const line = (s) =>
      `median ${Math.round(s.medianMs)} ms, p95 ${Math.round(s.p95Ms)} ms, max ${Math.round(s.maxMs)} ms, under ${TARGET_MS} ms: ${s.under50} av ${s.count}`;
    const summary = [
      `Sök löpare, telefon 390 px, 4× långsammare CPU, ${RUNS} körningar à ${QUERY.length * 2} tangenttryck, från tangent till ritad lista:`,
      `  ${ROWS} rader: ${line(list)}`,
      `  ${REFERENCE_ROWS} rader (referens): ${line(reference)}`,
      `  kvot mellan medianerna: ${figures.medianRatio}`,
    ].join("\n");
    return { figures, summary };
  } finally {
    await browser.close();
  }
}

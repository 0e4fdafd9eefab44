/**
 * /startlistor in real Chromium against `npm start`'s server, on a phone (375 px) and a desktop (1280 px): the
 * pre-rendered first HTML (headings and tabs without JavaScript, head for sharing), the prompt, a start list on
 * picking a distance, a running race's live results updating by themselves with DNS, an empty race, the keyboard,
 * axe-core, 320 px, and that a visitor never downloads admin or timing code. Races of these tests are made on
 * days in 2099 (the race-day tests use 2040–2098), each with a distance of its own.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import { contextsStayOnSite, desktopContext, launchBrowser, layoutShift, phoneContext } from "./browser";
import {
  adminApi,
  CLIENT,
  expectNoSeriousAxeViolations,
  expectNoSidewaysScroll,
  expectShareableHead,
  selectTab,
} from "./public-pages";

const baseURL = e2eBaseURL();
const TITLE = `Startlistor – ${SEASON.siteName}`;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(kind: "phone" | "desktop", options: Parameters<typeof phoneContext>[2] = {}): Promise<Page> {
  const context = await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL, options);
  return onSite(context, baseURL).newPage();
}

/** A context for the admin API calls only (no pages, so not one of the stays-on-site contexts); closed after all. */
const adminContexts: BrowserContext[] = [];
afterAll(async () => {
  await Promise.all(adminContexts.map((c) => c.close()));
});

async function adminContext(): Promise<BrowserContext> {
  const context = await desktopContext(browser, baseURL);
  adminContexts.push(context);
  await adminApi(context);
  return context;
}

const pick = (n: number) => Math.floor(Math.random() * n);

/** A race of its own in 2099 (a random day and length), made through the admin API. */
async function createRace(context: BrowserContext): Promise<RaceRecord> {
  for (;;) {
    const day = `2099-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
    const distance = 100 * (1 + pick(9_000));
    const res = await context.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: CLIENT,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

async function addRunner(
  context: BrowserContext,
  part: string,
  runner: { firstname: string; bib: number | null; group?: string; company?: string },
): Promise<RunnerRecord> {
  const res = await context.request.post(`/admin/api/races/add-runner/${part}`, {
    headers: CLIENT,
    data: { lastname: "Åkesson", age: 30, group: "Ingen", company: "", ...runner },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as RunnerRecord;
}

async function raceCall(context: BrowserContext, path: string): Promise<void> {
  const res = await context.request.get(`/admin/api/races/${path}`, { headers: CLIENT });
  expect(res.status(), path).toBe(200);
}

/** The start list's cells, row by row, as text (a DataGrid: ARIA table rows). */
function tableRows(page: Page, scope = page.locator("main")) {
  return scope
    .locator(".data-grid-block [role='row']")
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((c) => c.textContent?.trim())));
}

/** The chunks of the admin area (race day included) and of the stopwatch (scripts/lib/chunk-groups.mjs). */
const ADMIN_OR_TIMING = /^\/assets\/(admin|timing)\//;

/** A race's tab, by the race (Radix names its panel after the tab's value, the race id). */
const raceTab = (scope: Locator, part: string) => scope.locator(`[role="tab"][aria-controls$="-content-${part}"]`);

const headers = (page: Page) => page.locator("main").getByRole("columnheader").allTextContents();

test("the first HTML has the page's heading and text, a head for sharing, and the years with their distances", async () => {
  const page = await open("phone", { javaScriptEnabled: false });
  const res = await page.goto("/startlistor");
  expect(res?.status()).toBe(200);
  await expectShareableHead(page, TITLE);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Startlistor");
  expect(await page.locator(".page-lead").textContent()).toMatch(/^Alla anmälda löpare/);
  // The Worker rendered the years and their distances into the HTML (no loading line, nothing to arrive).
  expect(await page.getByText("Hämtar loppen …").count()).toBe(0);
  const years = (await page.locator("main h2").allTextContents()).map(Number);
  // The demo's earlier seasons are imported results without races of their own (issue 28): only this season has
  // start lists (and any other year a test file on the same server made a race in).
  expect(years).toContain(2025);
  for (const past of [2024, 2023, 2022]) expect(years).not.toContain(past);
  expect(years).toEqual([...years].sort((a, b) => b - a));
  const season = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2025" }) });
  // Other test files on the same server may add races to this season ('5.6K (13/9)'): the four distances are there.
  const tabs = await season.getByRole("tab").allTextContents();
  expect(tabs).toEqual(expect.arrayContaining(["0.8K", "1.6K", "2.8K"]));
  expect(tabs.some((t) => t.startsWith("5.6K"))).toBe(true);
  expect(await season.getByText("Klicka på en distans för att hämta startlistan.").count()).toBe(1);
  // The same races as data for the first render (not run: a JSON script, which the CSP allows).
  const data = JSON.parse((await page.locator("script#page-data").textContent()) ?? "{}") as {
    queries: { key: string[]; data: RaceRecord[] }[];
  };
  expect(data.queries.map((q) => q.key)).toEqual([["public", "races"]]);
  expect(data.queries[0]!.data.map((r) => r.part)).toContain("race-250913-56");
  expect(await page.locator("script#page-data").getAttribute("type")).toBe("application/json");
});

for (const kind of ["phone", "desktop"] as const) {
  test(`${kind}: picking a distance fetches its start list (BIB, Namn, Klass, Förening), years newest first`, async () => {
    const page = await open(kind);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    await page.goto("/startlistor");
    await page.getByRole("heading", { level: 2, name: "2025" }).waitFor();

    const years = (await page.locator("main h2").allTextContents()).map(Number);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    expect(years).toContain(2025);
    // The demo's earlier seasons were timed before the site's own race timing: their results are on /resultat,
    // and no start list of theirs says 'avslutat – 0 i mål' (issue 28).
    for (const past of [2024, 2023, 2022]) expect(years).not.toContain(past);
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);

    const season = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2025" }) });
    const lists = page.waitForResponse((r) => r.url().endsWith("/api/races/get/race-250913-56"));
    await selectTab(raceTab(season, "race-250913-56"));
    await lists;
    await season.getByRole("table").waitFor();
    expect(await season.getByText("Klicka på en distans").count()).toBe(0);
    expect(await headers(page)).toEqual(["BIB", "Namn", "Klass", "Förening"]);
    const rows = await tableRows(page, season);
    expect(rows.length).toBeGreaterThan(3);
    // Before the start: by number, runners without one last with 'TBD'.
    const bibs = rows.map((r) => r[0]!);
    const numbered = bibs.filter((b) => b !== "TBD").map(Number);
    expect(numbered).toEqual([...numbered].sort((a, b) => a - b));
    expect(bibs.slice(numbered.length).every((b) => b === "TBD")).toBe(true);
    expect(rows.every((r) => r[2] === "" || ["Dam", "Herr"].includes(r[2]!))).toBe(true);

    if (SCREENSHOTS && kind === "phone")
      await page.screenshot({ path: `${SCREENSHOTS}/startlistor-375.png`, fullPage: true });
    await expectNoSeriousAxeViolations(page);
    expect(errors).toEqual([]);
  });
}

test("a running race's list shows results and DNS; without its live socket it asks again every few seconds", async () => {
  const admin = await adminContext();
  const race = await createRace(admin);
  const anna = await addRunner(admin, race.part, { firstname: "Anna", bib: 11, group: "Dam", company: "IK Ek" });
  const bo = await addRunner(admin, race.part, { firstname: "Bo", bib: 12, group: "Herr" });
  const cia = await addRunner(admin, race.part, { firstname: "Cia", bib: 13 });
  const dan = await addRunner(admin, race.part, { firstname: "Dan", bib: null });
  await raceCall(admin, `start/${race.part}`);
  await raceCall(admin, `finish/${race.part}/${anna.sort}`);
  await raceCall(admin, `dns/${race.part}/${cia.sort}/on`);

  const page = await open("phone");
  // The spectators' socket cannot open here (a network that drops sockets): the page falls back to asking.
  const refused: string[] = [];
  await page.routeWebSocket(/\/ws\/spectate\//, (ws) => {
    refused.push(ws.url());
    void ws.close();
  });
  const reads: number[] = [];
  page.on("request", (r) => r.url().endsWith(`/api/races/get/${race.part}`) && reads.push(Date.now()));
  // The page's timers run on Playwright's clock (in step with the real one): "nothing more is asked" is checked by
  // running the page's next seconds at once (`quietFor`), not by waiting them out.
  await page.clock.install();
  await page.goto("/startlistor", { waitUntil: "networkidle" });
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2099" }) });
  await selectTab(raceTab(year, race.part));
  await year.getByRole("table").waitFor();
  await expect.poll(() => refused.length).toBeGreaterThan(0);

  expect(await headers(page)).toEqual(["BIB", "Namn", "Klass", "Förening", "Resultat"]);
  await expect
    .poll(() => tableRows(page, year))
    .toEqual([
      ["11", "Anna Åkesson", "Dam", "IK Ek", expect.stringMatching(/^\d\d:\d\d\.\d{3}$/)],
      ["12", "Bo Åkesson", "Herr", "", ""],
      ["13", "Cia Åkesson", "", "", "DNS"],
      ["DNS", "Dan Åkesson", "", "", "DNS"],
    ]);
  expect(await year.getByText(/Loppet pågår – 1 av 4 i mål/).isVisible()).toBe(true);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/startlistor-live-375.png`, fullPage: true });

  // Bo finishes: the open list shows it within a refresh, without a reload.
  const loads: string[] = [];
  page.on("load", () => loads.push(page.url()));
  await raceCall(admin, `finish/${race.part}/${bo.sort}`);
  await expect
    .poll(async () => (await tableRows(page, year))[1], { timeout: 12_000, interval: 250 })
    .toEqual(["12", "Bo Åkesson", "Herr", "", expect.stringMatching(/^\d\d:\d\d\.\d{3}$/)]);
  expect((await tableRows(page, year)).map((r) => r[0])).toEqual(["11", "12", "13", "DNS"]);
  expect(loads).toEqual([]);
  // It asked again every few seconds (about every 5 s), not in a tight loop.
  const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
  expect(gaps.length).toBeGreaterThan(0);
  expect(Math.min(...gaps)).toBeGreaterThan(3_000);

  // Ended (Dan never started): the list stops asking.
  await raceCall(admin, `dns/${race.part}/${dan.sort}/on`);
  await raceCall(admin, `end/${race.part}`);
  await year.getByText(/Loppet är avslutat – 2 i mål/).waitFor({ timeout: 12_000 });
  const count = reads.length;
  await quietFor(page, 6_000);
  expect(reads.length).toBe(count);
});

test("an open list of a running race follows it on the spectators' socket: a finish within 2 s, no polling", async () => {
  const admin = await adminContext();
  const race = await createRace(admin);
  const anna = await addRunner(admin, race.part, { firstname: "Anna", bib: 21 });
  const bo = await addRunner(admin, race.part, { firstname: "Bo", bib: 22 });
  await raceCall(admin, `start/${race.part}`);

  const page = await open("phone");
  const reads: number[] = [];
  page.on("request", (r) => r.url().endsWith(`/api/races/get/${race.part}`) && reads.push(Date.now()));
  const socket = page.waitForEvent("websocket", (ws) => ws.url().includes(`/ws/spectate/${race.part}`));
  await page.clock.install();
  await page.goto("/startlistor", { waitUntil: "networkidle" });
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2099" }) });
  await selectTab(raceTab(year, race.part));
  await year.getByRole("table").waitFor();
  const ws = await socket;
  const sent: string[] = [];
  ws.on("framesent", (frame) => sent.push(String(frame.payload)));
  await expect.poll(() => ws.isClosed()).toBe(false);

  // A finish reaches the open list within 2 s of the tap, by the socket alone.
  const readsBefore = reads.length;
  const delta = ws.waitForEvent("framereceived", (f) => String(f.payload).includes(anna.sort));
  const tapped = Date.now();
  await raceCall(admin, `finish/${race.part}/${anna.sort}`);
  await delta;
  await expect
    .poll(async () => (await tableRows(page, year))[0], { timeout: Math.max(0, 2_000 - (Date.now() - tapped)) })
    .toEqual(["21", "Anna Åkesson", "", "", expect.stringMatching(/^\d\d:\d\d\.\d{3}$/)]);
  expect(Date.now() - tapped).toBeLessThan(2_000);
  await quietFor(page, 6_000);
  expect(reads.length).toBe(readsBefore);
  expect(sent).toEqual([]);

  // Ended: the socket brings that too, and then closes; nothing asks afterwards.
  await raceCall(admin, `finish/${race.part}/${bo.sort}`);
  await raceCall(admin, `end/${race.part}`);
  await year.getByText(/Loppet är avslutat – 2 i mål/).waitFor({ timeout: 2_000 });
  await expect.poll(() => ws.isClosed()).toBe(true);
  const count = reads.length;
  await quietFor(page, 6_000);
  expect(reads.length).toBe(count);
});

test("a race without runners says so; the keyboard reaches and opens the tabs", async () => {
  const admin = await adminContext();
  const race = await createRace(admin);

  const page = await open("desktop");
  await page.goto("/startlistor", { waitUntil: "networkidle" });
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2099" }) });
  const tab = raceTab(year, race.part);
  await tab.waitFor();
  // Into the year's tab list, then arrows to the race's tab: it opens (Radix activates on focus). Each key waits
  // for the focus to arrive before the next is pressed (a busy machine moves it late, and a key pressed before
  // then skips past the race's tab).
  const tabs = year.getByRole("tab");
  const focused = () => tabs.evaluateAll((els) => els.indexOf(document.activeElement as HTMLElement));
  const target = await tabs.evaluateAll(
    (els, part) => els.findIndex((el) => el.getAttribute("aria-controls")?.endsWith(`-content-${part}`)),
    race.part,
  );
  expect(target).toBeGreaterThanOrEqual(0);
  await tabs.first().focus();
  await page.keyboard.press("End");
  await expect.poll(focused).toBe((await tabs.count()) - 1);
  await page.keyboard.press("Home");
  await expect.poll(focused).toBe(0);
  for (let i = 1; i <= target; i++) {
    await page.keyboard.press("ArrowRight");
    await expect.poll(focused).toBe(i);
  }
  await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
  expect(await tab.evaluate((el) => el === document.activeElement && el.matches(":focus-visible"))).toBe(true);
  await year.getByText("Inga löpare anmälda på distansen").waitFor();
});

test("readable at 320 px: nothing scrolls sideways, the table scrolls in its own box", async () => {
  const context = onSite(await phoneContext(browser, baseURL, { viewport: { width: 320, height: 640 } }), baseURL);
  const page = await context.newPage();
  await page.goto("/startlistor", { waitUntil: "networkidle" });
  const season = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2025" }) });
  await selectTab(raceTab(season, "race-250913-56"));
  await season.getByRole("table").waitFor();
  await expectNoSidewaysScroll(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/startlistor-320.png` });
});

test("a visitor never downloads admin or timing code", async () => {
  const page = await open("phone");
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
  await page.goto("/startlistor", { waitUntil: "networkidle" });
  const season = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2025" }) });
  await selectTab(raceTab(season, "race-250913-08"));
  await season.locator("[role='table'], .start-list-empty").first().waitFor();
  expect(scripts.some((s) => s.includes("start-lists-page"))).toBe(true);
  expect(scripts.filter((s) => ADMIN_OR_TIMING.test(s))).toEqual([]);
});

/**
 * Runs the page's next `ms` of timers at once (its clock is installed), then makes one request of its own and waits
 * for it: a read that a timer started has gone out by then.
 */
async function quietFor(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await page.evaluate(() => fetch("/api/health").then((r) => r.status));
}

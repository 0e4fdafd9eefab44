/**
 * Issue 28, item 1 ("Results for families"), in real Chromium against `npm start`'s server: at 390 px the results,
 * a year's results and the start lists show every column without sideways scrolling (each runner as two lines),
 * names wrap only between words, the desktop table stays a table at 1280 px; the gallery, its carousel, the map
 * and the course-record table fit 390 px; and 'Sök löpare' narrows a list as you type (by name, club or bib), also
 * with 10,000 characters or regular-expression characters, without a thrown error. Years this file imports
 * (2006–2008) are before the demo data (2014–2024); its races are on days in 2098 (start-lists.test.ts and the
 * race-day tests keep to 2099 and 2040–2097).
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord } from "../../src/shared/race-protocol";
import { serializeResults, type ResultRow } from "../../src/shared/results-file";
import { contextsStayOnSite, desktopContext, launchBrowser, layoutShift, phoneContext } from "./browser";
import { adminApi, CLIENT, expectNoSeriousAxeViolations, selectTab } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };

/** Long Swedish names: compounds, hyphens, long single words. */
const LONG_NAMES = [
  "Carl-Gustaf Leijonhufvud-Gyllenborg",
  "Ann-Charlotte Hjalmarsdotter Wästerbergh",
  "Maximiliana Stålhandskeström",
  "Karl-Johan Silfverschiöld af Ekenstierna",
  "Wilhelmina Gyllenstierna-Ehrensvärd",
];
const LONG_YEAR = 2008;

let browser: Browser;
const onSite = contextsStayOnSite();
const apiContexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await adminContext();
  const rows: ResultRow[] = Array.from({ length: 40 }, (_, i) => ({
    place: i + 1,
    name: LONG_NAMES[i % LONG_NAMES.length]! + (i < LONG_NAMES.length ? "" : ` ${i + 1}`),
    timeMs: 19 * 60_000 + i * 2_345,
    klass: i % 2 ? "Dam" : "Herr",
    bib: 700 + i,
    club: i % 3 ? "Idrottsföreningen Långskogens Motionärer" : "",
  }));
  const res = await admin.request.post("/admin/api/results/import", {
    headers: CLIENT,
    data: { kind: "results", year: LONG_YEAR, distance: "5.6", text: serializeResults(rows) },
  });
  expect(res.status()).toBe(200);
  // A second year, so /resultat/{year} has another year to link to.
  const other = await admin.request.post("/admin/api/results/import", {
    headers: CLIENT,
    data: { kind: "results", year: LONG_YEAR - 2, distance: "5.6", text: serializeResults(rows.slice(0, 3)) },
  });
  expect(other.status()).toBe(200);
});

afterAll(async () => {
  await Promise.all(apiContexts.map((c) => c.close()));
  await browser?.close();
});

async function adminContext(): Promise<BrowserContext> {
  const context = await desktopContext(browser, baseURL);
  apiContexts.push(context);
  await adminApi(context);
  return context;
}

async function phone(options: Parameters<typeof phoneContext>[2] = {}): Promise<Page> {
  const context = await phoneContext(browser, baseURL, { viewport: PHONE, ...options });
  const page = await onSite(context, baseURL).newPage();
  failOnPageErrors(page);
  return page;
}

async function desktop(): Promise<Page> {
  const page = await onSite(await desktopContext(browser, baseURL), baseURL).newPage();
  failOnPageErrors(page);
  return page;
}

const pageErrors = new WeakMap<Page, string[]>();
function failOnPageErrors(page: Page) {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
}
const errorsOf = (page: Page) => pageErrors.get(page) ?? [];

/** The measure: the document never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, what).toBeLessThanOrEqual(innerWidth);
}

const panel = (page: Page) => page.locator('[role="tabpanel"][data-state="active"]');
const shownRows = (scope: Locator) => scope.locator(".data-grid-block [role='row']:not([hidden])");

/**
 * Where a cell's text wraps inside a word: each line break (a character whose box starts lower than the one
 * before it) not preceded by a space or a hyphen. Also how many line breaks there are, so a test can show that
 * its names do wrap (a check of names that never wrap would prove nothing).
 */
function lineBreaks(cells: Locator) {
  return cells.evaluateAll((els) =>
    els.map((el) => {
      const node = el.firstChild;
      const text = el.textContent ?? "";
      if (!(node instanceof Text)) return { text, breaks: 0, midWord: [] as string[] };
      let breaks = 0;
      const midWord: string[] = [];
      let lastTop: number | null = null;
      for (let i = 0; i < text.length; i++) {
        if (/\s/.test(text[i]!)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getBoundingClientRect().top;
        if (lastTop !== null && top > lastTop + 2) {
          breaks++;
          if (!/[\s\-\u2010]/.test(text[i - 1]!)) midWord.push(`${text.slice(0, i)}|${text.slice(i)}`);
        }
        lastTop = top;
      }
      return { text, breaks, midWord };
    }),
  );
}

const RESULT_CELLS = ["place", "name", "time", "diff", "klass", "bib", "club"] as const;

/** The boxes of a results row's cells, by column. */
function cellBoxes(row: Locator) {
  return row.evaluate(
    (el, names) =>
      Object.fromEntries(
        [...el.children].map((c, i) => {
          const r = c.getBoundingClientRect();
          return [names[i]!, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width }];
        }),
      ),
    RESULT_CELLS,
  );
}

test("390 px: a year's results, every column read without sideways scrolling, two lines per runner", async () => {
  const page = await phone();
  await page.goto(`/resultat/${LONG_YEAR}`);
  await shownRows(panel(page)).first().waitFor();
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  await expectNoSidewaysScroll(page, `/resultat/${LONG_YEAR}`);

  // Nothing scrolls inside the table's box either: every column is on screen.
  const box = panel(page).locator(".data-grid-box");
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  for (const row of await shownRows(panel(page)).all()) {
    const cells = await cellBoxes(row);
    for (const [name, c] of Object.entries(cells)) {
      if (c.width === 0) continue; // an empty class or club
      expect(c.left, name).toBeGreaterThanOrEqual(0);
      expect(c.right, name).toBeLessThanOrEqual(PHONE.width);
    }
    // Placing, name and time on the first line; ±, class, bib and club under it.
    expect(Math.abs(cells.place!.top - cells.name!.top)).toBeLessThan(2);
    expect(Math.abs(cells.time!.top - cells.name!.top)).toBeLessThan(2);
    expect(cells.diff!.top).toBeGreaterThanOrEqual(cells.name!.bottom - 1);
    expect(cells.bib!.top).toBeGreaterThanOrEqual(cells.name!.bottom - 1);
  }
  const first = await shownRows(panel(page))
    .first()
    .evaluate((row) => [...row.children].map((c) => c.textContent));
  expect(first).toEqual(["1", LONG_NAMES[0], "19:00.000", "+00:00.000", "Herr", "700", ""]);
  expect(errorsOf(page)).toEqual([]);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/resultat-ar-390.png` });
});

test("390 px: long Swedish names wrap between words, never inside one (results, start list, records)", async () => {
  const page = await phone();
  await page.goto(`/resultat/${LONG_YEAR}`);
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  const names = await lineBreaks(panel(page).locator("[role='rowheader']"));
  expect(names).toHaveLength(40);
  // The names are long enough to wrap here, so the check below has something to check.
  expect(names.filter((n) => n.breaks > 0).length).toBeGreaterThan(0);
  expect(names.flatMap((n) => n.midWord)).toEqual([]);
  // Clubs too.
  const clubs = await lineBreaks(panel(page).locator(".data-grid-cell.club"));
  expect(clubs.flatMap((n) => n.midWord)).toEqual([]);

  const admin = await adminContext();
  const race = await createRace(admin);
  for (const [i, name] of LONG_NAMES.entries()) {
    const [firstname, ...rest] = name.split(" ");
    await addRunner(admin, race.part, { firstname: firstname!, lastname: rest.join(" "), bib: 900 + i });
  }
  await page.goto("/startlistor");
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2098" }) });
  await selectTab(raceTab(year, race.part));
  await expect.poll(() => shownRows(year).count()).toBe(LONG_NAMES.length);
  await expectNoSidewaysScroll(page, "/startlistor");
  const listed = await lineBreaks(year.locator("[role='rowheader']"));
  expect(listed.map((n) => n.text).sort()).toEqual([...LONG_NAMES].sort());
  expect(listed.filter((n) => n.breaks > 0).length).toBeGreaterThan(0);
  expect(listed.flatMap((n) => n.midWord)).toEqual([]);

  await page.goto("/resultat");
  await expect.poll(async () => (await page.locator(".record-name").allTextContents()).includes("…")).toBe(false);
  expect((await lineBreaks(page.locator(".record-name"))).flatMap((n) => n.midWord)).toEqual([]);
  expect(errorsOf(page)).toEqual([]);
});

test("1280 px: the results stay a table, one line per runner under the column headers", async () => {
  const page = await desktop();
  await page.goto(`/resultat/${LONG_YEAR}`);
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  const headers = panel(page).getByRole("columnheader");
  expect(await headers.allTextContents()).toEqual([
    "Placering",
    "Namn",
    "Resultat",
    "±",
    "Klass",
    "Startnummer",
    "Förening",
  ]);
  expect(await headers.first().isVisible()).toBe(true);
  const headerLefts = await headers.evaluateAll((els) => els.map((h) => Math.round(h.getBoundingClientRect().left)));
  for (const row of (await shownRows(panel(page)).all()).slice(0, 5)) {
    const cells = Object.values(await cellBoxes(row));
    // Every cell starts on the row's one line, under its own header.
    expect(new Set(cells.map((c) => Math.round(c.top))).size).toBe(1);
    expect(cells.map((c) => Math.round(c.left))).toEqual(headerLefts);
  }
  await expectNoSidewaysScroll(page, "desktop");
});

test("'Sök löpare' narrows a year's results to one runner by name, club or bib, as you type", async () => {
  const page = await phone();
  await page.goto(`/resultat/${LONG_YEAR}`);
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  const field = page.getByLabel("Sök löpare");
  const status = panel(page).locator(".results-count");

  // Key by key: 'Leijon' is in 8 names, '… 36' in one of them (accents and case do not matter).
  await field.pressSequentially("leijon");
  await expect.poll(() => shownRows(panel(page)).count()).toBe(8);
  expect(await status.textContent()).toBe('8 av 40 löpare i mål matchar "leijon".');
  await field.pressSequentially(" 36");
  await expect.poll(() => shownRows(panel(page)).count()).toBe(1);
  expect(await shownRows(panel(page)).locator("[role='rowheader']").textContent()).toBe(`${LONG_NAMES[0]} 36`);
  expect(await status.textContent()).toBe('1 av 40 löpare i mål matchar "leijon 36".');

  // A bib.
  await field.fill("712");
  await expect.poll(() => shownRows(panel(page)).allTextContents()).toEqual([expect.stringContaining("712")]);
  // A club and a word of the name, accents left out.
  await field.fill("langskogens wasterbergh");
  await expect.poll(() => shownRows(panel(page)).count()).toBe(5);

  // Cleared: every runner again, and the count says so.
  await field.fill("");
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  expect(await status.textContent()).toBe("40 löpare i mål");

  // The search stays when the visitor goes on to another year.
  await field.fill("stålhandske");
  await expect.poll(() => shownRows(panel(page)).count()).toBe(8);
  await page.getByRole("link", { name: String(LONG_YEAR - 2), exact: true }).click();
  await page.getByRole("heading", { level: 1, name: `Resultat ${LONG_YEAR - 2}` }).waitFor();
  await expect
    .poll(() => panel(page).locator(".results-count").textContent())
    .toBe('1 av 3 löpare i mål matchar "stålhandske".');
  expect(await shownRows(panel(page)).count()).toBe(1);
  await expectNoSeriousAxeViolations(page);
  expect(errorsOf(page)).toEqual([]);
});

test("'Sök löpare' with 10,000 characters or regular-expression characters: a clear answer, no error", async () => {
  const page = await phone();
  await page.goto(`/resultat/${LONG_YEAR}`);
  await expect.poll(() => shownRows(panel(page)).count()).toBe(40);
  const field = page.getByLabel("Sök löpare");
  const status = panel(page).locator(".results-count");

  await field.fill("x".repeat(10_000));
  await expect.poll(() => status.textContent()).toBe(`Ingen av 40 löpare i mål matchar "${"x".repeat(39)}…".`);
  // Nothing is left to show: the table is out of the way, the page still does not scroll sideways.
  expect(await panel(page).locator(".data-grid-box").isHidden()).toBe(true);
  await expectNoSidewaysScroll(page, "10 000 tecken");

  for (const query of [".*", "[a-z]+", "(", "\\", "a|b", "^$", "(?<x>"]) {
    await field.fill(query);
    await expect
      .poll(() => status.textContent(), { message: query })
      .toBe(`Ingen av 40 löpare i mål matchar "${query}".`);
  }
  // A name pasted many times over is one name.
  await field.fill("Maximiliana ".repeat(800));
  await expect.poll(() => shownRows(panel(page)).count()).toBe(8);
  expect(errorsOf(page)).toEqual([]);
});

test("/resultat and /startlistor have the field in their first HTML; ?sok= fills it in", async () => {
  for (const path of ["/resultat", "/startlistor"]) {
    const page = await phone({ javaScriptEnabled: false });
    await page.goto(path);
    const field = page.getByLabel("Sök löpare");
    expect(await field.getAttribute("type"), path).toBe("search");
    expect(await field.isVisible(), path).toBe(true);
  }
  const page = await phone();
  await page.goto(`/resultat/${LONG_YEAR}?sok=ekenstierna`);
  await expect.poll(() => shownRows(panel(page)).count()).toBe(8);
  expect(await page.getByLabel("Sök löpare").inputValue()).toBe("ekenstierna");
});

test("390 px: the start lists' search narrows an open list to one runner; no layout shift", async () => {
  const admin = await adminContext();
  const race = await createRace(admin);
  for (const [i, firstname] of ["Alva", "Bo", "Cia", "Dan", "Eja"].entries())
    await addRunner(admin, race.part, {
      firstname,
      lastname: "Ekström",
      bib: 400 + i,
      company: i === 2 ? "IK Ek" : "",
    });
  // The public view follows the race object a moment later (the fan-out is told after each change, and the edge
  // and each isolate keep a copy for a second or more), and a start list of a race on another day reads it once:
  // the page is opened once the public view has all five, as a visitor would see it a moment later.
  await expect
    .poll(async () => ((await (await admin.request.get(`/api/races/get/${race.part}`)).json()) as unknown[]).length)
    .toBe(6);

  const page = await phone();
  await page.goto("/startlistor");
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2098" }) });
  await selectTab(raceTab(year, race.part));
  await expect.poll(() => shownRows(year).count()).toBe(5);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);

  await page.getByLabel("Sök löpare").pressSequentially("ekstr");
  await expect.poll(() => shownRows(year).count()).toBe(5);
  await page.getByLabel("Sök löpare").pressSequentially(" ik");
  await expect.poll(() => shownRows(year).count()).toBe(1);
  expect(await shownRows(year).locator("[role='rowheader']").textContent()).toBe("Cia Ekström");
  expect(await year.locator(".search-status").textContent()).toBe('1 av 5 löpare matchar "ekstr ik".');
  await page.getByLabel("Sök löpare").fill("403");
  await expect.poll(() => shownRows(year).locator("[role='rowheader']").allTextContents()).toEqual(["Dan Ekström"]);
  await expectNoSidewaysScroll(page, "/startlistor");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/startlistor-sok-390.png`, fullPage: true });
  expect(errorsOf(page)).toEqual([]);
});

test("a running race's list keeps to the search while it refreshes itself: new runners, a new order", async () => {
  const admin = await adminContext();
  const race = await createRace(admin);
  for (const [i, firstname] of ["Anna", "Bo", "Cia"].entries())
    await addRunner(admin, race.part, { firstname, lastname: "Lindqvist", bib: 500 + i });
  const started = await admin.request.get(`/admin/api/races/start/${race.part}`, { headers: CLIENT });
  expect(started.status()).toBe(200);

  const page = await phone();
  await page.goto("/startlistor");
  const year = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2098" }) });
  await selectTab(raceTab(year, race.part));
  await expect.poll(() => shownRows(year).count()).toBe(3);
  await page.getByLabel("Sök löpare").fill("bo");
  await expect.poll(() => shownRows(year).locator("[role='rowheader']").allTextContents()).toEqual(["Bo Lindqvist"]);

  // Meanwhile: two runners join (one matches), and Anna finishes, which moves her first (the others stay in bib
  // order). The open list refreshes by itself (every 5 s while the race runs) and applies the search to what it
  // gets.
  await addRunner(admin, race.part, { firstname: "Bosse", lastname: "Lindqvist", bib: 503 });
  await addRunner(admin, race.part, { firstname: "Dan", lastname: "Lindqvist", bib: 504 });
  const list = await admin.request.get(`/api/races/get/${race.part}`);
  const anna = ((await list.json()) as { firstname?: string; sort: string }[]).find((r) => r.firstname === "Anna")!;
  const finished = await admin.request.get(`/admin/api/races/finish/${race.part}/${anna.sort}`, { headers: CLIENT });
  expect(finished.status()).toBe(200);
  await expect
    .poll(() => year.locator(".data-grid-block [role='row'] [role='rowheader']").allTextContents(), {
      timeout: 15_000,
    })
    .toEqual(["Anna Lindqvist", "Bo Lindqvist", "Cia Lindqvist", "Bosse Lindqvist", "Dan Lindqvist"]);
  expect(await shownRows(year).locator("[role='rowheader']").allTextContents()).toEqual([
    "Bo Lindqvist",
    "Bosse Lindqvist",
  ]);
  expect(await year.locator(".search-status").textContent()).toBe('2 av 5 löpare matchar "bo".');
  expect(errorsOf(page)).toEqual([]);
});

test("390 px: /resultat has no layout shift with the search field, and its record names stand level with their rows", async () => {
  const page = await phone();
  await page.goto("/resultat");
  await shownRows(panel(page)).first().waitFor();
  await page.locator(".year-link").first().waitFor();
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  await expectNoSidewaysScroll(page, "/resultat");
  // Each record's name starts on the same line as its distance, year and time.
  const rows = await page
    .getByRole("table", { name: "Banrekord per distans" })
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.children].map((cell) => {
          // The first line of the cell's text (the name's is inside its clamped box).
          const text = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT).nextNode()!;
          const range = document.createRange();
          range.selectNodeContents(text);
          return Math.round(range.getClientRects()[0]!.top);
        }),
      ),
    );
  expect(rows).toHaveLength(4);
  for (const tops of rows) expect(Math.max(...tops) - Math.min(...tops), String(tops)).toBeLessThanOrEqual(1);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/resultat-390.png` });
});

test("390 px: a year's gallery ends where its photos do, and its carousel keeps its buttons on one line", async () => {
  // The first HTML reserves the grid's exact height: measured without JavaScript, then with the photos.
  const bare = await phone({ javaScriptEnabled: false });
  await bare.goto("/galleri/2019");
  const reserved = await bare.locator(".gallery-grid-area").evaluate((el) => el.getBoundingClientRect().height);

  const page = await phone();
  await page.goto("/galleri/2019");
  await page.locator(".gallery-thumb").first().waitFor();
  await page.waitForLoadState("networkidle");
  const { grid, gap } = await page.evaluate(() => {
    const g = document.querySelector(".gallery-grid")!.getBoundingClientRect();
    const footer = document.querySelector("footer")!.getBoundingClientRect();
    return { grid: g.height, gap: footer.top - g.bottom };
  });
  expect(Math.abs(reserved - grid)).toBeLessThan(1);
  // No empty band between the last row and the footer (before: about 300 px at this width).
  expect(gap).toBeLessThan(80);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  await expectNoSidewaysScroll(page, "/galleri/2019");

  await page.goto("/galleri");
  await page.locator(".gallery-card-count", { hasText: "bilder" }).first().waitFor();
  await expectNoSidewaysScroll(page, "/galleri");
  // Reached by a link: the count comes from /galleri's answer.
  await page.locator('a[href="/galleri/2019"]').click();
  await page.locator(".gallery-thumb").first().waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.galleryYear)).toBe("2019");

  await page.locator(".gallery-thumb").first().click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  const buttons = await Promise.all(
    [
      dialog.getByRole("button", { name: "Föregående bild" }),
      dialog.getByRole("link", { name: "Ladda ner" }),
      dialog.getByRole("button", { name: "Nästa bild" }),
    ].map(async (l) => (await l.boundingBox())!),
  );
  // One line: the same top, left to right, all inside the screen.
  expect(new Set(buttons.map((b) => Math.round(b.y))).size).toBe(1);
  expect(buttons[0]!.x + buttons[0]!.width).toBeLessThanOrEqual(buttons[1]!.x);
  expect(buttons[1]!.x + buttons[1]!.width).toBeLessThanOrEqual(buttons[2]!.x);
  expect(buttons[0]!.x).toBeGreaterThanOrEqual(0);
  expect(buttons[2]!.x + buttons[2]!.width).toBeLessThanOrEqual(PHONE.width);
  await expectNoSidewaysScroll(page, "karusellen");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-karusell-390.png` });
});

test("390 px: the map's start label is whole inside the map, for every route shown", async () => {
  const page = await phone();
  await page.goto("/banor");
  await page.locator(".course-start-label").waitFor();
  await expectNoSidewaysScroll(page, "/banor");
  for (const route of [null, "0.8K", "1.6K", "2.8K", "5.6K"]) {
    if (route) await page.getByRole("button", { name: new RegExp(`^${route.replace(".", "\\.")}`) }).click();
    await page.waitForTimeout(600); // the map's fly-to animation
    const { label, map } = await page.evaluate(() => ({
      label: document.querySelector(".course-start-label")!.getBoundingClientRect().toJSON(),
      map: document.querySelector(".course-map-box")!.getBoundingClientRect().toJSON(),
    }));
    expect(label.left, String(route)).toBeGreaterThanOrEqual(map.left);
    expect(label.right, String(route)).toBeLessThanOrEqual(map.right);
    expect(label.top, String(route)).toBeGreaterThanOrEqual(map.top);
    expect(label.bottom, String(route)).toBeLessThanOrEqual(map.bottom);
  }
  // The map stays under the sticky top bar when the page scrolls past it: the zoom buttons (Leaflet puts them
  // at z-index 1000) slide under the bar, not over it.
  const zoomIn = page.getByRole("button", { name: "Zooma in" });
  const { y, height } = (await zoomIn.boundingBox())!;
  const barBottom = await page.locator(".top-bar").evaluate((el) => el.getBoundingClientRect().bottom);
  await page.evaluate((by) => window.scrollBy(0, by), y + height / 2 - (barBottom - 10));
  const hit = await zoomIn.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest(".top-bar, .leaflet-control")
      ?.className;
  });
  expect(hit).toBe("top-bar");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/banor-390.png` });
});

// ---------- races for the start lists (as in start-lists.test.ts, in 2098) ----------

const pick = (n: number) => Math.floor(Math.random() * n);

async function createRace(context: BrowserContext): Promise<RaceRecord> {
  for (;;) {
    const day = `2098-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
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
  runner: { firstname: string; lastname?: string; bib: number; company?: string },
): Promise<void> {
  const res = await context.request.post(`/admin/api/races/add-runner/${part}`, {
    headers: CLIENT,
    data: { lastname: "Åkesson", age: 30, group: "Ingen", company: "", ...runner },
  });
  expect(res.status()).toBe(200);
}

/** A race's tab, by the race (Radix names its panel after the tab's value, the race id). */
const raceTab = (scope: Locator, part: string) => scope.locator(`[role="tab"][aria-controls$="-content-${part}"]`);

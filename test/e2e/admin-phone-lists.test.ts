/**
 * Issue 27's phone items for the race-morning screens, in real Chromium at 390 px against `npm start`'s server: the
 * race list (/admin/edit-races) shows the newest race day first and every race's status on screen, the runner list
 * (/admin/edit-races/{id}) every runner's club, group and age, neither scrolling sideways (inside its box or the
 * page); the box office (/admin/kassa) with a family of runners fits the width; and the sideways admin tab strip
 * shows the open screen's tab. The race here is on a day in
 * 2039 (the race-day tests keep to 2040–2099, the start lists to 2098).
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { CLIENT, expectNoSeriousAxeViolations, expectNoSidewaysScroll } from "./public-pages";

const baseURL = e2eBaseURL();
const PHONE = { width: 390, height: 844 };
const CLUB = "Idrottsföreningen Långskogens Motionärer";

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function adminPhone(): Promise<Page> {
  const context = onSite(await phoneContext(browser, baseURL, { viewport: PHONE }), baseURL);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

const pick = (n: number) => Math.floor(Math.random() * n);

async function createRace(page: Page): Promise<RaceRecord> {
  for (;;) {
    const day = `2039-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
    const distance = 100 * (1 + pick(9_000));
    const res = await page.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: CLIENT,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

/** The element is laid out whole inside the viewport's width (not cut off, not behind a sideways scroll). */
async function expectOnScreen(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, await locator.evaluate((e) => e.outerHTML)).not.toBeNull();
  expect(box!.width).toBeGreaterThan(0);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}

/**
 * The open screen's tab is brought into the sideways strip's view once the browser has laid the screen out and
 * reported where the tab is (admin-shell.tsx: an IntersectionObserver), so a frame or two after it is selected.
 */
async function expectTabOnScreen(tab: Locator): Promise<void> {
  await expect
    .poll(async () => {
      const box = await tab.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
    })
    .toBe(true);
  await expectOnScreen(tab);
}

/** Neither the page nor a table's own box scrolls sideways. */
async function expectNothingScrollsSideways(page: Page): Promise<void> {
  await expectNoSidewaysScroll(page);
  const boxes = await page
    .locator(".table-scroll")
    .evaluateAll((els) => els.map((e) => ({ scroll: e.scrollWidth, client: e.clientWidth })));
  for (const box of boxes) expect(box.scroll).toBeLessThanOrEqual(box.client);
}

test("390 px: the race list shows the newest race day first and every race's status, nothing sideways", async () => {
  const page = await adminPhone();
  const race = await createRace(page);
  await page.goto("/admin/edit-races");
  const rows = page.locator(".race-list-table tbody tr");
  await rows.filter({ hasText: race.part }).waitFor();
  const dates = await page
    .locator(".race-list-table tbody tr td:nth-child(2)")
    .evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
  expect(dates.length).toBeGreaterThan(1);
  expect(dates).toEqual([...dates].sort().reverse());
  await expectNothingScrollsSideways(page);
  for (const status of await page.locator(".race-list-table tbody .race-status").all()) await expectOnScreen(status);
  await expectOnScreen(rows.filter({ hasText: race.part }).getByRole("link", { name: race.part }));
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: join(tmpdir(), "race-list-390.png"), fullPage: true });
});

test("390 px: the runner list shows each runner's club, group and age, nothing sideways", async () => {
  const page = await adminPhone();
  const race = await createRace(page);
  for (const [firstname, lastname, bib] of [
    ["Ann-Charlotte", "Hjalmarsdotter Wästerbergh", 1234],
    ["Ture", "Åkesson", null],
  ] as const) {
    const res = await page.request.post(`/admin/api/races/add-runner/${race.part}`, {
      headers: CLIENT,
      data: { firstname, lastname, age: 9, bib, group: "Dam", company: CLUB },
    });
    expect(res.status()).toBe(200);
  }
  await page.goto(`/admin/edit-races/${race.part}`);
  const row = page.locator(".runner-list-table tbody tr").filter({ hasText: "Hjalmarsdotter" });
  await row.waitFor();
  await expectNothingScrollsSideways(page);
  await expectOnScreen(row.getByText(CLUB));
  await expectOnScreen(row.locator(".runner-group"));
  await expectOnScreen(row.locator(".runner-age"));
  await expectOnScreen(row.getByRole("button", { name: /^ändra / }));
  expect(await row.locator(".runner-group").textContent()).toBe("Dam");
  expect(await row.locator(".runner-age").textContent()).toBe("9");
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: join(tmpdir(), "runner-list-390.png"), fullPage: true });
});

test("390 px: the box office with a family of three fits the width, each choice whole on one line", async () => {
  const page = await adminPhone();
  await page.goto("/admin/kassa");
  await page.getByLabel("Förnamn").first().waitFor();
  await expectNoSidewaysScroll(page);
  for (let i = 0; i < 2; i += 1) await page.getByRole("button", { name: "Lägg till löpare" }).click();
  await page.getByRole("group", { name: "Löpare 3" }).waitFor();
  await expectNoSidewaysScroll(page);
  // Every choice ('Kampanjkod' the longest) is whole on one line, inside the screen.
  const labels = page.locator(".quickreg-option span");
  expect(await labels.count()).toBeGreaterThan(10);
  for (const label of await labels.all()) {
    expect(await label.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const lines = await label.evaluate((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines, (await label.textContent()) ?? "").toBe(1);
    await expectOnScreen(label);
  }
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: join(tmpdir(), "box-office-family-390.png"), fullPage: true });
  // The narrowest phone the site supports: still nothing sideways, 'Kampanjkod' still whole.
  await page.setViewportSize({ width: 320, height: 700 });
  await expectNoSidewaysScroll(page);
  const code = page.locator(".quickreg-option span", { hasText: "Kampanjkod" }).first();
  expect(await code.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
});

test("390 px: the open screen's tab is in view in the sideways tab strip, also when opened from the drawer", async () => {
  const page = await adminPhone();
  await page.goto("/admin/email-runners");
  const tab = (name: string) => page.getByRole("tab", { name, exact: true });
  await expect.poll(() => tab("Maila registrerade löpare").getAttribute("aria-selected")).toBe("true");
  await expect
    .poll(() =>
      tab("Maila registrerade löpare")
        .boundingBox()
        .then((b) => b !== null),
    )
    .toBe(true);
  await expectTabOnScreen(tab("Maila registrerade löpare"));
  // Back to the first tab through the drawer: the strip follows.
  await page.getByRole("button", { name: "Alla adminsidor" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Anmälningar", exact: true }).click();
  await expect.poll(() => tab("Anmälningar").getAttribute("aria-selected")).toBe("true");
  await expectTabOnScreen(tab("Anmälningar"));
  await expectNoSidewaysScroll(page);
  await page.context().close();
});

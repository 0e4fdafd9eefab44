/**
 * /tidtagning in real Chromium on a phone (375 px) against `npm start`'s server: Start, a split, Stop, the time
 * standing still while stopped, a reload that keeps a running watch running, Nollställ, the +1 counter with its
 * own reset; all of it offline once the page has loaded, axe-core, 320 px and the network check. The page runs on
 * Playwright's clock, so the watch's seconds pass at once.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { parseResult } from "../../src/shared/time-format";
import { contextsStayOnSite, launchBrowser, phoneContext } from "./browser";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(width = 375): Promise<Page> {
  const context = onSite(await phoneContext(browser, baseURL, { viewport: { width, height: 740 } }), baseURL);
  const page = await context.newPage();
  // The page's clock is Playwright's: the watch's time passes by `clock.runFor`, at once, never by waiting.
  await page.clock.install();
  await page.goto("/tidtagning");
  await page.getByRole("heading", { level: 1, name: "Tidtagning" }).waitFor();
  // The first HTML is pre-rendered with Start disabled; it comes alive once the page's script has run.
  await expect.poll(() => page.getByRole("button", { name: "Start", exact: true }).isEnabled()).toBe(true);
  return page;
}

const shownMs = async (page: Page): Promise<number> => parseResult(await page.getByRole("timer").textContent())!;
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
const splits = (page: Page) => page.locator(".stopwatch-split-list li");

test("start, split, stop, standing still, reload, Nollställ and +1, offline once loaded", async () => {
  const page = await open();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  expect(await page.getByRole("timer").textContent()).toBe("00:00.000");
  await expect.poll(() => button(page, "Mellantid").isDisabled()).toBe(true);

  // Everything from here on needs no server.
  await page.context().setOffline(true);

  await button(page, "Start").click();
  await page.clock.runFor(700);
  const running = await shownMs(page);
  expect(running).toBeGreaterThanOrEqual(500);

  await button(page, "Mellantid").click();
  await expect.poll(() => splits(page).count()).toBe(1);
  const splitMs = parseResult(await splits(page).first().locator(".stopwatch-split-at").textContent())!;
  expect(splitMs).toBeGreaterThanOrEqual(running);

  await page.clock.runFor(300);
  await button(page, "Stop").click();
  await expect.poll(() => page.getByText(/^Stoppad på \d\d:\d\d\.\d{3}$/).count()).toBe(1);
  const stopped = await shownMs(page);
  expect(stopped).toBeGreaterThan(splitMs);
  await page.clock.runFor(600);
  expect(await shownMs(page)).toBe(stopped);
  await expect.poll(() => button(page, "Mellantid").isDisabled()).toBe(true);

  // +1 counts and has its own reset.
  for (let i = 0; i < 3; i++) await button(page, "+1").click();
  expect(await page.getByRole("status", { name: "Antal" }).textContent()).toBe("3");

  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/tidtagning-375.png`, fullPage: true });

  // A reload (back online for the page itself) keeps the stopped time, the split and the count; a running watch
  // keeps running from its saved start.
  await page.context().setOffline(false);
  await button(page, "Start").click();
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Tidtagning" }).waitFor();
  await expect.poll(() => button(page, "Stop").count()).toBe(1);
  expect(await splits(page).count()).toBe(1);
  expect(await page.getByRole("status", { name: "Antal" }).textContent()).toBe("3");
  await page.clock.runFor(300);
  expect(await shownMs(page)).toBeGreaterThan(stopped);
  await button(page, "Stop").click();

  await button(page, "Nollställ").click();
  expect(await page.getByRole("timer").textContent()).toBe("00:00.000");
  expect(await splits(page).count()).toBe(0);
  expect(await page.getByRole("status", { name: "Antal" }).textContent()).toBe("3");
  await button(page, "Nollställ räknaren").click();
  expect(await page.getByRole("status", { name: "Antal" }).textContent()).toBe("0");

  await expectNoSeriousAxeViolations(page);
  expect(errors).toEqual([]);
});

test("keyboard: Tab reaches Start with a visible focus ring, Enter starts and stops", async () => {
  const page = await open();
  const start = button(page, "Start");
  for (let i = 0; i < 40 && !(await start.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  expect(await start.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
  expect(await start.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect.poll(() => button(page, "Stop").count()).toBe(1);
  await page.clock.runFor(200);
  await page.keyboard.press("Enter");
  await expect.poll(() => button(page, "Start").count()).toBe(1);
  expect(await shownMs(page)).toBeGreaterThan(0);
});

test("readable at 320 px without sideways scroll", async () => {
  const page = await open(320);
  await expectNoSidewaysScroll(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/tidtagning-320.png` });
});

/**
 * The volunteers' guide ('Hjälp', /admin/hjalp) in real Chromium at 390 px against `npm start`'s server: an admin
 * finds it in the menu, it shows with every picture loaded, fits the phone (no sideways scroll, no serious axe
 * finding), opens again on a reload of its address, prints on at most two A4 pages without the admin shell (the
 * pages of page.pdf counted), and opens with its pictures on a phone that has lost its connection (the admin service
 * worker keeps it; behind test/e2e/proxy.ts, which cuts the connection for real).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { GUIDE_SECTIONS, GUIDE_TITLE } from "../../src/web/features/admin/help/volunteer-guide";
import { contextsStayOnSite, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { startProxy, type TestProxy } from "./proxy";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const PICTURES = GUIDE_SECTIONS.flatMap((s) => s.images.map((img) => img.src));

let browser: Browser;
let proxy: TestProxy;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
  proxy = await startProxy(Number(new URL(baseURL).port));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
});

// A test that fails while the connection is cut must not leave the next one without it.
afterEach(() => proxy?.online());

async function adminPhone(site: string): Promise<Page> {
  const context = onSite(await phoneContext(browser, site, { viewport: { width: 390, height: 844 } }), site);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

/** The guide's pictures as the page has them: address and decoded width, once each has loaded or failed. */
async function shownPictures(page: Page): Promise<{ src: string; width: number }[]> {
  const images = page.locator(".volunteer-guide img");
  await expect.poll(() => images.count()).toBe(PICTURES.length);
  return images.evaluateAll((imgs) =>
    Promise.all(
      (imgs as HTMLImageElement[]).map(async (img) => {
        // Pictures below the fold load too (no lazy loading): wait for each to finish either way.
        await img.decode().catch(() => undefined);
        return { src: new URL(img.src).pathname, width: img.naturalWidth };
      }),
    ),
  );
}

async function expectGuide(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 2, name: GUIDE_TITLE }).waitFor();
  for (const section of GUIDE_SECTIONS) {
    await page.locator(`#hjalp-${section.id}`).waitFor();
  }
  const pictures = await shownPictures(page);
  expect(pictures.map((p) => p.src)).toEqual(PICTURES);
  expect(pictures.filter((p) => p.width === 0)).toEqual([]);
}

test("an admin opens 'Hjälp' from the menu: the guide with its pictures, again on a reload, printed on two A4 pages", async () => {
  const page = await adminPhone(baseURL);
  await page.getByRole("button", { name: "Alla adminsidor" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Hjälp" }).click();
  await page.waitForURL("**/admin/hjalp");
  await expectGuide(page);
  // The screen texts it quotes are drawn as labels.
  expect(
    await page
      .locator(".guide-ui")
      .filter({ hasText: /^Avsluta lopp$/ })
      .count(),
  ).toBeGreaterThan(0);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxeViolations(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/volunteer-guide-390.png`, fullPage: true });

  // A reload of the address opens the guide again (the Worker answers /admin/… with the admin area's page).
  await page.reload();
  await expectGuide(page);

  await page.emulateMedia({ media: "print" });
  for (const hidden of [".admin-bar", ".admin-tabs", ".volunteer-guide .no-print"]) {
    expect(await page.locator(hidden).isVisible(), hidden).toBe(false);
  }
  const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/volunteer-guide-print.png`, fullPage: true });
  const text = pdf.toString("latin1");
  const pages = text.match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length).toBeGreaterThanOrEqual(1);
  expect(pages.length).toBeLessThanOrEqual(2);
  // Every picture is printed, each once.
  expect((text.match(/\/Subtype\s*\/Image/g) ?? []).length).toBe(PICTURES.length);
  await page.emulateMedia({ media: "screen" });
  expect(await page.locator(".admin-bar").isVisible()).toBe(true);
});

test("the guide opens with its pictures on a phone without a connection", async () => {
  const page = await adminPhone(proxy.baseURL);
  await page.goto("/admin/hjalp");
  await expectGuide(page);
  await page.waitForFunction(
    () => navigator.serviceWorker.controller?.scriptURL.endsWith("/admin/sw.js") === true,
    null,
    {
      timeout: 40_000,
    },
  );

  proxy.offline();
  await page.reload();
  await expectGuide(page);
});

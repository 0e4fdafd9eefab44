/**
 * The registration button and the bib-pickup banner at their cut-offs, on the run's server with every request made at
 * the cut-off (the development header `x-loppet-dev-now`, worker/middleware/context.ts; without it the server's
 * default clock has the button and no banner):
 * - 2025-09-06 00:00, seven days before race day: the banner appears, the button is still there;
 * - 2025-09-13 12:00, race day noon: the button goes, the banner stays;
 * - 2025-09-15 00:00, the day after the day after race day: the banner goes.
 * Every pre-rendered page must carry the Worker's flags in its first HTML (right from the first paint, also
 * without JavaScript), deep links get the empty shell and take the flags from the config, and nothing shifts.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { DEV_NOW_HEADER } from "../../src/shared/clock";
import {
  contextsStayOnSite,
  desktopContext,
  launchBrowser,
  layoutShift,
  NAVIGATION_HEADERS,
  nextPaint,
} from "./browser";

interface Moment {
  now: string;
  button: "open" | "closed";
  banner: "on" | "off";
}

const MOMENTS: Moment[] = [
  { now: "2025-09-06T00:00:00+02:00", button: "open", banner: "on" },
  { now: "2025-09-13T12:00:00+02:00", button: "closed", banner: "on" },
  { now: "2025-09-15T00:00:00+02:00", button: "closed", banner: "off" },
];

/** Every page the build pre-rendered (scripts/prerender.mjs): '_landing.html' is '/', '<name>.html' '/<name>'. */
const PRERENDERED = readdirSync(path.join(import.meta.dirname, "../../dist/client"))
  .filter((file) => file.endsWith(".html") && file !== "index.html")
  .map((file) => (file === "_landing.html" ? "/" : `/${file.slice(0, -".html".length)}`))
  .sort();

/** Deep links: the static assets' SPA fallback, the empty shell. */
const DEEP_LINKS = ["/kvitto/okand", "/anmalan/2", "/admin/race"];

declare global {
  interface Window {
    /** How many `config` events this document has seen. */
    __configCount: number;
  }
}

const baseURL = e2eBaseURL();
let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** What went wrong on a page (errors, failed requests), for a failure's message. */
const troubles = new WeakMap<Page, string[]>();

/** A page whose every request is made at `now`. */
async function open(now: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = onSite(
    await desktopContext(browser, baseURL, { ...options, extraHTTPHeaders: { [DEV_NOW_HEADER]: now } }),
    baseURL,
  );
  if (options.javaScriptEnabled !== false) {
    await context.addInitScript(() => {
      window.__configCount = 0;
      window.addEventListener("config", () => window.__configCount++);
    });
  }
  const page = await context.newPage();
  const trouble: string[] = [];
  page.on("pageerror", (err) => trouble.push(`pageerror: ${err.message}`));
  page.on("requestfailed", (r) => trouble.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => r.status() >= 400 && trouble.push(`${r.status()}: ${r.url()}`));
  troubles.set(page, trouble);
  return page;
}

async function configArrived(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => window.__configCount > 0, undefined, { timeout: 20_000 });
  } catch (err) {
    const seenTrouble = troubles.get(page)?.join("\n") || "no page errors or failed requests";
    throw new Error(`No config event on ${page.url()}:\n${seenTrouble}`, { cause: err });
  }
  await nextPaint(page);
}

function htmlTag(body: string): string {
  return /<html[^>]*>/.exec(body)?.[0] ?? "";
}

/** What a visitor sees: the registration button (its box is always there) and the banner. */
async function seen(page: Page) {
  const button = page.locator("header .registration-button");
  expect(await button.count()).toBe(1);
  const box = await button.boundingBox();
  expect(box?.width).toBeGreaterThan(0);
  return {
    button: (await button.isVisible()) ? "open" : "closed",
    banner: (await page.getByText("Nummerlappshämtning sker från 10:00").isVisible()) ? "on" : "off",
  };
}

test("the build pre-rendered the landing and the six static pages", () => {
  expect(PRERENDERED).toEqual([
    "/",
    "/allmanna-villkor",
    "/banor",
    "/galleri",
    "/resultat",
    "/startlistor",
    "/tidtagning",
  ]);
});

describe.each(MOMENTS)("at $now", (moment) => {
  const at = { ...NAVIGATION_HEADERS, [DEV_NOW_HEADER]: moment.now };
  const expected = { button: moment.button, banner: moment.banner };

  test(`every pre-rendered page arrives with button ${moment.button} and banner ${moment.banner}`, async () => {
    for (const page of PRERENDERED) {
      const res = await fetch(baseURL + page, { headers: at });
      expect(res.status, page).toBe(200);
      const html = await res.text();
      expect(html, page).toContain(`<div id="root" data-prerendered="${page}">`);
      expect(htmlTag(html), page).toContain(`data-registration-button="${moment.button}"`);
      expect(htmlTag(html), page).toContain(`data-bib-banner="${moment.banner}"`);
    }
    for (const page of DEEP_LINKS) {
      const res = await fetch(baseURL + page, { headers: at });
      expect(res.status, page).toBe(200);
      const html = await res.text();
      expect(html, page).toContain('<div id="root"></div>');
      expect(htmlTag(html), page).not.toContain("data-registration-button");
    }
  });

  test("the first paint is already right, without JavaScript", async () => {
    const page = await open(moment.now, { javaScriptEnabled: false });
    for (const path of ["/", "/startlistor"]) {
      await page.goto(path);
      expect(await seen(page), path).toEqual(expected);
    }
  });

  test("with the config the pages agree, deep links included, and nothing shifts", async () => {
    const page = await open(moment.now);
    for (const path of ["/", "/startlistor"]) {
      await page.goto(path);
      await configArrived(page);
      expect(await seen(page), path).toEqual(expected);
      expect(await layoutShift(page), path).toBeLessThan(0.01);
    }
    // The empty shell has no flags until the config sets them.
    await page.goto("/anmalan/2");
    await configArrived(page);
    expect(await seen(page)).toEqual(expected);
  });
});

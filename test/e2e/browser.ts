/**
 * Debian's Chromium driven by playwright-core (never `playwright install`: no browser downloads), and what the
 * browser tests share: phone and desktop contexts, the stays-on-site check, paint and layout-shift probes.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { afterEach, expect } from "vitest";
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";
import { adminApi } from "./public-pages";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

const common: BrowserContextOptions = { locale: "sv-SE", timezoneId: "Europe/Stockholm" };

/** A phone: 375 px wide, touch, mobile viewport rules (the small-screen layout with the drawer). */
export function phoneContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  return browser.newContext({
    ...common,
    baseURL,
    viewport: { width: 375, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    // Last, so a test can ask for another phone (a 320 px viewport).
    ...options,
  });
}

export function desktopContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  return browser.newContext({ ...common, baseURL, viewport: { width: 1280, height: 800 }, ...options });
}

/** What Chromium sends when the address bar opens a page (the assets layer routes on these). */
export const NAVIGATION_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-mode": "navigate",
  "sec-fetch-dest": "document",
  "sec-fetch-site": "none",
};

/**
 * For a test file whose pages must fetch only from the site itself (DESIGN.md: nothing reaches the internet) and
 * work within its security headers. Call at the file's top level and hand it every context a test opens: after each
 * test the contexts are closed and the test fails if any of their pages requested a URL outside the origin the
 * context was opened on, or had Chromium report a Content Security Policy violation or a feature the
 * Permissions-Policy refused (its console message, as test/e2e/security-headers.test.ts shows the browser writes
 * one). So every journey of these files checks the policies on every page it opens.
 */
export function contextsStayOnSite(): (context: BrowserContext, baseURL: string) => BrowserContext {
  let opened: { context: BrowserContext; requested: string[]; refused: string[]; origin: string }[] = [];
  afterEach(async () => {
    const closing = opened;
    opened = [];
    await Promise.all(closing.map(({ context }) => context.close()));
    for (const { requested, refused, origin } of closing) {
      // A recorder that saw nothing would prove nothing.
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url))).toEqual([]);
      expect(refused).toEqual([]);
    }
  });
  return (context, baseURL) => {
    const requested: string[] = [];
    const refused: string[] = [];
    context.on("request", (request) => requested.push(request.url()));
    context.on("console", (message) => {
      if (POLICY_REPORT.test(message.text())) refused.push(`${message.page()?.url() ?? ""}: ${message.text()}`);
    });
    opened.push({ context, requested, refused, origin: new URL(baseURL).origin });
    return context;
  };
}

/** What Chromium writes to the console when the page's Content Security Policy or Permissions-Policy refuses it. */
export const POLICY_REPORT = /Content Security Policy|Permissions-Policy|Permissions Policy/i;

/** Two animation frames: React has committed what it was given and the browser has painted it. */
export async function nextPaint(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Signs the page's context in as the development organiser with the call the development form on /admin/login makes
 * (POST /admin/api/dev-login; the context's cookies are the page's) and opens the admin shell's first screen, as the
 * form does after it. The form itself, and Google's button, are driven in test/e2e/shell.test.ts; a journey that
 * only needs to be signed in skips the sign-in page's load.
 */
export async function signInAsDevAdmin(page: Page): Promise<void> {
  await adminApi(page.context());
  await page.goto("/admin/list-by-race");
}

/** Cumulative layout shift of the page so far (no user input), read from buffered layout-shift entries. */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean };
        let sum = 0;
        const add = (entries: PerformanceEntry[]) => {
          for (const e of entries as Shift[]) if (!e.hadRecentInput) sum += e.value;
        };
        const observer = new PerformanceObserver((list) => add(list.getEntries()));
        observer.observe({ type: "layout-shift", buffered: true });
        // Buffered entries come in the observer's first callback; whatever is left, takeRecords hands over.
        setTimeout(() => {
          add(observer.takeRecords());
          observer.disconnect();
          resolve(sum);
        }, 100);
      }),
  );
}

/** Debian's Chromium driven by playwright-core (never `playwright install`: no browser downloads). */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

const common: BrowserContextOptions = { locale: "sv-SE", timezoneId: "Europe/Stockholm" };

/** A phone: 375 px wide, touch, mobile viewport rules (the small-screen layout with the drawer). */
export function phoneContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  return browser.newContext({
    ...common,
    ...options,
    baseURL,
    viewport: { width: 375, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
}

export function desktopContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  return browser.newContext({ ...common, ...options, baseURL, viewport: { width: 1280, height: 800 } });
}

/** Every URL the context's pages request, to prove none leaves the site. */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on("request", (request) => urls.push(request.url()));
  return urls;
}

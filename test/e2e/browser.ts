/** Debian's Chromium driven by playwright-core (never `playwright install`: no browser downloads). */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
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

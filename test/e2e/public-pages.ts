/**
 * What the public pages' browser tests share: axe-core on the page as it is (serious and critical violations
 * fail), the head every public page needs (lang, title, description, Open Graph), no sideways scroll at a width,
 * an admin API session on a page's request context, long tasks recorded from the first script on, and a tab of the
 * Worker's first HTML selected once React has hydrated it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";

/**
 * axe-core's source, evaluated in the page through the browser's own channel: a script tag added to the page
 * would be an inline script, which the site's Content Security Policy refuses.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG A/AA rules on the current page: no serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
}

/** lang="sv", the title, a description, and the Open Graph tags for sharing (og:url on this page's address, og:image). */
export async function expectShareableHead(page: Page, title: string): Promise<void> {
  expect(await page.getAttribute("html", "lang")).toBe("sv");
  expect(await page.title()).toBe(title);
  const content = (selector: string) => page.locator(selector).first().getAttribute("content");
  const description = await content('meta[name="description"]');
  expect(description?.length).toBeGreaterThan(40);
  expect(await content('meta[property="og:title"]')).toBe(title);
  expect(await content('meta[property="og:description"]')).toBe(description);
  expect(await content('meta[property="og:type"]')).toBe("website");
  expect(await content('meta[property="og:locale"]')).toBe("sv_SE");
  const ogUrl = new URL((await content('meta[property="og:url"]'))!);
  expect(ogUrl.pathname).toBe(new URL(page.url()).pathname);
  // The shared picture: an absolute address on the public origin (fetched in public-site.test.ts).
  expect(new URL((await content('meta[property="og:image"]'))!).origin).toBe(ogUrl.origin);
}

/** Nothing wider than the viewport: the page never scrolls sideways (tables scroll inside their own box). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The x-loppet-client header the SPA sends (the same-origin guard's third way). */
export const CLIENT = { "x-loppet-client": "1" };

/** Signs the context's request client in as the development admin (the API only, no page). */
export async function adminApi(context: BrowserContext): Promise<void> {
  const res = await context.request.post("/admin/api/dev-login", {
    headers: CLIENT,
    data: { email: "arrangor@example.se" },
  });
  expect(res.status()).toBe(200);
}

declare global {
  interface Window {
    __longTasks: number[];
  }
}

/** Records every long task's duration (ms) from the document's first script on, in window.__longTasks. */
export async function recordLongTasks(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  });
}

/**
 * The page's first HTML already has its tabs (the Worker renders them): a click before React has hydrated them does
 * nothing, so the tab is clicked until it says it is selected.
 */
export async function selectTab(tab: Locator): Promise<void> {
  await expect
    .poll(async () => {
      await tab.click();
      return tab.getAttribute("aria-selected");
    })
    .toBe("true");
}

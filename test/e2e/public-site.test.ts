/**
 * Every public page, the same checks (issue 7, "for every public page"): the first HTML already holds the page
 * (pre-rendered, lang="sv", a title, a description and the Open Graph tags with an absolute og:image that
 * answers), and in Chromium on a phone and at 1280 px: no serious or critical axe-core violation, nothing
 * scrolls sideways at 320 px, the keyboard's first Tab lands on a visibly focused element, no script error, and
 * the page requests only the code of its own audience: built chunks are foldered by audience
 * (scripts/lib/chunk-groups.mjs), so admin and timing code, the map and the carousel are each allowed on their own
 * pages only. Each page's own behaviour is tested in its own file (start-lists, results, timing, courses, gallery).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { CHUNK_GROUPS } from "../../scripts/lib/chunk-groups.mjs";
import { SEASON } from "../../src/shared/season";
import { contextsStayOnSite, desktopContext, launchBrowser, NAVIGATION_HEADERS, phoneContext } from "./browser";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll, expectShareableHead } from "./public-pages";

const baseURL = e2eBaseURL();

interface PublicPage {
  path: string;
  /** The page's <h1>, already in the first HTML. */
  heading: string;
  /** Title of the page ('' for the landing page: the site's name and the season's year). */
  title: string;
  /** Chunk folders this page may load besides the shared code (scripts/lib/chunk-groups.mjs). */
  allowed: string[];
  /** The folder this page's own code is built into, which it must load (so the folders are really in use). */
  loads?: string;
}

const PAGES: PublicPage[] = [
  { path: "/", heading: `${SEASON.siteName} ${SEASON.year}`, title: "", allowed: [] },
  { path: "/startlistor", heading: "Startlistor", title: "Startlistor", allowed: [] },
  { path: "/resultat", heading: "Resultat", title: "Resultat", allowed: [] },
  { path: "/galleri", heading: "Galleri", title: "Galleri", allowed: [] },
  { path: "/galleri/2019", heading: "Galleri 2019", title: "Galleri 2019", allowed: ["carousel"] },
  { path: "/banor", heading: "Banor", title: "Banor", allowed: ["map"], loads: "map" },
  { path: "/allmanna-villkor", heading: "Allmänna villkor", title: "Allmänna villkor", allowed: [] },
  { path: "/tidtagning", heading: "Tidtagning", title: "Tidtagning", allowed: ["timing"], loads: "timing" },
];

const fullTitle = (p: PublicPage) =>
  p.title ? `${p.title} – ${SEASON.siteName}` : `${SEASON.siteName} ${SEASON.year}`;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const meta = (html: string, key: string) =>
  html.match(new RegExp(`<meta\\s+(?:name|property)="${key}"\\s+content="([^"]*)"`))?.[1] ?? null;

describe.each(PAGES)("$path", (p) => {
  test("the first HTML holds the page: lang, heading, title, description and sharing tags with a picture", async () => {
    const res = await fetch(baseURL + p.path, { headers: NAVIGATION_HEADERS });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html[^>]* lang="sv"/);
    const root = html.slice(html.indexOf('<div id="root"'));
    const h1 = root.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.replace(/<[^>]+>/g, "");
    expect(h1?.replace(/\s+/g, " ").trim()).toBe(p.heading);
    expect(html).toContain(`<title>${fullTitle(p)}</title>`);
    expect(meta(html, "description")?.length).toBeGreaterThan(40);
    expect(meta(html, "og:title")).toBe(fullTitle(p));
    expect(new URL(meta(html, "og:url")!).pathname).toBe(p.path);
    const image = meta(html, "og:image")!;
    expect(new URL(image).origin).toBe(new URL(meta(html, "og:url")!).origin);
    // The picture itself: fetched from this server whatever origin the configuration names.
    const picture = await fetch(baseURL + new URL(image).pathname);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
  });

  test.each(["phone", "desktop"] as const)(
    "%s: axe-core, sharing head, keyboard focus, no error, only its own code",
    async (kind) => {
      const context = onSite(await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL), baseURL);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const scripts: string[] = [];
      page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));

      await page.goto(p.path, { waitUntil: "networkidle" });
      await page.getByRole("heading", { level: 1, name: p.heading }).waitFor();
      await expectShareableHead(page, fullTitle(p));
      await expectNoSeriousAxeViolations(page);

      await page.keyboard.press("Tab");
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return { outline: style.outlineStyle !== "none" && style.outlineWidth !== "0px", shadow: style.boxShadow };
      });
      expect(focus, "Tab focuses something").not.toBeNull();
      expect(focus!.outline || focus!.shadow !== "none", "the focus is visible").toBe(true);

      expect(errors).toEqual([]);
      const foreign = scripts.filter((s) => {
        const group = s.match(/^\/assets\/([^/]+)\//)?.[1];
        return group !== undefined && CHUNK_GROUPS.includes(group) && !p.allowed.includes(group);
      });
      expect(foreign).toEqual([]);
      if (p.loads) expect(scripts.some((s) => s.startsWith(`/assets/${p.loads}/`))).toBe(true);
    },
  );

  test("readable at 320 px: nothing scrolls sideways", async () => {
    const context = onSite(await phoneContext(browser, baseURL, { viewport: { width: 320, height: 640 } }), baseURL);
    const page = await context.newPage();
    await page.goto(p.path, { waitUntil: "networkidle" });
    await page.getByRole("heading", { level: 1, name: p.heading }).waitFor();
    await expectNoSidewaysScroll(page);
  });
});

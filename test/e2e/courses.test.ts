/**
 * /banor in real Chromium against `npm start`'s server, on a phone (375 px) and a desktop (1280 px): the
 * pre-rendered first HTML (legend with each route's length, the routes in text, the map's box, head for sharing)
 * without JavaScript; the four routes drawn as SVG lines in their colours with no map tiles and no request to any
 * other origin; one route at a time by keyboard (toggle buttons with aria-pressed, kept in `?bana=`); the zoom
 * controls by keyboard; an unknown route and a map that cannot load, each with its Swedish message; the map's
 * code requested on this page only; axe-core and 320 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { SEASON } from "../../src/shared/season";
import { contextsStayOnSite, desktopContext, launchBrowser, layoutShift, phoneContext } from "./browser";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll, expectShareableHead } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const LEGEND = ["Alla banor", "0.8K – 0,8 km", "1.6K – 1,6 km", "2.8K – 2,8 km", "5.6K – 5,6 km"];
/** The colours of admin area §3: 0.8K blue, 1.6K yellow, 2.8K and 5.6K red (5.6K dashed to tell them apart). */
const LINES = {
  "0-8k": { stroke: "#1e5fc8", dash: null },
  "1-6k": { stroke: "#f5c400", dash: null },
  "2-8k": { stroke: "#d32f2f", dash: null },
  "5-6k": { stroke: "#d32f2f", dash: "10 8" },
};
/** Addresses of the map's own code: its chunk (Leaflet inside) and Leaflet's stylesheet. */
const MAP_CODE = /\/assets\/(map\/)?map-view-[^/]*\.(js|css)$|leaflet/;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(kind: "phone" | "desktop", options: Parameters<typeof phoneContext>[2] = {}): Promise<Page> {
  const context = await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL, options);
  return onSite(context, baseURL).newPage();
}

const legend = (page: Page) => page.getByRole("group", { name: "Teckenförklaring" });
const toggle = (page: Page, name: string) => legend(page).getByRole("button", { name, exact: true });
const map = (page: Page) => page.locator(".course-map.leaflet-container");

/** The drawn route lines: which route (from the class), stroke, dashes, and the drawn size on screen. */
function drawnLines(page: Page) {
  return page.locator("svg path.course-line").evaluateAll((paths) =>
    paths.map((p) => {
      const box = p.getBoundingClientRect();
      return {
        route: [...p.classList].find((c) => c.startsWith("course-line-"))?.slice("course-line-".length),
        stroke: p.getAttribute("stroke"),
        dash: p.getAttribute("stroke-dasharray"),
        width: Math.round(box.width),
        height: Math.round(box.height),
        hasPath: (p.getAttribute("d") ?? "").length > 20,
      };
    }),
  );
}

async function routesShown(page: Page): Promise<string[]> {
  return (await drawnLines(page)).map((l) => l.route ?? "").sort();
}

test("the first HTML has the legend with each route's length, the routes in text and the map's box", async () => {
  const page = await open("phone", { javaScriptEnabled: false });
  expect((await page.goto("/banor"))?.status()).toBe(200);
  await expectShareableHead(page, `Banor – ${SEASON.siteName}`);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Banor");
  expect((await legend(page).getByRole("button").allTextContents()).map((t) => t.trim())).toEqual(LEGEND);
  expect(await toggle(page, "Alla banor").getAttribute("aria-pressed")).toBe("true");
  expect(await page.getByText("Start och mål: skolans matsal").first().isVisible()).toBe(true);
  // The text version: each route with its length in metres, its colour and a description.
  const text = page.getByRole("region", { name: "Banorna i text" });
  expect(await text.getByRole("heading", { level: 3 }).allTextContents()).toEqual(LEGEND.slice(1));
  const items = await text.locator("li p").allTextContents();
  expect(items).toHaveLength(4);
  expect(items[0]).toMatch(/^\d+ m, blå linje på kartan\. \S/);
  expect(items[3]).toMatch(/^5\u202f\d{3} m, röd, streckad linje på kartan\. \S/);
  // The map's box is there at its final size (nothing moves when the map comes), saying what will be in it.
  const box = await page.locator(".course-map-box").boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(300);
  expect(box?.width).toBeGreaterThan(300);
  expect(await page.locator(".course-map-box").textContent()).toContain("Kartan laddas");
  // Without JavaScript, nothing of the map is requested.
  expect(await page.locator(".leaflet-container").count()).toBe(0);
});

for (const kind of ["phone", "desktop"] as const) {
  test(`${kind}: the four routes are drawn in their colours on a plain background, with nothing from elsewhere`, async () => {
    const page = await open(kind);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    const mapCode: string[] = [];
    page.on("request", (r) => MAP_CODE.test(new URL(r.url()).pathname) && mapCode.push(r.url()));
    await page.goto("/banor");
    await map(page).waitFor();
    await page.locator("svg path.course-line").nth(3).waitFor();

    const lines = await drawnLines(page);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      const expected = LINES[line.route as keyof typeof LINES];
      expect(expected, `unexpected route ${line.route}`).toBeDefined();
      expect({ stroke: line.stroke, dash: line.dash }).toEqual(expected);
      expect(line.hasPath).toBe(true);
      expect(Math.max(line.width, line.height)).toBeGreaterThan(20);
    }
    expect(await routesShown(page)).toEqual(["0-8k", "1-6k", "2-8k", "5-6k"]);
    // Start and finish on the map, labelled.
    expect(await page.locator(".course-start-label").textContent()).toBe("Start och mål: skolans matsal");
    // No tiles (none configured in development): the routes lie on the box's own background colour.
    expect(await page.locator(".leaflet-tile").count()).toBe(0);
    const background = await map(page).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
    expect(await page.locator(".course-map-box").textContent()).not.toContain("Kartan laddas");

    expect(mapCode.some((u) => /map-view-[^/]*\.js$/.test(u))).toBe(true);
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
    await expectNoSeriousAxeViolations(page);
    expect(errors).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/banor-${kind}.png`, fullPage: true });
  });
}

test("one route at a time by keyboard: toggle buttons with aria-pressed, the choice kept in the address", async () => {
  const page = await open("desktop");
  await page.goto("/banor");
  await page.locator("svg path.course-line").nth(3).waitFor();

  await toggle(page, "Alla banor").focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("2.8K – 2,8 km");
  await page.keyboard.press("Space");
  await page.waitForFunction(() => document.querySelectorAll("path.course-line").length === 1);
  expect(await routesShown(page)).toEqual(["2-8k"]);
  expect(await toggle(page, "2.8K – 2,8 km").getAttribute("aria-pressed")).toBe("true");
  expect(await toggle(page, "Alla banor").getAttribute("aria-pressed")).toBe("false");
  expect(new URL(page.url()).searchParams.get("bana")).toBe("2.8K");
  expect(await page.getByRole("status").filter({ hasText: "Visar" }).textContent()).toBe("Visar 2.8K – 2,8 km.");

  // The other red one, by Tab and Enter.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("path.course-line-5-6k") !== null);
  expect(await routesShown(page)).toEqual(["5-6k"]);
  expect(await toggle(page, "2.8K – 2,8 km").getAttribute("aria-pressed")).toBe("false");

  // Pressing the shown route again shows every route.
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("path.course-line").length === 4);
  expect(await toggle(page, "Alla banor").getAttribute("aria-pressed")).toBe("true");
  expect(new URL(page.url()).search).toBe("");
  await expectNoSeriousAxeViolations(page);
});

test("the map's zoom controls are reached and used by keyboard", async () => {
  const page = await open("phone");
  await page.goto("/banor");
  await page.locator("svg path.course-line").nth(3).waitFor();
  const width = async () => Math.max(...(await drawnLines(page)).map((l) => l.width));
  const before = await width();

  await toggle(page, "5.6K – 5,6 km").focus();
  const focused: string[] = [];
  for (let i = 0; i < 4 && !focused.includes("Zooma in"); i++) {
    await page.keyboard.press("Tab");
    focused.push(
      await page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute("aria-label") ?? el?.className ?? "";
      }),
    );
  }
  // First the map itself (arrow keys pan it), then its zoom buttons.
  expect(focused).toEqual(["Karta över banorna", "Zooma in"]);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe("none");
  await page.keyboard.press("Enter");
  await page.waitForFunction((w) => {
    const widths = [...document.querySelectorAll("path.course-line")].map((p) => p.getBoundingClientRect().width);
    return Math.max(...widths) > w * 1.5;
  }, before);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Zooma ut");
});

test("an address naming one route shows it alone; an unknown route says so and shows them all", async () => {
  const page = await open("phone");
  expect((await page.goto("/banor?bana=5.6K"))?.status()).toBe(200);
  await page.locator("svg path.course-line-5-6k").waitFor();
  expect(await routesShown(page)).toEqual(["5-6k"]);
  expect(await toggle(page, "5.6K – 5,6 km").getAttribute("aria-pressed")).toBe("true");

  expect((await page.goto("/banor?bana=xyz"))?.status()).toBe(200);
  await page.locator("svg path.course-line").nth(3).waitFor();
  const message = page.locator(".course-status-error");
  expect(await message.textContent()).toBe(
    "Det finns ingen bana som heter ”xyz”. Alla banor visas; välj 0.8K, 1.6K, 2.8K eller 5.6K.",
  );
  expect(await message.getAttribute("role")).toBe("status");
  expect(await routesShown(page)).toEqual(["0-8k", "1-6k", "2-8k", "5-6k"]);
  expect(await toggle(page, "Alla banor").getAttribute("aria-pressed")).toBe("true");
  await expectNoSeriousAxeViolations(page);
});

test("a map that cannot load says so in its box; the legend and the routes in text stay", async () => {
  const page = await open("phone");
  const blocked: string[] = [];
  await page.route(/\/assets\/(map\/)?map-view-/, (route) => {
    blocked.push(route.request().url());
    return route.abort("internetdisconnected");
  });
  await page.goto("/banor");
  const alert = page.locator(".course-map-box").getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toBe(
    "Kartan kunde inte laddas. Ladda om sidan för att försöka igen. Banorna beskrivs i text under kartan.",
  );
  expect(blocked.length).toBeGreaterThan(0);
  expect(await page.locator(".leaflet-container").count()).toBe(0);
  expect((await legend(page).getByRole("button").allTextContents()).map((t) => t.trim())).toEqual(LEGEND);
  expect(await page.getByRole("region", { name: "Banorna i text" }).locator("li").count()).toBe(4);
});

test("the map's code is requested on /banor only, also when a visitor comes there from another page", async () => {
  const page = await open("desktop");
  const mapCode: string[] = [];
  page.on("request", (r) => MAP_CODE.test(new URL(r.url()).pathname) && mapCode.push(new URL(r.url()).pathname));
  for (const path of ["/", "/resultat", "/startlistor"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(mapCode).toEqual([]);
  // Onwards to /banor through the site's own link: now the map's chunk comes.
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await page.getByRole("navigation", { name: "Huvudmeny" }).getByRole("link", { name: "Banor", exact: true }).click();
  await page.locator("svg path.course-line").nth(3).waitFor();
  expect(mapCode.some((p) => /map-view-[^/]*\.js$/.test(p))).toBe(true);
});

test("readable at 320 px: no sideways scroll, the map box fits", async () => {
  const page = await open("phone");
  // phoneContext's own 375 px viewport wins over one passed in, so the width is set on the page.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/banor");
  await page.locator("svg path.course-line").nth(3).waitFor();
  expect(await page.evaluate(() => innerWidth)).toBe(320);
  await expectNoSidewaysScroll(page);
  const box = await page.locator(".course-map-box").boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(320);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/banor-320.png`, fullPage: true });
});

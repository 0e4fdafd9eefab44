/**
 * /galleri and /galleri/{year} in real Chromium against `npm start`'s server (demo photos in the local R2 bucket),
 * on a phone (375 px) and a desktop (1280 px): the pre-rendered first HTML (cards 2024–2014, the year page's
 * heading and head for sharing), cover photos, thumbnails with srcset/sizes (first row eager, the rest lazy),
 * the fullscreen carousel (arrows, keys, Escape, focus kept and returned, swipe, download link of the largest
 * size), its chunk loaded only there, 404 for an unknown year or a non-year with a Swedish message, a broken photo
 * with its text, nothing shifting, 320 px and axe-core on both pages.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { galleryPlan } from "../../scripts/seed/gallery-plan.mjs";
import { SEASON } from "../../src/shared/season";
import { contextsStayOnSite, desktopContext, launchBrowser, layoutShift, phoneContext } from "./browser";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll, expectShareableHead } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const YEARS = Array.from({ length: 11 }, (_, i) => 2024 - i);
const PHOTOS_2019 = galleryPlan().find((p) => p.year === 2019)!.files.length;

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

/** Scripts the page requested, by path. */
function scriptLog(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
  return scripts;
}

const dialog = (page: Page) => page.getByRole("dialog");
const thumbs = (page: Page) => page.locator(".gallery-thumb");

/** Waits until every image in `scope` that is eager has loaded with real pixels. */
async function eagerImagesLoaded(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) =>
      [...document.querySelectorAll<HTMLImageElement>(sel)]
        .filter((img) => img.loading !== "lazy")
        .every((img) => img.complete && img.naturalWidth > 0),
    selector,
  );
}

test("the first HTML has every year's card and the year page its heading, each with a head for sharing", async () => {
  const page = await open("phone", { javaScriptEnabled: false });
  expect((await page.goto("/galleri"))?.status()).toBe(200);
  await expectShareableHead(page, `Galleri – ${SEASON.siteName}`);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Galleri");
  const cards = page.locator("a.gallery-card");
  expect(await cards.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(
    YEARS.map((y) => `/galleri/${y}`),
  );
  expect(await page.locator(".gallery-card-year").allTextContents()).toEqual(YEARS.map(String));

  expect((await page.goto("/galleri/2019"))?.status()).toBe(200);
  await expectShareableHead(page, `Galleri 2019 – ${SEASON.siteName}`);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Galleri 2019");
  expect(await page.getByText("Hämtar bilderna …").isVisible()).toBe(true);
});

for (const kind of ["phone", "desktop"] as const) {
  test(`${kind}: the cards get their covers, a card opens its year, thumbnails have srcset and load lazily`, async () => {
    const page = await open(kind);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    const scripts = scriptLog(page);
    await page.goto("/galleri");

    await page.locator(".gallery-card-count", { hasText: "bilder" }).first().waitFor();
    await eagerImagesLoaded(page, ".gallery-card-cover img");
    const counts = await page.locator(".gallery-card-count").allTextContents();
    expect(counts).toEqual(
      galleryPlan()
        .toReversed()
        .map((p) => `${p.files.length} bilder`),
    );
    const cover = page.locator(".gallery-card-cover img").first();
    expect(await cover.getAttribute("srcset")).toBe(
      ["160", "320", "640"].map((w) => `/galleri-bilder/2024/01-${w}.jpg ${w}w`).join(", "),
    );
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
    await expectNoSidewaysScroll(page);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-${kind}.png` });
    await expectNoSeriousAxeViolations(page);

    await page.getByRole("link", { name: /^2019/ }).click();
    await page.waitForURL("**/galleri/2019");
    await page.getByRole("heading", { level: 1, name: "Galleri 2019" }).waitFor();
    expect(await page.title()).toBe(`Galleri 2019 – ${SEASON.siteName}`);
    await thumbs(page).first().waitFor();
    expect(await thumbs(page).count()).toBe(PHOTOS_2019);
    const imgs = await page.locator(".gallery-thumb img").evaluateAll((list) =>
      (list as HTMLImageElement[]).map((img) => ({
        srcset: img.getAttribute("srcset"),
        sizes: img.getAttribute("sizes"),
        loading: img.getAttribute("loading"),
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
      })),
    );
    imgs.forEach((img, i) => {
      const name = String(i + 1).padStart(2, "0");
      expect(img.srcset).toBe(
        `/galleri-bilder/2019/${name}-160.jpg 160w, /galleri-bilder/2019/${name}-320.jpg 320w, /galleri-bilder/2019/${name}-640.jpg 640w`,
      );
      expect(img.sizes).toMatch(/vw/);
      expect(img.loading).toBe(i < 6 ? "eager" : "lazy");
      expect([img.width, img.height]).toEqual(["320", "213"]);
    });
    await eagerImagesLoaded(page, ".gallery-thumb img");
    // Chromium picks a thumbnail size, never a carousel one.
    const chosen = await page
      .locator(".gallery-thumb img")
      .first()
      .evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(chosen).toMatch(/-(160|320|640)\.jpg$/);
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
    await expectNoSidewaysScroll(page);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-2019-${kind}.png` });
    await expectNoSeriousAxeViolations(page);

    // The carousel's code is not part of the index, nor of the public entry.
    expect(scripts.filter((s) => s.includes("gallery-carousel"))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test(`${kind}: the carousel steps with buttons, keys and swipes, downloads the largest size and gives the focus back`, async () => {
    const page = await open(kind);
    const scripts = scriptLog(page);
    expect((await page.goto("/galleri/2019"))?.status()).toBe(200);
    await thumbs(page).first().waitFor();

    await thumbs(page).nth(2).click();
    await dialog(page).waitFor();
    expect(scripts.filter((s) => s.includes("gallery-carousel"))).toHaveLength(1);
    const title = () => dialog(page).getByRole("heading").textContent();
    expect(await title()).toBe(`Bild 3 av ${PHOTOS_2019}`);
    const image = dialog(page).locator("img.carousel-image");
    expect(await image.getAttribute("srcset")).toBe(
      "/galleri-bilder/2019/03-640.jpg 640w, /galleri-bilder/2019/03-1280.jpg 1280w",
    );
    expect(await image.getAttribute("sizes")).toBe("100vw");
    expect(await image.getAttribute("alt")).toBe(`${SEASON.siteName} 2019, bild 3 av ${PHOTOS_2019}`);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("img.carousel-image");
      return img?.complete && img.naturalWidth > 0;
    });
    expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/03-(640|1280)\.jpg$/);

    // Download: the largest size, under a readable file name, and the link works.
    const download = dialog(page).getByRole("link", { name: "Ladda ner" });
    expect(await download.getAttribute("href")).toBe("/galleri-bilder/2019/03-1280.jpg");
    expect(await download.getAttribute("download")).toBe("byloppet-2019-03.jpg");
    const file = await page.request.get("/galleri-bilder/2019/03-1280.jpg");
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/jpeg");

    // Buttons and keys, wrapping at the ends.
    await dialog(page).getByRole("button", { name: "Nästa bild" }).click();
    expect(await title()).toBe(`Bild 4 av ${PHOTOS_2019}`);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await title()).toBe(`Bild ${PHOTOS_2019} av ${PHOTOS_2019}`);
    await page.keyboard.press("ArrowRight");
    expect(await title()).toBe(`Bild 1 av ${PHOTOS_2019}`);
    await page.keyboard.press("ArrowRight");
    expect(await title()).toBe(`Bild 2 av ${PHOTOS_2019}`);

    // Swipe left = next, right = previous; a short or mostly vertical move does nothing.
    const stage = dialog(page).locator(".carousel-stage");
    const box = (await stage.boundingBox())!;
    const y = box.y + box.height / 2;
    const swipe = async (fromX: number, toX: number, toY = y) => {
      if (kind === "desktop") {
        await page.mouse.move(fromX, y);
        await page.mouse.down();
        await page.mouse.move(toX, toY, { steps: 5 });
        await page.mouse.up();
      } else {
        const at = (x: number, yy: number) => ({
          pointerId: 7,
          pointerType: "touch",
          clientX: x,
          clientY: yy,
          isPrimary: true,
        });
        await stage.dispatchEvent("pointerdown", at(fromX, y));
        await stage.dispatchEvent("pointermove", at((fromX + toX) / 2, (y + toY) / 2));
        await stage.dispatchEvent("pointerup", at(toX, toY));
      }
    };
    const mid = box.x + box.width / 2;
    await swipe(mid + 100, mid - 100);
    expect(await title()).toBe(`Bild 3 av ${PHOTOS_2019}`);
    await swipe(mid - 100, mid + 100);
    expect(await title()).toBe(`Bild 2 av ${PHOTOS_2019}`);
    await swipe(mid, mid - 20);
    await swipe(mid, mid - 60, y - 150);
    expect(await title()).toBe(`Bild 2 av ${PHOTOS_2019}`);
    await page.keyboard.press("ArrowRight");
    expect(await title()).toBe(`Bild 3 av ${PHOTOS_2019}`);
    await page.keyboard.press("ArrowRight");
    expect(await title()).toBe(`Bild 4 av ${PHOTOS_2019}`);

    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-karusell-${kind}.png` });
    await expectNoSeriousAxeViolations(page);

    // The focus stays inside while it is open.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("[role='dialog']"))).toBe(true);
    }
    // Escape closes it, and the focus lands on the thumbnail of the photo shown last.
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label")?.startsWith("Visa bild 4 "));
    // Enter on a focused thumbnail opens it again.
    await page.keyboard.press("Enter");
    await dialog(page).waitFor();
    expect(await title()).toBe(`Bild 4 av ${PHOTOS_2019}`);
    await dialog(page).getByRole("button", { name: "Stäng bildvisningen" }).click();
    await dialog(page).waitFor({ state: "detached" });
  });
}

test("an unknown year, a non-year and a year without photos: 404 and a message in Swedish", async () => {
  const page = await open("phone");
  for (const [path, text] of [
    ["/galleri/1999", "Det finns inga bilder från 1999. Välj ett annat år bland alla gallerier."],
    ["/galleri/2013", "Det finns inga bilder från 2013. Välj ett annat år bland alla gallerier."],
    ["/galleri/bilder", '"bilder" är inget årtal. Välj ett år bland alla gallerier.'],
  ] as const) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await page.getByText(text).waitFor();
    expect(await page.title(), path).toBe(`Galleri saknas – ${SEASON.siteName}`);
    await page.getByRole("link", { name: "Till alla gallerier" }).waitFor();
  }
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-404-375.png` });
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("link", { name: "Till alla gallerier" }).click();
  await page.waitForURL("**/galleri");
  await page.locator("a.gallery-card").first().waitFor();
});

test("a photo that cannot be loaded shows a text in its box, in the grid and in the carousel", async () => {
  const page = await open("phone");
  await page.route("**/galleri-bilder/2019/02-*", (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto("/galleri/2019");
  const second = thumbs(page).nth(1);
  await second.getByText("Bilden kunde inte visas").waitFor();
  expect(await second.locator("img").count()).toBe(0);
  // Its box keeps the size of the others.
  const [a, b] = [await thumbs(page).nth(0).boundingBox(), await second.boundingBox()];
  expect(Math.round(b!.height)).toBe(Math.round(a!.height));
  expect(await thumbs(page).nth(0).locator("img").count()).toBe(1);

  await second.click();
  await dialog(page).getByText("Bilden kunde inte visas").waitFor();
  await page.keyboard.press("ArrowRight");
  await dialog(page).locator("img.carousel-image").waitFor();
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-trasig-375.png` });
});

test("readable at 320 px: cards and thumbnails fit, nothing scrolls sideways", async () => {
  // phoneContext fixes 375 px; this phone is narrower.
  const context = onSite(
    await browser.newContext({
      baseURL,
      locale: "sv-SE",
      viewport: { width: 320, height: 640 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    }),
    baseURL,
  );
  const page = await context.newPage();
  await page.goto("/galleri");
  await page.locator(".gallery-card-count", { hasText: "bilder" }).first().waitFor();
  await expectNoSidewaysScroll(page);
  expect(await page.evaluate(() => innerWidth)).toBe(320);
  await page.goto("/galleri/2019");
  await thumbs(page).first().waitFor();
  await expectNoSidewaysScroll(page);
  await thumbs(page).first().click();
  await dialog(page).waitFor();
  await expectNoSidewaysScroll(page);
  for (const name of ["Föregående bild", "Nästa bild", "Stäng bildvisningen"]) {
    const box = (await dialog(page).getByRole("button", { name }).boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 320, name).toBe(true);
  }
  const download = (await dialog(page).getByRole("link", { name: "Ladda ner" }).boundingBox())!;
  expect(download.x + download.width).toBeLessThanOrEqual(320);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/galleri-karusell-320.png` });
});

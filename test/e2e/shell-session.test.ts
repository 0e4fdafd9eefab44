/**
 * The shell's signed-in parts in real Chromium against `npm start`'s server: 'Admin' and 'Logga ut' in the top
 * bar, the /logout flow, the `config` window event, and that nothing shifts the layout once the config arrives.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import {
  contextsStayOnSite,
  desktopContext,
  launchBrowser,
  layoutShift,
  nextPaint,
  phoneContext,
  signInAsDevAdmin,
} from "./browser";
import { adminPhone, createRace, HEADERS, openRace } from "./race-day-support";
import { RECONNECT_DELAY_MS } from "../../src/shared/race-protocol";

const baseURL = e2eBaseURL();

/** Wire fields of /api/config the tests compare (serverTime moves; the rest is fixed for a session). */
interface ConfigSnapshot {
  isAdmin: boolean;
  isLoggedIn: boolean;
  wsUrl: string;
  devMode: boolean;
  serverTime: number;
  season: { year: number; showRegistrationButton: boolean; showBibPickupBanner: boolean };
}

declare global {
  interface Window {
    /** Every `config` event's detail, in order (installed before the page's own scripts run). */
    __configEvents: ConfigSnapshot[];
  }
}

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A context whose pages record every `config` event from their first script on. */
async function open(kind: "phone" | "desktop" = "desktop"): Promise<Page> {
  const context = onSite(await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL), baseURL);
  await context.addInitScript(() => {
    window.__configEvents = [];
    window.addEventListener("config", (event) => {
      window.__configEvents.push(structuredClone((event as CustomEvent<ConfigSnapshot>).detail));
    });
  });
  return context.newPage();
}

/** Waits for the `n`th config of this document, then for React to have painted with it. */
async function configArrived(page: Page, n = 1): Promise<ConfigSnapshot> {
  await page.waitForFunction((count) => window.__configEvents.length >= count, n);
  await nextPaint(page);
  return page.evaluate((i) => window.__configEvents[i]!, n - 1);
}

/** /api/config as this page's cookies see it. */
function serverConfig(page: Page): Promise<ConfigSnapshot> {
  return page.evaluate(async () => (await fetch("/api/config")).json() as Promise<ConfigSnapshot>);
}

const topNav = (page: Page) => page.locator("header").getByRole("navigation", { name: "Huvudmeny" });

test("'Admin' shows only to admins and 'Logga ut' only when signed in", async () => {
  const page = await open();
  await page.goto("/");
  expect((await configArrived(page)).isAdmin).toBe(false);
  const nav = topNav(page);
  expect(await nav.getByRole("link", { name: "Startlistor" }).isVisible()).toBe(true);
  expect(await nav.getByRole("link", { name: "Admin" }).count()).toBe(0);
  expect(await nav.getByRole("link", { name: "Logga ut" }).count()).toBe(0);

  await signInAsDevAdmin(page);
  await page.goto("/");
  const signedIn = await configArrived(page);
  expect(signedIn).toMatchObject({ isAdmin: true });
  const admin = nav.getByRole("link", { name: "Admin", exact: true });
  await admin.waitFor();
  expect(await nav.getByRole("link", { name: "Logga ut" }).isVisible()).toBe(true);
  // Last in the row, after the site's own links, where their arrival moves nothing else.
  expect((await nav.getByRole("link").allTextContents()).slice(-2)).toEqual(["Admin", "Logga ut"]);

  await admin.click();
  await page.waitForURL("**/admin/list-by-race");
  await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
});

test("/logout ends the session, refreshes the config and replaces itself with '/'", async () => {
  const page = await open();
  await signInAsDevAdmin(page);
  await page.goto("/startlistor");
  await configArrived(page);
  const nav = topNav(page);
  await nav.getByRole("link", { name: "Logga ut" }).waitFor();

  const log: string[] = [];
  page.on("request", (r) => log.push(new URL(r.url()).pathname));
  await nav.getByRole("link", { name: "Logga ut" }).click();
  await page.waitForURL((url) => url.pathname === "/");

  // The endpoint first, then a fresh config, which the page announces (signed out) before it lands on '/'.
  const logoutAt = log.indexOf("/api/logout");
  expect(logoutAt).toBeGreaterThanOrEqual(0);
  expect(log.indexOf("/api/config", logoutAt)).toBeGreaterThan(logoutAt);
  const events = await page.evaluate(() => window.__configEvents.map((e) => e.isAdmin));
  expect(events).toEqual([true, false]);

  await nav.getByRole("link", { name: "Logga ut" }).waitFor({ state: "detached" });
  expect(await nav.getByRole("link", { name: "Admin" }).count()).toBe(0);
  expect(await serverConfig(page)).toMatchObject({ isAdmin: false, isLoggedIn: false });

  // Replaced, not pushed: Back returns to the page before, not to /logout (which would sign out again).
  await page.goBack();
  await page.waitForURL((url) => url.pathname === "/startlistor");
  await page.getByRole("heading", { name: "Startlistor" }).waitFor();
  expect(log.filter((p) => p === "/api/logout")).toHaveLength(1);
});

test("each config arrives as the detail of a window event named 'config'", async () => {
  const page = await open();
  await page.goto("/admin/login");
  const first = await configArrived(page);
  const server = await serverConfig(page);
  const { serverTime, ...rest } = server;
  expect(first).toMatchObject(rest);
  expect(first.serverTime).toBeGreaterThan(serverTime - 60_000);
  expect(first.serverTime).toBeLessThanOrEqual(serverTime);
  expect(first).toMatchObject({ isAdmin: false, isLoggedIn: false, wsUrl: `ws://${new URL(baseURL).host}/ws` });

  // Signing in refetches the config, and the new one is announced too.
  await page.getByLabel("E-postadress").fill("arrangor@example.se");
  await page.getByRole("button", { name: "Logga in (utveckling)" }).click();
  await page.waitForURL("**/admin/list-by-race");
  expect(await configArrived(page, 2)).toMatchObject({ isAdmin: true, season: rest.season });
});

for (const kind of ["desktop", "phone"] as const) {
  test(`nothing shifts when the config arrives (${kind}: '/' and '/startlistor')`, async () => {
    const page = await open(kind);
    for (const path of ["/", "/startlistor"]) {
      await page.goto(path);
      await configArrived(page);
      await page.waitForLoadState("networkidle");
      expect(await layoutShift(page), path).toBeLessThan(0.01);
    }

    // The measurement itself sees a shift: push the page down by a block and measure again.
    await page.evaluate(() => {
      const block = document.createElement("div");
      block.style.height = "300px";
      document.getElementById("main")!.prepend(block);
    });
    await nextPaint(page);
    expect(await layoutShift(page)).toBeGreaterThan(0.01);
  });
}

test("a race screen whose admin logs out elsewhere says it is signed out and stops reconnecting", async () => {
  const page = await adminPhone(browser, baseURL, onSite);
  const race = await createRace(page);
  await openRace(page, race.part);
  const opened: string[] = [];
  page.on("websocket", (ws) => opened.push(ws.url()));
  // The page's timers run on Playwright's clock from here: the reconnect delay passes at once (runFor below).
  await page.clock.install();
  // Logged out from another tab of the same browser: the server closes the session's sockets (4001).
  const res = await page.request.get("/api/logout", { headers: HEADERS });
  expect(res.ok()).toBe(true);
  await page.getByText("utloggad: logga in igen").waitFor();
  // A phone that kept reconnecting would be refused every 5 s: none is opened after the close.
  await page.clock.runFor(RECONNECT_DELAY_MS + 1_000);
  await page.evaluate(() => fetch("/api/health").then((r) => r.status));
  expect(opened.filter((url) => url.includes(`/race/${race.part}`))).toEqual([]);
  expect(await page.getByText("utloggad: logga in igen").isVisible()).toBe(true);
});

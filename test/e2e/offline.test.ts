/**
 * The timing screens with no connection (docs/race-day.md, "Offline"), in real Chromium on a phone behind a proxy that can cut
 * the connection for real (test/e2e/proxy.ts: the page's and the service worker's requests fail alike, sockets
 * drop): the race screen reloads offline and shows the race as it last knew it (a start that reached it over its
 * socket included), says so, takes a finish into the queue, and the finish reaches the server once when the
 * connection is back; the same reload for /tidtagning; no service worker controls any other public page, and each
 * worker holds only its own audience's code; a missing built file is a real 404. The deploy: offline-deploy.test.ts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceId } from "../../src/shared/race-id";
import type { RaceAuditEvent, RaceRecord, RaceSnapshot } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { startProxy, type TestProxy } from "./proxy";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const HEADERS = { "x-loppet-client": "1" };

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

/** A phone on the proxy's address, 390 px wide. */
async function phone(): Promise<Page> {
  const context = await phoneContext(browser, proxy.baseURL, { viewport: { width: 390, height: 800 } });
  return onSite(context, proxy.baseURL).newPage();
}

async function createRace(page: Page): Promise<RaceRecord> {
  for (;;) {
    const day = `20${40 + Math.floor(Math.random() * 59)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
    const distance = 100 * (1 + Math.floor(Math.random() * 9_000));
    const res = await page.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: HEADERS,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

async function addRunners(page: Page, part: string, names: string[]): Promise<void> {
  for (const [i, firstname] of names.entries()) {
    const res = await page.request.post(`/admin/api/races/add-runner/${part}`, {
      headers: HEADERS,
      data: { firstname, lastname: "Testsson", age: 30, bib: 301 + i, group: "Ingen", company: "" },
    });
    expect(res.status()).toBe(200);
  }
}

/** Resolves once the page is controlled by the worker whose script ends with `script`. */
async function controlledBy(page: Page, script: string): Promise<void> {
  await page.waitForFunction((s) => navigator.serviceWorker.controller?.scriptURL.endsWith(s) === true, script, {
    timeout: 40_000,
  });
}

/** What the phone has kept of `part`: the race record's state, or null. */
const savedState = (page: Page, part: string) =>
  page.evaluate(async (key) => {
    const res = await caches.match(key, { cacheName: "loppet-race-snapshots" });
    return res ? ((await res.json()) as { snapshot: RaceSnapshot }).snapshot[0].state : null;
  }, `/admin/api/races/get/${part}`);

const tile = (page: Page, firstname: string) => page.locator(".tile-cell").filter({ hasText: firstname });

test("the race screen reloads with no connection, shows the race as last known, queues a finish that arrives once", async () => {
  const page = await phone();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signInAsDevAdmin(page);
  const race = await createRace(page);
  await addRunners(page, race.part, ["Alfa", "Bravo", "Charlie"]);

  await page.goto(`/admin/race/${race.part}`);
  await page.getByText("socket ansluten").waitFor();
  await controlledBy(page, "/admin/sw.js");
  // Another phone starts the race: this one hears it over its socket only, and keeps that.
  const start = await page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS });
  expect(start.status()).toBe(200);
  await page.locator(".race-state").filter({ hasText: "Startat" }).waitFor();
  await expect.poll(() => savedState(page, race.part), { timeout: 10_000 }).toBe("started");

  proxy.offline();
  await page.reload();
  await expect.poll(() => page.locator(".tile-cell").count(), { timeout: 15_000 }).toBe(3);
  await page.locator(".race-state").filter({ hasText: "Startat" }).waitFor();
  const notice = page.locator(".offline-notice");
  await expect.poll(() => notice.textContent()).toMatch(/^Offline\. Loppet visas som det var kl\. \d\d:\d\d\./);
  expect(await page.getByText("socket ansluten").count()).toBe(0);

  await tile(page, "Alfa").locator(".tile").click();
  await page.getByText("Ej skickade måltider: 1").waitFor();
  expect(await page.locator(".results-table tbody tr").count()).toBe(1);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/race-offline-390.png`, fullPage: true });

  proxy.online();
  await page.getByText(/Ej skickade måltider/).waitFor({ state: "detached", timeout: 20_000 });
  await notice.waitFor({ state: "detached", timeout: 20_000 });
  await page.getByText("socket ansluten").waitFor();

  const [record, ...runners] = (await (
    await page.request.get(`/admin/api/races/get/${race.part}`)
  ).json()) as RaceSnapshot;
  const alfa = runners.find((r) => r.firstname === "Alfa")!;
  expect(alfa.finished).not.toBeNull();
  expect(alfa.finished!).toBeGreaterThan(record.started!);
  expect(runners.filter((r) => r.finished !== null)).toHaveLength(1);
  const audit = (await (await page.request.get(`/admin/api/races/audit/${race.part}`)).json()) as RaceAuditEvent[];
  expect(audit.filter((e) => e.type === "finish")).toHaveLength(1);
  expect(errors).toEqual([]);
});

test("/tidtagning reloads with no connection and the stopwatch runs", async () => {
  const page = await phone();
  await page.goto("/tidtagning");
  await controlledBy(page, "/tidtagning-sw.js");

  proxy.offline();
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Tidtagning" }).waitFor();
  const start = page.getByRole("button", { name: "Start", exact: true });
  await expect.poll(() => start.isEnabled()).toBe(true);
  await start.click();
  await expect.poll(() => page.getByRole("timer").textContent()).not.toBe("00:00.000");
});

test("only /admin/ and /tidtagning are controlled, each worker holds its own audience's code, other pages none", async () => {
  const page = await phone();
  await page.goto("/tidtagning");
  await controlledBy(page, "/tidtagning-sw.js");
  await signInAsDevAdmin(page);
  await controlledBy(page, "/admin/sw.js");

  const scopes = await page.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname).sort(),
  );
  expect(scopes).toEqual(["/admin/", "/tidtagning"]);

  // What each worker keeps, by the folders of the built code (scripts/lib/chunk-groups.mjs).
  const kept = await page.evaluate(async () => {
    const byScope: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      if (!name.includes("precache")) continue;
      const scope = new URL(name.slice(name.indexOf("http"))).pathname;
      byScope[scope] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    }
    return byScope;
  });
  const folders = (paths: string[] = []) =>
    [...new Set(paths.map((p) => p.match(/^\/assets\/([^/]+)\//)?.[1]).filter(Boolean))].sort();
  expect(folders(kept["/admin/"])).toEqual(["admin"]);
  expect(folders(kept["/tidtagning"])).toEqual(["timing"]);
  expect(kept["/admin/"]).toContain("/admin/_race-shell");
  expect(kept["/tidtagning"]).toContain("/tidtagning");

  for (const path of ["/", "/resultat"]) {
    const scripts: string[] = [];
    const listen = (r: { resourceType(): string; url(): string }) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    };
    page.on("request", listen);
    await page.goto(path, { waitUntil: "networkidle" });
    page.off("request", listen);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    expect(scripts.filter((s) => /^\/assets\/(admin|timing)\//.test(s))).toEqual([]);
  }
});

test("a missing built file is a 404 nobody keeps; deep links get the app, the race screen's with its data named", async () => {
  for (const path of ["/assets/missing.js", "/assets/admin/race-page-gone.js"]) {
    const res = await fetch(baseURL + path);
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).not.toContain("html");
  }
  const deepLink = await fetch(`${baseURL}/anmalan/2`, { headers: { accept: "text/html" } });
  expect(deepLink.status).toBe(200);
  expect(await deepLink.text()).toContain('<div id="root"></div>');

  const raceScreen = await fetch(`${baseURL}/admin/race/race-250913-56`, { headers: { accept: "text/html" } });
  expect(raceScreen.status).toBe(200);
  const html = await raceScreen.text();
  expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/admin/api/races/get/race-250913-56">');
  expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/admin\/race-page-[^"]+\.js">/);
});

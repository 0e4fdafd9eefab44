/**
 * Issue 43 in real Chromium at 390 px against `npm start`'s server.
 * - Item 1: an organiser adds a volunteer on 'Behörigheter'; the volunteer signs in and lands on the race list
 *   (/admin/edit-races), the tabs and the drawer list only the volunteer's screens, an organiser's page opened by
 *   its address shows 'Det här får bara arrangörer göra.' in its place, and the API answers 403 with the same text.
 * - Item 3: signing out deletes the admin worker's copies of the configuration and of the races the race screen
 *   kept (names of runners), so the next person on the phone, with no connection, is shown none of them. Signed out
 *   on the public site, whose pages the admin worker does not control: before the fix (logout.ts) the copies stayed.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { ORGANISERS_ONLY } from "../../src/shared/admin-roles";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { startProxy, type TestProxy } from "./proxy";
import { CLIENT, expectNoSidewaysScroll } from "./public-pages";

const baseURL = e2eBaseURL();
const PHONE = { width: 390, height: 844 };

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

afterEach(() => proxy?.online());

async function phone(base = baseURL): Promise<Page> {
  const context = onSite(await phoneContext(browser, base, { viewport: PHONE }), base);
  return context.newPage();
}

async function createRace(page: Page): Promise<RaceRecord> {
  for (;;) {
    const day = `2038-${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, "0")}`;
    const distance = 100 * (1 + Math.floor(Math.random() * 9_000));
    const res = await page.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: CLIENT,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

const visibleTexts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ""));

test("390 px: a volunteer lands on the race list, sees only their screens, and is refused an organiser's", async () => {
  const volunteer = `funktionar-${crypto.randomUUID().slice(0, 8)}@example.se`;
  const organiser = await phone();
  await signInAsDevAdmin(organiser);
  await organiser.goto("/admin/behorigheter");
  await organiser.getByLabel("E-post").fill(volunteer);
  await organiser.getByLabel("Roll", { exact: true }).selectOption({ label: "Funktionär" });
  await organiser.getByRole("button", { name: "Lägg till", exact: true }).click();
  const row = organiser.locator(".admins-row").filter({ hasText: volunteer });
  await expect.poll(() => row.getByRole("combobox").inputValue()).toBe("volunteer");
  await expectNoSidewaysScroll(organiser);

  const page = await phone();
  await page.goto("/admin/login");
  await page.getByLabel("E-postadress").fill(volunteer);
  await page.getByRole("button", { name: "Logga in (utveckling)" }).click();
  await page.waitForURL("**/admin/edit-races");
  await page.getByRole("heading", { name: "Hantera tävlingar" }).waitFor();
  expect(await visibleTexts(page, ".admin-tabs [role=tab]")).toEqual(["Lopp", "Hantera tävlingar"]);
  await page.getByRole("button", { name: "Alla adminsidor" }).click();
  const drawer = page.getByRole("navigation", { name: "Alla adminsidor" });
  await drawer.waitFor();
  expect(await visibleTexts(page, ".nav-drawer .nav-link")).toEqual([
    "Lopp",
    "Hantera tävlingar",
    "Biljettkassan",
    "Nummerlappar",
    "Hjälp",
    "Till sajten",
    "Logga ut",
  ]);
  await expectNoSidewaysScroll(page);
  await page.keyboard.press("Escape");

  for (const [path, heading] of [
    ["/admin/list-by-race", "Anmälningar"],
    ["/admin/behorigheter", "Behörigheter"],
    ["/admin/personuppgifter", "Personuppgifter"],
  ] as const) {
    await page.goto(path);
    await page.getByRole("alert").filter({ hasText: ORGANISERS_ONLY }).waitFor();
    expect(await page.getByRole("heading", { name: heading }).count()).toBe(1);
    await expectNoSidewaysScroll(page);
  }
  // /admin leads a volunteer to the race list too.
  await page.goto("/admin");
  await page.waitForURL("**/admin/edit-races");

  for (const path of ["/admin/registrations", "/admin/api/admins", "/admin/api/export/registrations.csv"]) {
    const res = await page.request.get(path, { headers: CLIENT });
    expect(res.status(), path).toBe(403);
    expect(await res.json()).toEqual({ error: ORGANISERS_ONLY });
  }
  expect((await page.request.get("/admin/api/races", { headers: CLIENT })).status()).toBe(200);
});

test("signing out deletes the admin copies: offline, the next person on the phone sees no race and no config", async () => {
  const page = await phone(proxy.baseURL);
  await signInAsDevAdmin(page);
  const race = await createRace(page);
  const runner = await page.request.post(`/admin/api/races/add-runner/${race.part}`, {
    headers: CLIENT,
    data: { firstname: "Kvarglömd", lastname: "Testsson", age: 30, bib: 401, group: "Ingen", company: "" },
  });
  expect(runner.status()).toBe(200);
  await page.goto(`/admin/race/${race.part}`);
  await page.getByText("socket ansluten").waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.endsWith("/admin/sw.js") === true);
  const copies = () =>
    page.evaluate(async (key) => {
      const [config, saved] = await Promise.all([
        caches.match("/api/config", { cacheName: "loppet-admin-data" }),
        caches.match(key, { cacheName: "loppet-race-snapshots" }),
      ]);
      return { config: config !== undefined, race: saved !== undefined };
    }, `/admin/api/races/get/${race.part}`);
  await expect.poll(copies, { timeout: 15_000 }).toEqual({ config: true, race: true });

  // Signed out from the public site, opened anew (the home-screen icon): a page the admin worker does not control,
  // so the worker never sees the signed-out config; only the logout itself can delete the copies.
  await page.goto("/");
  await page.getByRole("button", { name: "Meny" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Logga ut" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("button", { name: "Meny" }).waitFor();
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  expect(await copies()).toEqual({ config: false, race: false });

  // The next person, with no connection: the race screen's page still comes from the phone, but nothing of the race.
  proxy.offline();
  await page.goto(`/admin/race/${race.part}`);
  await page.getByRole("alert").waitFor();
  expect(await page.getByText("Kvarglömd").count()).toBe(0);
  expect(await page.locator(".tile-cell").count()).toBe(0);
});

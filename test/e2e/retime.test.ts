/**
 * No tap gives a runner the wrong time (issue 37), on a phone at 390 px: an action that would give runners it does
 * not name new times shows who gets which time (name, time now, new time) before anything changes, and is done only
 * when the organiser confirms ('Ändra tiderna'); 'Avbryt' leaves the race as it was. 'Ge tiden' on a slot a typed
 * bib reaches offers to correct that bib in its place instead. 'Behåll gamla tiden' moves nobody.
 * E2E_SCREENSHOTS=<dir> saves the screens.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser } from "./browser";
import { addRunner, adminPhone, createRace, getRace, HEADERS, openRace, serverToday } from "./race-day-support";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const onSite = contextsStayOnSite();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
});

const tapId = () => crypto.randomUUID().replaceAll("-", "");

/** A race started ten minutes ago on the server's clock, with these runners (bib → first name). */
async function startedRace(page: Page, runners: Record<number, string>) {
  const race = await createRace(page, await serverToday(page));
  const added = new Map<number, RunnerRecord>();
  for (const [bib, name] of Object.entries(runners))
    added.set(Number(bib), await addRunner(page, race.part, name, Number(bib)));
  const config = (await (await page.request.get("/api/config")).json()) as { serverTime: number };
  const at = config.serverTime - 10 * 60_000;
  const res = await page.request.get(`/admin/api/races/start/${race.part}?tap=${tapId()}&at=${at}`, {
    headers: HEADERS,
  });
  expect(res.status()).toBe(200);
  const started = ((await res.json()) as { race: RaceRecord }).race.started!;
  const call = async (path: string, data?: unknown) => {
    const r = await page.request.post(`/admin/api/races/${path}`, { headers: HEADERS, data: data ?? {} });
    expect(r.status(), await r.text()).toBe(200);
  };
  return {
    part: race.part,
    started,
    id: (bib: number) => added.get(bib)!.id,
    /** 'Mål!' from another phone at start + s seconds. */
    mal: (s: number) => call(`rapid/${race.part}?tap=${tapId()}&at=${started + s * 1000}&device=phone-a`),
    typeBib: (bib: number) => call(`bibs/${race.part}?device=phone-c`, { entry: tapId(), bib }),
    tile: (bib: number, s: number) =>
      page.request.get(
        `/admin/api/races/finish/${race.part}/${added.get(bib)!.sort}?tap=${tapId()}&at=${started + s * 1000}&device=phone-b`,
        { headers: HEADERS },
      ),
  };
}

async function finishes(page: Page, part: string): Promise<Record<number, number | null>> {
  const [, ...runners] = await getRace(page, part);
  return Object.fromEntries((runners as RunnerRecord[]).map((r) => [r.bib!, r.finished]));
}

async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false });
}

test("removing a bib typed twice lists the runners it moves with their old and new times, and waits for the yes", async () => {
  const page = await adminPhone(browser, baseURL, onSite);
  const r = await startedRace(page, { 731: "Anna", 745: "Bertil", 767: "Cecilia", 789: "David" });
  for (const s of [10, 20, 30, 40]) await r.mal(s);
  // 745 typed twice: the second holds slot 3, so 767 and 789 are each one slot late, 789 without a time.
  for (const bib of [731, 745, 745, 767, 789]) await r.typeBib(bib);
  await openRace(page, r.part);
  const review = page.locator(".race-review");
  const item = review.locator(".review-item").filter({ hasText: "Nr 745 inskrivet två gånger" });
  await item.getByRole("button", { name: /^Ta bort numret/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Ta bort numret" }).click();

  // Nothing has changed yet: the phone shows who would get which time.
  const dialog = page.getByRole("dialog", { name: "Andra löpare får nya tider" });
  await dialog.waitFor();
  await expect.poll(() => dialog.textContent()).toContain("Nr 767 och 789 får nya tider.");
  const rows = await dialog
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent?.trim())));
  expect(rows).toEqual([
    ["Nr 767 Cecilia Testsson", "00:40.000", "00:30.000"],
    ["Nr 789 David Testsson", "ingen tid", "00:40.000"],
  ]);
  // The dialog fits the phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "retime-confirm-390");
  expect(await finishes(page, r.part)).toMatchObject({ 767: r.started + 40_000, 789: null });

  await dialog.getByRole("button", { name: "Ändra tiderna" }).click();
  await dialog.waitFor({ state: "hidden" });
  await expect.poll(() => finishes(page, r.part)).toMatchObject({ 767: r.started + 30_000, 789: r.started + 40_000 });
  await item.waitFor({ state: "detached" });
});

test("'Ge tiden' on a slot a typed bib reaches offers to correct that bib; given anyway it lists who else moves", async () => {
  const page = await adminPhone(browser, baseURL, onSite);
  const r = await startedRace(page, { 711: "Erik", 712: "Frida", 713: "Gustav", 715: "Hanna" });
  for (const s of [10, 20, 30]) await r.mal(s);
  for (const bib of [711, 712, 713]) await r.typeBib(bib);
  await openRace(page, r.part);
  await page.getByRole("group", { name: "Tidtagningsläge" }).getByRole("button", { name: "Mål!" }).click();
  const slot2 = page.locator(".slot-list .slot-button").filter({ hasText: "#2 " });
  await expect.poll(() => slot2.textContent()).toContain("712 Frida Testsson");

  // Hanna (715) was the second finisher, typed as 712 by mistake.
  await slot2.click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Startnummer").fill("715");
  await dialog.getByRole("button", { name: "Ge tiden" }).click();
  await dialog.getByText("Nr 712 är inskrivet på den här tiden i målordningen.").waitFor();
  await expect.poll(() => dialog.textContent()).toContain("Rätta nr 712 till 715: ingen annans tid ändras.");
  await screenshot(page, "retime-slot-choice-390");

  // Given anyway: 713 would lose its time (712 moves onto its slot). Shown, then cancelled: nothing changes.
  await dialog.getByRole("button", { name: "Ge tiden ändå" }).click();
  const retime = page.getByRole("dialog", { name: "Andra löpare får nya tider" });
  await retime.waitFor();
  await expect.poll(() => retime.locator("tbody").textContent()).toContain("Nr 713 Gustav Testsson");
  await retime.getByRole("button", { name: "Avbryt" }).click();
  await retime.waitFor({ state: "hidden" });
  expect(await finishes(page, r.part)).toMatchObject({ 712: r.started + 20_000, 713: r.started + 30_000, 715: null });

  // Corrected in its place instead: Hanna gets slot 2's time, nobody else moves.
  await slot2.click();
  await dialog.getByLabel("Startnummer").fill("715");
  await dialog.getByRole("button", { name: "Ge tiden" }).click();
  await dialog.getByRole("button", { name: "Rätta nr 712 till 715" }).click();
  await dialog.waitFor({ state: "hidden" });
  await expect
    .poll(() => finishes(page, r.part))
    .toMatchObject({ 711: r.started + 10_000, 712: null, 713: r.started + 30_000, 715: r.started + 20_000 });
});

test("'Behåll gamla tiden' on a bib whose runner has a tile time takes its slot with it: nobody else moves, nothing to confirm", async () => {
  const page = await adminPhone(browser, baseURL, onSite);
  const r = await startedRace(page, { 701: "Ida", 702: "Johan", 703: "Karin" });
  for (const s of [10, 20, 30]) await r.mal(s);
  expect((await r.tile(702, 20.2)).status()).toBe(200);
  for (const bib of [701, 702, 703]) await r.typeBib(bib);
  await openRace(page, r.part);
  const item = page.locator(".race-review .review-item").filter({ hasText: "Nr 702 har redan en tid" });
  await item.getByRole("button", { name: /^Behåll gamla tiden/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Behåll gamla tiden" }).click();
  await item.waitFor({ state: "detached" });
  expect(await page.getByRole("dialog", { name: "Andra löpare får nya tider" }).count()).toBe(0);
  expect(await finishes(page, r.part)).toEqual({
    701: r.started + 10_000,
    702: r.started + 20_200,
    703: r.started + 30_000,
  });
});

/**
 * The bib desk on the race screen, in real Chromium at 390 px against `npm start`'s server: runners who have not
 * picked up their bib say 'ej hämtad' on their tiles, and a pick-up at the desk (POST /admin/api/checkin/pickup)
 * takes the mark away live on two timing phones; after the start 'Markera ej hämtade som DNS' marks the rest in one
 * action confirmed with the typed word (a wrong word marks nobody), once even when both phones press, audited once.
 * The race is today's (a start far from its day goes to the review list), on a length no other test uses.
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import type { RunnerRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser } from "./browser";
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from "./public-pages";
import { addRunner, adminPhone, createRace, HEADERS, openRace, serverToday, tile } from "./race-day-support";

const baseURL = e2eBaseURL();

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function pickUp(page: Page, part: string, runner: RunnerRecord, actionId: string): Promise<void> {
  const res = await page.request.post("/admin/api/checkin/pickup", {
    headers: HEADERS,
    data: { runners: [{ id: runner.id, raceId: part }], pickedUp: true, actionId, device: "desk-e2e" },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const notPicked = (page: Page, firstname: string) => tile(page, firstname).getByText("ej hämtad");

test("the timing phones mark who has not picked up, live; after the start the rest are marked DNS in one confirmed action", async () => {
  const a = await adminPhone(browser, baseURL, onSite);
  const b = await adminPhone(browser, baseURL, onSite);
  const race = await createRace(a, await serverToday(a));
  const alfa = await addRunner(a, race.part, "Alfa", 11);
  const bravo = await addRunner(a, race.part, "Bravo", 12);
  await addRunner(a, race.part, "Charlie", 13);
  await addRunner(a, race.part, "Delta", null);
  await pickUp(a, race.part, alfa, "e2e-pickup-alfa-0001");

  await openRace(a, race.part);
  await openRace(b, race.part);
  for (const phone of [a, b]) {
    await expect.poll(() => notPicked(phone, "Bravo").count()).toBe(1);
    expect(await notPicked(phone, "Alfa").count()).toBe(0);
    await phone.getByText("Ej hämtat nummerlapp: 3").waitFor();
    // Nothing to mark before the start.
    expect(await phone.getByRole("button", { name: /^Markera ej hämtade som DNS/ }).count()).toBe(0);
  }

  // Bravo comes to the desk: both phones lose his mark without a reload.
  await pickUp(a, race.part, bravo, "e2e-pickup-bravo-0001");
  for (const phone of [a, b]) {
    await expect.poll(() => notPicked(phone, "Bravo").count()).toBe(0);
    await phone.getByText("Ej hämtat nummerlapp: 2").waitFor();
  }
  await expectNoSidewaysScroll(a);
  await expectNoSeriousAxeViolations(a);
  await a.screenshot({ path: join(tmpdir(), "race-pickup-marks-390.png"), fullPage: true });

  // Started: 'Markera ej hämtade som DNS (2)'. A wrong word marks nobody.
  expect((await a.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  const markButton = (phone: Page) => phone.getByRole("button", { name: "Markera ej hämtade som DNS (2)" });
  await markButton(a).click();
  const dialog = a.getByRole("dialog");
  await dialog.getByLabel("Skriv DNS").fill("dns?");
  await dialog.getByRole("button", { name: "Markera som DNS" }).click();
  await dialog.getByText("Skriv DNS för att markera dem som inte hämtat som DNS.").waitFor();
  expect(await tile(a, "Charlie").locator(".tile-note").textContent()).toBe("ej hämtad");
  await expectNoSeriousAxeViolations(a);
  await a.screenshot({ path: join(tmpdir(), "race-pickup-dns-dialog-390.png") });

  // Both phones confirm: Charlie and Delta are marked once.
  await markButton(b).click();
  await b.getByRole("dialog").getByLabel("Skriv DNS").fill("DNS");
  await dialog.getByLabel("Skriv DNS").fill("DNS");
  // A confirms first; B's dialog stays open while A's marks reach it, and B's press then finds nobody left.
  await dialog.getByRole("button", { name: "Markera som DNS" }).click();
  await expect.poll(() => b.locator(".tile-cell.tile-dns").count()).toBe(2);
  await b.getByRole("dialog").getByRole("button", { name: "Markera som DNS" }).click();
  for (const phone of [a, b]) {
    await expect.poll(() => phone.locator(".tile-cell.tile-dns").count()).toBe(2);
    await expect.poll(() => phone.locator(".pickup-marks").count()).toBe(0);
  }
  // A's press marked them, B's found nobody left.
  const said = async () =>
    [await a.locator(".alert").allTextContents(), await b.locator(".alert").allTextContents()].flat().join("\n");
  await expect.poll(said).toMatch(/2 löpare markerade som DNS/);
  await expect.poll(said).toMatch(/Ingen löpare kvar att markera/);
  for (const name of ["Charlie", "Delta"])
    expect(await tile(a, name).locator(".tile-note").textContent()).toBe("ej start");
  const audit = (await (
    await a.request.get(`/admin/api/races/audit/${race.part}?limit=200`, { headers: HEADERS })
  ).json()) as { type: string }[];
  expect(audit.filter((e) => e.type === "dns-not-picked-up")).toHaveLength(1);
}, 120_000);

/**
 * Race day in real Chromium on phones, against `npm start`'s server: two timing phones on one race (the start
 * reaches the other phone over its socket; ten finishes tapped offline on one phone arrive, in tapped order, on
 * both once it is back online); a bib through the prompt; undo, 'did not start' and the end; reset with the
 * typed word; a distance change from the right-click menu; the hub following a race's state. Every test makes
 * its own race on a random far-future day, so tests and reruns on one server never share a race.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

const baseURL = e2eBaseURL();

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function adminPhone(): Promise<Page> {
  const context = onSite(await phoneContext(browser, baseURL), baseURL);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

const HEADERS = { "x-loppet-client": "1" };
const NAMES = ["Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo"];

const pick = (n: number) => Math.floor(Math.random() * n);

/** A race nobody else uses: a random day decades ahead and a random length. */
async function createRace(page: Page, date?: string): Promise<RaceRecord> {
  for (;;) {
    const day =
      date ?? `20${40 + pick(59)}-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
    const distance = 100 * (1 + pick(9_000));
    const res = await page.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: HEADERS,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

async function addRunner(page: Page, part: string, firstname: string, bib: number | null): Promise<RunnerRecord> {
  const res = await page.request.post(`/admin/api/races/add-runner/${part}`, {
    headers: HEADERS,
    data: { firstname, lastname: "Testsson", age: 30, bib, group: "Ingen", company: "" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as RunnerRecord;
}

async function openRace(page: Page, part: string): Promise<void> {
  await page.goto(`/admin/race/${part}`);
  await page.getByRole("heading", { level: 2, name: part }).waitFor();
  await page.getByText("socket ansluten").waitFor();
}

const tile = (page: Page, firstname: string) => page.locator(".tile-cell").filter({ hasText: firstname });
const resultBibs = (page: Page) => page.locator(".results-table tbody td.col-bib").allTextContents();

test("two phones: the start reaches the other phone, ten finishes tapped offline arrive in order on both", async () => {
  const a = await adminPhone();
  const b = await adminPhone();
  const race = await createRace(a);
  // Bibs in another order than the names, so the tapped order is not the tiles' order.
  const bibs = [7, 3, 11, 1, 9, 5, 2, 10, 4, 8, 6].map((n) => n + 100);
  for (const [i, name] of NAMES.entries()) await addRunner(a, race.part, name, bibs[i]!);

  await openRace(a, race.part);
  await openRace(b, race.part);
  await a.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await b.locator(".race-state").filter({ hasText: "Startat" }).waitFor();
  await b.getByRole("timer").waitFor();

  await a.context().setOffline(true);
  await a.getByText("You are NOT connected to the network.").waitFor();
  const order = ["Juliett", "Bravo", "India", "Alfa", "Golf", "Echo", "Charlie", "Kilo", "Delta", "Hotel"];
  for (const name of order) await tile(a, name).locator(".tile").click();
  const expected = order.map((name) => String(bibs[NAMES.indexOf(name)]));

  // Shown at once on the offline phone, in tapped order, and counted as not sent.
  await a.getByText("Ej skickade måltider: 10").waitFor();
  expect(await resultBibs(a)).toEqual(expected);
  expect(await a.locator(".results-table .pending-mark").count()).toBe(10);
  expect(await b.locator(".results-table").count()).toBe(0);

  await a.context().setOffline(false);
  await a.getByText("You are now connected to the network.").waitFor();
  await a.getByText(/Ej skickade måltider/).waitFor({ state: "detached", timeout: 15_000 });
  await expect.poll(() => resultBibs(b), { timeout: 15_000 }).toEqual(expected);
  expect(await resultBibs(a)).toEqual(expected);
  expect(await a.locator(".results-table .pending-mark").count()).toBe(0);
  // The one runner left is still waiting on both phones, first among the tiles.
  expect(await b.locator(".tile-cell").first().textContent()).toContain("Foxtrot");

  // The server has the same ten, in the same order, with results from the start.
  const snapshot = (await (await a.request.get(`/admin/api/races/get/${race.part}`)).json()) as [
    RaceRecord,
    ...RunnerRecord[],
  ];
  const [record, ...runners] = snapshot;
  const finished = runners.filter((r) => r.finished !== null).sort((x, y) => x.finished! - y.finished!);
  expect(finished.map((r) => String(r.bib))).toEqual(expected);
  expect(finished.every((r) => r.finished! > record.started!)).toBe(true);
});

test("before the start a tile asks for the bib; no number sends nothing, a taken one says whose it is", async () => {
  const page = await adminPhone();
  const race = await createRace(page);
  await addRunner(page, race.part, "Alfa", null);
  await addRunner(page, race.part, "Bravo", 42);
  await openRace(page, race.part);
  const calls: string[] = [];
  page.on("request", (r) => r.url().includes("/register-bib/") && calls.push(r.url()));

  expect(await tile(page, "Alfa").locator(".tile-bib").textContent()).toBe("?");
  await tile(page, "Alfa").locator(".tile").click();
  const prompt = page.getByRole("dialog", { name: "Ange startnummer för Alfa Testsson" });
  await prompt.getByLabel("Startnummer").fill("fyra");
  await prompt.getByRole("button", { name: "Spara" }).click();
  await prompt.getByText("Ange startnumret som ett heltal.").waitFor();
  expect(calls).toEqual([]);

  await prompt.getByLabel("Startnummer").fill("42");
  await prompt.getByRole("button", { name: "Spara" }).click();
  await prompt.getByText(/Startnummer 42 används redan av Bravo Testsson/).waitFor();

  await prompt.getByLabel("Startnummer").fill("17");
  await prompt.getByRole("button", { name: "Spara" }).click();
  await prompt.waitFor({ state: "detached" });
  expect(await tile(page, "Alfa").locator(".tile-bib").textContent()).toBe("17");
  expect(calls).toHaveLength(2);
});

test("undo a finish, mark the rest as not started, end the race, then reset it with the typed word", async () => {
  const page = await adminPhone();
  const race = await createRace(page);
  await addRunner(page, race.part, "Alfa", 1);
  await addRunner(page, race.part, "Bravo", 2);
  await addRunner(page, race.part, "Charlie", 3);
  await openRace(page, race.part);
  await page.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await page.getByRole("button", { name: "Återställ lopp" }).waitFor();

  await tile(page, "Alfa").locator(".tile").click();
  await expect.poll(() => resultBibs(page)).toEqual(["1"]);
  await page.getByText(/Ej skickade/).waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Ångra målgång för Alfa Testsson" }).click();
  await page.locator(".results-table").waitFor({ state: "detached" });
  await expect.poll(() => tile(page, "Alfa").getAttribute("class")).toContain("tile-waiting");
  // The undo is sent when its undo bar runs out (race-day-screens.test.ts has the bar itself).
  await page.locator(".undo-bar").waitFor({ state: "detached", timeout: 15_000 });
  await expect
    .poll(async () => {
      const [, ...runners] = (await (await page.request.get(`/admin/api/races/get/${race.part}`)).json()) as [
        RaceRecord,
        ...RunnerRecord[],
      ];
      return runners.find((r) => r.firstname === "Alfa")?.finished;
    })
    .toBeNull();

  await tile(page, "Bravo").locator(".tile").click();
  for (const name of ["Alfa", "Charlie"]) {
    await page.getByRole("button", { name: `Fler val för ${name} Testsson` }).click();
    await page
      .getByRole("dialog", { name: `${name} Testsson` })
      .getByRole("button", { name: "Markera ej start" })
      .click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await expect.poll(() => tile(page, name).getAttribute("class")).toContain("tile-dns");
  }
  // Only 'Bravo' finished: the results leave the two who did not start out.
  expect(await resultBibs(page)).toEqual(["2"]);

  await page.getByRole("button", { name: "Avsluta lopp" }).click();
  await page.locator(".race-state").filter({ hasText: "Avslutat" }).waitFor();
  expect(await page.getByRole("button", { name: "Ångra målgång för Bravo Testsson" }).count()).toBe(0);

  const resets: string[] = [];
  page.on("request", (r) => r.url().includes("/reset/") && resets.push(r.url()));
  await page.getByRole("button", { name: "Återställ lopp" }).click();
  const dialog = page.getByRole("dialog", { name: "Återställ lopp" });
  await dialog.getByLabel("Skriv APRAKET för att bekräfta").fill("apraket");
  await dialog.getByRole("button", { name: "Återställ" }).click();
  await dialog.getByText(/Inget har ändrats/).waitFor();
  expect(resets).toEqual([]);
  await dialog.getByLabel("Skriv APRAKET för att bekräfta").fill("APRAKET");
  await dialog.getByRole("button", { name: "Återställ" }).click();
  await page.getByRole("button", { name: "Starta (0 i mål)" }).waitFor();
  await page.locator(".results-table").waitFor({ state: "detached" });
  expect(resets).toHaveLength(1);
});

test("'Byt distans' from the right-click menu moves a runner to another race of the day after 'OK'", async () => {
  const page = await adminPhone();
  const race = await createRace(page);
  const other = await createRace(page, race.date);
  await addRunner(page, race.part, "Alfa", null);
  await addRunner(page, race.part, "Bravo", null);
  await openRace(page, race.part);

  await tile(page, "Alfa").locator(".tile").click({ button: "right" });
  const menu = page.getByRole("dialog", { name: "Alfa Testsson" });
  await menu.getByRole("button", { name: "Byt distans" }).click();
  await menu.getByRole("button", { name: other.part }).click();
  await menu.getByLabel("Skriv OK för att bekräfta").fill("ok");
  await menu.getByRole("button", { name: "Flytta" }).click();
  await menu.getByText(/Inget har ändrats/).waitFor();
  await menu.getByLabel("Skriv OK för att bekräfta").fill("OK");
  await menu.getByRole("button", { name: "Flytta" }).click();
  await menu.waitFor({ state: "detached" });
  await tile(page, "Alfa").waitFor({ state: "detached" });
  expect(await page.locator(".tile-cell").count()).toBe(1);

  const moved = (await (await page.request.get(`/admin/api/races/get/${other.part}`)).json()) as RunnerRecord[];
  expect(moved.slice(1).map((r) => r.firstname)).toEqual(["Alfa"]);
});

test("the hub shows a new race and follows its start live", async () => {
  const page = await adminPhone();
  await page.goto("/admin/race");
  await page.getByText("socket ansluten").waitFor();
  const race = await createRace(page);
  const button = page.getByRole("link", { name: new RegExp(race.part) });
  await button.waitFor();
  expect(await button.textContent()).toContain("Ej startat");

  const res = await page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS });
  expect(res.status()).toBe(200);
  await expect.poll(() => button.textContent()).toContain("Startat");
  expect(await button.getAttribute("class")).toContain("state-started");

  await button.click();
  await page.waitForURL(`**/admin/race/${race.part}`);
  await page.getByRole("heading", { level: 2, name: race.part }).waitFor();
});

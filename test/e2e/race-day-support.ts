/**
 * What the race-day browser tests share: a signed-in admin phone, a race of its own (a random far-future day, so
 * tests and reruns on one server never share one), runners, and the race screen's parts.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { raceId } from "../../src/shared/race-id";
import type { RaceRecord, RaceSnapshot, RunnerRecord } from "../../src/shared/race-protocol";
import { stockholmDate } from "../../src/shared/stockholm";
import { phoneContext, signInAsDevAdmin } from "./browser";

export const HEADERS = { "x-loppet-client": "1" };

const pick = (n: number) => Math.floor(Math.random() * n);

/** A phone (390 px unless told), signed in as the development admin. */
export async function adminPhone(
  browser: Browser,
  baseURL: string,
  track: (context: Awaited<ReturnType<typeof phoneContext>>, baseURL: string) => unknown,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await phoneContext(browser, baseURL, { viewport: { width: 390, height: 800 }, ...options });
  track(context, baseURL);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

/** Today on the server's clock (a start pressed on a phone far from its race's day goes to the review list). */
export async function serverToday(page: Page): Promise<string> {
  const config = (await (await page.request.get("/api/config")).json()) as { serverTime: number };
  return stockholmDate(config.serverTime);
}

/**
 * A race nobody else uses: a random length on `date` (a random day decades ahead when none is given, for tests
 * that never press 'Starta'; a test that does passes `await serverToday(page)`).
 */
export async function createRace(page: Page, date?: string): Promise<RaceRecord> {
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

export async function addRunner(
  page: Page,
  part: string,
  firstname: string,
  bib: number | null,
  lastname = "Testsson",
): Promise<RunnerRecord> {
  const res = await page.request.post(`/admin/api/races/add-runner/${part}`, {
    headers: HEADERS,
    data: { firstname, lastname, age: 30, bib, group: "Ingen", company: "" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as RunnerRecord;
}

export async function getRace(page: Page, part: string): Promise<RaceSnapshot> {
  const res = await page.request.get(`/admin/api/races/get/${part}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as RaceSnapshot;
}

/** The race screen with its race loaded and its socket open. */
export async function openRace(page: Page, part: string): Promise<void> {
  await page.goto(`/admin/race/${part}`);
  await page.getByRole("heading", { level: 2, name: part }).waitFor();
  await page.locator(".race-controls").waitFor();
  await page.getByText("socket ansluten").waitFor();
}

export const tile = (page: Page, firstname: string) => page.locator(".tile-cell").filter({ hasText: firstname });
export const resultBibs = (page: Page) => page.locator(".results-table tbody td.col-bib").allTextContents();

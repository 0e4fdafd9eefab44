/**
 * Registration after it has closed, on the run's server with every request of these phones made on race day morning
 * (after the season's last registration moment, 2025-09-12 23:59:59; the development header `x-loppet-dev-now`,
 * worker/middleware/context.ts): step 1 warns but still lets a family log in to see
 * its registration, a new address gets the closed state instead of the code step, and a registered family sees
 * its list without any way to change it.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { buildDemoData } from "../../scripts/seed/demo-data.mjs";
import { DEV_NOW_HEADER } from "../../src/shared/clock";
import { launchBrowser, phoneContext } from "./browser";

const RACE_DAY_MORNING = "2025-09-13T08:30:00+02:00";

const baseURL = e2eBaseURL();
let browser: Browser;
let contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  const closing = contexts;
  contexts = [];
  await Promise.all(closing.map((c) => c.close()));
});

async function phone(): Promise<Page> {
  const context = await phoneContext(browser, baseURL, { extraHTTPHeaders: { [DEV_NOW_HEADER]: RACE_DAY_MORNING } });
  contexts.push(context);
  return context.newPage();
}

/** Step 1 → the code step (or what replaces it), with the pre-filled development code. */
async function requestAndConfirm(page: Page, email: string): Promise<void> {
  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  await page.getByRole("textbox", { name: "E-postadress" }).fill(email);
  await page.getByRole("button", { name: "Skicka kod" }).click();
  await page.waitForURL("**/anmalan/2");
  expect(await page.getByRole("textbox", { name: "Kod" }).inputValue()).toMatch(/^\d{6}$/);
  await page.getByRole("button", { name: "Logga in" }).click();
}

test("step 1 warns that registration is closed, and a new address gets the closed state at step 2", async () => {
  const page = await phone();
  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  const warning = page.getByRole("status").filter({ hasText: "Anmälan är stängd." });
  await warning.waitFor();
  expect(await warning.textContent()).toContain("Du kan fortfarande logga in för att se din anmälan.");

  await requestAndConfirm(page, `sen-${Date.now()}@example.se`);
  await page.getByRole("heading", { name: "Anmälan är stängd" }).waitFor();
  expect(await page.getByRole("alert").textContent()).toContain("välkommen att anmäla dig på plats");
  expect(await page.getByRole("textbox", { name: "Kod" }).count()).toBe(0);
  expect(new URL(page.url()).pathname).toBe("/anmalan/2");
});

test("a registered family can still log in and see its runners, but not change them", async () => {
  const demo = buildDemoData();
  const family = demo.registrations.find(
    (r) => r.season === 2025 && demo.participants.some((p) => p.registration_id === r.id),
  );
  expect(family).toBeDefined();
  const runners = demo.participants.filter((p) => p.registration_id === family!.id);

  const page = await phone();
  await requestAndConfirm(page, family!.email);
  await page.waitForURL("**/anmalan/3");
  const list = page.getByRole("list", { name: "Anmälda löpare" });
  for (const r of runners) await list.getByText(`${r.firstname} ${r.lastname}`).waitFor();
  expect(await list.getByRole("button").count()).toBe(0);
  expect(await page.getByRole("button", { name: "Lägg till löpare" }).count()).toBe(0);
  expect(await page.getByRole("button", { name: "Till betalning" }).count()).toBe(0);
});

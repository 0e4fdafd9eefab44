/**
 * The login mail's sign-in link in real Chromium on a 390 px phone (issue 43, item 2): a stranger locks the
 * family's address with wrong codes (4 codes, 20 wrong guesses, each from another client); the family asks for a
 * code, hears that a link was mailed instead, opens the link from the development outbox and signs in with the
 * page's 'Logga in' button. Opening the link alone signs no one in.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { launchBrowser, phoneContext } from "./browser";

const baseURL = e2eBaseURL();
const origin = new URL(baseURL).origin;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

let clients = 0;
const stranger = () => ({
  "x-loppet-client": "1",
  "cf-connecting-ip": `10.43.${++clients}.${Math.floor(Math.random() * 250)}`,
});

test("a family locked out by a stranger's wrong guesses signs in with the mailed link", async () => {
  const email = `lank-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.se`;
  context = await phoneContext(browser, baseURL, {
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { "cf-connecting-ip": `10.44.${Math.floor(Math.random() * 250)}.1` },
  });
  const page = await context.newPage();

  // The stranger: 4 codes, each guessed 5 times wrong, every request from another client.
  for (let round = 0; round < 4; round++) {
    const sent = await page.request.post(`${origin}/email`, { data: { email }, headers: stranger() });
    expect(sent.status()).toBe(200);
    const { id, code } = (await sent.json()) as { id: string; code: string };
    for (let i = 0; i < 5; i++) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
      const guess = await page.request.post(`${origin}/code`, {
        data: { email, codeId: id, code: wrong },
        headers: stranger(),
      });
      expect(guess.status()).toBe(400);
    }
  }

  // The family asks for a code: the address is locked, so a link is mailed instead.
  await page.goto("/anmalan/1");
  await page.getByRole("textbox", { name: "E-postadress" }).fill(email);
  await page.getByRole("button", { name: "Skicka kod" }).click();
  await page.getByText(/Vi har i stället mejlat dig en inloggningslänk/).waitFor();
  expect(new URL(page.url()).pathname).toBe("/anmalan/1");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/login-link-locked.png` });

  const mails = (await (
    await page.request.get(`${origin}/dev/outbox.json?to=${encodeURIComponent(email)}`)
  ).json()) as {
    subject: string;
    text: string;
  }[];
  expect(mails[0]!.subject).toMatch(/^Din inloggningslänk till /);
  const link = /https?:\/\/\S+\/anmalan\/lank\?t=[0-9a-f]{64}/.exec(mails[0]!.text)?.[0];
  expect(link).toBeDefined();
  expect(new URL(link!).origin).toBe(origin);

  // Opening the link shows the page and signs no one in.
  await page.goto(link!);
  await page.getByRole("heading", { name: "Logga in med länken" }).waitFor();
  expect((await page.request.get(`${origin}/get`, { headers: { "x-loppet-client": "1" } })).status()).toBe(401);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/login-link-page.png` });

  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
  await page.getByRole("heading", { name: "Dina löpare" }).waitFor();
  expect((await page.request.get(`${origin}/get`, { headers: { "x-loppet-client": "1" } })).status()).toBe(200);

  // The link is used up: opened again in a fresh phone, its button says so.
  const other = await phoneContext(browser, baseURL, { viewport: { width: 390, height: 844 } });
  try {
    const again = await other.newPage();
    await again.goto(link!);
    await again.getByRole("button", { name: "Logga in" }).click();
    await again
      .getByText("Inloggningslänken har redan använts. Begär en ny kod om du behöver logga in igen.")
      .waitFor();
    expect(new URL(again.url()).pathname).toBe("/anmalan/lank");
  } finally {
    await other.close();
  }
});

/**
 * Epassi invitations in real Chromium against `npm start`'s server: the organiser sends an invitation at
 * /admin/epassi (the spec's validation messages first, then 'Invitation sent successfully!'), sees it in the list,
 * the code arrives in /dev/outbox.json, a visitor registers two runners with it on a phone and pays only for one
 * through the Swish simulator, and the organiser's list then shows the code used by that registration.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

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

function uniqueEmail(who: string): string {
  return `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.se`;
}

async function adminPage(): Promise<Page> {
  const context = await desktopContext(browser, baseURL);
  contexts.push(context);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

/** A phone of its own address (login codes are limited per client). */
async function phone(): Promise<{ context: BrowserContext; page: Page }> {
  const ip = `10.8.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 200) + 1}`;
  const context = await phoneContext(browser, baseURL, { extraHTTPHeaders: { "cf-connecting-ip": ip } });
  contexts.push(context);
  return { context, page: await context.newPage() };
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  await page.getByRole("textbox", { name: "E-postadress" }).fill(email);
  await page.getByRole("button", { name: "Skicka kod" }).click();
  await page.waitForURL("**/anmalan/2");
  await expect.poll(() => page.getByRole("textbox", { name: "Kod" }).inputValue()).toMatch(/^\d{6}$/);
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
  await page.getByRole("heading", { name: "Dina löpare" }).waitFor();
}

async function addRunner(page: Page, firstname: string, lastname: string, age: string, distance: string) {
  await page.getByRole("button", { name: "Lägg till löpare" }).click();
  const dialog = page.getByRole("dialog", { name: "Lägg till löpare" });
  await dialog.waitFor();
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill(firstname);
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill(lastname);
  await dialog.getByRole("textbox", { name: "Ålder" }).fill(age);
  await dialog.getByRole("radio", { name: new RegExp(`^${distance}`) }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  await page
    .getByRole("list", { name: "Anmälda löpare" })
    .getByRole("listitem")
    .filter({ hasText: `${firstname} ${lastname}` })
    .waitFor();
}

test("the organiser invites, the visitor registers two runners with the code and pays for one", async () => {
  const admin = await adminPage();
  const errors: string[] = [];
  admin.on("pageerror", (err) => errors.push(err.message));
  await admin.getByRole("tab", { name: "Epassi" }).click();
  await admin.waitForURL("**/admin/epassi");
  await admin.getByRole("heading", { name: "Epassi", level: 2 }).waitFor();
  expect(await admin.title()).toMatch(/^Epassi/);

  const form = admin.getByRole("form", { name: "Skicka inbjudan" });
  const name = form.getByRole("textbox", { name: "Namn" });
  const email = form.getByRole("textbox", { name: "E-postadress" });
  const send = form.getByRole("button", { name: "Skicka inbjudan" });

  // The spec's messages, checked on submit; nothing is sent while one shows.
  let posted = 0;
  admin.on("request", (r) => {
    if (new URL(r.url()).pathname === "/admin/api/invite/epassi" && r.method() === "POST") posted++;
  });
  await send.click();
  await form.getByText("Name is required", { exact: true }).waitFor();
  await form.getByText("E-mail is required", { exact: true }).waitFor();
  // Focus goes to the first field to fix.
  expect(await admin.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
  expect(await name.getAttribute("aria-invalid")).toBe("true");
  await name.fill("Eva Epassi");
  await email.fill("inte-en-adress");
  await send.click();
  await form.getByText("E-mail must be valid", { exact: true }).waitFor();
  expect(await form.getByText("Name is required").count()).toBe(0);
  expect(posted).toBe(0);

  const invitee = uniqueEmail("epassi");
  await email.fill(invitee);
  // Keyboard: Enter in the field submits.
  await email.press("Enter");
  await form.getByText("Invitation sent successfully!").waitFor();
  expect(posted).toBe(1);
  expect(await name.inputValue()).toBe("");

  // The list shows it: name, e-mail, date, code, who sent it, not used.
  const list = admin.getByRole("list", { name: "Skickade inbjudningar" });
  const card = list.getByRole("listitem").filter({ hasText: invitee });
  await card.waitFor();
  const cardText = (await card.textContent())!;
  expect(cardText).toContain("Eva Epassi");
  expect(cardText).toContain("Oanvänd");
  expect(cardText).toContain("arrangor@example.se");
  expect(cardText).toMatch(/2025-08-\d\d \d\d:\d\d/);
  const code = (await card.locator(".epassi-code").textContent())!;
  expect(code).toMatch(/^EPASSI[A-Z2-9]{10}$/);

  // The e-mail with the code and the link to the registration.
  const mails = (await (await admin.request.get(`/dev/outbox.json?to=${encodeURIComponent(invitee)}`)).json()) as {
    kind: string;
    text: string;
  }[];
  expect(mails).toHaveLength(1);
  expect(mails[0]!.kind).toBe("epassi");
  expect(mails[0]!.text).toContain(code);
  expect(mails[0]!.text).toContain(`${new URL(baseURL).origin}/anmalan`);

  // The invitee registers an adult (150) and a child (100): the code pays the adult, 100 kr is left for Swish.
  const { context, page } = await phone();
  const family = uniqueEmail("familj");
  await logIn(page, family);
  await addRunner(page, "Eva", "Epassi", "38", "5,6km");
  await addRunner(page, "Elis", "Epassi", "9", "1,6km");
  await page.getByRole("textbox", { name: "Kampanjkod" }).fill(code.toLowerCase());
  await page.getByText(/Koden gäller! Att betala: 100\s*kr/).waitFor();
  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  await page.getByRole("button", { name: "Till betalning" }).click();
  const booking = (await (await booked).json()) as { token: string; payref: string };
  await page.waitForURL("**/anmalan/4");
  await page.getByRole("heading", { name: "Betala med Swish" }).waitFor();

  // Booked, not yet paid: the organiser sees the code held by that registration.
  await admin.reload();
  await card.filter({ hasText: "Reserverad" }).waitFor();
  expect(await card.textContent()).toContain(family);

  // The payer's phone: the simulator shows the amount and pays it.
  const payer = await context.newPage();
  await payer.goto(`/dev/swish/pay/${booking.token}`);
  expect(await payer.locator(".amount").textContent()).toMatch(/^100,00\s*kr$/);
  await payer.getByRole("button", { name: "Betala", exact: true }).click();
  await payer.waitForLoadState();
  const paid = page.getByRole("region", { name: "Klart och betalt!" });
  await paid.waitFor({ timeout: 30_000 });
  expect(await paid.textContent()).toMatch(/100\s*kr/);

  // The organiser's list now says the code was used, by whom and when.
  await admin.reload();
  const usedCard = card.filter({ hasText: "Använd" });
  await usedCard.waitFor();
  expect(await usedCard.textContent()).toMatch(new RegExp(`Ja, av ${family.replace(/[.]/g, "\\.")} 20\\d\\d-`));
  expect(errors).toEqual([]);
});

test("the Epassi screen reads on a 320 px phone and at 1280 px", async () => {
  const admin = await adminPage();
  const invitee = uniqueEmail("smal");
  await admin.goto("/admin/epassi");
  const form = admin.getByRole("form", { name: "Skicka inbjudan" });
  await form.getByRole("textbox", { name: "Namn" }).fill("Smal Skärm Med Ett Ganska Långt Namn");
  await form.getByRole("textbox", { name: "E-postadress" }).fill(invitee);
  await form.getByRole("button", { name: "Skicka inbjudan" }).click();
  await form.getByText("Invitation sent successfully!").waitFor();
  await admin.getByRole("list", { name: "Skickade inbjudningar" }).getByRole("listitem").first().waitFor();
  for (const width of [320, 375, 1280]) {
    await admin.setViewportSize({ width, height: 800 });
    // Nothing wider than the screen: no sideways scrolling.
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
  }
  // The send button shows keyboard focus.
  await admin.setViewportSize({ width: 375, height: 800 });
  await form.getByRole("textbox", { name: "E-postadress" }).focus();
  await admin.keyboard.press("Tab");
  const outline = await admin.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    return { text: el.textContent, outline: getComputedStyle(el).outlineStyle };
  });
  expect(outline.text).toContain("Skicka inbjudan");
  expect(outline.outline).not.toBe("none");
});

/**
 * The visitor's registration in real Chromium on a phone, against `npm start`'s server with the Swish simulator:
 * log in with the e-mailed code (development hands it to the page), add a family, pay, and see the page turn to
 * 'Klart och betalt!' by itself; a late sibling paid on a second payment (and one whose payment is declined, which
 * keeps its campaign code); a free campaign code; a declined payment and a retry; wrong code and e-mail errors; two
 * tabs that must not overwrite each other; the receipt page; the organisers' campaign-code screen.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { buildDemoData } from "../../scripts/seed/demo-data.mjs";
import { desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

const baseURL = e2eBaseURL();
const origin = new URL(baseURL).origin;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

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

let clients = 0;

/**
 * A phone of its own. Login codes are rate-limited per client (the connecting IP); locally the Worker takes that
 * from the cf-connecting-ip header, which Cloudflare sets in production. Each test is another family on another
 * phone, so each gets its own address and no test eats another's quota.
 */
async function phone(): Promise<{ context: BrowserContext; page: Page }> {
  clients += 1;
  const ip = `10.9.${Math.floor(Math.random() * 200)}.${clients}`;
  const context = await phoneContext(browser, baseURL, { extraHTTPHeaders: { "cf-connecting-ip": ip } });
  contexts.push(context);
  const page = await context.newPage();
  return { context, page };
}

function uniqueEmail(who: string): string {
  return `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.se`;
}

/** Steps 1 and 2: the e-mail, then the code the page pre-fills from the /email answer (development only). */
async function logIn(page: Page, email: string): Promise<void> {
  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/email" && r.request().method() === "POST");
  await page.getByRole("textbox", { name: "E-postadress" }).fill(email);
  await page.getByRole("button", { name: "Skicka kod" }).click();
  const { code } = (await (await answer).json()) as { id: string; code: string };
  expect(code).toMatch(/^\d{6}$/);
  await page.waitForURL("**/anmalan/2");
  const codeInput = page.getByRole("textbox", { name: "Kod" });
  expect(await codeInput.inputValue()).toBe(code);
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
  await page.getByRole("heading", { name: "Dina löpare" }).waitFor();
}

interface NewRunner {
  firstname: string;
  lastname: string;
  age: string;
  distance: "0,8km" | "1,6km" | "2,8km" | "5,6km";
  group?: "Ingen" | "Dam" | "Herr";
  company?: string;
}

async function addRunner(page: Page, r: NewRunner): Promise<void> {
  const rows = await page.getByRole("list", { name: "Anmälda löpare" }).getByRole("listitem").count();
  await page.getByRole("button", { name: "Lägg till löpare" }).click();
  const dialog = page.getByRole("dialog", { name: "Lägg till löpare" });
  await dialog.waitFor();
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill(r.firstname);
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill(r.lastname);
  await dialog.getByRole("textbox", { name: "Ålder" }).fill(r.age);
  if (r.company) await dialog.getByRole("textbox", { name: "Klubb/företag" }).fill(r.company);
  await dialog.getByRole("radio", { name: new RegExp(`^${r.distance}`) }).check();
  if (r.group) await dialog.getByRole("radio", { name: r.group, exact: true }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  await page
    .getByRole("list", { name: "Anmälda löpare" })
    .getByRole("listitem")
    .nth(rows)
    .filter({ hasText: `${r.firstname} ${r.lastname}` })
    .waitFor();
}

function runnerRow(page: Page, name: string) {
  return page.getByRole("list", { name: "Anmälda löpare" }).getByRole("listitem").filter({ hasText: name });
}

/** Step 3 → 4: books the payment; returns the simulator's phone page for its token. */
async function goToPayment(page: Page): Promise<{ token: string; payref: string }> {
  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  await page.getByRole("button", { name: "Till betalning" }).click();
  const booking = (await (await booked).json()) as { token: string; payref: string };
  await page.waitForURL("**/anmalan/4");
  await page.getByRole("heading", { name: "Betala med Swish" }).waitFor();
  return booking;
}

/** The payer's phone: the simulator's page for the token, and one of its buttons. */
async function payerPresses(context: BrowserContext, token: string, button: "Betala" | "Avbryt"): Promise<void> {
  const payer = await context.newPage();
  await payer.goto(`/dev/swish/pay/${token}`);
  await payer.getByRole("button", { name: button, exact: true }).click();
  await payer.waitForLoadState();
  await payer.close();
}

test("a parent registers two adults and a child on a phone, pays with Swish, and the page shows it paid", async () => {
  const { context, page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));

  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  // Spec: step 1 "with focus in the e-mail field".
  await page.getByRole("textbox", { name: "E-postadress" }).waitFor();
  expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
  expect(await page.getByRole("textbox", { name: "E-postadress" }).getAttribute("type")).toBe("email");

  const menuLinks = async () => {
    await page.getByRole("button", { name: "Meny" }).click();
    const drawer = page.getByRole("dialog", { name: "Meny" });
    await drawer.waitFor({ state: "visible" });
    const links = await drawer.getByRole("link").allTextContents();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    return links;
  };
  expect(await menuLinks()).not.toContain("Logga ut");
  const familyEmail = uniqueEmail("familj");
  await logIn(page, familyEmail);
  // The config was refreshed after the code, without a reload: the menu now offers 'Logga ut'.
  await expect.poll(menuLinks).toContain("Logga ut");

  // Validation on submit only, with the spec's messages.
  await page.getByRole("button", { name: "Lägg till löpare" }).click();
  const dialog = page.getByRole("dialog", { name: "Lägg till löpare" });
  await dialog.waitFor();
  expect(await dialog.getByText("Ange namn").count()).toBe(0);
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  for (const message of ["Ange namn", "Ange ålder", "Välj en distans"]) {
    await dialog.getByText(message, { exact: true }).first().waitFor();
  }
  // A new runner has no 'Ta bort'.
  expect(await dialog.getByRole("button", { name: "Ta bort" }).count()).toBe(0);
  await dialog.getByRole("button", { name: "Stäng" }).click();
  await dialog.waitFor({ state: "detached" });

  await addRunner(page, { firstname: "Anna", lastname: "Andersson", age: "41", distance: "5,6km", group: "Dam" });
  // A value above 1000 is a birth year: 2025 − 1980 = 45 (the server clock is in 2025).
  await addRunner(page, { firstname: "Bertil", lastname: "Andersson", age: "1980", distance: "2,8km", group: "Herr" });
  await addRunner(page, { firstname: "Cilla", lastname: "Andersson", age: "9", distance: "0,8km" });

  expect(await runnerRow(page, "Anna Andersson").textContent()).toMatch(/41\s*år.*5,6\s*km.*150\s*kr/);
  expect(await runnerRow(page, "Bertil Andersson").textContent()).toMatch(/45\s*år.*2,8\s*km.*150\s*kr/);
  expect(await runnerRow(page, "Cilla Andersson").textContent()).toMatch(/9\s*år.*0,8\s*km.*100\s*kr/);
  const summary = page.getByRole("definition").filter({ hasText: /kr/ });
  expect(await summary.allTextContents()).toEqual(
    expect.arrayContaining([expect.stringMatching(/^1 × 100\s*kr$/), expect.stringMatching(/^2 × 150\s*kr$/)]),
  );
  expect(await page.locator(".price-total dd").first().textContent()).toMatch(/^400\s*kr$/);

  // Editing opens the same dialog with 'Ta bort' and 'Spara'.
  await runnerRow(page, "Cilla Andersson").getByRole("button").click();
  const edit = page.getByRole("dialog", { name: "Ändra löpare" });
  await edit.waitFor();
  expect(await edit.getByRole("textbox", { name: "Ålder" }).inputValue()).toBe("9");
  await edit.getByRole("textbox", { name: "Klubb/företag" }).fill("IK Byn");
  await edit.getByRole("button", { name: "Spara" }).click();
  await edit.waitFor({ state: "detached" });
  await runnerRow(page, "Cilla Andersson").filter({ hasText: "9" }).waitFor();
  // The list does not show the club, so the server's copy proves the edit was saved.
  const edited = (await (await page.request.get("/get")).json()) as {
    deltagare: Record<string, { firstname: string; company: string }>;
  };
  expect(Object.values(edited.deltagare).find((r) => r.firstname === "Cilla")?.company).toBe("IK Byn");

  const { token, payref } = await goToPayment(page);
  const qr = page.getByRole("img", { name: /QR-kod/ });
  expect(await qr.getAttribute("src")).toBe(`/qr-v2?token=${token}`);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const appLink = await page.getByRole("link", { name: "Öppna Swish", exact: true }).getAttribute("href");
  expect(appLink).toBe(
    `swish://paymentrequest?token=${token}&callbackurl=${encodeURIComponent(`${origin}/kvitto/${payref}`)}`,
  );
  expect(await page.getByRole("link", { name: "Öppna Swish-simulatorn" }).getAttribute("href")).toBe(
    `/dev/swish/pay/${token}`,
  );
  await page.getByText("Väntar på betalningen").waitFor();

  // The payer pays on another phone; this page learns it over its socket and reloads itself.
  const reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, token, "Betala");
  await reloaded;
  const paid = page.getByRole("region", { name: "Klart och betalt!" });
  await paid.waitFor({ timeout: 20_000 });
  expect(new URL(page.url()).pathname).toBe("/anmalan/3");
  expect(await paid.textContent()).toMatch(/400\s*kr/);
  // Paid: each runner shows 'Betald' at the price it was booked at, and nothing is left to pay. While registration
  // is open the family may still edit them (no 'Ta bort' for a paid runner) and add a late sibling (issue 24).
  expect(await runnerRow(page, "Cilla Andersson").textContent()).toMatch(/100\s*kr\s*Betald/);
  expect(await page.getByRole("button", { name: "Till betalning" }).count()).toBe(0);
  await page.getByRole("button", { name: "Lägg till löpare" }).waitFor();
  await runnerRow(page, "Anna Andersson").getByRole("button").click();
  const paidEdit = page.getByRole("dialog", { name: "Ändra löpare" });
  await paidEdit.getByText(/^Betald \(150\s*kr\)/).waitFor();
  expect(await paidEdit.getByRole("button", { name: "Ta bort" }).count()).toBe(0);
  await paidEdit.getByRole("button", { name: "Stäng" }).click();
  await paidEdit.waitFor({ state: "detached" });

  // The paid runners are in their races' start lists, and the family got a receipt by e-mail.
  const registration = (await (await page.request.get("/get")).json()) as {
    deltagare: Record<string, { id: string; firstname: string; distance: string }>;
  };
  const anna = Object.values(registration.deltagare).find((r) => r.firstname === "Anna")!;
  const startList = (await (await page.request.get("/api/races/get/race-250913-56")).json()) as { sort: string }[];
  expect(startList.map((r) => r.sort)).toContain(`runner-${anna.id}`);
  const mail = (await (await page.request.get(`/dev/outbox.json?to=${encodeURIComponent(familyEmail)}`)).json()) as {
    subject: string;
    text: string;
  }[];
  const receipt = mail.find((m) => m.text.includes("Anna Andersson"));
  expect(receipt?.text).toMatch(/400\s*kr/);

  // The receipt page (Swish's return address) finds the payment settled and goes to step 3.
  await page.goto(`/kvitto/${payref}`);
  await page.waitForURL("**/anmalan/3", { timeout: 15_000 });
  await page.getByRole("region", { name: "Klart och betalt!" }).waitFor();
  expect(errors).toEqual([]);
});

test("a free campaign code (FRIBILJETT) settles the order at once", async () => {
  const { page } = await phone();
  await logIn(page, uniqueEmail("fribiljett"));
  await addRunner(page, { firstname: "Doris", lastname: "Dahl", age: "35", distance: "1,6km" });

  const code = page.getByRole("textbox", { name: "Kampanjkod" });
  await code.pressSequentially("fribiljett");
  // Upper-cased as typed; the server's evaluation shows the new price.
  expect(await code.inputValue()).toBe("FRIBILJETT");
  await page.getByText(/Koden gäller!.*0\s*kr/).waitFor();
  await page.getByText(/Med kampanjkod FRIBILJETT/).waitFor();

  const reloaded = page.waitForEvent("load");
  await page.getByRole("button", { name: "Till betalning" }).click();
  await reloaded;
  const paid = page.getByRole("region", { name: "Klart och betalt!" });
  await paid.waitFor();
  expect(await paid.textContent()).toMatch(/0\s*kr/);
  expect(await paid.textContent()).toContain("FRIBILJETT");
  expect(await runnerRow(page, "Doris Dahl").textContent()).toMatch(/0\s*kr\s*Betald/);
  expect(await page.getByRole("button", { name: "Till betalning" }).count()).toBe(0);
});

test("a paid family adds a sibling on a phone, pays 100 kr more, and the page shows both payments", async () => {
  const { context, page } = await phone();
  await page.setViewportSize({ width: 390, height: 844 });
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, uniqueEmail("syskon"));
  await addRunner(page, { firstname: "Gun", lastname: "Gran", age: "38", distance: "5,6km", group: "Dam" });
  await addRunner(page, { firstname: "Hugo", lastname: "Gran", age: "10", distance: "1,6km" });

  const first = await goToPayment(page);
  // Step 4 shows the amount next to the QR code.
  expect((await page.locator(".swish-amount").textContent())?.replace(/\s/g, " ")).toBe("Att betala250 kr");
  let reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, first.token, "Betala");
  await reloaded;
  await page.getByRole("region", { name: "Klart och betalt!" }).waitFor({ timeout: 20_000 });

  // A late sibling: only she is left to pay, at today's price.
  await addRunner(page, { firstname: "Ines", lastname: "Gran", age: "6", distance: "0,8km" });
  await page.getByRole("heading", { name: "Att betala för tillagda löpare" }).waitFor();
  await page
    .getByRole("region", { name: "Betalt" })
    .getByText(/En löpare som du har lagt till är inte betald än/)
    .waitFor();
  expect(await page.locator(".price-total dd").first().textContent()).toMatch(/^100\s*kr$/);
  expect(await runnerRow(page, "Hugo Gran").textContent()).toMatch(/100\s*kr\s*Betald/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/sibling-step3-390.png`, fullPage: true });

  const second = await goToPayment(page);
  expect(second.payref).not.toBe(first.payref);
  expect((await page.locator(".swish-amount").textContent())?.replace(/\s/g, " ")).toBe("Att betala100 kr");
  if (SCREENSHOTS) {
    await page.screenshot({ path: `${SCREENSHOTS}/sibling-step4-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SCREENSHOTS}/sibling-step4-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
  }
  reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, second.token, "Betala");
  await reloaded;

  // Both payments, each with its amount; every runner paid.
  const paid = page.getByRole("region", { name: "Klart och betalt!" });
  await paid.waitFor({ timeout: 20_000 });
  const amounts = (await paid.locator(".paid-payment dd").allTextContents()).filter((t) => /kr$/.test(t));
  expect(amounts.map((t) => t.replace(/\s/g, " "))).toEqual(["250 kr", "100 kr"]);
  expect(await runnerRow(page, "Ines Gran").textContent()).toMatch(/100\s*kr\s*Betald/);
  expect(await page.getByRole("button", { name: "Till betalning" }).count()).toBe(0);
  if (SCREENSHOTS) {
    await page.screenshot({ path: `${SCREENSHOTS}/sibling-paid-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SCREENSHOTS}/sibling-paid-1280.png`, fullPage: true });
  }
  expect(errors).toEqual([]);
});

test("a late sibling's declined payment keeps its code on a phone; the first payment stays listed", async () => {
  const { context, page } = await phone();
  await page.setViewportSize({ width: 390, height: 844 });
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, uniqueEmail("syskon-nekad"));
  await addRunner(page, { firstname: "Lars", lastname: "Lund", age: "44", distance: "5,6km" });
  const first = await goToPayment(page);
  let reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, first.token, "Betala");
  await reloaded;
  await page.getByRole("region", { name: "Klart och betalt!" }).waitFor({ timeout: 20_000 });

  await addRunner(page, { firstname: "Mira", lastname: "Lund", age: "7", distance: "0,8km" });
  const field = page.getByRole("textbox", { name: "Kampanjkod" });
  await field.fill("VANLOPP50");
  // 50 kr per person, for the sister alone.
  await page.getByText(/Koden gäller! Att betala: 50\s*kr/).waitFor();
  const second = await goToPayment(page);
  expect((await page.locator(".swish-amount").textContent())?.replace(/\s/g, " ")).toBe("Att betala50 kr");
  // The payer's bank declines (Swish: ERROR RF07).
  const declined = await page.request.post(`/dev/swish/pay/${second.token}`, {
    headers: { "x-loppet-client": "1" },
    data: { status: "ERROR", errorCode: "RF07" },
  });
  expect(declined.status()).toBe(200);
  await page.waitForURL("**/anmalan/3", { timeout: 20_000 });

  // The first payment is still listed as paid; the sibling's failure is told in Swedish, with the code kept.
  const paid = page.getByRole("region", { name: "Betalt" });
  await paid.waitFor({ timeout: 20_000 });
  expect((await paid.locator(".paid-payment").textContent())?.replace(/\s/g, " ")).toMatch(/För\s?Lars.*150 kr/);
  const failure = page.getByRole("alert").filter({ hasText: "Misslyckad betalning, try again" });
  await failure.waitFor({ timeout: 20_000 });
  expect(await failure.textContent()).toContain("Betalningen nekades, till exempel på grund av en beloppsgräns.");
  expect(await failure.textContent()).toContain("kampanjkoden VANLOPP50 finns kvar nedan");
  expect(await failure.textContent()).not.toMatch(/Transaction|declined/i);
  expect(await field.inputValue()).toBe("VANLOPP50");
  await page.getByText(/Koden gäller! Att betala: 50\s*kr/).waitFor();
  expect(await runnerRow(page, "Lars Lund").textContent()).toMatch(/Betald/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/sibling-declined-390.png`, fullPage: true });

  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  const retry = await goToPayment(page);
  expect((await booked).request().postDataJSON()).toMatchObject({ kampanj: "VANLOPP50", barn: 1, vuxna: 0 });
  expect(retry.payref).not.toBe(second.payref);
  reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, retry.token, "Betala");
  await reloaded;
  const done = page.getByRole("region", { name: "Klart och betalt!" });
  await done.waitFor({ timeout: 20_000 });
  const amounts = (await done.locator(".paid-payment dd").allTextContents()).filter((t) => /kr$/.test(t));
  expect(amounts.map((t) => t.replace(/\s/g, " "))).toEqual(["150 kr", "50 kr"]);
  expect(await page.getByText("Misslyckad betalning, try again").count()).toBe(0);
  expect(errors).toEqual([]);
});

test("an unknown campaign code is no discount, and the list price is charged", async () => {
  const { page } = await phone();
  await logIn(page, uniqueEmail("okandkod"));
  await addRunner(page, { firstname: "Erik", lastname: "Ek", age: "12", distance: "1,6km" });
  await page.getByRole("textbox", { name: "Kampanjkod" }).fill("FINNSINTE");
  await page.getByText("Koden gäller inte – ordinarie pris.").waitFor();
  expect(await page.getByText(/Med kampanjkod/).count()).toBe(0);
  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  await page.getByRole("button", { name: "Till betalning" }).click();
  const booking = await booked;
  expect(booking.status()).toBe(200);
  // A code the server called invalid is not sent at booking (the server would refuse it with 400).
  expect(booking.request().postDataJSON()).toMatchObject({ kampanj: "" });
  await page.waitForURL("**/anmalan/4");
});

test("a declined payment shows 'Misslyckad betalning, try again', and paying again works", async () => {
  const { context, page } = await phone();
  await logIn(page, uniqueEmail("nekad"));
  await addRunner(page, { firstname: "Frida", lastname: "Falk", age: "10", distance: "0,8km" });

  const first = await goToPayment(page);
  await payerPresses(context, first.token, "Avbryt");
  // The socket reports the failure; the page goes back to step 3 and shows it.
  await page.waitForURL("**/anmalan/3", { timeout: 20_000 });
  await page.getByText("Misslyckad betalning, try again").waitFor({ timeout: 20_000 });
  // Not locked: the family can still change runners and pay again.
  await page.getByRole("button", { name: "Lägg till löpare" }).waitFor();

  const second = await goToPayment(page);
  expect(second.payref).not.toBe(first.payref);
  await payerPresses(context, second.token, "Betala");
  await page.getByRole("region", { name: "Klart och betalt!" }).waitFor({ timeout: 30_000 });
  expect(await page.getByText("Misslyckad betalning, try again").count()).toBe(0);
});

test("a declined payment keeps the family's Epassi code: the retry is at the discounted price", async () => {
  // The organiser sends an Epassi invitation: a one-use code that pays the dearest runner's fee.
  const adminContext = await desktopContext(browser, baseURL);
  contexts.push(adminContext);
  const admin = await adminContext.newPage();
  await signInAsDevAdmin(admin);
  const invited = await admin.request.post("/admin/api/invite/epassi", {
    headers: { "x-loppet-client": "1" },
    data: { name: "Greta Gran", email: uniqueEmail("epassi-nekad") },
  });
  expect(invited.status()).toBe(201);
  const { code } = ((await invited.json()) as { invitation: { code: string } }).invitation;
  expect(code).toMatch(/^EPASSI[A-Z2-9]{10}$/);

  const { context, page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, uniqueEmail("epassi-familj"));
  await addRunner(page, { firstname: "Greta", lastname: "Gran", age: "38", distance: "5,6km" });
  await addRunner(page, { firstname: "Hugo", lastname: "Gran", age: "8", distance: "0,8km" });
  const field = page.getByRole("textbox", { name: "Kampanjkod" });
  await field.pressSequentially(code.toLowerCase());
  // 150 + 100 kr; the code pays the adult's 150.
  await page.getByText(/Koden gäller! Att betala: 100\s*kr/).waitFor();

  const first = await goToPayment(page);
  // The payer's bank declines (Swish: ERROR RF07, "Transaction declined").
  const declined = await page.request.post(`/dev/swish/pay/${first.token}`, {
    headers: { "x-loppet-client": "1" },
    data: { status: "ERROR", errorCode: "RF07" },
  });
  expect(declined.status()).toBe(200);
  await page.waitForURL("**/anmalan/3", { timeout: 20_000 });
  const failure = page.getByRole("alert").filter({ hasText: "Misslyckad betalning, try again" });
  await failure.waitFor({ timeout: 20_000 });
  // Said in Swedish, never Swish's English text.
  expect(await failure.textContent()).toContain("Betalningen nekades, till exempel på grund av en beloppsgräns.");
  expect(await failure.textContent()).not.toMatch(/Transaction|declined/i);

  // The code is still in the field and still the family's (its use came back when the payment failed).
  expect(await field.inputValue()).toBe(code);
  await page.getByText(/Koden gäller! Att betala: 100\s*kr/).waitFor();
  await page.getByText(`Med kampanjkod ${code}`).waitFor();
  expect(await page.locator(".price-campaign dd").textContent()).toMatch(/^100\s*kr$/);
  await page.screenshot({ path: "test-results/epassi-nekad-steg3.png", fullPage: true });

  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  const second = await goToPayment(page);
  expect((await booked).request().postDataJSON()).toMatchObject({ kampanj: code });
  expect(second.payref).not.toBe(first.payref);
  const reloaded = page.waitForEvent("load", { timeout: 30_000 });
  await payerPresses(context, second.token, "Betala");
  await reloaded;
  const paid = page.getByRole("region", { name: "Klart och betalt!" });
  await paid.waitFor({ timeout: 20_000 });
  expect(await paid.textContent()).toMatch(/100\s*kr/);
  expect(errors).toEqual([]);
});

test("a wrong code and a bad address show the errors, which input and 'Stäng' clear", async () => {
  const { page } = await phone();
  await page.goto("/anmalan/1");
  const email = page.getByRole("textbox", { name: "E-postadress" });
  await email.fill("inte-en-adress");
  await page.getByRole("button", { name: "Skicka kod" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Ogiltig e-postadress" });
  await alert.waitFor();
  await email.pressSequentially("x");
  await alert.waitFor({ state: "detached" });

  await email.fill(uniqueEmail("felkod"));
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/email");
  await page.getByRole("button", { name: "Skicka kod" }).click();
  const { code } = (await (await answer).json()) as { code: string };
  await page.waitForURL("**/anmalan/2");
  const codeInput = page.getByRole("textbox", { name: "Kod" });
  expect(await codeInput.getAttribute("inputmode")).toBe("numeric");
  expect(await codeInput.getAttribute("autocomplete")).toBe("one-time-code");
  const wrong = code === "123456" ? "654321" : "123456";
  await codeInput.fill(wrong);
  await page.getByRole("button", { name: "Logga in" }).click();
  const codeAlert = page.getByRole("alert").filter({ hasText: /kod/i });
  await codeAlert.waitFor();
  expect(await codeAlert.textContent()).toContain("Fel kod");
  await codeAlert.getByRole("button", { name: "Stäng" }).click();
  await codeAlert.waitFor({ state: "detached" });
  expect(new URL(page.url()).pathname).toBe("/anmalan/2");

  // The right code still works after a wrong try.
  await codeInput.fill(code);
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
});

test("an expired code shows 'Koden har gått ut' and a new code logs in", async () => {
  const { page } = await phone();
  await page.goto("/anmalan/1");
  const email = page.getByRole("textbox", { name: "E-postadress" });
  await email.fill(uniqueEmail("utgangen"));
  const firstAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === "/email");
  await page.getByRole("button", { name: "Skicka kod" }).click();
  const first = (await (await firstAnswer).json()) as { id: string; code: string };
  await page.waitForURL("**/anmalan/2");

  // Ten minutes pass (the rule itself is tested with a shifted clock in test/worker).
  const expired = await page.request.post(`/dev/login-codes/${first.id}/expire`, {
    headers: { "x-loppet-client": "1", "content-type": "application/json" },
    data: {},
  });
  expect(expired.status()).toBe(200);

  const codeInput = page.getByRole("textbox", { name: "Kod" });
  expect(await codeInput.inputValue()).toBe(first.code);
  await page.getByRole("button", { name: "Logga in" }).click();
  const codeAlert = page.getByRole("alert").filter({ hasText: "Koden har gått ut. Begär en ny kod." });
  await codeAlert.waitFor();
  expect(new URL(page.url()).pathname).toBe("/anmalan/2");

  await page.getByRole("link", { name: "begär en ny kod" }).click();
  await page.waitForURL("**/anmalan/1");
  const secondAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === "/email");
  await page.getByRole("button", { name: "Skicka kod" }).click();
  const second = (await (await secondAnswer).json()) as { id: string; code: string };
  expect(second.id).not.toBe(first.id);
  await page.waitForURL("**/anmalan/2");
  expect(await codeInput.inputValue()).toBe(second.code);
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
});

test("a long runner list scrolls inside a box at most 300 px high", async () => {
  const { page } = await phone();
  await logIn(page, uniqueEmail("storfamilj"));
  const runners = Object.fromEntries(
    Array.from({ length: 9 }, (_, i) => {
      const id = crypto.randomUUID();
      return [
        id,
        { id, firstname: `Barn${i + 1}`, lastname: "Lång", age: 6 + i, company: "", distance: "0.8", group: "Ingen" },
      ];
    }),
  );
  const saved = await page.request.post("/update", {
    headers: { "x-loppet-client": "1", "content-type": "application/json" },
    data: { runners },
  });
  expect(saved.status()).toBe(200);
  await page.reload();
  const list = page.getByRole("list", { name: "Anmälda löpare" });
  await expect.poll(() => list.getByRole("listitem").count()).toBe(9);
  const box = await list.evaluate((el) => ({
    maxHeight: getComputedStyle(el).maxHeight,
    height: el.getBoundingClientRect().height,
    scrolls: el.scrollHeight > el.clientHeight,
  }));
  expect(box.maxHeight).toBe("300px");
  expect(box.height).toBeLessThanOrEqual(300);
  expect(box.scrolls).toBe(true);
});

test("two tabs of one family never silently overwrite each other", async () => {
  const { context, page: first } = await phone();
  await logIn(first, uniqueEmail("tvaflikar"));
  const second = await context.newPage();
  await second.goto("/anmalan");
  await second.waitForURL("**/anmalan/3");
  await second.getByRole("heading", { name: "Dina löpare" }).waitFor();

  await addRunner(first, { firstname: "Gustav", lastname: "Gran", age: "40", distance: "5,6km" });

  // The second tab still shows the empty list; its save is based on the old version.
  await second.getByRole("button", { name: "Lägg till löpare" }).click();
  const dialog = second.getByRole("dialog", { name: "Lägg till löpare" });
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill("Hanna");
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill("Gran");
  await dialog.getByRole("textbox", { name: "Ålder" }).fill("38");
  await dialog.getByRole("radio", { name: /^5,6km/ }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.getByRole("alert").filter({ hasText: "ändrats i ett annat fönster" }).waitFor();
  // The list behind the dialog (hidden from the accessibility tree while it is open) now shows the first tab's save.
  await second
    .getByRole("list", { name: "Anmälda löpare", includeHidden: true })
    .getByRole("listitem", { includeHidden: true })
    .filter({ hasText: "Gustav Gran" })
    .waitFor();

  // Saving again (now on the current version) keeps both runners.
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  await runnerRow(second, "Hanna Gran").waitFor();
  await first.reload();
  await runnerRow(first, "Gustav Gran").waitFor();
  await runnerRow(first, "Hanna Gran").waitFor();
});

test("the receipt page says 'Utloggad' without a session and 'Oups! Nåt blev knasigt' for an unknown payment", async () => {
  const { page } = await phone();
  await page.goto("/kvitto/0123456789ABCDEF0123456789ABCDEF");
  await page.getByText("Hämtar betalningsinformation").waitFor();
  expect(await page.getByRole("link", { name: "info@example.se" }).first().getAttribute("href")).toMatch(/^mailto:/);
  await page.getByRole("heading", { name: "Utloggad" }).waitFor({ timeout: 10_000 });

  await logIn(page, uniqueEmail("kvitto"));
  await page.goto("/kvitto/0123456789ABCDEF0123456789ABCDEF");
  await page.getByRole("heading", { name: "Oups! Nåt blev knasigt" }).waitFor({ timeout: 10_000 });
  expect(await page.getByRole("link", { name: "Till din anmälan" }).getAttribute("href")).toBe("/anmalan/3");
});

test("the organiser lists, creates and disables campaign codes at /admin/kampanjkoder", async () => {
  const context = await desktopContext(browser, baseURL);
  contexts.push(context);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  await page.getByRole("tab", { name: "Kampanjkoder" }).click();
  await page.waitForURL("**/admin/kampanjkoder");

  const list = page.getByRole("list", { name: "Kampanjkoder" });
  const card = (code: string) => list.getByRole("listitem").filter({ hasText: code });
  await card("FRIBILJETT").waitFor();
  expect(await card("FRIBILJETT").textContent()).toMatch(/Gratis.*Inbyggd|Inbyggd.*Gratis/);
  expect(await card("VANLOPP50").textContent()).toContain("50 kr per person");
  expect(await card("TIDIGFAGEL").textContent()).toContain("−50 kr per löpare");
  expect(await card("TIDIGFAGEL").textContent()).toContain("2025-10-01");

  // Swedish messages on bad input, nothing sent.
  const form = page.getByRole("form", { name: "Ny kampanjkod" });
  await form.getByRole("textbox", { name: "Kod", exact: true }).fill("x");
  await form.getByRole("button", { name: "Skapa kod" }).click();
  await form.getByText("Koden ska vara 3–20 tecken, bara A–Z och 0–9.").waitFor();
  await form.getByText("Välj en regel.").waitFor();

  const code = `E2E${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
  await form.getByRole("textbox", { name: "Kod", exact: true }).fill(code.toLowerCase());
  await form.getByRole("combobox", { name: "Regel" }).selectOption({ label: "50 kr per person" });
  await form.getByRole("textbox", { name: "Max antal användningar" }).fill("5");
  await form.getByRole("button", { name: "Skapa kod" }).click();
  await form.getByText(`Kampanjkoden ${code} är skapad.`).waitFor();
  await card(code).waitFor();
  expect(await card(code).textContent()).toMatch(/Aktiv.*50 kr per person.*0 \/ 5/);

  // The same code again is refused by the server, in Swedish.
  await form.getByRole("textbox", { name: "Kod", exact: true }).fill(code);
  await form.getByRole("combobox", { name: "Regel" }).selectOption({ label: "Gratis" });
  await form.getByRole("button", { name: "Skapa kod" }).click();
  await form.getByText("Koden finns redan.").waitFor();

  // A visitor's preview honours it, until the organiser switches it off.
  const preview = () =>
    page.evaluate(
      (kampanj) =>
        fetch("/validate-kampanj", {
          method: "POST",
          headers: { "content-type": "application/json", "x-loppet-client": "1" },
          body: JSON.stringify({ kampanj, barn: 1, vuxna: 1 }),
        }).then((r) => r.json()),
      code,
    );
  expect(await preview()).toEqual({ valid: true, price: 100 });
  await card(code)
    .getByRole("button", { name: `Stäng av ${code}` })
    .click();
  await card(code).filter({ hasText: "Avstängd" }).waitFor();
  expect(await preview()).toMatchObject({ valid: false });
  await card(code)
    .getByRole("button", { name: `Aktivera ${code}` })
    .click();
  // The status itself: the button's 'Aktivera' would match a bare "Aktiv" while the code is still off.
  await card(code).getByText("Aktiv", { exact: true }).waitFor();
  expect(await preview()).toEqual({ valid: true, price: 100 });
});

test("a family back from last year gets 'Välkommen tillbaka!' and adds a runner with one tap", async () => {
  // The demo data is deterministic: find a seeded family that ran in 2024 and has not registered for 2025.
  const demo = buildDemoData();
  const emails2025 = new Set(demo.registrations.filter((r) => r.season === 2025).map((r) => r.email));
  const family = demo.registrations.find((r) => r.season === 2024 && !emails2025.has(r.email));
  expect(family).toBeDefined();
  const lastYear = demo.participants.filter((p) => p.registration_id === family!.id);
  expect(lastYear.length).toBeGreaterThan(0);

  const { page } = await phone();
  await logIn(page, family!.email);
  const offer = page.getByRole("region", { name: "Välkommen tillbaka!" });
  await offer.waitFor();
  for (const p of lastYear) await offer.getByText(`${p.firstname} ${p.lastname}`).waitFor();

  const first = lastYear[0]!;
  const name = `${first.firstname} ${first.lastname}`;
  await offer.getByRole("button", { name: `Lägg till ${name}` }).click();
  // A year older than last time (the server moves the age on).
  await runnerRow(page, name)
    .filter({ hasText: new RegExp(`${first.age + 1}\\s*år`) })
    .waitFor();
  await offer.getByRole("button", { name: `Lägg till ${name}` }).waitFor({ state: "detached" });
  if (lastYear.length === 1) await offer.waitFor({ state: "detached" });
});

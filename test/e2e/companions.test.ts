/**
 * Issue 28, item 6 in real Chromium on a 390 px phone: a parent registers a child on 0.8 km and themself as
 * 'Springer med barn (ej tävlande)' on the same distance, sees the price (the child's fee, the companion apart at
 * 0 kr), pays with the Swish simulator, and finds the child in the start list with a bib to come and the parent
 * after the runners, marked 'Med barn', not counted as a runner; the bib desk shows him with his family without a
 * bib and checks him in. No sideways scrolling on any of these screens. Issue 39: a paid child moved to another
 * distance takes the father along in one save ('Flytta också …'); the organiser's refund dialog offers to take the
 * father out with the child ('Ta också bort …', ticked); and the family's page after a refund that left him without a
 * child says what they can do, and a sibling is added and booked beside him.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, onTestFailed, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { CLIENT } from "./public-pages";
import { raceIdForSeason } from "../../src/shared/race-id";

const baseURL = e2eBaseURL();
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

async function phone(): Promise<{ context: BrowserContext; page: Page }> {
  const ip = `10.28.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 200)}`;
  const context = await phoneContext(browser, baseURL, {
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { "cf-connecting-ip": ip },
  });
  contexts.push(context);
  return { context, page: await context.newPage() };
}

/**
 * Where a long test got to, printed only when it fails: it once timed out beside seven other browser files, and
 * the next runs could not show where it had stopped.
 */
function stepTrace(): (what: string) => void {
  const t0 = Date.now();
  const steps: string[] = [];
  onTestFailed(() => console.log(`Steps reached:\n${steps.join("\n")}`));
  return (what) => steps.push(`${Date.now() - t0} ms: ${what}`);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto("/anmalan");
  await page.waitForURL("**/anmalan/1");
  await page.getByRole("textbox", { name: "E-postadress" }).fill(email);
  await page.getByRole("button", { name: "Skicka kod" }).click();
  await page.waitForURL("**/anmalan/2");
  await page.getByRole("button", { name: "Logga in" }).click();
  await page.waitForURL("**/anmalan/3");
  await page.getByRole("heading", { name: "Dina löpare" }).waitFor();
}

test("a child and a parent running with her on 0.8 km: the price, the payment and 'Med barn' in the start list", async () => {
  const step = stepTrace();
  const { context, page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const tag = Math.random().toString(36).slice(2, 7);
  const lastname = `Medbarn${tag}`;
  step("phone open");
  await logIn(page, `medbarn-${Date.now()}-${tag}@example.se`);
  step("logged in");

  const open = async () => {
    await page.getByRole("button", { name: "Lägg till löpare" }).click();
    const dialog = page.getByRole("dialog", { name: "Lägg till löpare" });
    await dialog.waitFor();
    return dialog;
  };
  // No child yet: the choice is not offered.
  let dialog = await open();
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill("Lo");
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill(lastname);
  await dialog.getByRole("textbox", { name: "Ålder" }).fill("6");
  expect(await dialog.getByRole("checkbox", { name: /Springer med barn/ }).count()).toBe(0);
  await dialog.getByRole("radio", { name: /^0,8km/ }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });

  step("child added");
  dialog = await open();
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill("Per");
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill(lastname);
  await dialog.getByRole("textbox", { name: "Ålder" }).fill("41");
  const choice = dialog.getByRole("checkbox", { name: /Springer med barn \(ej tävlande\)/ });
  await choice.check();
  // On a distance no child runs: the form says so in Swedish and saves nothing.
  await dialog.getByRole("radio", { name: /^5,6km/ }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.getByText("Inget barn i anmälan springer 5,6 km.", { exact: false }).waitFor();
  await dialog.getByRole("radio", { name: /^0,8km/ }).check();
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-dialog-390.png` });
  await noSidewaysScroll(page);
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });

  step("companion added");
  const row = page.getByRole("list", { name: "Anmälda löpare" }).getByRole("listitem").filter({ hasText: "Per" });
  expect(await row.textContent()).toMatch(/Springer med barn \(ej tävlande\)/);
  const price = page.getByRole("definition").filter({ hasText: "×" });
  expect(await price.allTextContents()).toEqual(
    expect.arrayContaining([expect.stringMatching(/^1 × 0\s*kr$/), expect.stringMatching(/^1 × 100\s*kr$/)]),
  );
  expect(await page.locator(".price-summary .price-total dd").first().textContent()).toMatch(/^100\s*kr$/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-step3-390.png`, fullPage: true });
  await noSidewaysScroll(page);

  // Pay: the order is the child's 100 kr.
  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  await page.getByRole("button", { name: "Till betalning" }).click();
  const { token, amount } = (await (await booked).json()) as { token: string; amount: number };
  expect(amount).toBe(100);
  step("booked");
  await page.waitForURL("**/anmalan/4");
  // The waiting page is up (its socket follows the payment) before the payer pays, as in registration.test.ts.
  await page.getByRole("heading", { name: "Betala med Swish" }).waitFor();
  const reloaded = page.waitForEvent("load", { timeout: 30_000 });
  const payer = await context.newPage();
  await payer.goto(`/dev/swish/pay/${token}`);
  await payer.getByRole("button", { name: "Betala", exact: true }).click();
  // The simulator's answer has loaded before its page closes: closing at once could cancel the payment's request.
  await payer.waitForLoadState();
  await payer.close();
  step("paid on the payer's phone");
  await reloaded;
  await page.getByRole("region", { name: "Klart och betalt!" }).waitFor({ timeout: 20_000 });

  step("page says paid");
  // The start list of 0.8 km: Lo among the runners, Per after them marked 'Med barn', counted apart.
  await page.goto("/startlistor");
  const season = page.locator("section.year-section").filter({ has: page.getByRole("heading", { name: "2025" }) });
  await season.locator(`[role="tab"][aria-controls$="-content-race-250913-08"]`).click();
  await season.getByRole("table").waitFor();
  const per = season.locator(".data-grid-block [role='row']").filter({ hasText: `Per ${lastname}` });
  await per.waitFor();
  step("companion in the start list");
  const cells = await per.locator("> *").allTextContents();
  expect(cells.map((c) => c.trim())).toEqual(["", `Per ${lastname}`, "Med barn", ""]);
  const lo = season.locator(".data-grid-block [role='row']").filter({ hasText: `Lo ${lastname}` });
  expect(await lo.count()).toBe(1);
  const status = (await season.locator(".race-status").textContent()) ?? "";
  expect(status).toMatch(/vuxen springer med barn \(ej tävlande\)|vuxna springer med barn \(ej tävlande\)/);
  // The runner count is the race's runners alone (the companions are never among them).
  const view = (await (await page.request.get("/api/races/get/race-250913-08")).json()) as unknown[];
  expect(status).toContain(`${view.length - 1} löpare anmälda`);
  await per.scrollIntoViewIfNeeded();
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-startlist-390.png` });
  await noSidewaysScroll(page);

  // The bib desk: Per with his family, without a bib ('Med barn'), and 'Hämtat' for him.
  const desk = await (await phone()).context.newPage();
  step("desk phone open");
  await signInAsDevAdmin(desk);
  await desk.goto("/admin/incheckning");
  // Typed again until the hits show: one fresh-clone CI run timed out here with the name typed and no hits shown,
  // most likely text lost while the admin shell was still settling (not reproduced); typing again covers that.
  const hit = desk.getByRole("list", { name: "Träffar" }).getByRole("button").first();
  await expect
    .poll(
      async () => {
        const field = desk.getByLabel(/Sök namn, e-post eller startnummer/);
        await field.fill("");
        await field.fill(lastname);
        return hit.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await hit.click();
  const card = desk.locator(".checkin-family");
  const perRow = card.locator(".checkin-runner").filter({ hasText: `Per ${lastname}` });
  await perRow.getByText("Med barn", { exact: true }).waitFor();
  step("family at the desk");
  expect(await perRow.getByRole("button", { name: "Nästa nummer" }).count()).toBe(0);
  await perRow.getByRole("button", { name: "Hämtat" }).click();
  await perRow.getByText(/^Hämtat \d\d:\d\d$/).waitFor();
  await expect.poll(() => desk.getByText(/^Ej skickade/).count()).toBe(0);
  expect(await desk.locator(".alert-error").count()).toBe(0);
  if (SCREENSHOTS) await desk.screenshot({ path: `${SCREENSHOTS}/companion-desk-390.png`, fullPage: true });
  await noSidewaysScroll(desk);
  expect(errors).toEqual([]);
  // A phone's whole morning in one test (login, two dialogs, Swish, the start list, the desk): slow when the
  // machine runs other browser tests beside it.
}, 150_000);

/** The box office on a phone, signed in: its page, its form, the page's errors and a tag for unique names. */
/**
 * A bib nobody holds on the season's 0.8 km, of 150–199 (its range is 1–199): the server's files before this one
 * sold bibs there too, so a random one could be taken (a 409, and no 'Klart!').
 */
async function freeBib(page: Page): Promise<string> {
  const race = (await (
    await page.request.get(`/admin/api/races/get/${raceIdForSeason("0.8")}`, { headers: CLIENT })
  ).json()) as [unknown, ...{ bib?: number | string | null }[]];
  const [, ...runners] = race;
  const taken = new Set(runners.map((r) => Number(r.bib)));
  const free = Array.from({ length: 50 }, (_, i) => 150 + i).filter((bib) => !taken.has(bib));
  expect(free.length).toBeGreaterThan(0);
  return String(free[Math.floor(Math.random() * free.length)]);
}

async function boxOffice() {
  const { page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await signInAsDevAdmin(page);
  await page.goto("/admin/kassa");
  return { page, errors, tag: Math.random().toString(36).slice(2, 7), form: page.locator("form.quickreg-form") };
}

test("the box office: a child and a parent running with him (no bib), paid in cash, at 390 px", async () => {
  const { page, errors, tag, form } = await boxOffice();
  await form.getByLabel("Förnamn").first().fill("Nils");
  await form.getByLabel("Efternamn").first().fill(`Kassa${tag}`);
  await form.getByLabel("Ålder").first().fill("7");
  await form
    .getByLabel("Startnummer")
    .first()
    .fill(await freeBib(page));
  await form.getByRole("radio", { name: "0,8km" }).first().check();
  await form.getByRole("radio", { name: "Herr" }).first().check();
  await form.getByLabel("Telefon").fill("070-555 12 34");
  await form.getByRole("button", { name: "Lägg till löpare" }).click();
  const second = form.getByRole("group", { name: "Löpare 2" });
  await second.getByLabel("Förnamn").fill("Karin");
  await second.getByLabel("Ålder").fill("41");
  await second.getByRole("checkbox", { name: /Springer med barn \(ej tävlande\)/ }).check();
  // No bib for her: the field is gone.
  expect(await second.getByLabel("Startnummer").count()).toBe(0);
  await second.getByRole("radio", { name: "0,8km" }).check();
  await second.getByRole("radio", { name: "Dam" }).check();
  await form.getByRole("radio", { name: "Kontant" }).check();
  expect(await form.locator(".quickreg-price").textContent()).toMatch(/Att betala: 200\s*kr \(2 löpare\)/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-box-office-390.png`, fullPage: true });
  await noSidewaysScroll(page);
  await form.getByRole("button", { name: "Nästa" }).click();
  const done = page.getByRole("region", { name: "Klart!" });
  await done.waitFor();
  expect(await done.textContent()).toContain(
    `Karin Kassa${tag} springer med barn på 0,8 km (ej tävlande, ingen nummerlapp).`,
  );
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-box-office-done-390.png`, fullPage: true });
  await noSidewaysScroll(page);
  expect(errors).toEqual([]);
});

test("the box office: the parent typed first runs with the child added after; alone again, the parent competes", async () => {
  const { page, errors, tag, form } = await boxOffice();
  const parentChoice = form.locator(".companion-choice").filter({ has: page.locator("input[name='companion']") });
  await form.getByLabel("Förnamn").first().fill("Karin");
  await form.getByLabel("Efternamn").first().fill(`Forst${tag}`);
  await form.getByLabel("Ålder").first().fill("41");
  await form.getByRole("radio", { name: "0,8km" }).first().check();
  await form.getByRole("radio", { name: "Dam" }).first().check();
  await form.getByLabel("Telefon").fill("070-555 12 35");
  // One runner: nobody to run with, so no choice.
  expect(await parentChoice.count()).toBe(0);
  const second = form.getByRole("group", { name: "Löpare 2" });
  // The child, added as the sale's second runner, and the first runner ticked as running with him.
  const addChild = async () => {
    await form.getByRole("button", { name: "Lägg till löpare" }).click();
    await second.getByLabel("Förnamn").fill("Nils");
    await second.getByLabel("Ålder").fill("7");
    await second.getByLabel("Startnummer").fill(await freeBib(page));
    await second.getByRole("radio", { name: "0,8km" }).check();
    await second.getByRole("radio", { name: "Herr" }).check();
    // Not ticked yet: a fresh sale, and a sale back to one runner dropped the tick.
    expect(await parentChoice.getByRole("checkbox").isChecked()).toBe(false);
    await parentChoice.getByRole("checkbox").check();
  };
  await addChild();
  // No bib for her (the first runner's field is gone), and her price is the companion price.
  expect(await form.locator("input[name='bib']").count()).toBe(0);
  await form.getByRole("radio", { name: "Kontant" }).check();
  expect(await form.locator(".quickreg-price").textContent()).toMatch(/Att betala: 200\s*kr \(2 löpare\)/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-first-box-office-390.png`, fullPage: true });

  // Alone again, she competes: the choice is gone and her bib field is back.
  await form.getByRole("button", { name: "Ta bort löpare 2" }).click();
  expect(await parentChoice.count()).toBe(0);
  expect(await form.locator("input[name='bib']").count()).toBe(1);
  await addChild();

  await form.getByRole("button", { name: "Nästa" }).click();
  const done = page.getByRole("region", { name: "Klart!" });
  await done.waitFor();
  expect(await done.textContent()).toContain(
    `Karin Forst${tag} springer med barn på 0,8 km (ej tävlande, ingen nummerlapp).`,
  );
  await noSidewaysScroll(page);
  expect(errors).toEqual([]);
});

/**
 * A family through the visitor API on the phone's own context (its pages are then signed in): Greta on 5.6 and Lo
 * (6) on 0.8 paid with Swish (250 kr), then Per running with Lo, paid by a free order of his own (0 kr).
 */
async function paidFamilyWithFather(request: APIRequestContext, lastname: string) {
  const email = `${lastname.toLowerCase()}@example.se`;
  const code = (await (await request.post("/email", { headers: CLIENT, data: { email } })).json()) as {
    id: string;
    code: string;
  };
  expect(
    (await request.post("/code", { headers: CLIENT, data: { email, codeId: code.id, code: code.code } })).ok(),
  ).toBe(true);
  const ids = { greta: `a-${lastname}`, lo: `b-${lastname}`, per: `c-${lastname}` };
  const runners: Record<string, Record<string, unknown>> = {
    [ids.greta]: { firstname: "Greta", lastname, age: 41, company: "", distance: "5.6", group: "Dam" },
    [ids.lo]: { firstname: "Lo", lastname, age: 6, company: "", distance: "0.8", group: "Ingen" },
  };
  expect((await request.post("/update", { headers: CLIENT, data: { runners } })).status()).toBe(200);
  const booked = await request.post("/book-v2", { headers: CLIENT, data: { kampanj: "", barn: 1, vuxna: 1 } });
  const { token, payref } = (await booked.json()) as { token: string; payref: string };
  expect((await request.post(`/dev/swish/pay/${token}`, { headers: CLIENT, data: { status: "PAID" } })).ok()).toBe(
    true,
  );
  await expect.poll(async () => (await request.get(`/verify?id=${payref}`, { headers: CLIENT })).status()).toBe(200);
  runners[ids.per] = {
    firstname: "Per",
    lastname,
    age: 43,
    company: "",
    distance: "0.8",
    group: "Ingen",
    companion: true,
  };
  expect((await request.post("/update", { headers: CLIENT, data: { runners } })).status()).toBe(200);
  const free = await request.post("/book-v2", { headers: CLIENT, data: { kampanj: "", barn: 0, vuxna: 0 } });
  expect(((await free.json()) as { token: string }).token).toBe("kampanj");
  return { email, ids, payref };
}

/** A surname no other run has used (letters only: the search and the runner ids take it as it is). */
function surname(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 7)}`.replace(/\d/g, (d) => "abcdefghij".charAt(Number(d)));
}

test("issue 39: Lo moves to 1,6 km with her father in one save; the refund dialog offers to take him out with her", async () => {
  const step = stepTrace();
  const { page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const lastname = surname("Flytt");
  const family = await paidFamilyWithFather(page.request, lastname);
  step("family paid");

  // The family moves Lo (paid) to 1,6 km: the dialog offers to move Per along, ticked, and both move.
  await page.goto("/anmalan/3");
  const list = page.getByRole("list", { name: "Anmälda löpare" });
  await list.getByRole("button", { name: new RegExp(`Ändra Lo ${lastname}`) }).click();
  const dialog = page.getByRole("dialog", { name: "Ändra löpare" });
  await dialog.getByRole("radio", { name: /^1,6km/ }).check();
  const along = dialog.getByRole("checkbox", { name: `Flytta också Per ${lastname} till 1,6 km` });
  expect(await along.isChecked()).toBe(true);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-move-along-390.png` });
  await noSidewaysScroll(page);
  await dialog.getByRole("button", { name: "Spara" }).click();
  await dialog.waitFor({ state: "detached" });
  for (const name of [`Lo ${lastname}`, `Per ${lastname}`]) {
    await expect.poll(() => list.getByRole("listitem").filter({ hasText: name }).textContent()).toContain("1,6km");
  }
  step("moved together");

  // The organiser refunds Lo and deregisters her: Per, paid apart (0 kr), is offered to go too, ticked.
  const admin = (await phone()).page;
  await signInAsDevAdmin(admin);
  await admin.getByLabel("Sök namn eller e-post").fill(family.email);
  await admin
    .locator(".reg-group")
    .filter({ has: admin.getByRole("heading", { name: "1,6km" }) })
    .getByRole("button", { name: `Betalning för ${family.email}: 250 kr` })
    .click();
  const payment = admin.getByRole("dialog", { name: "Betalning" });
  const form = payment.getByRole("form", { name: "Återbetala" });
  await form.getByRole("radio", { name: "Återbetala och avregistrera" }).check();
  await form.getByRole("checkbox", { name: new RegExp(`^Greta ${lastname}`) }).uncheck();
  const takeOut = form.getByRole("checkbox", { name: new RegExp(`^Ta också bort Per ${lastname}`) });
  expect(await takeOut.isChecked()).toBe(true);
  expect(await form.getByRole("group", { name: "Springer med barnet" }).textContent()).toContain(
    "springer med barn på 1,6 km; betalade 0 kr",
  );
  await expect.poll(() => form.getByLabel("Belopp (kr)").inputValue()).toBe("100");
  await takeOut.scrollIntoViewIfNeeded();
  if (SCREENSHOTS) await admin.screenshot({ path: `${SCREENSHOTS}/refund-take-companion-390.png` });
  await noSidewaysScroll(admin);
  step("offered");
  await form.getByRole("button", { name: "Återbetala och avregistrera", exact: true }).click();
  await form.getByText(`och avregistrera Lo ${lastname} och Per ${lastname} (Per: betalade 0 kr)?`).waitFor();
  await form.getByRole("button", { name: "Ja, återbetala 100 kr" }).click();
  await payment
    .getByText(`100 kr är återbetalt till betalaren. Lo ${lastname}, Per ${lastname} är avregistrerad.`)
    .waitFor();
  step("refunded");

  // The family's page: both struck out, nothing left to explain.
  await page.reload();
  for (const name of [`Lo ${lastname}`, `Per ${lastname}`]) {
    await expect
      .poll(() => list.getByRole("listitem").filter({ hasText: name }).textContent())
      .toContain("Avregistrerad");
  }
  expect(await page.getByRole("status", { name: "Springer med barn" }).count()).toBe(0);
  expect(errors).toEqual([]);
}, 120_000);

test("issue 39: after a refund of Lo alone, the family's page says what they can do with Per, and a sibling is added", async () => {
  const { page } = await phone();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const lastname = surname("Kvar");
  const family = await paidFamilyWithFather(page.request, lastname);
  // The organiser refunds Lo and keeps Per (the dialog's 'Ta också bort' unticked), through the call the dialog makes.
  const admin = (await phone()).page;
  await signInAsDevAdmin(admin);
  const refunded = await admin.request.post("/admin/api/refunds", {
    headers: CLIENT,
    data: { payid: family.payref, amount: 100, idempotencyKey: crypto.randomUUID(), deregister: [family.ids.lo] },
  });
  expect(refunded.status()).toBe(201);

  await page.goto("/anmalan/3");
  const notice = page.getByRole("status", { name: "Springer med barn" });
  await notice.waitFor();
  expect(await notice.textContent()).toBe(
    `Per ${lastname} springer med barn på 0,8 km, men inget barn i anmälan springer där längre. ` +
      "Per är betald och står kvar som anmäld. Ni kan lägga till ett barn på 0,8 km, eller skriva till " +
      "info@example.se så tar vi bort Per." +
      "Resten av anmälan kan ni ändra och betala som vanligt.",
  );
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-stranded-390.png`, fullPage: true });
  await noSidewaysScroll(page);

  // A sibling on 1,6 km is saved beside him (before issue 39 every save was refused), and the page then says he can
  // move to her distance; her booking is 100 kr.
  await page.getByRole("button", { name: "Lägg till löpare" }).click();
  const dialog = page.getByRole("dialog", { name: "Lägg till löpare" });
  await dialog.getByRole("textbox", { name: "Förnamn" }).fill("Siv");
  await dialog.getByRole("textbox", { name: "Efternamn" }).fill(lastname);
  await dialog.getByRole("textbox", { name: "Ålder" }).fill("9");
  await dialog.getByRole("radio", { name: /^1,6km/ }).check();
  await dialog.getByRole("button", { name: "Lägg till", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  await expect.poll(() => notice.textContent()).toContain("Ni kan flytta Per till 1,6 km, där ett barn springer");
  expect(await page.locator(".price-summary .price-total dd").first().textContent()).toMatch(/^100\s*kr$/);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/companion-stranded-sibling-390.png`, fullPage: true });
  await noSidewaysScroll(page);
  const booked = page.waitForResponse((r) => new URL(r.url()).pathname === "/book-v2");
  await page.getByRole("button", { name: "Till betalning" }).click();
  const answer = await booked;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { amount: number }).amount).toBe(100);
  await page.waitForURL("**/anmalan/4");
  expect(errors).toEqual([]);
}, 120_000);

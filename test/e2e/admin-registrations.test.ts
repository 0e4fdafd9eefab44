/**
 * /admin/list-by-race in real Chromium against `npm start`'s server, at 1280 px and on a phone (375 px): the
 * heading's paid runners and paid sum against the API's own data, the five groups in order with a family under both
 * its distances, the search as one types, the details dialog ('Close Dialog'), the payment dialog with a failed
 * payment's error code and message, a partial refund through the Swish simulator, the paid-only variant, the
 * RaceSplitter export and the registrations CSV download, /admin-old, axe-core and no sideways scrolling; a refund
 * that deregisters a runner (issue 24) and a box-office sale refunded from its tab.
 * Families are registered and paid through the visitor API and the Swish simulator, each with a unique surname.
 */
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { overviewTotals, type OverviewRegistration } from "../../src/shared/registrations-overview";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { CLIENT, expectNoSeriousAxeViolations, expectNoSidewaysScroll } from "./public-pages";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(kind: "phone" | "desktop"): Promise<Page> {
  const context = await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL);
  return onSite(context, baseURL).newPage();
}

/**
 * A family of one adult (5.6) and one child (1.6) that books with Swish and then pays, or fails with `errorCode`.
 * Each family signs in on its own request context (API calls only, no pages), so sessions do not mix.
 */
async function swishFamily(lastname: string, outcome: { status: "PAID" } | { status: "ERROR"; errorCode: string }) {
  const context = await browser.newContext({ baseURL });
  try {
    const request: APIRequestContext = context.request;
    const slug = lastname
      .normalize("NFD")
      .replace(/[^A-Za-z]/g, "")
      .toLowerCase();
    const email = `${slug}@example.se`;
    const code = (await (await request.post("/email", { headers: CLIENT, data: { email } })).json()) as {
      id: string;
      code: string;
    };
    expect(
      (await request.post("/code", { headers: CLIENT, data: { email, codeId: code.id, code: code.code } })).ok(),
    ).toBe(true);
    const runners = {
      [`a${slug}`]: {
        firstname: "Greta",
        lastname,
        age: 41,
        company: "IK Ekbacken",
        distance: "5.6",
        group: "Dam",
      },
      [`b${slug}`]: { firstname: "Olle", lastname, age: 9, company: "", distance: "1.6", group: "Herr" },
    };
    expect((await request.post("/update", { headers: CLIENT, data: { runners } })).status()).toBe(200);
    const booked = await request.post("/book-v2", { headers: CLIENT, data: { kampanj: "", barn: 1, vuxna: 1 } });
    expect(booked.status()).toBe(200);
    const { token, payref } = (await booked.json()) as { token: string; payref: string };
    const paid = await request.post(`/dev/swish/pay/${token}`, { headers: CLIENT, data: outcome });
    expect(paid.status()).toBe(200);
    // The callback settles after it is answered; /verify says 200 once the payment is settled.
    await expect.poll(async () => (await request.get(`/verify?id=${payref}`, { headers: CLIENT })).status()).toBe(200);
    return { email, payref };
  } finally {
    await context.close();
  }
}

function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/\d/g, (d) =>
    "abcdefghij".charAt(Number(d)),
  );
}

/**
 * On a phone, content wider than the screen makes Chromium widen the layout viewport (and zoom out) rather than
 * scroll, which expectNoSidewaysScroll cannot see: the layout viewport must stay the device's width.
 */
async function expectFitsPhone(page: Page): Promise<void> {
  await expectNoSidewaysScroll(page);
  expect(await page.evaluate(() => window.innerWidth)).toBe(page.viewportSize()!.width);
}

async function overview(page: Page): Promise<OverviewRegistration[]> {
  const res = await page.request.get("/admin/registrations", { headers: CLIENT });
  expect(res.status()).toBe(200);
  return (await res.json()) as OverviewRegistration[];
}

test("1280 px: heading, groups, search, details, a failed payment's error, a refund, the paid-only list", async () => {
  const paidName = unique("Ekström");
  const failedName = unique("Bergqvist");
  const paid = await swishFamily(paidName, { status: "PAID" });
  await swishFamily(failedName, { status: "ERROR", errorCode: "RF07" });

  const page = await open("desktop");
  await signInAsDevAdmin(page);
  await page.getByRole("heading", { name: /^Anmälningar \d{4}$/ }).waitFor();

  // The heading: paid runners and paid sum, as the rules make them from the API's own answer.
  const totals = overviewTotals(await overview(page));
  const summary = page.locator(".reg-summary");
  await expect
    .poll(async () => (await summary.textContent())?.replace(/\s/g, " "))
    .toContain(
      `${totals.paidParticipants} betalda deltagare` +
        (totals.paidCompanions > 0 ? ` (och ${totals.paidCompanions} vuxna som springer med barn)` : "") +
        ` · ${totals.paidSum.toLocaleString("sv-SE").replace(/\s/g, " ")} kr`,
    );
  expect(await page.locator(".reg-group-label").allTextContents()).toEqual(["5,6km", "2,8km", "1,6km", "0,8km", "nok"]);

  // Search as one types: the paid family under both its distances, nothing else.
  await page.getByLabel("Sök namn eller e-post").fill(paidName.toLowerCase());
  await expect.poll(() => page.locator(".reg-row").count()).toBe(2);
  const group = (label: string) =>
    page.locator(".reg-group").filter({ has: page.getByRole("heading", { name: label }) });
  await group("5,6km").getByText(`Greta ${paidName}`).waitFor();
  await group("1,6km").getByText(`Olle ${paidName}`).waitFor();
  expect(await group("5,6km").getByText(`Olle ${paidName}`).count()).toBe(0);
  expect(await group("5,6km").locator(".reg-group-count").textContent()).toBe("(1)");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/registrations-desktop.png`, fullPage: true });

  // Details: every runner and the e-mail; 'Close Dialog' closes it.
  await group("5,6km")
    .getByRole("button", { name: `Detaljer för ${paid.email}` })
    .click();
  const details = page.getByRole("dialog", { name: "Anmälan" });
  await details.getByRole("rowheader", { name: `Greta ${paidName}` }).waitFor();
  await details.getByRole("rowheader", { name: `Olle ${paidName}` }).waitFor();
  expect(await details.getByText("IK Ekbacken").count()).toBe(1);
  await details.getByRole("button", { name: "Close Dialog" }).click();
  await details.waitFor({ state: "detached" });

  // A failed payment: 'Ej betald' under nok, and its error code and message in the payment dialog.
  await page.getByLabel("Sök namn eller e-post").fill(failedName.toLowerCase());
  await expect.poll(() => page.locator(".reg-row").count()).toBe(1);
  const badge = group("nok").getByRole("button", { name: /^Betalning för / });
  expect(await badge.textContent()).toBe("Ej betald");
  await badge.click();
  const failedDialog = page.getByRole("dialog", { name: "Betalning" });
  await failedDialog.getByText("RF07").waitFor();
  await failedDialog.getByText("Transaction declined").waitFor();
  expect(await failedDialog.getByRole("form", { name: "Återbetala" }).count()).toBe(0);
  await page.keyboard.press("Escape");
  await failedDialog.waitFor({ state: "detached" });

  // A refund of part of the paid family's 250 kr, from its payment dialog.
  await page.getByLabel("Sök namn eller e-post").fill(paid.email);
  await expect.poll(() => page.locator(".reg-row").count()).toBe(2);
  await group("1,6km")
    .getByRole("button", { name: `Betalning för ${paid.email}: 250 kr` })
    .click();
  const payment = page.getByRole("dialog", { name: "Betalning" });
  await payment.getByText("Kvar att återbetala: 250 kr").waitFor();
  await payment.getByLabel("Belopp (kr)").fill("300");
  await payment.getByRole("button", { name: "Återbetala", exact: true }).click();
  await payment.getByText("Högst 250 kr finns kvar att återbetala.").waitFor();
  await payment.getByLabel("Belopp (kr)").fill("100");
  await payment.getByRole("button", { name: "Återbetala", exact: true }).click();
  await payment.getByRole("button", { name: "Ja, återbetala 100 kr" }).click();
  await payment.getByText("100 kr är återbetalt till betalaren.").waitFor();
  await payment.getByText("Kvar att återbetala: 150 kr").waitFor();
  await payment.locator(".refund-item").filter({ hasText: "Återbetald" }).waitFor();
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/registrations-refund.png` });
  const stored = (await overview(page)).find((r) => r.email === paid.email)!;
  expect(stored.swishtory[paid.payref]).toMatchObject({ refunded: 100, refundable: 150, status: "PAID" });
  await payment.getByRole("button", { name: "Stäng" }).click();

  // The paid-only variant: one row per runner, the family's runners by age.
  await page.getByRole("tab", { name: "Betalda löpare" }).click();
  await page.waitForURL(/vy=betalda/);
  await expect
    .poll(() => page.locator(".reg-list-paid .reg-name").allTextContents())
    .toEqual([`Olle ${paidName}`, `Greta ${paidName}`]);
  await page.getByLabel("Sök namn eller e-post").fill("");
  const all = await overview(page);
  await expect
    .poll(() => page.locator(".reg-count").textContent())
    .toBe(
      `${overviewTotals(all).paidParticipants} betalda deltagare` +
        (overviewTotals(all).paidCompanions > 0
          ? ` och ${overviewTotals(all).paidCompanions} som springer med barn.`
          : "."),
    );
  await expectNoSeriousAxeViolations(page);
});

test("RaceSplitter export in a dialog with a download, and the registrations CSV", async () => {
  const page = await open("desktop");
  await signInAsDevAdmin(page);
  await page.getByRole("button", { name: "Export till RaceSplitter" }).click();
  const dialog = page.getByRole("dialog", { name: "Export till RaceSplitter" });
  const text = dialog.locator("pre");
  await text.waitFor();
  expect((await text.textContent())!.split(/\r?\n/)[0]).toBe(
    "Wave number,Racer bib number,First name,Last name,Email,Compensation,Category,Team",
  );
  const racesplitter = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Ladda ned CSV" }).click();
  expect((await racesplitter).suggestedFilename()).toMatch(/^racesplitter-\d{4}\.csv$/);
  await dialog.getByRole("button", { name: "Stäng", exact: true }).first().click();

  const registrations = page.waitForEvent("download");
  await page.getByRole("link", { name: /^Ladda ned alla anmälningar \d{4} \(CSV\)$/ }).click();
  expect((await registrations).suggestedFilename()).toMatch(/^anmalningar-\d{4}\.csv$/);
});

test("a phone: readable, searchable, dialogs fit; /admin-old leads to the registrations", async () => {
  const name = unique("Lindqvist");
  const family = await swishFamily(name, { status: "PAID" });
  const page = await open("phone");
  await signInAsDevAdmin(page);
  await page.getByRole("heading", { name: /^Anmälningar \d{4}$/ }).waitFor();
  await page.locator(".reg-row").first().waitFor();
  await expectFitsPhone(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/registrations-phone.png` });

  await page.getByLabel("Sök namn eller e-post").fill(`olle ${name.toLowerCase()}`);
  await expect.poll(() => page.locator(".reg-row").count()).toBe(1);
  await page.getByRole("button", { name: `Betalning för ${family.email}: 250 kr` }).click();
  const payment = page.getByRole("dialog", { name: "Betalning" });
  await payment.getByText("Kvar att återbetala: 250 kr").waitFor();
  await expectFitsPhone(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/registrations-phone-payment.png` });
  await page.keyboard.press("Escape");
  await expectNoSeriousAxeViolations(page);

  // The narrowest phones still get every column.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.getByRole("tab", { name: "Betalda löpare" }).click();
  await page.locator(".reg-list-paid .reg-row").first().waitFor();
  await expectFitsPhone(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/registrations-320.png` });

  await page.goto("/admin-old");
  await page.waitForURL("**/admin/list-by-race");
  await page.getByRole("heading", { name: /^Anmälningar \d{4}$/ }).waitFor();
});

test("Återbetala och avregistrera: the child leaves, the row says 'Återbetald'; a box-office sale refunded from its tab", async () => {
  const name = unique("Holmgren");
  const family = await swishFamily(name, { status: "PAID" });
  const page = await open("desktop");
  await signInAsDevAdmin(page);
  const group = (label: string) =>
    page.locator(".reg-group").filter({ has: page.getByRole("heading", { name: label }) });
  await page.getByLabel("Sök namn eller e-post").fill(family.email);
  await expect.poll(() => page.locator(".reg-row").count()).toBe(2);
  await group("1,6km")
    .getByRole("button", { name: `Betalning för ${family.email}: 250 kr` })
    .click();
  const payment = page.getByRole("dialog", { name: "Betalning" });
  // The runners the payment paid for, at the prices they were booked at.
  await payment.getByText(`Greta ${name}, 5,6 km, 150 kr`).waitFor();
  await payment.getByText(`Olle ${name}, 1,6 km, 100 kr`).waitFor();

  await payment.getByRole("radio", { name: "Återbetala och avregistrera" }).check();
  await payment.getByRole("checkbox", { name: new RegExp(`^Greta ${name}`) }).uncheck();
  // Ticking the runners sets the amount to what they were booked at.
  await expect.poll(() => payment.getByLabel("Belopp (kr)").inputValue()).toBe("100");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/refund-deregister-1280.png` });
  await payment.getByRole("button", { name: "Återbetala och avregistrera", exact: true }).click();
  await payment.getByText(`och avregistrera ${`Olle ${name}`}?`).waitFor();
  await payment.getByRole("button", { name: "Ja, återbetala 100 kr" }).click();
  await payment.getByText(`100 kr är återbetalt till betalaren. Olle ${name} är avregistrerad.`).waitFor();
  await payment.getByRole("button", { name: "Stäng" }).click();

  // The row: 'Återbetald', and the child struck through (not counted under 1,6km).
  const row = group("1,6km").locator(".reg-row");
  await row.getByText("Återbetald", { exact: true }).waitFor();
  await row.locator(".reg-runner-deregistered").getByText("(avregistrerad)").waitFor();
  expect(await group("1,6km").locator(".reg-group-count").textContent()).toBe("(0)");
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/refund-deregister-row-1280.png` });
  const stored = (await overview(page)).find((r) => r.email === family.email)!;
  expect(Object.values(stored.deltagare).find((x) => x.firstname === "Olle")?.deregistered).not.toBeNull();

  // A box-office Swish sale, refunded from the 'Biljettkassan' tab.
  const kassaName = unique("Kassaström");
  const sale = await page.request.post("/admin/api/quickreg", {
    headers: CLIENT,
    data: {
      firstname: "Kim",
      lastname: kassaName,
      age: "40",
      distance: "2.8",
      group: "Dam",
      phone: "070-123 45 67",
      bib: String(20_000 + Math.floor(Math.random() * 70_000)),
    },
  });
  expect(sale.status()).toBe(200);
  const { token } = (await sale.json()) as { token: string };
  expect((await page.request.post(`/dev/swish/pay/${token}`, { headers: CLIENT, data: { status: "PAID" } })).ok()).toBe(
    true,
  );
  await page.getByRole("tab", { name: "Biljettkassan" }).click();
  await page.waitForURL(/vy=kassa/);
  const card = page.locator(".box-office-sales > li").filter({ hasText: `Kim ${kassaName}` });
  await card.getByText("Kvar att återbetala: 300 kr").waitFor();
  await card.getByRole("radio", { name: "Återbetala och avregistrera" }).check();
  await card.getByRole("button", { name: "Återbetala och avregistrera", exact: true }).click();
  await card.getByRole("button", { name: "Ja, återbetala 300 kr" }).click();
  await card.getByText(`300 kr är återbetalt till betalaren. Kim ${kassaName} är avregistrerad.`).waitFor();
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/box-office-sales-1280.png` });
});

test("the refund dialog's choice and the box office's sales fit a 390 px phone", async () => {
  const name = unique("Sjöberg");
  const family = await swishFamily(name, { status: "PAID" });
  const page = await open("phone");
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsDevAdmin(page);
  await page.getByLabel("Sök namn eller e-post").fill(`olle ${name.toLowerCase()}`);
  await expect.poll(() => page.locator(".reg-row").count()).toBe(1);
  await page.getByRole("button", { name: `Betalning för ${family.email}: 250 kr` }).click();
  const payment = page.getByRole("dialog", { name: "Betalning" });
  await payment.getByRole("radio", { name: "Återbetala och avregistrera" }).check();
  await payment.getByRole("checkbox", { name: new RegExp(`^Olle ${name}`) }).waitFor();
  await expectFitsPhone(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/refund-deregister-390.png`, fullPage: true });
  await expectNoSeriousAxeViolations(page);
  await page.keyboard.press("Escape");
  await payment.waitFor({ state: "detached" });

  // The box office's sales fit the phone too.
  await page.getByRole("tab", { name: "Biljettkassan" }).click();
  await page.waitForURL(/vy=kassa/);
  await page.locator(".box-office-sales, .reg-empty").first().waitFor();
  await expectFitsPhone(page);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/box-office-sales-390.png` });
});

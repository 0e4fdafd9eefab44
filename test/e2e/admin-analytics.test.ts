/**
 * /admin/analytics in real Chromium against `npm start`'s server (seeded with four demo seasons): the page on a
 * phone and at 1280 px, the refresh button after a real new registration, the spec's error texts in a closable
 * alert, and that chart.js is downloaded on this page only (not on the registrations list, nor on public pages).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { formatSwedishDateTime } from "../../src/shared/stockholm";
import { e2eBaseURL } from "./server-url";
import { paymentRateLevel, type RegistrationAnalytics } from "../../src/shared/analytics";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

const baseURL = e2eBaseURL();
const API = "/admin/api/registration-analytics";
/** A message inside chart.js's code that survives minification: a script holding it is chart.js. */
const CHART_JS_MARK = "Canvas is already in use";
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(kind: "phone" | "desktop"): Promise<{ context: BrowserContext; page: Page }> {
  const context = onSite(await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL), baseURL);
  return { context, page: await context.newPage() };
}

/** Every script the page downloads from now on, with its text. */
function recordScripts(page: Page): () => Promise<{ url: string; text: string }[]> {
  const pending: Promise<{ url: string; text: string }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") {
      pending.push(res.text().then((text) => ({ url: res.url(), text })));
    }
  });
  return () => Promise.all(pending);
}

async function analyticsFromApi(page: Page): Promise<RegistrationAnalytics> {
  const res = await page.request.get(API, { headers: { "x-loppet-client": "1" } });
  expect(res.status()).toBe(200);
  return (await res.json()) as RegistrationAnalytics;
}

const sek = (n: number) =>
  new Intl.NumberFormat("sv-SE", { style: "currency", currency: "SEK", maximumFractionDigits: 0 }).format(n);
const count = (n: number) => new Intl.NumberFormat("sv-SE").format(n);

async function openAnalytics(page: Page) {
  await signInAsDevAdmin(page);
  await page.getByRole("tab", { name: "Analytics" }).click();
  await page.waitForURL("**/admin/analytics");
  await page.getByRole("heading", { name: "Sammanfattning" }).waitFor();
}

function summaryValue(page: Page, label: string) {
  return page
    .locator(".analytics-summary .analytics-fact")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator("dd");
}

test("at 1280 px: header, summary, season and distance cards, monthly tables and both charts", async () => {
  const { page } = await open("desktop");
  const scripts = recordScripts(page);
  await openAnalytics(page);
  const data = await analyticsFromApi(page);
  expect(data.yearComparison.length).toBeGreaterThanOrEqual(2);

  expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("Analytics");
  expect(await page.getByRole("button", { name: "Uppdatera" }).isVisible()).toBe(true);
  expect(await summaryValue(page, "Anmälningar").textContent()).toBe(count(data.summary.totalRegistrations));
  expect(await summaryValue(page, "Deltagare").textContent()).toBe(count(data.summary.totalParticipants));
  expect(await summaryValue(page, "Intäkter").textContent()).toBe(sek(data.summary.totalRevenue));
  expect(await summaryValue(page, "Intäkter").textContent()).toMatch(/kr$/);
  expect(await summaryValue(page, "Säsonger").textContent()).toBe(String(data.summary.yearsActive));
  const rate = summaryValue(page, "Betalningsgrad").locator(".analytics-rate");
  expect(await rate.getAttribute("class")).toContain(`rate-${paymentRateLevel(data.summary.paymentRate)}`);

  // One card per season, newest first, each with its rate coloured by the spec's thresholds.
  const years = page.getByRole("region", { name: "Säsong för säsong" }).getByRole("listitem");
  expect(await years.locator("h4").allTextContents()).toEqual(data.yearComparison.map((y) => String(y.year)).reverse());
  const newest = data.yearComparison.at(-1)!;
  expect(await years.first().locator(".analytics-rate").getAttribute("class")).toContain(
    `rate-${paymentRateLevel(newest.paymentRate)}`,
  );
  if (newest.registrationGrowth !== null) {
    expect(await years.first().textContent()).toContain(`mot ${newest.previousYear!.year}`);
  }
  const distances = page.getByRole("region", { name: "Distanser, alla säsonger" }).getByRole("listitem");
  expect(await distances.locator("h4").allTextContents()).toEqual(["5,6km", "2,8km", "1,6km", "0,8km"]);

  // The monthly tables: a column per season and the season totals in the footer.
  for (const [caption, total] of [
    ["Anmälningar per månad", (y: (typeof data.yearComparison)[number]) => count(y.totalRegistrations)],
    ["Intäkter per månad", (y: (typeof data.yearComparison)[number]) => sek(y.totalAmount)],
  ] as const) {
    const table = page.getByRole("table", { name: caption });
    const headers = await table.locator("thead th").allTextContents();
    expect(headers).toEqual(["Månad", ...data.yearComparison.map((y) => String(y.year)).reverse()]);
    const footer = await table.locator("tfoot td").allTextContents();
    expect(footer).toEqual([...data.yearComparison].reverse().map(total));
  }

  // The charts are drawn (chart.js sizes each canvas to its box).
  const canvases = page.locator(".analytics-chart canvas");
  await expect.poll(() => canvases.count()).toBe(2);
  for (const canvas of await canvases.all()) {
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(200);
  }
  // Positive control for the check below: on this page a script holding chart.js was downloaded.
  await page.waitForLoadState("networkidle");
  expect((await scripts()).filter((s) => s.text.includes(CHART_JS_MARK)).length).toBeGreaterThan(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/analytics-1280.png`, fullPage: true });
});

test("on a 375 px phone: nothing overflows the screen, tables scroll inside their box", async () => {
  const { page } = await open("phone");
  await openAnalytics(page);
  await page.locator(".analytics-chart canvas").first().waitFor();
  const widths = await page.evaluate(() => ({
    viewport: window.innerWidth,
    page: document.documentElement.scrollWidth,
  }));
  expect(widths.viewport).toBe(375);
  expect(widths.page).toBeLessThanOrEqual(375);
  for (const caption of ["Anmälningar per månad", "Intäkter per månad"]) {
    const box = page.getByRole("region", { name: caption });
    const size = await box.evaluate((el) => ({
      client: el.clientWidth,
      scroll: el.scrollWidth,
      right: el.getBoundingClientRect().right,
    }));
    expect(size.right).toBeLessThanOrEqual(375);
    // Four seasons of kronor do not fit on a phone: the box scrolls, not the page.
    if (caption === "Intäkter per månad") expect(size.scroll).toBeGreaterThan(size.client);
    // The box takes keyboard focus, so it can be scrolled without a mouse.
    expect(await box.getAttribute("tabindex")).toBe("0");
  }
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/analytics-375.png`, fullPage: true });
});

test("Uppdatera asks again and shows a registration made meanwhile", async () => {
  const { page } = await open("desktop");
  await openAnalytics(page);
  const before = await analyticsFromApi(page);
  expect(await summaryValue(page, "Anmälningar").textContent()).toBe(count(before.summary.totalRegistrations));

  // A family registers and takes a free campaign order (paid at once), through the real visitor API.
  const visitor = await browser.newContext({ baseURL });
  const headers = { "x-loppet-client": "1", "cf-connecting-ip": `10.88.${Date.now() % 250}.7` };
  const email = `analys-${Date.now()}@example.se`;
  const login = await (await visitor.request.post("/email", { headers, data: { email } })).json();
  expect(
    (await visitor.request.post("/code", { headers, data: { email, codeId: login.id, code: login.code } })).ok(),
  ).toBe(true);
  const runners = {
    r1: { id: "r1", firstname: "Alva", lastname: "Analys", age: 40, company: "", distance: "5.6", group: "Dam" },
  };
  const view = await (await visitor.request.post("/update", { headers, data: { runners } })).json();
  const booked = await visitor.request.post("/book-v2", {
    headers,
    data: { kampanj: "FRIBILJETT", barn: view.barn, vuxna: view.vuxna },
  });
  expect(booked.status()).toBe(200);
  await visitor.close();

  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === API);
  await page.getByRole("button", { name: "Uppdatera" }).click();
  expect((await answer).status()).toBe(200);
  await expect
    .poll(() => summaryValue(page, "Anmälningar").textContent())
    .toBe(count(before.summary.totalRegistrations + 1));
  expect(await summaryValue(page, "Betalda anmälningar").textContent()).toBe(
    count(before.summary.paidRegistrations + 1),
  );
});

test("errors: 'HTTP error! status: {code}' or the answer's error field, in an alert that closes", async () => {
  const { page } = await open("desktop");
  await openAnalytics(page);
  const refresh = page.getByRole("button", { name: "Uppdatera" });
  const alert = page.getByRole("alert");

  // The server's answers are replaced only here: a failure the live server cannot be made to give on purpose.
  await page.route(`**${API}`, (route) => route.fulfill({ status: 503, contentType: "text/plain", body: "nere" }));
  await refresh.click();
  await expect.poll(() => alert.textContent()).toBe("HTTP error! status: 503");
  // The figures already on screen stay.
  expect(await page.getByRole("heading", { name: "Sammanfattning" }).isVisible()).toBe(true);

  // Closed with the keyboard: the close button is reachable and shows its focus.
  const close = page.getByRole("button", { name: "Stäng felmeddelandet" });
  await refresh.focus();
  await page.keyboard.press("Tab");
  expect(await close.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await close.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect.poll(() => alert.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Uppdatera");

  // A failure answered with an error field shows that text, and a new failure opens the alert again.
  await page.unroute(`**${API}`);
  await page.route(`**${API}`, (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ error: "Databasen svarar inte." }),
    }),
  );
  await refresh.click();
  await expect.poll(() => alert.textContent()).toBe("Databasen svarar inte.");
  await close.click();
  await expect.poll(() => alert.count()).toBe(0);

  // Back to the real server: no alert.
  await page.unroute(`**${API}`);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === API);
  await refresh.click();
  const answered = await answer;
  expect(answered.status()).toBe(200);
  // The page has taken the answer in (it shows its moment), and shows no alert with it.
  const { generatedAt } = (await answered.json()) as { generatedAt: number };
  await page.getByText(`Uppdaterad ${formatSwedishDateTime(generatedAt)}.`, { exact: false }).waitFor();
  expect(await alert.count()).toBe(0);
});

test("chart.js is downloaded on /admin/analytics only: not on the registrations list nor on public pages", async () => {
  // One recorder per browser session from its first request (a script the browser already holds is not fetched
  // again, so a chunk shows up the first time any page needs it).
  const admin = await open("desktop");
  const adminScripts = recordScripts(admin.page);
  await signInAsDevAdmin(admin.page);
  await admin.page.waitForLoadState("networkidle");
  const visitor = await open("phone");
  const visitorScripts = recordScripts(visitor.page);
  for (const path of ["/", "/anmalan", "/resultat", "/startlistor", "/banor"]) {
    await visitor.page.goto(path);
    await visitor.page.waitForLoadState("networkidle");
  }
  for (const [who, scripts] of [
    ["admin on /admin/list-by-race", await adminScripts()],
    ["visitor on public pages", await visitorScripts()],
  ] as const) {
    expect(scripts.length, who).toBeGreaterThan(0);
    expect(
      scripts.filter((s) => s.text.includes(CHART_JS_MARK)).map((s) => s.url),
      who,
    ).toEqual([]);
  }
});

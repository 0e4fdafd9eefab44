/**
 * The box office in real Chromium against `npm start`'s server: a volunteer at /admin/kassa signs a runner up,
 * the payer pays in the Swish simulator, and the runner appears with the bib on the race screen a second admin
 * has open on a phone, while the box office says so and is ready for the next family. A payment the payer
 * declines adds nobody. A parent whose child registered online is sold a companion place on a 390 px phone: the
 * child found by name, the parent in the family's registration and the start list. The season's race is shared by
 * reruns on one server, so every run uses its own names and random high bibs.
 */
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { raceIdForSeason } from "../../src/shared/race-id";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const PART = raceIdForSeason("5.6");

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(kind: "phone" | "desktop"): Promise<Page> {
  const context = onSite(
    await (kind === "phone" ? phoneContext(browser, baseURL) : desktopContext(browser, baseURL)),
    baseURL,
  );
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  return page;
}

const tag = () => Math.random().toString(36).slice(2, 7);
const randomBib = () => 10_000 + Math.floor(Math.random() * 89_000);

async function fillForm(page: Page, runner: { firstname: string; bib: number; age?: string }) {
  await page.getByLabel("Förnamn").fill(runner.firstname);
  await page.getByLabel("Efternamn").fill("Kassasson");
  await page.getByLabel("Ålder").fill(runner.age ?? "41");
  await page.getByLabel("Startnummer").fill(String(runner.bib));
  await page.getByLabel("Telefon").fill("070-123 45 67");
  await page.getByText("5,6km", { exact: true }).click();
  await page.getByText("Herr", { exact: true }).click();
}

/** The Swish simulator's phone page, opened from the box office's 'Öppna Swish-simulatorn' link. */
async function payerPhone(page: Page): Promise<Page> {
  const [popup] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("link", { name: "Öppna Swish-simulatorn" }).click(),
  ]);
  await popup.waitForLoadState();
  return popup;
}

test("a sign-up paid in the Swish simulator appears live, with its bib, on a second admin's race screen", async () => {
  const timing = await signedIn("phone");
  await timing.goto(`/admin/race/${PART}`);
  await timing.getByRole("heading", { level: 2, name: PART }).waitFor();
  await timing.getByText("socket ansluten").waitFor();

  const kassa = await signedIn("desktop");
  await kassa.goto("/admin/kassa");
  await kassa.getByRole("heading", { name: "Biljettkassan" }).waitFor();

  // Lazy validation: nothing is said until 'Nästa', then every empty field is 'Obligatorisk'.
  await expect(kassa.getByText("Obligatorisk").count()).resolves.toBe(0);
  await kassa.getByRole("button", { name: "Nästa" }).click();
  await expect.poll(() => kassa.getByText("Obligatorisk", { exact: true }).count()).toBe(7);

  const firstname = `Kassa${tag()}`;
  const bib = randomBib();
  await fillForm(kassa, { firstname, bib });
  await kassa.getByText(/^Att betala: 300\skr \(vuxen\)$/).waitFor();
  await kassa.getByRole("button", { name: "Nästa" }).click();

  // The QR, loaded from /qr-v2, large on the screen, with the amount.
  const qr = kassa.getByRole("img", { name: /QR-kod/ });
  await qr.waitFor();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect((await qr.boundingBox())!.width).toBeGreaterThanOrEqual(300);
  expect(await qr.getAttribute("src")).toMatch(/^\/qr-v2\?token=[0-9a-f]{32}$/);
  await kassa.getByRole("heading", { name: /^Betala 300\skr med Swish$/ }).waitFor();
  await expect(timing.locator(".tile-cell").filter({ hasText: firstname }).count()).resolves.toBe(0);

  const phone = await payerPhone(kassa);
  const paidAt = Date.now();
  await phone.getByRole("button", { name: "Betala" }).click();

  // The timing phone sees the runner, with the bib, without reloading.
  const tile = timing.locator(".tile-cell").filter({ hasText: firstname });
  await tile.waitFor({ timeout: 10_000 });
  await expect.poll(() => tile.textContent()).toContain(String(bib));
  const seenAfterMs = Date.now() - paidAt;
  expect(seenAfterMs).toBeLessThan(10_000);

  // The box office says where the runner is and is ready for the next family.
  await kassa.getByRole("heading", { name: "Klart!" }).waitFor();
  await expect
    .poll(() => kassa.locator(".box-office-done-line").textContent())
    .toBe(`${firstname} Kassasson springer i loppet ${PART} med startnummer ${bib}.`);
  await kassa.getByRole("button", { name: "Nästa familj" }).click();
  await expect.poll(() => kassa.getByLabel("Förnamn").inputValue()).toBe("");
  await expect(kassa.getByRole("button", { name: "Nästa" }).isEnabled()).resolves.toBe(true);
});

test("a payment the payer declines adds nobody, and the box office can try again", async () => {
  const timing = await signedIn("phone");
  await timing.goto(`/admin/race/${PART}`);
  await timing.getByText("socket ansluten").waitFor();
  const kassa = await signedIn("phone");
  await kassa.goto("/admin/kassa");

  const firstname = `Nej${tag()}`;
  await fillForm(kassa, { firstname, bib: randomBib(), age: "9" });
  await kassa.getByRole("button", { name: "Nästa" }).click();
  await kassa.getByRole("heading", { name: /^Betala 200\skr med Swish$/ }).waitFor();
  // On a 375 px phone the QR takes most of the width.
  expect((await kassa.getByRole("img", { name: /QR-kod/ }).boundingBox())!.width).toBeGreaterThanOrEqual(300);

  const phone = await payerPhone(kassa);
  await phone.getByRole("button", { name: "Avbryt" }).click();

  await kassa.getByRole("heading", { name: "Inte betalt" }).waitFor();
  await kassa.getByText(`${firstname} Kassasson har inte lagts till i något lopp`, { exact: false }).waitFor();
  // The race never got the runner (a declined payment adds nobody, before 'Inte betalt' shows): its own state says
  // so, so no tile can come to the timing phone, and none is there.
  const raceNow = (await (await timing.request.get(`/admin/api/races/get/${PART}`)).json()) as { firstname?: string }[];
  expect(raceNow.length).toBeGreaterThan(0);
  expect(raceNow.filter((r) => r.firstname === firstname)).toEqual([]);
  await expect(timing.locator(".tile-cell").filter({ hasText: firstname }).count()).resolves.toBe(0);

  // 'Försök igen' starts a new Swish payment for the same runner.
  await kassa.getByRole("button", { name: "Försök igen" }).click();
  await kassa.getByRole("heading", { name: /^Betala 200\skr med Swish$/ }).waitFor();
  await kassa.getByRole("button", { name: "Avbryt betalningen" }).click();
  await kassa.getByRole("heading", { name: "Inte betalt" }).waitFor();
  await kassa.getByText("Betalningen avbröts.", { exact: false }).waitFor();
});

const CLIENT = { "x-loppet-client": "1" };

/** A family registered online whose child (and mother) are paid with the free campaign code; answers its e-mail. */
async function paidOnlineFamily(request: APIRequestContext, lastname: string): Promise<string> {
  const email = `medbarn-kassa-${Date.now().toString(36)}-${tag()}@example.se`;
  const code = (await (await request.post("/email", { headers: CLIENT, data: { email } })).json()) as {
    id: string;
    code: string;
  };
  expect(
    (await request.post("/code", { headers: CLIENT, data: { email, codeId: code.id, code: code.code } })).ok(),
  ).toBe(true);
  const tail = Date.now().toString(36);
  const runners = {
    [`m${tail}`]: { firstname: "Greta", lastname, age: 40, company: "", distance: "5.6", group: "Dam" },
    [`b${tail}`]: { firstname: "Ture", lastname, age: 9, company: "", distance: "1.6", group: "Herr" },
  };
  expect((await request.post("/update", { headers: CLIENT, data: { runners } })).status()).toBe(200);
  const booked = await request.post("/book-v2", {
    headers: CLIENT,
    data: { kampanj: "FRIBILJETT", barn: 1, vuxna: 1 },
  });
  expect(booked.status(), await booked.text()).toBe(200);
  return email;
}

test("a parent whose child registered online gets a companion place on a 390 px phone: in the family and the start list", async () => {
  const lastname = `Nätkassa${tag()}`;
  // The family's own requests (no page of its own: not one of the contexts whose pages must stay on the site).
  const visitor = await phoneContext(browser, baseURL);
  const email = await paidOnlineFamily(visitor.request, lastname);

  const context = onSite(await phoneContext(browser, baseURL, { viewport: { width: 390, height: 844 } }), baseURL);
  const kassa = await context.newPage();
  const errors: string[] = [];
  kassa.on("pageerror", (err) => errors.push(err.message));
  await signInAsDevAdmin(kassa);
  await kassa.goto("/admin/kassa");
  await kassa.getByRole("heading", { name: "Biljettkassan" }).waitFor();
  await kassa.getByRole("button", { name: "Springer med barn anmält på nätet" }).click();

  // The family found by the child's name, typed again until its hit shows (text typed while the admin shell still
  // settles can be lost, as at the bib desk).
  const hit = kassa
    .getByRole("list", { name: "Familjer" })
    .getByRole("button", { name: new RegExp(`Ture ${lastname}`) });
  await expect
    .poll(
      async () => {
        const field = kassa.getByLabel(/Sök barnet/);
        await field.fill("");
        await field.fill(`Ture ${lastname}`);
        return hit.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await hit.click();
  // The mother is an adult: no choice for her; the child is.
  const children = kassa.getByRole("list", { name: "Välj barnet" });
  await children.getByText(`Greta ${lastname}, 5,6 km: vuxen`).waitFor();
  if (SCREENSHOTS)
    await kassa.screenshot({ path: `${SCREENSHOTS}/box-office-companion-child-390.png`, fullPage: true });
  await children.getByRole("button", { name: `Springer med Ture ${lastname}, 1,6 km` }).click();

  const form = kassa.getByRole("form", { name: "Den vuxna som springer med" });
  await expect.poll(() => form.getByLabel("Efternamn").inputValue()).toBe(lastname);
  await form.getByLabel("Förnamn").fill("Gun");
  await form.getByLabel("Ålder").fill("44");
  await form.getByRole("radio", { name: "Dam" }).check();
  await form.getByText(/^Att betala: 0\skr \(springer med barn\)$/).waitFor();
  expect(await kassa.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SCREENSHOTS) await kassa.screenshot({ path: `${SCREENSHOTS}/box-office-companion-390.png`, fullPage: true });
  await form.getByRole("button", { name: "Nästa" }).click();

  const done = kassa.getByRole("region", { name: "Klart!" });
  // A failure says what the volunteer would see instead (a refusal, or still waiting for the race).
  await done.waitFor().catch(async (e: Error) => {
    throw new Error(`${e.message}\nThe screen: ${await kassa.locator(".box-office").innerText()}`);
  });
  expect(await done.textContent()).toContain(
    `Gun ${lastname} springer med barn på 1,6 km (ej tävlande, ingen nummerlapp). Tillagd i familjens anmälan (${email}).`,
  );
  await done.getByText("Ingen avgift: den som springer med barn kostar 0 kr.").waitFor();
  expect(await kassa.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SCREENSHOTS) await kassa.screenshot({ path: `${SCREENSHOTS}/box-office-companion-done-390.png`, fullPage: true });

  // The family's page lists her, paid; the start list of 1,6 km has her as 'Med barn'.
  const family = (await (await visitor.request.get("/get", { headers: CLIENT })).json()) as {
    deltagare: Record<string, { firstname: string; companion?: boolean; paidBy: string | null }>;
  };
  expect(Object.values(family.deltagare).find((r) => r.firstname === "Gun")).toMatchObject({
    companion: true,
    paidBy: expect.stringMatching(/^kampanj_MEDBARN_/),
  });
  const companions = (await (await visitor.request.get(`/api/races/companions/${raceIdForSeason("1.6")}`)).json()) as {
    companions: { firstname: string; lastname: string }[];
  };
  expect(companions.companions).toContainEqual(expect.objectContaining({ firstname: "Gun", lastname }));
  expect(errors).toEqual([]);
  await visitor.close();
}, 90_000);

/**
 * The bib desk (/admin/incheckning) in real Chromium against `npm start`'s server, with a fake camera: the test
 * writes a .y4m video (fake-camera.ts) of the QR the
 * family's receipt e-mail carries, and Chromium plays it as the phone's camera. Chromium on Linux has no
 * BarcodeDetector, so this reads the QR with the page's own decoder (jsQR, its lazy chunk from the site's assets).
 * The desk checks the family in; an undo and a check-in made offline wait in the queue and are sent once when the
 * network is back; a second scan says 'Redan hämtat'.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decode } from "fast-png";
import { chromium, type APIRequestContext, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { TEST_CHROMIUM_PATH, fakeCameraArgs } from "../../scripts/lib/chromium.mjs";
import { raceIdForSeason } from "../../src/shared/race-id";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { writeY4m } from "./fake-camera";

const baseURL = e2eBaseURL();
const CLIENT = { "x-loppet-client": "1" };
const onSite = contextsStayOnSite();

let plain: Browser;
beforeAll(async () => {
  plain = await launchBrowser();
});
afterAll(async () => {
  await plain?.close();
});

/** A family of two registered through the visitor API and paid with the free campaign code. */
async function paidFamily(request: APIRequestContext, lastname: string): Promise<string> {
  const email = `desk-${Date.now().toString(36)}@example.se`;
  const code = (await (await request.post("/email", { headers: CLIENT, data: { email } })).json()) as {
    id: string;
    code: string;
  };
  expect(
    (await request.post("/code", { headers: CLIENT, data: { email, codeId: code.id, code: code.code } })).ok(),
  ).toBe(true);
  const tail = Date.now().toString(36);
  const runners = {
    [`a${tail}`]: { firstname: "Greta", lastname, age: 40, company: "", distance: "5.6", group: "Dam" },
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

/** The check-in QR of the family's receipt, as the e-mail carries it (a PNG from the site). */
async function receiptQr(request: APIRequestContext, email: string): Promise<{ png: Buffer; code: string }> {
  let html = "";
  await expect
    .poll(async () => {
      const mails = (await (await request.get("/dev/outbox.json")).json()) as {
        to: string;
        kind: string;
        html: string;
      }[];
      html = mails.find((m) => m.to === email && m.kind === "receipt")?.html ?? "";
      return html !== "";
    })
    .toBe(true);
  const src = /<img src="([^"]+\.png)"/.exec(html)![1]!;
  const code = /Koden: <strong[^>]*>([0-9A-Z-]+)</.exec(html)![1]!;
  const png = await (await request.get(new URL(src).pathname)).body();
  return { png, code };
}

/** A .y4m video of the QR on a white page, as a phone camera held over the e-mail would see it. */
function y4mOf(png: Buffer): string {
  const image = decode(new Uint8Array(png));
  const width = 640;
  const height = 480;
  const y = new Uint8Array(width * height).fill(235);
  const left = Math.floor((width - image.width) / 2);
  const top = Math.floor((height - image.height) / 2);
  for (let row = 0; row < image.height; row += 1) {
    for (let col = 0; col < image.width; col += 1) {
      const v = image.data[(row * image.width + col) * image.channels]!;
      y[(top + row) * width + left + col] = v < 128 ? 16 : 235;
    }
  }
  return writeY4m("checkin", width, height, 10, Array<Uint8Array>(10).fill(y));
}

async function auditOf(request: APIRequestContext, part: string) {
  return (await (await request.get(`/admin/api/races/audit/${part}?limit=2000`, { headers: CLIENT })).json()) as {
    type: string;
    payload: string;
  }[];
}

test("the desk reads the receipt's QR with the camera and checks the family in; offline actions are sent once", async () => {
  const lastname = `Disk${Date.now().toString(36)}`;
  const visitor = await desktopContext(plain, baseURL);
  const email = await paidFamily(visitor.request, lastname);
  const { png, code } = await receiptQr(visitor.request, email);
  // The family's own page shows the same QR and code.
  const familyPage = await visitor.newPage();
  await familyPage.goto("/anmalan/3");
  const qr = familyPage.getByRole("img", { name: `QR-kod för incheckning: ${code}` });
  await qr.waitFor();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await visitor.close();

  const camera = await chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    headless: true,
    args: fakeCameraArgs(y4mOf(png)),
  });
  // A timing phone on the 1.6 km race: Ture's tile says he has not picked up his bib, until the desk checks him in.
  const timing = await onSite(await phoneContext(plain, baseURL), baseURL).newPage();
  await signInAsDevAdmin(timing);
  await timing.goto(`/admin/race/${raceIdForSeason("1.6")}`);
  await timing.getByText("socket ansluten").waitFor();
  const tureTile = timing.locator(".tile-cell").filter({ hasText: lastname });
  await expect.poll(() => tureTile.getByText("ej hämtad").count()).toBe(1);
  try {
    const context = onSite(await phoneContext(camera, baseURL, { viewport: { width: 390, height: 844 } }), baseURL);
    await context.grantPermissions(["camera"], { origin: baseURL });
    const desk = await context.newPage();
    await signInAsDevAdmin(desk);
    await desk.goto("/admin/incheckning");
    await desk.getByRole("heading", { name: "Nummerlappar" }).waitFor();
    await desk.getByRole("button", { name: "Skanna QR-kod" }).click();

    // The camera shows the QR: the family opens by itself.
    await desk.getByRole("heading", { name: email }).waitFor({ timeout: 20_000 });
    await desk.getByRole("button", { name: "Stäng kameran" }).click();
    const card = desk.locator(".checkin-family");
    await expect(card.getByText(`Greta ${lastname}`).isVisible()).resolves.toBe(true);
    // Greta has no bib yet: the next free number of her distance, in one tap.
    const greta = card.locator(".checkin-runner").filter({ hasText: `Greta ${lastname}` });
    await greta.getByRole("button", { name: "Nästa nummer" }).click();
    await greta.getByLabel(/^Startnummer \d+$/).waitFor();
    await card.getByRole("button", { name: "Hämtat – hela familjen (2)" }).click();
    await expect.poll(() => card.locator(".checkin-picked").count()).toBe(2);
    await expect.poll(() => desk.getByText(/^Ej skickade/).count()).toBe(0);
    // Live on the timing phone: the mark is gone, without a reload.
    await expect.poll(() => tureTile.getByText("ej hämtad").count()).toBe(0);
    // Sent and taken: no refusal on screen (a refused action leaves the queue with the server's message).
    expect(await desk.locator(".alert-error").count()).toBe(0);
    await desk.screenshot({ path: join(tmpdir(), "checkin-desk-390.png"), fullPage: true });
    expect(await desk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Typed by hand later: the family says when it picked up instead of offering it again.
    await desk.reload();
    await desk.getByLabel(/Sök namn, e-post eller startnummer/).fill(code.toLowerCase());
    await desk.getByRole("button", { name: `Öppna ${code}` }).click();
    await card.getByText(/^Redan hämtat \d\d:\d\d$/).waitFor();

    // Offline: the undo of one runner and its check-in again wait on the device, then go once each.
    const part16 = raceIdForSeason("1.6");
    const before = await auditOf(desk.request, part16);
    const countOf = (events: { type: string }[], type: string) => events.filter((e) => e.type === type).length;
    await context.setOffline(true);
    const ture = card.locator(".checkin-runner").filter({ hasText: `Ture ${lastname}` });
    await ture.getByRole("button", { name: "Ångra" }).click();
    await ture.getByRole("button", { name: "Hämtat" }).click();
    await desk.getByText("Ej skickade: 2. Skickas när nätet är tillbaka.").waitFor();
    await expect(ture.getByText(/Hämtat \d\d:\d\d \(ej skickat\)/).isVisible()).resolves.toBe(true);
    await context.setOffline(false);
    await desk.evaluate(() => window.dispatchEvent(new Event("online")));
    await expect.poll(() => desk.getByText(/^Ej skickade/).count(), { timeout: 20_000 }).toBe(0);
    const after = await auditOf(desk.request, part16);
    expect(countOf(after, "pickup-undone") - countOf(before, "pickup-undone")).toBe(1);
    expect(countOf(after, "picked-up") - countOf(before, "picked-up")).toBe(1);
    await desk.reload();
    await desk.getByLabel(/Sök namn, e-post eller startnummer/).fill(code);
    await desk.getByRole("button", { name: `Öppna ${code}` }).click();
    await expect.poll(() => card.locator(".checkin-picked").count()).toBe(2);
  } finally {
    await camera.close();
    await timing.context().close();
  }
}, 120_000);

/**
 * Mass e-mail in real Chromium against `npm start`'s server (the local Queue delivers to the Worker's consumer, the
 * development outbox receives the mail). The demo season has dozens of paying families; a first mailing reaches
 * them all, and all but three then follow their unsubscribe link (one of them through the confirmation page in
 * the browser, the others as a mail client's one-click POST). The screen then shows 3 recipients, the mailing's
 * progress bar and the result, and the three mails land in /dev/outbox.json, once each.
 */
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";

const baseURL = inject("baseURL");
const HEADERS = { "x-loppet-client": "1" };

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  kind: string;
  mailingId: number | null;
}

async function outbox(request: APIRequestContext): Promise<OutboxMail[]> {
  const res = await request.get("/dev/outbox.json?limit=500");
  expect(res.status()).toBe(200);
  return (await res.json()) as OutboxMail[];
}

async function waitUntilDone(request: APIRequestContext, id: number) {
  for (let i = 0; i < 240; i++) {
    const progress = (await (await request.get(`/admin/api/mailings/${id}`, { headers: HEADERS })).json()) as {
      done: boolean;
      sentCount: number;
    };
    if (progress.done) return progress;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`mailing ${id} did not finish`);
}

function unsubscribeLink(mail: OutboxMail): string {
  const link = /https?:\/\/\S+\/unsubscribe\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no unsubscribe link in the mail to ${mail.to}`);
  return new URL(link).pathname;
}

/** Leaves exactly three current runners subscribed, through the links of a mailing to all of them. */
async function keepThreeSubscribed(page: Page): Promise<string[]> {
  const request = page.request;
  const list = (await (await request.get("/admin/api/get_current_runners_handler", { headers: HEADERS })).json()) as {
    email: string;
  }[];
  expect(list.length).toBeGreaterThanOrEqual(3);
  const keep = list.slice(0, 3).map((r) => r.email);
  if (list.length === 3) return keep;
  const res = await request.post("/admin/api/send-email-current-runners", {
    headers: HEADERS,
    data: { subject: `Alla löpare ${Date.now()}`, message: "Hej alla!" },
  });
  expect(res.status()).toBe(202);
  const { id, totalRecipients } = (await res.json()) as { id: number; totalRecipients: number };
  expect(totalRecipients).toBe(list.length);
  expect((await waitUntilDone(request, id)).sentCount).toBe(list.length);
  const mails = (await outbox(request)).filter((m) => m.mailingId === id);
  expect(mails).toHaveLength(list.length);
  const leaving = mails.filter((m) => !keep.includes(m.to));
  // One person through the page in the browser: the link shows a confirmation, the button unsubscribes.
  const [first, ...rest] = leaving;
  await page.goto(unsubscribeLink(first!));
  await expect.poll(() => page.getByRole("heading", { name: "Avsluta utskick" }).isVisible()).toBe(true);
  await page.getByRole("button", { name: "Avsluta utskicken" }).click();
  await expect.poll(() => page.getByRole("status").textContent()).toMatch(/Klart! Du får inga fler utskick/);
  // The rest as a mail client's one-click POST (RFC 8058).
  for (const mail of rest) {
    const done = await request.post(unsubscribeLink(mail), {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: "List-Unsubscribe=One-Click",
    });
    expect(done.status()).toBe(200);
  }
  return keep;
}

test("a mailing to three recipients shows its progress and result, and lands in the outbox once each", async () => {
  const context = onSite(await desktopContext(browser, baseURL), baseURL);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  const keep = await keepThreeSubscribed(page);

  await page.goto("/admin/email-runners");
  await expect.poll(() => page.getByTestId("recipient-count").textContent()).toBe("3");
  const table = page.getByRole("table", { name: "Mottagare" });
  await expect.poll(() => table.getByRole("row").count()).toBe(4);
  for (const email of keep) expect(await table.getByRole("row").filter({ hasText: email }).count()).toBe(1);
  await expect.poll(() => table.getByRole("columnheader").allTextContents()).toEqual(["Namn", "E-post", "Lopp"]);

  // Both fields are required, checked before anything is sent.
  const send = page.getByRole("button", { name: "Skicka till 3 mottagare" });
  await send.click();
  await expect
    .poll(() => page.getByRole("alert").first().textContent())
    .toBe("Please fill in both subject and message");

  const subject = `Tre löpare ${Date.now()}`;
  await page.getByLabel("Ämne").fill(subject);
  await page.getByLabel("Meddelande").fill("Hej!\n\nVi ses på lördag.");
  await send.click();

  await expect.poll(() => page.getByRole("progressbar", { name: "Utskickets förlopp" }).isVisible()).toBe(true);
  await expect
    .poll(() => page.getByRole("heading", { name: "Utskicket är klart" }).isVisible(), { timeout: 30_000 })
    .toBe(true);
  expect(await page.getByTestId("mailing-progress").textContent()).toMatch(/^3 av 3 klara \(100 %\)/);
  expect(await page.getByTestId("result-sent").textContent()).toBe("3");
  expect(await page.getByTestId("result-failed").textContent()).toBe("0");
  await expect
    .poll(() => page.getByRole("status").filter({ hasText: "Successfully sent" }).textContent())
    .toMatch(/^Successfully sent 3 emails/);
  // Snackbars last 5000 ms.
  await expect
    .poll(() => page.getByRole("status").filter({ hasText: "Successfully sent" }).count(), { timeout: 8000 })
    .toBe(0);

  const mails = (await outbox(page.request)).filter((m) => m.subject === subject);
  expect(mails.map((m) => m.to).sort()).toEqual([...keep].sort());
  for (const mail of mails) {
    expect(mail.kind).toBe("mailing");
    expect(mail.text).toContain("Vi ses på lördag.");
    expect(unsubscribeLink(mail)).toMatch(new RegExp(`^/unsubscribe/${mail.mailingId}\\.`));
  }
});

test("the screens work on a phone: previous runners listed, sending blocked while nothing is typed", async () => {
  const context = onSite(await phoneContext(browser, baseURL), baseURL);
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  await page.goto("/admin/email-previous-runners");
  await expect
    .poll(() => page.getByRole("heading", { name: "Maila tidigare löpare", level: 2 }).isVisible())
    .toBe(true);
  const count = Number(await page.getByTestId("recipient-count").textContent());
  expect(count).toBeGreaterThan(0);
  const table = page.getByRole("table", { name: "Mottagare" });
  await expect.poll(() => table.getByRole("columnheader").allTextContents()).toEqual(["Namn", "E-post"]);
  await page.getByRole("button", { name: `Skicka till ${count} mottagare` }).click();
  await expect
    .poll(() => page.getByRole("alert").first().textContent())
    .toBe("Please fill in both subject and message");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
});

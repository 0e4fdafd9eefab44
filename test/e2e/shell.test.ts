/**
 * The site's shell in real Chromium against `npm start`'s server: the pre-rendered landing page, the phone
 * drawer, both admin sign-ins (the Google button, served in development by the Worker's stand-in for Google's
 * script, and the developer form), the admin shell's not-found page, deep links, and that the browser never
 * leaves the site. Session links, /logout, the config event and layout shift: shell-session.test.ts; the
 * season's cut-offs on servers with other clocks: shell-season.test.ts.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { SEASON } from "../../src/shared/season";
import {
  contextsStayOnSite,
  desktopContext,
  launchBrowser,
  NAVIGATION_HEADERS,
  phoneContext,
  signInAsDevAdmin,
} from "./browser";

const baseURL = e2eBaseURL();
const TITLE = `${SEASON.siteName} ${SEASON.year}`;

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(kind: "phone" | "desktop", options: BrowserContextOptions = {}): Promise<Page> {
  const context = await (kind === "phone" ? phoneContext : desktopContext)(browser, baseURL, options);
  return onSite(context, baseURL).newPage();
}

test("the landing page arrives rendered: hero with title and date, fee table, start times", async () => {
  // Without JavaScript the page is exactly the pre-rendered HTML.
  const page = await open("desktop", { javaScriptEnabled: false });
  await page.goto("/");

  const hero = page.locator(".hero");
  expect(await hero.getByRole("heading", { level: 1 }).textContent()).toBe(TITLE);
  expect(await hero.textContent()).toContain("13 september 2025");

  const fees = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: /till och med/i }) });
  expect(await fees.getByRole("row", { name: /^Vuxen/ }).textContent()).toMatch(/150 kr.*250 kr/);
  expect(await fees.getByRole("row", { name: /^Barn/ }).textContent()).toMatch(/100 kr.*150 kr/);

  const starts = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Start" }) });
  const rows = await starts
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent?.trim())));
  expect(rows).toEqual([
    ["11:00", expect.stringMatching(/^800 m/)],
    ["11:15", expect.stringMatching(/^1600 m/)],
    ["11:45", expect.stringMatching(/^2800 m/)],
    ["11:45", expect.stringMatching(/^5600 m/)],
  ]);
});

test("the landing page hydrates without errors and keeps its content", async () => {
  const page = await open("phone");
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  await page.goto("/");
  await page.waitForLoadState("networkidle");

  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(TITLE);
  // Hydrated: the client router handles a click (no full page load).
  const loads: string[] = [];
  page.on("load", () => loads.push(page.url()));
  await page.getByRole("link", { name: "Se banorna" }).click();
  await page.waitForURL("**/banor");
  expect(loads).toEqual([]);
  expect(errors).toEqual([]);
});

test("at 375 px the menu opens a drawer with the navigation, without the registration link", async () => {
  const page = await open("phone");
  // The landing is pre-rendered HTML whose script loads after the first paint: the menu button only works once
  // React has hydrated it, and the hydrated app's first act is asking for the config.
  const hydrated = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/config");
  await page.goto("/");
  await hydrated;

  const topNav = page.locator("header").getByRole("navigation", { name: "Huvudmeny" });
  expect(await topNav.isVisible()).toBe(false);

  await page.getByRole("button", { name: "Meny" }).click();
  const drawer = page.getByRole("dialog", { name: "Meny" });
  await drawer.waitFor({ state: "visible" });
  const links = await drawer.getByRole("link").allTextContents();
  expect(links).toEqual(expect.arrayContaining(["Start", "Startlistor", "Resultat", "Banor", "Galleri"]));
  expect(await drawer.locator('a[href^="/anmalan"]').count()).toBe(0);
  expect(links.some((l) => /anmäl/i.test(l))).toBe(false);

  await drawer.getByRole("link", { name: "Resultat" }).click();
  await page.waitForURL("**/resultat");
  await drawer.waitFor({ state: "detached" });
});

test("the developer sign-in lets the organiser into the admin shell", async () => {
  const page = await open("desktop");
  await page.goto("/admin/login");
  await page.getByLabel("E-postadress").fill("arrangor@example.se");
  await page.getByRole("button", { name: "Logga in (utveckling)" }).click();

  await page.waitForURL("**/admin/list-by-race");
  await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
  const tabs = page.getByRole("tablist").getByRole("tab");
  expect(await tabs.allTextContents()).toEqual(expect.arrayContaining(["Anmälningar", "Lopp", "Hantera tävlingar"]));
  expect(
    await page.getByRole("tablist", { name: "Adminsidor" }).getByRole("tab", { selected: true }).textContent(),
  ).toBe("Anmälningar");
});

test("the admin tabs: one Tab stop, the arrow keys move along the strip, Enter opens the focused tab's screen", async () => {
  const page = await open("desktop");
  await signInAsDevAdmin(page);

  const strip = page.getByRole("tablist", { name: "Adminsidor" });
  await strip.getByRole("tab", { name: "Anmälningar", selected: true }).waitFor();
  const tabs = strip.getByRole("tab");
  const labels = await tabs.allTextContents();
  expect(labels.slice(0, 2)).toEqual(["Anmälningar", "Lopp"]);
  // Only the open screen's tab is in the Tab order, and the panel is labelled by it.
  expect(await tabs.evaluateAll((all) => all.map((t) => t.getAttribute("tabindex")))).toEqual(
    labels.map((_, i) => (i === 0 ? "0" : "-1")),
  );
  const panel = page.getByRole("tabpanel");
  expect(await panel.getAttribute("aria-labelledby")).toBe(await tabs.first().getAttribute("id"));
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");

  await tabs.first().focus();
  await page.keyboard.press("ArrowRight");
  expect(await focused()).toBe("Lopp");
  // Moving the focus opens nothing (manual activation): the screen changes on Enter.
  expect(new URL(page.url()).pathname).toBe("/admin/list-by-race");
  await page.keyboard.press("End");
  expect(await focused()).toBe(labels.at(-1));
  await page.keyboard.press("ArrowRight");
  expect(await focused()).toBe("Anmälningar");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await page.waitForURL("**/admin/race");
  await strip.getByRole("tab", { name: "Lopp", selected: true }).waitFor();
  expect(await strip.getByRole("tab", { name: "Anmälningar" }).getAttribute("tabindex")).toBe("-1");
  expect(await panel.getAttribute("aria-labelledby")).toBe(
    await strip.getByRole("tab", { name: "Lopp" }).getAttribute("id"),
  );
});

test("the developer sign-in refuses an address that is not an admin", async () => {
  const page = await open("desktop");
  await page.goto("/admin/login");
  await page.getByLabel("E-postadress").fill("besokare@example.se");
  await page.getByRole("button", { name: "Logga in (utveckling)" }).click();

  await page.getByRole("alert").filter({ hasText: "Ej admin!" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/admin/login");

  // Still no way in: the admin shell sends this visitor back to the sign-in.
  await page.goto("/admin/list-by-race");
  await page.waitForURL("**/admin/login");
  expect(await page.getByRole("heading", { name: "Admin Panel" }).count()).toBe(0);
});

/** The payload of a JWT (not verified: the server did that; this reads what it was given). */
function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** Paths (with method) the page requests, in order. */
function requestLog(page: Page): string[] {
  const log: string[] = [];
  page.on("request", (r) => log.push(`${r.method()} ${new URL(r.url()).pathname}`));
  return log;
}

/** Clicks the Google button as `email` (the stand-in's account field) and returns the authenticate call. */
async function signInWithGoogle(page: Page, email: string) {
  await page.goto("/admin/login");
  const google = page.locator(".google-button");
  const account = google.getByLabel("Google-konto (utveckling)");
  await account.waitFor();
  // The stand-in's default account is the development admin.
  expect(await account.inputValue()).toBe("arrangor@example.se");
  await account.fill(email);
  const authenticated = page.waitForResponse((r) => new URL(r.url()).pathname === "/admin/api/authenticate");
  await google.getByRole("button", { name: "Logga in med Google" }).click();
  const response = await authenticated;
  const credential = (response.request().postDataJSON() as { credential: string }).credential;
  return { response, credential };
}

test("the sign-in page shows the Google button and, in development, the developer form", async () => {
  const page = await open("desktop");
  const log = requestLog(page);
  await page.goto("/admin/login");
  await page.getByRole("button", { name: "Logga in med Google" }).waitFor();
  await page.getByRole("button", { name: "Logga in (utveckling)" }).waitFor();
  expect(await page.getByLabel("E-postadress").inputValue()).toBe("arrangor@example.se");
  // Development loads the Worker's stand-in for Google's script, once, and nothing from Google.
  expect(log.filter((r) => r === "GET /dev/gsi/client")).toHaveLength(1);
});

test("the Google button lets the organiser into the admin shell through /admin/api/authenticate", async () => {
  const page = await open("desktop");
  const log = requestLog(page);
  const { response, credential } = await signInWithGoogle(page, "arrangor@example.se");
  expect(response.status()).toBe(200);
  // A Google-shaped ID token for this site's client id, as Google Identity Services hands the page.
  const config = (await (await fetch(`${baseURL}/api/config`)).json()) as { googleClientId: string };
  expect(jwtPayload(credential)).toMatchObject({
    email: "arrangor@example.se",
    email_verified: true,
    aud: config.googleClientId,
    iss: "https://accounts.google.com",
  });

  await page.waitForURL("**/admin/list-by-race");
  await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
  expect(
    await page.getByRole("tablist", { name: "Adminsidor" }).getByRole("tab", { selected: true }).textContent(),
  ).toBe("Anmälningar");
  expect(log).toEqual(
    expect.arrayContaining(["GET /dev/gsi/client", "POST /dev/google-token", "POST /admin/api/authenticate"]),
  );
  expect(log).not.toContain("POST /admin/api/dev-login");
});

test("the Google button refuses an account that is not an admin with 'Ej admin!'", async () => {
  const page = await open("desktop");
  const { response } = await signInWithGoogle(page, "besokare@example.se");
  expect(response.status()).toBe(401);
  await page.getByRole("alert").filter({ hasText: "Ej admin!" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/admin/login");

  await page.goto("/admin/list-by-race");
  await page.waitForURL("**/admin/login");
  expect(await page.getByRole("heading", { name: "Admin Panel" }).count()).toBe(0);
});

test("Google's script loads on the sign-in page only", async () => {
  const page = await open("desktop");
  const log = requestLog(page);
  for (const path of ["/", "/startlistor", "/anmalan", "/galleri/2024"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(log.filter((r) => r.includes("/gsi/"))).toEqual([]);
  // Reached inside the app, too, the page asks for it.
  await page.evaluate(() => {
    history.pushState(null, "", "/admin/login");
    dispatchEvent(new PopStateEvent("popstate"));
  });
  await page.getByRole("button", { name: "Logga in med Google" }).waitFor();
  expect(log.filter((r) => r.includes("/gsi/"))).toEqual(["GET /dev/gsi/client"]);
});

test("an unknown admin address says so inside the admin shell, with a way back", async () => {
  const page = await open("desktop");
  await signInAsDevAdmin(page);

  await page.goto("/admin/finns-inte/alls");
  await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
  const notFound = page.getByRole("heading", { level: 2, name: "Sidan finns inte" });
  await notFound.waitFor();
  expect(await page.title()).toMatch(/^Sidan finns inte/);

  await page.getByRole("link", { name: "Till adminpanelen" }).click();
  await page.waitForURL("**/admin/list-by-race");
  await notFound.waitFor({ state: "detached" });
});

test("a deep link gets the empty app shell, not the landing page's pre-rendered HTML", async () => {
  const landing = await (await fetch(`${baseURL}/`, { headers: NAVIGATION_HEADERS })).text();
  expect(landing).toContain(SEASON.siteName);
  expect(landing).toContain("Avgifter");

  const res = await fetch(`${baseURL}/anmalan/2`, { headers: NAVIGATION_HEADERS });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toMatch(/<script type="module"[^>]* src="\/assets\/[^"]+\.js"/);
  expect(html).not.toContain("Avgifter");
  expect(html).not.toContain("<h1");

  // The app starts on the registration screen there: without a session, step 1 with the e-mail field.
  const page = await open("phone");
  await page.goto("/anmalan/2");
  await page.waitForURL("**/anmalan/1");
  await page.getByRole("textbox", { name: /e-post/i }).waitFor();
  expect(await page.locator(".hero").count()).toBe(0);
});

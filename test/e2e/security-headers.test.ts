/**
 * The browser's own defences, read from `npm start`'s server (the production bundle on workerd): the Worker's
 * answers (its middleware) and the static assets served without it (the built `_headers` file) carry the same
 * security headers; every inline script of a served page is one the policy allows by hash (or a JSON data
 * block); and in Chromium the pages still work under the policy, with no Content Security Policy violation and no
 * rejected Permissions-Policy feature reported: every journey of the browser files checks that on each page it opens
 * (`contextsStayOnSite`, browser.ts), and this file opens the admin screens no journey does. A deliberate inline
 * script shows the detector itself reports one. The admin area's documents (deep links, and the start pages the
 * assets serve from the built `_headers`) alone may use the camera and show `blob:` images, and the public site's
 * 'Admin' link loads such a document.
 */
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import {
  contextsStayOnSite,
  launchBrowser,
  NAVIGATION_HEADERS,
  phoneContext,
  POLICY_REPORT,
  signInAsDevAdmin,
} from "./browser";

const baseURL = e2eBaseURL();

const SECURITY_HEADERS = [
  "content-security-policy",
  "x-content-type-options",
  "referrer-policy",
  "permissions-policy",
] as const;

async function head(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, baseURL), { headers, redirect: "manual" });
  const body = await res.text();
  return { res, body };
}

/** The pages the Worker answers itself, and the SPA shell the assets serve for any other address. */
const WORKER_PAGES = ["/", "/banor", "/resultat", "/startlistor", "/galleri", "/galleri/2019", "/tidtagning"];
const SHELL_PAGES = ["/anmalan", "/admin/race", "/kvitto/0123456789ABCDEF0123456789ABCDEF"];

describe("security headers from npm start", () => {
  test("the Worker's answers and the static assets carry the same headers; no HSTS over http", async () => {
    const shell = await head("/anmalan/2", NAVIGATION_HEADERS);
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(shell.body)?.[1];
    expect(entry).toBeTruthy();
    const answers = {
      "landing page (Worker)": await head("/", NAVIGATION_HEADERS),
      "pre-rendered page (Worker)": await head("/banor", NAVIGATION_HEADERS),
      "config (Worker)": await head("/api/config"),
      "unknown API path (Worker)": await head("/api/nothing-here"),
      "SPA shell for a deep link (Worker)": shell,
      "entry script (assets)": await head(entry!),
      "icon (assets)": await head("/favicon.svg"),
    };
    // The admin area's documents: deep links (the Worker, from the address) and its start pages the assets serve
    // by themselves, which the admin service worker keeps (the built `_headers`' /admin/* rule).
    const admin = {
      "admin deep link (Worker)": await head("/admin/race/race-250913-56", NAVIGATION_HEADERS),
      "admin (Worker)": await head("/admin", NAVIGATION_HEADERS),
      "admin start page (assets)": await head("/admin/_shell", NAVIGATION_HEADERS),
      "race screen's start page (assets)": await head("/admin/_race-shell", NAVIGATION_HEADERS),
    };
    const policies = { public: new Set<string>(), admin: new Set<string>() };
    for (const [area, group] of [
      ["public", answers],
      ["admin", admin],
    ] as const) {
      for (const [what, { res, body }] of Object.entries(group)) {
        if (area === "admin") {
          expect(res.status, what).toBe(200);
          expect(body, what).toContain('<div id="root">');
        }
        for (const name of SECURITY_HEADERS) expect(res.headers.get(name), `${what}: ${name}`).toBeTruthy();
        expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
        expect(res.headers.get("strict-transport-security"), what).toBeNull();
        policies[area].add(`${res.headers.get("content-security-policy")}\n${res.headers.get("permissions-policy")}`);
      }
    }
    // One policy for each area, whichever of the two served the answer.
    expect(policies.public.size).toBe(1);
    expect(policies.admin.size).toBe(1);
    const [csp, permissions] = [...policies.public][0]!.split("\n") as [string, string];
    const [adminCsp, adminPermissions] = [...policies.admin][0]!.split("\n") as [string, string];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://localhost:* `);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Only the admin area may use the camera (Målfoto, the bib desk) and show blob: images; nothing else differs.
    expect(permissions).toContain("camera=()");
    expect(adminPermissions).toBe(permissions.replace("camera=()", "camera=(self)"));
    expect(csp).toMatch(/img-src 'self' data:;/);
    expect(adminCsp).toBe(csp.replace("img-src 'self' data:", "img-src 'self' data: blob:"));
  });

  test("every inline script of a served page is allowed by its hash, or is a JSON data block", async () => {
    const { res } = await head("/", NAVIGATION_HEADERS);
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get("content-security-policy")!)![1]!.split(" ");
    let inline = 0;
    for (const path of [...WORKER_PAGES, ...SHELL_PAGES, "/allmanna-villkor"]) {
      const { body } = await head(path, NAVIGATION_HEADERS);
      for (const [, attributes = "", text = ""] of body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/\ssrc=/.test(attributes) || /type="application\/json"/.test(attributes)) continue;
        inline++;
        const hash = `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
        expect(scriptSrc, `${path}: <script${attributes}>${text.slice(0, 60)}…`).toContain(hash);
      }
    }
    // The pre-rendered pages each have their loader: the check above saw real scripts.
    expect(inline).toBeGreaterThanOrEqual(WORKER_PAGES.length);
  });
});

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

let browser: Browser;
const onSite = contextsStayOnSite();

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A phone context that records policy violations (event and console) and rejected permission features. `watched`
 * contexts also go through `contextsStayOnSite` (browser.ts), which fails the test on any such report; the detector's
 * own test, which causes one on purpose, uses a context of its own.
 */
async function watchedContext(watched = true): Promise<{ context: BrowserContext; page: Page; reported: string[] }> {
  const context = await phoneContext(browser, baseURL);
  if (watched) onSite(context, baseURL);
  // An init script is the browser's own, not the page's: the policy does not apply to it.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = await context.newPage();
  const reported: string[] = [];
  page.on("console", (message) => {
    if (POLICY_REPORT.test(message.text())) reported.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (err) => reported.push(`${page.url()}: ${err.message}`));
  return { context, page, reported };
}

/** Opens `path` as a new document, waits until it has settled, and answers what was reported on it. */
async function visit(page: Page, path: string, ready?: (page: Page) => Promise<unknown>): Promise<string[]> {
  const response = await page.goto(path, { waitUntil: "networkidle" });
  expect(response?.headers()["content-security-policy"], path).toBeTruthy();
  if (ready) await ready(page);
  expect((await page.locator("#root").innerText()).trim(), path).not.toBe("");
  return page.evaluate(() => window.__cspViolations.map((v) => `${location.pathname}: ${v}`));
}

/**
 * The admin screens no other watched browser file opens. Every other page is checked where a journey opens it: each
 * file that hands its contexts to `contextsStayOnSite` (browser.ts) fails on a policy violation or a refused feature
 * on any page it opens (public-site.test.ts opens every public page; the admin screens each have their file).
 */
const ADMIN_SCREENS: [string, ((page: Page) => Promise<unknown>)?][] = [["/admin/epassi"], ["/admin/kampanjkoder"]];

describe("every page works under the policy (Chromium)", () => {
  test("the detector reports an inline script the policy refuses", async () => {
    const { context, page, reported } = await watchedContext(false);
    await visit(page, "/allmanna-villkor");
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__ranInline = true";
      document.body.append(script);
    });
    await expect.poll(() => page.evaluate(() => window.__cspViolations.length)).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __ranInline?: boolean }).__ranInline)).toBeUndefined();
    await expect.poll(() => reported.some((r) => /Content Security Policy/.test(r))).toBe(true);
    await context.close();
  });

  test("the camera only in the admin area's documents; the public site's 'Admin' link loads one", async () => {
    const { page, reported } = await watchedContext();
    // Wide enough for the top bar's menu (a phone has it in the drawer).
    await page.setViewportSize({ width: 1280, height: 800 });
    const camera = () =>
      page.evaluate(() => {
        const policy = (document as Document & { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy;
        return policy ? policy.allowsFeature("camera") : "no featurePolicy";
      });
    await visit(page, "/");
    expect(await camera()).toBe(false);
    await signInAsDevAdmin(page);
    expect(await camera()).toBe(true);
    // Back on the public site in a new document, an admin follows 'Admin' in the menu: a new document again (a move
    // inside the public one would keep its policy, and the bib desk's and Målfoto's camera would be refused).
    await visit(page, "/banor", (p) => p.locator(".leaflet-container").waitFor());
    expect(await camera()).toBe(false);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.locator(".top-bar").getByRole("link", { name: "Admin" }).click();
    await page.waitForURL("**/admin/list-by-race");
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBeUndefined();
    expect(await camera()).toBe(true);
    expect(reported).toEqual([]);
  });

  test("the admin screens no journey opens, signed in: no violation, nothing refused", async () => {
    const { page, reported } = await watchedContext();
    await signInAsDevAdmin(page);
    const violations: string[] = [];
    for (const [path, ready] of ADMIN_SCREENS) violations.push(...(await visit(page, path, ready)));
    expect(violations).toEqual([]);
    expect(reported).toEqual([]);
  });
});

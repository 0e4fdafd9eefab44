/**
 * A deploy while a timing phone has the race screen open (docs/race-day.md, "How a deploy reaches the phones"): the phone
 * runs the old build with its service worker and a finish waiting in its queue; a new build goes live on the same
 * server and state, behind the same address; the phone's browser finds the new worker, which takes over and drops
 * the old files; the phone then opens a screen whose old chunk is gone, and reloads once onto the new code, the
 * queued finish still there, which reaches the server once.
 *
 * The new build is the current one with every built file renamed (as a new build's hashes would be) and its
 * service workers and start pages made again by scripts/service-workers.mjs. It goes live by replacing the files of
 * the copy of the build this file's server serves (`e2eDistDir()`, global-setup.ts), which wrangler dev sees and
 * reloads the Worker and its files for, its state kept; when done the old build goes back the same way. With
 * E2E_BASE_URL (no copy to deploy onto) the file starts a server of its own on a copy.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLocalServer } from "../../scripts/lib/server.mjs";
import { raceId } from "../../src/shared/race-id";
import type { RaceAuditEvent, RaceRecord, RaceSnapshot } from "../../src/shared/race-protocol";
import { launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { startProxy, type TestProxy } from "./proxy";
import { e2eBaseURL, e2eDistDir } from "./server-url";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HEADERS = { "x-loppet-client": "1" };

let browser: Browser;
let proxy: TestProxy;
let work: string;
/** The build this file's server serves, which a deploy replaces. */
let served = e2eDistDir();
let serverURL = e2eBaseURL();
let ownServer: Awaited<ReturnType<typeof startLocalServer>> | undefined;
/** The build as it was, put back when done. */
let before: string;
let nextBuild: string;

/** Every file under dir, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(dir, f)).isFile());
}

/** dist/ as the next deploy: every built file under a new name, and everything that names them rewritten. */
function makeNextBuild(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const renamed = new Map<string, string>();
  for (const file of filesUnder(path.join(to, "client", "assets"))) {
    const name = path.basename(file);
    if (!/\.(js|css)$/.test(name)) continue;
    const next = name.replace(/\.(js|css)$/, "-v2.$1");
    const at = path.join(to, "client", "assets", file);
    renameSync(at, path.join(path.dirname(at), next));
    renamed.set(name, next);
  }
  const named = [
    ...filesUnder(path.join(to, "client")).map((f) => path.join(to, "client", f)),
    path.join(to, "vite-manifest.json"),
  ];
  for (const file of named) {
    if (!/\.(js|css|html|json)$/.test(file)) continue;
    const text = readFileSync(file, "utf8");
    let next = text;
    for (const [from, into] of renamed) next = next.replaceAll(from, into);
    if (next !== text) writeFileSync(file, next);
  }
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "service-workers.mjs"), to], { cwd: ROOT });
}

/**
 * Puts `build` where the server reads its build, in the order a deploy makes it safe: the new build's own files
 * first (nothing served names them yet), then the files that differ (the pages and service workers that name them),
 * then the old files go. Resolves once the server serves it: `live` accepts its admin page and a file it dropped is
 * gone.
 */
async function deploy(build: string, live: (html: string) => boolean): Promise<void> {
  const next = filesUnder(build);
  const old = filesUnder(served);
  const same = (file: string) =>
    existsSync(path.join(served, file)) &&
    readFileSync(path.join(served, file)).equals(readFileSync(path.join(build, file)));
  const fresh = next.filter((file) => !existsSync(path.join(served, file)));
  const changed = next.filter((file) => !fresh.includes(file) && !same(file));
  for (const file of [...fresh, ...changed]) {
    mkdirSync(path.dirname(path.join(served, file)), { recursive: true });
    copyFileSync(path.join(build, file), path.join(served, file));
  }
  const dropped = old.filter((file) => !next.includes(file));
  for (const file of dropped) rmSync(path.join(served, file));
  const droppedAsset = dropped.find((file) => file.startsWith(path.join("client", "assets") + path.sep))!;
  // Polled by hand: the old build also goes back in afterAll, where expect.poll cannot run.
  const asset = `/${path.relative("client", droppedAsset)}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = live(await (await fetch(`${serverURL}/admin/`)).text());
    const status = (await fetch(`${serverURL}${asset}`)).status;
    if (page && status === 404) return;
    if (Date.now() > deadline)
      throw new Error(`Bygget syns inte efter 30 s: adminsidan ${page ? "rätt" : "fel"}, ${asset} ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const isNext = (html: string) => html.includes("-v2.js");

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "loppet-deploy-"));
  if (!served) {
    served = path.join(work, "dist");
    cpSync(path.join(ROOT, "dist"), served, { recursive: true });
    ownServer = await startLocalServer({ distDir: served });
    serverURL = ownServer.baseURL;
  }
  before = path.join(work, "dist-before");
  cpSync(served, before, { recursive: true });
  nextBuild = path.join(work, "dist-next");
  makeNextBuild(served, nextBuild);
  browser = await launchBrowser();
  proxy = await startProxy(Number(new URL(serverURL).port));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  // The old build back, for the files after this one on the same server.
  if (before && !ownServer) await deploy(before, (html) => !isNext(html));
  await ownServer?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function createRace(page: Page): Promise<RaceRecord> {
  for (;;) {
    const day = `20${40 + Math.floor(Math.random() * 59)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
    const distance = 100 * (1 + Math.floor(Math.random() * 9_000));
    const res = await page.request.post(`/admin/api/races/create-race/${raceId(day, distance)}`, {
      headers: HEADERS,
      data: { date: day, distance, openForReg: false },
    });
    if (res.status() === 409) continue;
    expect(res.status()).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

const entryScript = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/"]')?.src ?? "");

test("a deploy mid-race: the phone reloads once onto the new code, its queued finish kept and sent once", async () => {
  const context = await phoneContext(browser, proxy.baseURL, { viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await signInAsDevAdmin(page);
  const race = await createRace(page);
  for (const [i, firstname] of ["Alfa", "Bravo"].entries()) {
    const res = await page.request.post(`/admin/api/races/add-runner/${race.part}`, {
      headers: HEADERS,
      data: { firstname, lastname: "Testsson", age: 30, bib: 401 + i, group: "Ingen", company: "" },
    });
    expect(res.status()).toBe(200);
  }
  expect((await page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  await page.goto(`/admin/race/${race.part}`);
  await page.getByText("socket ansluten").waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 40_000 });
  expect(await entryScript(page)).not.toContain("-v2");

  // The finish call fails for now (the server is busy): the tap waits in the queue.
  proxy.fail(/^\/admin\/api\/races\/finish\//);
  await page.locator(".tile-cell").filter({ hasText: "Alfa" }).locator(".tile").click();
  await page.getByText("Ej skickade måltider: 1").waitFor();

  // The deploy: the new build goes live on the same server and state, behind the same address.
  await deploy(nextBuild, isNext);

  // The browser looks for a new worker (it does on every load; here without one): the new one takes over.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true });
        void navigator.serviceWorker.getRegistration().then((r) => r?.update().catch(reject));
      }),
  );

  // The old files may live on in the browser's HTTP cache (the old worker fetched them through it); a phone's
  // cache is small and gets emptied, and here it is, so the old chunk is gone from everywhere.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");

  let loads = 0;
  page.on("load", () => loads++);
  // The hub's chunk was never loaded by this page, and the old one is gone: one reload, onto the new code.
  await page.getByRole("link", { name: "← Alla lopp" }).click();
  await expect.poll(() => entryScript(page), { timeout: 20_000 }).toContain("-v2");
  const raceLink = page.getByRole("link", { name: new RegExp(race.part) });
  await raceLink.waitFor();
  expect(loads).toBe(1);
  expect(new URL(page.url()).pathname).toBe("/admin/race");

  await raceLink.click();
  await page.getByText("Ej skickade måltider: 1").waitFor();

  proxy.fail(null);
  await page.getByText(/Ej skickade måltider/).waitFor({ state: "detached", timeout: 20_000 });
  const [, ...runners] = (await (await page.request.get(`/admin/api/races/get/${race.part}`)).json()) as RaceSnapshot;
  expect(runners.find((r) => r.firstname === "Alfa")!.finished).not.toBeNull();
  const audit = (await (await page.request.get(`/admin/api/races/audit/${race.part}`)).json()) as RaceAuditEvent[];
  expect(audit.filter((e) => e.type === "finish")).toHaveLength(1);
  await context.close();
}, 300_000);

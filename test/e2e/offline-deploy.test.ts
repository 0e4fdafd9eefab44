/**
 * A deploy while a timing phone has the race screen open (docs/race-day.md, "How a deploy reaches the phones"): the phone
 * runs the old build with its service worker and a finish waiting in its queue; a new build goes live (its own
 * server on the same state, behind the same address); the phone's browser finds the new worker, which takes over
 * and drops the old files; the phone then opens a screen whose old chunk is gone, and reloads once onto the new
 * code, the queued finish still there, which reaches the server once.
 *
 * The new build is the current one with every built file renamed (as a new build's hashes would be) and its
 * service workers and start pages made again by scripts/service-workers.mjs. This file starts its own two servers.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLocalServer } from "../../scripts/lib/server.mjs";
import { raceId } from "../../src/shared/race-id";
import type { RaceAuditEvent, RaceRecord, RaceSnapshot } from "../../src/shared/race-protocol";
import { launchBrowser, phoneContext, signInAsDevAdmin } from "./browser";
import { startProxy, type TestProxy } from "./proxy";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HEADERS = { "x-loppet-client": "1" };

type Server = Awaited<ReturnType<typeof startLocalServer>>;

let browser: Browser;
let proxy: TestProxy;
let work: string;
let stateDir: string;
let nextBuild: string;
const servers: Server[] = [];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** dist/ as the next deploy: every built file under a new name, and everything that names them rewritten. */
function makeNextBuild(to: string): void {
  cpSync(path.join(ROOT, "dist"), to, { recursive: true });
  const renamed = new Map<string, string>();
  for (const file of filesUnder(path.join(to, "client", "assets"))) {
    const name = path.basename(file);
    if (!/\.(js|css)$/.test(name)) continue;
    const next = name.replace(/\.(js|css)$/, "-v2.$1");
    renameSync(file, path.join(path.dirname(file), next));
    renamed.set(name, next);
  }
  for (const file of [...filesUnder(path.join(to, "client")), path.join(to, "vite-manifest.json")]) {
    if (!/\.(js|css|html|json)$/.test(file)) continue;
    const text = readFileSync(file, "utf8");
    let next = text;
    for (const [from, into] of renamed) next = next.replaceAll(from, into);
    if (next !== text) writeFileSync(file, next);
  }
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "service-workers.mjs"), to], { cwd: ROOT });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "loppet-deploy-"));
  stateDir = path.join(work, "state");
  nextBuild = path.join(work, "dist-next");
  makeNextBuild(nextBuild);
  browser = await launchBrowser();
  servers.push(await startLocalServer({ build: false, stateDir }));
  proxy = await startProxy(Number(new URL(servers[0]!.baseURL).port));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  for (const server of servers) await server.stop();
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

  // The deploy: the old server goes, the new build comes up on the same state behind the same address. A real
  // deploy keeps the real clock; these servers keep a clock of their own that starts at NOW when they come up, so
  // the new one starts where the old one is, plus a minute (its start-up), never behind the tap just made.
  const { serverTime } = (await (await page.request.get("/api/config")).json()) as { serverTime: number };
  await servers[0]!.stop();
  servers.push(
    await startLocalServer({ distDir: nextBuild, stateDir, now: new Date(serverTime + 60_000).toISOString() }),
  );
  proxy.switchTo(Number(new URL(servers[1]!.baseURL).port));

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

/**
 * Race day with phones cut off for real (issue 23): each phone is its own Chromium behind its own small proxy
 * (phone-proxy.ts), and a test cuts a phone off by stopping its proxy, so its socket dies and its calls fail the
 * way they do out of coverage (not the browser's offline emulation).
 *
 * - Phone B, cut off, presses 'Starta' and taps three finishers while phone A stays online; back online, the race
 *   started at B's moment and each finish is there once. Then a tap the race could not take (its runner marked as
 *   not started on A meanwhile) lands under 'Att granska' on both phones and is applied on one.
 * - Two phones press 'Starta' for the same gun: one start, and the second phone says so.
 * - A queued tap the server refuses outright stays on the phone with the server's words; only a person discards
 *   it, behind a confirmation.
 * - Phone B misses A's start: its tile tap queues a finish (no bib prompt), which counts once B is back.
 * - Two tabs of one race on one phone share one queue: a tap in each while cut off, both counted in both tabs,
 *   each sent once. A tap left by a closed race tab goes out from another admin screen of the phone.
 * - One phone: the race screen loaded, the phone cut off, the page reloaded, a tap, the phone back: the tap arrives
 *   once. The reload without a network needs the service worker (another change, issue 23 item 11): until it is
 *   part of the site, this test skips itself, and it runs as soon as the page registers one.
 *
 * These need the race object of issue 23 (202 answers, the review list, same-start); E2E_SCREENSHOTS=<dir> saves
 * the review list at 390 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import type { RaceAuditEvent, RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { contextsStayOnSite, launchBrowser } from "./browser";
import { startPhoneProxy, type PhoneProxy } from "./phone-proxy";
import { addRunner, adminPhone, createRace, getRace, HEADERS, openRace, resultBibs, tile } from "./race-day-support";

const baseURL = e2eBaseURL();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

const browsers: Browser[] = [];
let proxies: PhoneProxy[] = [];
const onSite = contextsStayOnSite();

beforeAll(async () => {
  // One browser per phone: nothing (connections, caches, storage) is shared between them.
  browsers.push(await launchBrowser(), await launchBrowser());
});

afterEach(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  proxies = [];
});

afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
});

interface Phone {
  page: Page;
  proxy: PhoneProxy;
}

async function phone(n: 0 | 1): Promise<Phone> {
  const proxy = await startPhoneProxy(baseURL);
  proxies.push(proxy);
  return { page: await adminPhone(browsers[n]!, proxy.baseURL, onSite), proxy };
}

async function cutOff({ page, proxy }: Phone): Promise<void> {
  await proxy.cut();
  await page.getByText("socket stängd").waitFor();
}

async function backOnline({ page, proxy }: Phone): Promise<void> {
  await proxy.restore();
  // The socket retries every 5 s; the queue is sent as soon as it is open again.
  await page.getByText("socket ansluten").waitFor({ timeout: 20_000 });
}

/** What the phone's stored queue holds for a race (its v2 form). */
function storedItems(page: Page, part: string) {
  return page.evaluate((key) => {
    const text = localStorage.getItem(key);
    return text
      ? (JSON.parse(text) as { items: { kind: string; tap: string; at: number; sort?: string }[] }).items
      : [];
  }, `race-day:taps:${part}`);
}

async function audit(page: Page, part: string): Promise<RaceAuditEvent[]> {
  const res = await page.request.get(`/admin/api/races/audit/${part}?limit=5000`);
  expect(res.status()).toBe(200);
  return (await res.json()) as RaceAuditEvent[];
}

const runnerNamed = async (page: Page, part: string, firstname: string) =>
  (await getRace(page, part)).find((r) => r.sort !== "race" && (r as RunnerRecord).firstname === firstname) as
    RunnerRecord | undefined;

const finishesOf = (events: RaceAuditEvent[], id: string) =>
  events.filter((e) => e.type === "finish" && (JSON.parse(e.payload) as { id: string }).id === id);

test("B offline starts and times three; A online; B back: B's start, each finish once; then 'Att granska' on both", async () => {
  const a = await phone(0);
  const b = await phone(1);
  const race = await createRace(a.page);
  const runners = new Map<string, RunnerRecord>();
  for (const [i, name] of ["Alfa", "Bravo", "Charlie", "Delta", "Echo"].entries()) {
    runners.set(name, await addRunner(a.page, race.part, name, i + 1));
  }
  await openRace(a.page, race.part);
  await openRace(b.page, race.part);

  await cutOff(b);
  await b.page.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await b.page.getByText("Start ej skickad").waitFor();
  await b.page.getByRole("timer").waitFor();
  for (const name of ["Alfa", "Bravo", "Charlie"]) await tile(b.page, name).locator(".tile").click();
  await b.page.getByText("Ej skickade måltider: 3").waitFor();
  expect(await resultBibs(b.page)).toEqual(["1", "2", "3"]);
  const queued = await storedItems(b.page, race.part);
  expect(queued.map((i) => i.kind)).toEqual(["start", "finish", "finish", "finish"]);
  // A hears nothing of it meanwhile.
  expect(await a.page.getByRole("button", { name: "Starta (0 i mål)" }).count()).toBe(1);

  await backOnline(b);
  await b.page.getByText(/Ej skickade|Start ej skickad/).waitFor({ state: "detached", timeout: 20_000 });
  await expect.poll(() => resultBibs(a.page), { timeout: 15_000 }).toEqual(["1", "2", "3"]);

  const [record, ...after] = (await getRace(a.page, race.part)) as [RaceRecord, ...RunnerRecord[]];
  expect(record.started).toBe(queued[0]!.at);
  for (const item of queued.slice(1)) {
    expect(after.find((r) => r.sort === item.sort)?.finished).toBe(item.at);
  }
  const events = await audit(a.page, race.part);
  expect(events.filter((e) => e.type === "start")).toHaveLength(1);
  for (const name of ["Alfa", "Bravo", "Charlie"]) expect(finishesOf(events, runners.get(name)!.id)).toHaveLength(1);
  expect(await storedItems(b.page, race.part)).toEqual([]);

  // A tap the race cannot take: B, cut off, times Delta, whom A marks as not started meanwhile.
  await cutOff(b);
  await tile(b.page, "Delta").locator(".tile").click();
  await b.page.getByText("Ej skickade måltider: 1").waitFor();
  const [deltaTap] = await storedItems(b.page, race.part);
  await a.page.getByRole("button", { name: "Fler val för Delta Testsson" }).click();
  await a.page
    .getByRole("dialog", { name: "Delta Testsson" })
    .getByRole("button", { name: "Markera ej start" })
    .click();
  await a.page.getByRole("dialog").waitFor({ state: "detached" });
  await backOnline(b);

  await b.page.getByText(/^Till granskning: /).waitFor({ timeout: 20_000 });
  await b.page.getByText(/Ej skickade/).waitFor({ state: "detached" });
  expect(await storedItems(b.page, race.part)).toEqual([]);
  for (const { page } of [a, b]) {
    const list = page.locator(".race-review");
    await list.getByRole("heading", { name: "Att granska (1)" }).waitFor({ timeout: 15_000 });
    await list.getByText(/^Måltid \d\d:\d\d:\d\d för Delta Testsson \(4\)$/).waitFor();
  }
  await b.page
    .locator(".race-review .review-meta")
    .getByText(/den här telefonen/)
    .waitFor();
  await expect.poll(() => a.page.locator(".race-review .review-meta").textContent()).toMatch(/telefon \d/);
  if (SCREENSHOTS) await a.page.locator(".race-review").screenshot({ path: `${SCREENSHOTS}/race-review-list-390.png` });

  await a.page
    .locator(".race-review")
    .getByRole("button", { name: /^Använd: / })
    .click();
  for (const { page } of [a, b]) {
    await page.locator(".race-review").waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => resultBibs(page)).toEqual(["1", "2", "3", "4"]);
  }
  // Applied with its original moment.
  expect((await runnerNamed(a.page, race.part, "Delta"))?.finished).toBe(deltaTap!.at);
});

test("B misses A's start: a tile tap while cut off queues a finish, no bib prompt; it counts once B is back", async () => {
  const a = await phone(0);
  const b = await phone(1);
  const race = await createRace(a.page);
  await addRunner(a.page, race.part, "Alfa", 1);
  await addRunner(a.page, race.part, "Bravo", 2);
  await openRace(a.page, race.part);
  await openRace(b.page, race.part);

  await cutOff(b);
  await a.page.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await a.page.getByRole("timer").waitFor();
  // B still shows the race as not started, but it knows it may have missed the start.
  expect(await b.page.getByRole("button", { name: "Starta (0 i mål)" }).count()).toBe(1);
  await tile(b.page, "Alfa").locator(".tile").click();
  expect(await b.page.getByRole("dialog").count()).toBe(0);
  await b.page.getByText("Ej skickade måltider: 1").waitFor();
  const [tap] = await storedItems(b.page, race.part);
  expect(tap).toMatchObject({ kind: "finish", sort: `runner-${(await runnerNamed(a.page, race.part, "Alfa"))!.id}` });

  await backOnline(b);
  await b.page.getByText(/Ej skickade/).waitFor({ state: "detached", timeout: 20_000 });
  await b.page.locator(".race-state").filter({ hasText: "Startat" }).waitFor();
  // The count leaves the screen while the press is on its way; the server has it a moment later.
  await expect.poll(async () => (await runnerNamed(a.page, race.part, "Alfa"))?.finished).toBe(tap!.at);
  await expect.poll(() => resultBibs(a.page)).toEqual(["1"]);
});

test("two phones press 'Starta' for the same gun: one start (the first), and the second phone says so", async () => {
  const a = await phone(0);
  const b = await phone(1);
  const race = await createRace(a.page);
  await addRunner(a.page, race.part, "Alfa", 1);
  await openRace(a.page, race.part);
  await openRace(b.page, race.part);
  // B cannot hear A's start before pressing its own.
  await cutOff(b);
  await a.page.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await b.page.getByRole("button", { name: "Starta (0 i mål)" }).click();
  await a.page.getByText(/Start ej skickad/).waitFor({ state: "detached" });
  const started = (await getRace(a.page, race.part))[0].started;
  await backOnline(b);
  await b.page
    .getByText(/^Samma start som en annan telefon: starten \d\d:\d\d:\d\d gäller\.$/)
    .waitFor({ timeout: 20_000 });
  expect((await getRace(a.page, race.part))[0].started).toBe(started);
  const events = await audit(a.page, race.part);
  expect(events.filter((e) => e.type === "start")).toHaveLength(1);
  expect(events.filter((e) => e.type === "same-start")).toHaveLength(1);
});

test("a queued tap the server refuses stays with its words until a person discards it (confirmed)", async () => {
  const p = await phone(0);
  const race = await createRace(p.page);
  const alfa = await addRunner(p.page, race.part, "Alfa", 1);
  const bravo = await addRunner(p.page, race.part, "Bravo", 2);
  expect((await p.page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  // A tap id already used for Alfa, queued again for Bravo (a corrupted queue): the server refuses it (409).
  const used = "tapreused0001";
  // No moment: the server takes its own now (the test server's clock is not this machine's).
  const finish = `/admin/api/races/finish/${race.part}/${alfa.sort}?tap=${used}`;
  expect((await p.page.request.get(finish, { headers: HEADERS })).status()).toBe(200);
  await p.page.goto("/admin/race");
  const { serverTime } = (await (await p.page.request.get("/api/config")).json()) as { serverTime: number };
  await p.page.evaluate(([key, item]) => localStorage.setItem(key, JSON.stringify({ v: 2, items: [item], done: [] })), [
    `race-day:taps:${race.part}`,
    { kind: "finish", tap: used, sort: bravo.sort, at: serverTime, rerecord: false },
  ] as const);
  await openRace(p.page, race.part);
  const refused = p.page.locator(".refused-taps");
  await refused.getByText(/^Måltid \d\d:\d\d:\d\d för Bravo Testsson \(2\)$/).waitFor({ timeout: 15_000 });
  expect(await refused.locator(".review-reason").textContent()).not.toBe("");
  await p.page.getByText("Ej skickade måltider: 1").waitFor();
  expect(await storedItems(p.page, race.part)).toHaveLength(1);
  if (SCREENSHOTS) await p.page.screenshot({ path: `${SCREENSHOTS}/race-refused-tap-390.png` });

  await refused.getByRole("button", { name: /^Kasta: / }).click();
  const confirm = p.page.getByRole("dialog", { name: "Kasta den här tiden?" });
  await confirm.getByRole("button", { name: "Behåll" }).click();
  expect(await storedItems(p.page, race.part)).toHaveLength(1);
  await refused.getByRole("button", { name: /^Kasta: / }).click();
  await confirm.getByRole("button", { name: "Kasta" }).click();
  await refused.waitFor({ state: "detached" });
  expect(await storedItems(p.page, race.part)).toEqual([]);
  expect((await runnerNamed(p.page, race.part, "Bravo"))?.finished).toBeNull();
});

test("two tabs of one race share one queue: a tap in each, both counted in both, each sent once", async () => {
  const p = await phone(0);
  const race = await createRace(p.page);
  const alfa = await addRunner(p.page, race.part, "Alfa", 1);
  const bravo = await addRunner(p.page, race.part, "Bravo", 2);
  await addRunner(p.page, race.part, "Charlie", 3);
  expect((await p.page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  const second = await p.page.context().newPage();
  await openRace(p.page, race.part);
  await openRace(second, race.part);

  await p.proxy.cut();
  for (const page of [p.page, second]) await page.getByText("socket stängd").waitFor();
  await tile(p.page, "Alfa").locator(".tile").click();
  await tile(second, "Bravo").locator(".tile").click();
  for (const page of [p.page, second]) {
    await page.getByText("Ej skickade måltider: 2").waitFor();
    // Each tab stamps its tap on its own measure of the server's clock, each as far off as its uncertainty (tens of
    // ms just after the socket opened): two taps this close together may be listed either way round.
    expect((await resultBibs(page)).sort()).toEqual(["1", "2"]);
  }
  expect((await storedItems(p.page, race.part)).map((i) => i.sort).sort()).toEqual([alfa.sort, bravo.sort].sort());

  await backOnline(p);
  for (const page of [p.page, second]) {
    await page.getByText(/Ej skickade/).waitFor({ state: "detached", timeout: 20_000 });
  }
  const events = await audit(p.page, race.part);
  expect(finishesOf(events, alfa.id)).toHaveLength(1);
  expect(finishesOf(events, bravo.id)).toHaveLength(1);
});

test("a tap left by a closed race tab goes out from another admin screen", async () => {
  const p = await phone(0);
  const race = await createRace(p.page);
  const alfa = await addRunner(p.page, race.part, "Alfa", 1);
  await addRunner(p.page, race.part, "Bravo", 2);
  expect((await p.page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  const other = await p.page.context().newPage();
  await other.goto("/admin/list-by-race");
  await other.getByRole("heading", { level: 1, name: "Admin Panel" }).waitFor();
  await openRace(p.page, race.part);

  await cutOff(p);
  await tile(p.page, "Alfa").locator(".tile").click();
  await p.page.getByText("Ej skickade måltider: 1").waitFor();
  await p.page.close();
  const note = other.locator(".unsent-note");
  await note.getByRole("link", { name: race.part }).waitFor();
  expect(await note.textContent()).toBe(`Ej skickade tidtagningar: ${race.part} (1)`);
  if (SCREENSHOTS) await other.screenshot({ path: `${SCREENSHOTS}/admin-unsent-note-390.png` });

  await p.proxy.restore();
  await note.waitFor({ state: "detached", timeout: 20_000 });
  expect(finishesOf(await audit(other, race.part), alfa.id)).toHaveLength(1);
});

test("load the race screen, cut the phone off, reload, tap, reconnect: the tap arrives once", async (ctx) => {
  const p = await phone(0);
  const race = await createRace(p.page);
  const alfa = await addRunner(p.page, race.part, "Alfa", 1);
  await addRunner(p.page, race.part, "Bravo", 2);
  expect((await p.page.request.get(`/admin/api/races/start/${race.part}`, { headers: HEADERS })).status()).toBe(200);
  await openRace(p.page, race.part);
  const hasServiceWorker = await p.page.evaluate(async () => {
    const ready = navigator.serviceWorker?.ready.then(() => true);
    return ready ? Promise.race([ready, new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]) : false;
  });
  ctx.skip(!hasServiceWorker, "needs the service worker that serves the race screen offline (issue 23 item 11)");

  await p.proxy.cut();
  await p.page.reload();
  await p.page.getByRole("heading", { level: 2, name: race.part }).waitFor();
  await p.page.getByText("socket stängd").waitFor({ timeout: 15_000 });
  await tile(p.page, "Alfa").locator(".tile").click();
  await p.page.getByText("Ej skickade måltider: 1").waitFor();
  const [tap] = await storedItems(p.page, race.part);

  await backOnline(p);
  await p.page.getByText(/Ej skickade/).waitFor({ state: "detached", timeout: 20_000 });
  expect((await runnerNamed(p.page, race.part, "Alfa"))?.finished).toBe(tap!.at);
  expect(finishesOf(await audit(p.page, race.part), alfa.id)).toHaveLength(1);
});

/**
 * Child-safe publishing (issue 28, item 5) in real Chromium at 390 px. The season setting is off in the suite's
 * servers: this file switches it on for its own server while it runs (POST /dev/season, shared/dev-season.ts; the
 * files of one server run one after another) and back to the build's value when done, and resets the 0.8 race before
 * and after. On the season's 0.8 race a family's two runners finish, the child (11, the oldest age the rule
 * withholds) first and their sibling (12) after: while the race runs the public JSON shows the child as still out;
 * once it has ended, the public JSON, `/resultat` and `/startlistor` show the child as 'Fullföljt' without a time or
 * a placing and the sibling placed first among the published runners; the family's own page (`/anmalan/3`) shows the
 * child's time, the reason it has no placing, and the sibling's placing. No page scrolls sideways.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { WITHHELD_TEXT } from "../../src/shared/child-safe";
import type { PublicRunnerRecord, RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import { contextsStayOnSite, desktopContext, launchBrowser, phoneContext } from "./browser";
import { adminApi, CLIENT, expectNoSidewaysScroll } from "./public-pages";
import { e2eBaseURL } from "./server-url";

const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const PART = `race-${SEASON.raceDay.slice(2).replaceAll("-", "")}-08`;
const TIME = /^\d\d:\d\d\.\d{3}$/;
/** Why the family's page shows no placing for the child (FAMILY_TEXT.withheld in the SPA's family-results-text.ts). */
const WITHHELD_NOTE =
  "Tiden visas bara för er: barn 11 år och yngre placeras inte och syns som 'Fullföljt' i resultatlistan.";

const baseURL = e2eBaseURL();
let browser: Browser;
let admin: BrowserContext;
const onSite = contextsStayOnSite();

/** Turns this server's child-safe publishing on (true) or back to the build's value (null). */
async function childSafe(on: true | null) {
  const res = await admin.request.post("/dev/season", { headers: CLIENT, data: { childSafePublishing: on } });
  expect(res.status()).toBe(200);
}
const resetRace = async () =>
  expect(
    (await admin.request.get(`/admin/api/races/reset/${PART}?confirm=APRAKET`, { headers: CLIENT })).status(),
  ).toBe(200);

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await desktopContext(browser, baseURL);
  await adminApi(admin);
  await childSafe(true);
  await resetRace();
});

afterAll(async () => {
  if (admin) {
    await resetRace();
    await childSafe(null);
  }
  await admin?.close();
  await browser?.close();
});

async function phone(context?: BrowserContext): Promise<Page> {
  const page = await (context ?? onSite(await phoneContext(browser, baseURL, { viewport: PHONE }), baseURL)).newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  pageErrors.set(page, errors);
  return page;
}
const pageErrors = new WeakMap<Page, string[]>();

/** A row's cells as text (the results and the start list are DataGrids: ARIA rows). */
function rowsOf(scope: Locator): Promise<string[][]> {
  return scope
    .locator(".data-grid-block [role='row']:not([hidden])")
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((c) => c.textContent?.trim() ?? "")));
}

const rowOf = (rows: string[][], name: string) => rows.find((r) => r.includes(name));

test("a child's time and placing are absent from the public pages and present on the family's page, at 390 px", async () => {
  // The family: an 11-year-old and a 12-year-old on the 0.8 km, paid through the Swish simulator.
  const family = onSite(await phoneContext(browser, baseURL, { viewport: PHONE }), baseURL);
  const email = `barnsakert-${Date.now()}@example.se`;
  const code = await (await family.request.post("/email", { headers: CLIENT, data: { email } })).json();
  expect(
    (await family.request.post("/code", { headers: CLIENT, data: { email, codeId: code.id, code: code.code } })).ok(),
  ).toBe(true);
  const stamp = Date.now();
  const child = { key: `barn${stamp}`, firstname: "Ellen", lastname: "Wästerberg", age: 11 };
  const sibling = { key: `syskon${stamp}`, firstname: "Sigge", lastname: "Wästerberg", age: 12 };
  const runners = Object.fromEntries(
    [child, sibling].map((r) => [
      r.key,
      { firstname: r.firstname, lastname: r.lastname, age: r.age, company: "", distance: "0.8", group: "Ingen" },
    ]),
  );
  expect((await family.request.post("/update", { headers: CLIENT, data: { version: 0, runners } })).status()).toBe(200);
  const book = await (
    await family.request.post("/book-v2", { headers: CLIENT, data: { barn: 2, vuxna: 0, kampanj: "" } })
  ).json();
  expect(
    (await family.request.post(`/dev/swish/pay/${book.token}`, { headers: CLIENT, data: { status: "PAID" } })).status(),
  ).toBe(200);
  const familyPage = await phone(family);
  await familyPage.goto("/anmalan/3");
  await expect
    .poll(() => familyPage.locator(".runner-paid").allTextContents(), { timeout: 15_000 })
    .toEqual(["Betald", "Betald"]);

  // Race day: the child crosses the line first, the sibling after.
  const raceCall = async (path: string) =>
    (await admin.request.get(`/admin/api/races/${path}`, { headers: CLIENT })).status();
  expect(await raceCall(`start/${PART}`)).toBe(200);
  await expect.poll(() => raceCall(`finish/${PART}/runner-${child.key}`), { timeout: 15_000 }).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await raceCall(`finish/${PART}/runner-${sibling.key}`)).toBe(200);
  const adminView = (await (await admin.request.get(`/admin/api/races/get/${PART}`, { headers: CLIENT })).json()) as [
    RaceRecord,
    ...RunnerRecord[],
  ];
  const childTime = adminView.find((r) => r.sort === `runner-${child.key}`) as RunnerRecord;
  const siblingTime = adminView.find((r) => r.sort === `runner-${sibling.key}`) as RunnerRecord;
  expect(childTime.time).toMatch(TIME);
  expect(siblingTime.time).toMatch(TIME);
  expect(childTime.time).not.toBe(siblingTime.time);
  const childName = `${child.firstname} ${child.lastname}`;
  const siblingName = `${sibling.firstname} ${sibling.lastname}`;

  // While the race runs the public cannot tell that the child finished (issue 38): as before their finish.
  const publicRunners = async () => {
    const view = (await (await admin.request.get(`/api/races/get/${PART}`)).json()) as PublicRunnerRecord[];
    return view.filter((r) => r.sort === `runner-${child.key}` || r.sort === `runner-${sibling.key}`);
  };
  await expect
    .poll(async () => (await publicRunners()).find((r) => r.firstname === sibling.firstname)?.time)
    .toBe(siblingTime.time);
  const running = (await publicRunners()).find((r) => r.firstname === child.firstname)!;
  expect(running).toMatchObject({ finished: null });
  expect(running.time).toBeUndefined();
  expect(running.resultWithheld).toBeUndefined();
  // The end: everyone still out marked DNS, then the race ended.
  for (const r of adminView.slice(1) as RunnerRecord[]) {
    if (r.finished === null && !r.dns) expect(await raceCall(`dns/${PART}/${r.sort}/on`)).toBe(200);
  }
  expect(await raceCall(`end/${PART}`)).toBe(200);

  // The public JSON (every public page reads it): the child finished, with no time and no finish moment.
  await expect
    .poll(async () => {
      const view = (await (await admin.request.get(`/api/races/get/${PART}`)).json()) as PublicRunnerRecord[];
      return view.filter((r) => r.sort === `runner-${child.key}` || r.sort === `runner-${sibling.key}`);
    })
    .toEqual([
      expect.objectContaining({ firstname: sibling.firstname, time: siblingTime.time }),
      expect.objectContaining({ firstname: child.firstname, finished: null, resultWithheld: true }),
    ]);
  const publicJson = await (await admin.request.get(`/api/races/get/${PART}`)).text();
  expect(publicJson).not.toContain(childTime.time!);
  expect(publicJson).not.toContain(String(childTime.finished));

  // /resultat, the 0.8K (the race files before this one on the server used may have finishers too): the sibling
  // first, the child 'Fullföljt', unplaced.
  const results = await phone();
  await results.goto("/resultat", { waitUntil: "networkidle" });
  await results.locator('[role="tab"][aria-controls$="-content-0.8"]').click();
  const panel = results.locator('[role="tabpanel"][data-state="active"]');
  await expect.poll(async () => (await rowsOf(panel)).length, { timeout: 15_000 }).toBe(2);
  const resultRows = await rowsOf(panel);
  // Cells: placing, name, time, ±, class, bib, club.
  expect(resultRows[0]!.slice(0, 4)).toEqual(["1", siblingName, siblingTime.time, "+00:00.000"]);
  expect(resultRows[1]!.slice(0, 4)).toEqual(["", childName, WITHHELD_TEXT, ""]);
  expect(await panel.textContent()).not.toContain(childTime.time!);
  await expectNoSidewaysScroll(results);
  if (SCREENSHOTS) {
    await panel.scrollIntoViewIfNeeded();
    await results.screenshot({ path: `${SCREENSHOTS}/barnsakert-resultat-390.png` });
  }

  // /startlistor, the season's 0.8 race: the sibling's time, the child 'Fullföljt' after them.
  const lists = await phone();
  await lists.goto("/startlistor", { waitUntil: "networkidle" });
  const year = lists
    .locator("section.year-section")
    .filter({ has: lists.getByRole("heading", { name: String(SEASON.year) }) });
  await year.locator(`[role="tab"][aria-controls$="-content-${PART}"]`).click();
  await year.getByRole("table").waitFor();
  await expect.poll(async () => rowOf(await rowsOf(year), childName)?.[4], { timeout: 15_000 }).toBe(WITHHELD_TEXT);
  const listRows = await rowsOf(year);
  // Cells: bib, name, class, club, result.
  expect(rowOf(listRows, siblingName)?.[4]).toBe(siblingTime.time);
  expect(listRows.findIndex((r) => r.includes(siblingName))).toBeLessThan(
    listRows.findIndex((r) => r.includes(childName)),
  );
  expect(await year.textContent()).not.toContain(childTime.time!);
  await expectNoSidewaysScroll(lists);
  if (SCREENSHOTS) await lists.screenshot({ path: `${SCREENSHOTS}/barnsakert-startlistor-390.png`, fullPage: true });

  // The family's page: the child's own time with the reason it has no placing; the sibling placed 1 of 1.
  const familyResults = familyPage.locator(".family-results li");
  await expect
    .poll(
      async () => {
        const answered = familyPage.waitForResponse((r) => new URL(r.url()).pathname === "/api/family/results");
        await familyPage.reload();
        await familyPage.locator(".runner-list").waitFor();
        await answered;
        return familyResults.count();
      },
      { timeout: 30_000, interval: 2_000 },
    )
    .toBe(2);
  const childLine = familyResults.filter({ hasText: childName });
  const siblingLine = familyResults.filter({ hasText: siblingName });
  expect(await childLine.locator(".family-results-time").textContent()).toBe(childTime.time);
  expect(await childLine.locator(".family-results-note").textContent()).toBe(WITHHELD_NOTE);
  expect(await childLine.locator(".family-results-placing").count()).toBe(0);
  expect(await siblingLine.locator(".family-results-time").textContent()).toBe(siblingTime.time);
  expect(await siblingLine.locator(".family-results-placing").textContent()).toMatch(/^Plats 1 av 1\b/);
  await expectNoSidewaysScroll(familyPage);
  if (SCREENSHOTS) {
    await familyPage.screenshot({ path: `${SCREENSHOTS}/barnsakert-familj-390.png`, fullPage: true });
  }
  for (const page of [results, lists, familyPage]) expect(pageErrors.get(page)).toEqual([]);
});

/**
 * The family's own results (issue 28, item 3): `GET /api/family/results` gives the signed-in family their runners'
 * times and placings (in the distance and in the class) from the race object, live on race day; with child-safe
 * publishing on, their child's time is still there (not placed), while the public view withholds it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FamilyResults } from "../../../src/shared/family-results";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { PublicRunnerRecord, RaceRecord } from "../../../src/shared/race-protocol";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { get, loginAdmin, post } from "../helpers";
import { at, login, minutesAfter, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const PART = raceIdForSeason("1.6", SEASON);
const RACE_DAY = "2025-09-13T11:20:00+02:00";

afterEach(async () => {
  await setCallbacks("normal");
  SEASON.childSafePublishing = false;
});

/** A paid family: a parent on 5.6 and a child (9) on 1.6. */
async function paidFamily(lastname: string, childGroup = "Herr") {
  const v = await login();
  const tail = crypto.randomUUID().slice(0, 8);
  const ids = { parent: `parent-${tail}`, child: `child-${tail}` };
  const runners = {
    [ids.parent]: runner({ firstname: "Maria", lastname, age: 41, distance: "5.6", group: "Dam" }),
    [ids.child]: runner({ firstname: "Ola", lastname, age: 9, distance: "1.6", group: childGroup }),
  };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const res = await post(
    "/book-v2",
    { barn: 1, vuxna: 1, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await payOnPhone(token, "PAID");
  return { v, ids };
}

async function familyResults(v: Visitor, when: string) {
  const res = await get("/api/family/results", { env: at(when), jar: v.jar, headers: v.headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as FamilyResults;
}

describe("GET /api/family/results", () => {
  it("needs a signed-in family", async () => {
    const res = await get("/api/family/results");
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("Inte inloggad");
  });

  it("follows the family's runners live on race day: waiting, then time and placings in distance and class", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const lind = await paidFamily("Lind");
    const ek = await paidFamily("Ek");

    const before = await familyResults(lind.v, RACE_DAY);
    expect(before.runners.map((r) => [r.id, r.state, r.time, r.place])).toEqual(
      expect.arrayContaining([[lind.ids.child, "waiting", null, null]]),
    );
    // Only the family's own runners, never another family's.
    expect(before.runners.some((r) => r.id === ek.ids.child)).toBe(false);

    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({ type: "finish", runnerId: ek.ids.child, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
    await race.run({
      type: "finish",
      runnerId: lind.ids.child,
      tap: { tapId: crypto.randomUUID(), at: now - 290_000 },
    });

    // A minute later (past the isolate's copy of the race): Ola Lind is second of two, second in Herr.
    const after = await familyResults(lind.v, minutesAfter(RACE_DAY, 1));
    const ola = after.runners.find((r) => r.id === lind.ids.child)!;
    expect(ola).toMatchObject({
      raceId: PART,
      state: "finished",
      place: 2,
      placedInDistance: 2,
      klass: "Herr",
      classPlace: 2,
      placedInClass: 2,
      withheld: false,
    });
    expect(ola.time).toMatch(/^05:10\.\d{3}$/);
    expect(after.races.find((r) => r.part === PART)).toMatchObject({ state: "started", distance: 1600 });
  });

  it("with child-safe publishing on: the family sees their child's time, not placed; the public does not", async () => {
    // The season's setting holds for the whole season: the race object's feed to the spectators applies it as
    // each change happens, so it is on before the race starts.
    SEASON.childSafePublishing = true;
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const family = await paidFamily("Berg");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({
      type: "finish",
      runnerId: family.ids.child,
      tap: { tapId: crypto.randomUUID(), at: now - 300_000 },
    });

    const mine = (await familyResults(family.v, minutesAfter(RACE_DAY, 5))).runners.find(
      (r) => r.id === family.ids.child,
    )!;
    expect(mine).toMatchObject({ state: "finished", withheld: true, place: null, classPlace: null });
    expect(mine.time).toMatch(/^05:00\.\d{3}$/);

    const [, ...pub] = (await (await get(`/api/races/get/${PART}`)).json()) as [RaceRecord, ...PublicRunnerRecord[]];
    const inPublic = pub.find((r) => r.sort === `runner-${family.ids.child}`)!;
    // While the race runs the public cannot even tell that the child finished (issue 38): as before the finish.
    expect(inPublic).toMatchObject({ finished: null });
    expect(inPublic.resultWithheld).toBeUndefined();
    expect(inPublic.time).toBeUndefined();
  });
});

describe("diplomas (issue 28, item 4)", () => {
  it("prints the family's own finished runner, also with child-safe publishing on; another family's runner is a 404", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const mine = await paidFamily("Holm");
    const theirs = await paidFamily("Sund");
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({
      type: "finish",
      runnerId: mine.ids.child,
      tap: { tapId: crypto.randomUUID(), at: now - 298_000 },
    });
    SEASON.childSafePublishing = true;
    const when = { env: at(minutesAfter(RACE_DAY, 10)), jar: mine.v.jar, headers: mine.v.headers };

    const one = await get(`/api/family/diplomas?runner=${mine.ids.child}`, when);
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toContain("text/html");
    const html = await one.text();
    expect(html).toContain("Ola Holm");
    expect(html).toContain("1,6 km");
    expect(html).toMatch(/05:02,\d/);
    expect(html).toContain("Byloppet 2025");
    expect(html.match(/class="diploma"/g)).toHaveLength(1);

    // The parent has not run: asking for them is a 409, the whole family's view has the child only.
    const parent = await get(`/api/family/diplomas?runner=${mine.ids.parent}`, when);
    expect(parent.status).toBe(409);
    expect(((await parent.json()) as { error: string }).error).toBe(
      "Diplomet kan skrivas ut när löparen har gått i mål.",
    );
    const all = await (await get("/api/family/diplomas", when)).text();
    expect(all.match(/class="diploma"/g)).toHaveLength(1);

    const other = await get(`/api/family/diplomas?runner=${theirs.ids.child}`, when);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: string }).error).toBe("Löparen finns inte i din anmälan.");
    expect((await get(`/api/family/diplomas?runner=${"x".repeat(10_000)}`, when)).status).toBe(400);
    expect((await get(`/api/family/diplomas?runner=${mine.ids.child}`)).status).toBe(401);
  });

  it("prints every finisher of a race for the organiser, a page each; refuses a race without finishers", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const a = await paidFamily("Alm");
    const b = await paidFamily("Björk");
    const admin = await loginAdmin();
    expect((await get(`/admin/api/diplomas/${PART}`, { jar: admin })).status).toBe(409);
    const now = Date.now();
    await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
    await race.run({ type: "finish", runnerId: a.ids.child, tap: { tapId: crypto.randomUUID(), at: now - 300_000 } });
    await race.run({ type: "finish", runnerId: b.ids.child, tap: { tapId: crypto.randomUUID(), at: now - 299_000 } });

    expect((await get(`/admin/api/diplomas/${PART}`, { jar: a.v.jar })).status).toBeGreaterThanOrEqual(401);
    const res = await get(`/admin/api/diplomas/${PART}`, { jar: admin });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/class="diploma"/g)!.length).toBeGreaterThanOrEqual(2);
    expect(html).toContain("Ola Alm");
    expect(html).toContain("Ola Björk");
    expect((await get("/admin/api/diplomas/race-000101-08", { jar: admin })).status).toBe(404);
  });
});

/**
 * Issue 39, items 1 and 2, on the family's side (shared/companion.ts, registration/runner-changes.ts): a paid child
 * and the paid parent running with it change distance together in one save (still one paid competing runner per
 * save, the same price rules), and a refund that took the child out never strands the rest of the family: the
 * companion left without a child stays as it is, and every other change (a sibling added and paid, the others
 * edited) is saved. Each refusal names the runner and what makes the save valid, in Swedish, with nothing written.
 * The interleaving: the organiser's refund of the child while the family moves the child and its companion.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { CookieJar, loginAdmin, post } from "../helpers";
import { at, familyRows, getRegistration, login, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const RACE = {
  "5.6": raceIdForSeason("5.6", SEASON),
  "1.6": raceIdForSeason("1.6", SEASON),
  "0.8": raceIdForSeason("0.8", SEASON),
};

let admin: CookieJar;

beforeEach(async () => {
  await setCallbacks("normal");
  admin = await loginAdmin();
});
afterEach(async () => {
  await setCallbacks("normal");
});

async function book(v: Visitor, body: Record<string, unknown>) {
  const res = await post("/book-v2", body, { env: at(OPEN_AT), jar: v.jar, headers: v.headers });
  return {
    res,
    body: (await res.json()) as { token?: string; payref?: string; amount?: number; error?: string; errors?: object },
  };
}

function ids() {
  const tail = crypto.randomUUID().slice(0, 8);
  return { mamma: `mamma-${tail}`, barn: `barn-${tail}`, pappa: `pappa-${tail}`, syster: `syster-${tail}` };
}

/** A mother on 5.6, a child on 0.8 and the father running 0.8 with the child. */
function family(id: ReturnType<typeof ids>) {
  return {
    [id.mamma]: runner({ firstname: "Maria", lastname: "Ek", age: 41, distance: "5.6", group: "Dam" }),
    [id.barn]: runner({ firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8", group: "Ingen" }),
    [id.pappa]: runner({ firstname: "Per", lastname: "Ek", age: 43, distance: "0.8", group: "Ingen", companion: true }),
  };
}

/** The family above, paid together (250 kr: 150 + 100 + the companion's 0 kr) through the Swish simulator. */
async function paidFamily() {
  const v = await login();
  const id = ids();
  expect((await update(v, { runners: family(id), version: 0 })).res.status).toBe(200);
  const booked = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
  expect(booked.res.status).toBe(200);
  await payOnPhone(booked.body.token!, "PAID");
  return { v, id, payid: booked.body.payref!, runners: family(id) };
}

async function participant(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function refund(body: Record<string, unknown>) {
  const res = await post("/admin/api/refunds", { idempotencyKey: crypto.randomUUID(), ...body }, { jar: admin });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The stored map as the family's page sends it back (the spec's fields only). */
async function storedMap(v: Visitor) {
  const reg = (await getRegistration(v)).body;
  const fields = ["firstname", "lastname", "age", "company", "distance", "group", "companion"];
  const map = Object.fromEntries(
    Object.values(reg.deltagare).map((r) => [
      r.id as string,
      Object.fromEntries(Object.entries(r).filter(([k]) => fields.includes(k))),
    ]),
  );
  return { reg, map };
}

describe("a paid child and the parent running with it change distance together", () => {
  it("moving both in one save: the child's race object moves, the companion in D1, nothing to pay", async () => {
    const { v, id, runners } = await paidFamily();
    expect(await testRace(RACE["0.8"]).getRunner(id.barn)).not.toBeNull();
    const moved = await update(v, {
      runners: {
        ...runners,
        [id.barn]: { ...runners[id.barn]!, distance: "1.6" },
        [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
      },
      version: 1,
    });
    expect(moved.res.status).toBe(200);
    expect(moved.body.deltagare[id.barn]).toMatchObject({ distance: "1.6", paidBy: expect.any(String) });
    expect(moved.body.deltagare[id.pappa]).toMatchObject({ distance: "1.6", companion: true, price: 0 });
    // The same price rules: what was paid stays paid, nothing new to pay.
    expect(moved.body).toMatchObject({ barn: 0, vuxna: 0, medBarn: 0, listPrice: 0 });
    expect(await participant(id.barn)).toMatchObject({ distance: "1.6", race_id: RACE["1.6"] });
    expect(await participant(id.pappa)).toMatchObject({ distance: "1.6", race_id: null, companion: 1 });
    expect(await testRace(RACE["1.6"]).getRunner(id.barn)).toMatchObject({ firstname: "Lo" });
    expect(await testRace(RACE["0.8"]).getRunner(id.barn)).toBeNull();
    // The companion is in no race object, wherever it runs.
    expect(await testRace(RACE["1.6"]).getRunner(id.pappa)).toBeNull();
  });

  it("moving only one of them, or the companion elsewhere, or a second paid runner beside: a Swedish 4xx naming whom, nothing written", async () => {
    const { v, id, runners } = await paidFamily();
    const before = await familyRows(v.email);
    const childAlone = await update(v, {
      runners: { ...runners, [id.barn]: { ...runners[id.barn]!, distance: "1.6" } },
      version: 1,
    });
    expect(childAlone.res.status).toBe(400);
    expect(childAlone.body.error).toBe(
      "Inget barn i anmälan springer 0,8 km efter ändringen, och Per Ek springer med barn där. Flytta Per med till 1,6 km i samma ändring.",
    );
    expect(childAlone.body.errors).toEqual({ [`${id.pappa}.companion`]: childAlone.body.error });

    const parentAlone = await update(v, {
      runners: { ...runners, [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" } },
      version: 1,
    });
    expect(parentAlone.res.status).toBe(400);
    expect(parentAlone.body.error).toBe(
      "Inget barn i anmälan springer 1,6 km. Per Ek springer med barn och måste välja samma distans som ett barn (0,8 km).",
    );

    const apart = await update(v, {
      runners: {
        ...runners,
        [id.barn]: { ...runners[id.barn]!, distance: "1.6" },
        [id.pappa]: { ...runners[id.pappa]!, distance: "2.8" },
      },
      version: 1,
    });
    expect(apart.res.status).toBe(400);
    expect(apart.body.error).toBe(
      "Inget barn i anmälan springer 2,8 km. Per Ek springer med barn och måste välja samma distans som ett barn (1,6 km).",
    );

    // The mother renamed in the same save is a second paid runner changing on her own.
    const three = await update(v, {
      runners: {
        [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" },
        [id.barn]: { ...runners[id.barn]!, distance: "1.6" },
        [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
      },
      version: 1,
    });
    expect(three.res.status).toBe(400);
    expect(three.body.error).toBe(
      "Ändra en betald löpare i taget: spara först ändringen av Maria Ek och ändra sedan Lo Ek.",
    );
    expect(await familyRows(v.email)).toEqual(before);
    expect(await testRace(RACE["0.8"]).getRunner(id.barn)).toMatchObject({ firstname: "Lo" });
  });

  it("two paid children on 0.8 with the father: both at once is refused; one alone keeps him; the second takes him along", async () => {
    const v = await login();
    const id = ids();
    const runners = {
      ...family(id),
      [id.syster]: runner({ firstname: "Siv", lastname: "Ek", age: 8, distance: "0.8", group: "Dam" }),
    };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const booked = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    await payOnPhone(booked.body.token!, "PAID");
    const barn = { ...runners[id.barn]!, distance: "1.6" };
    const syster = { ...runners[id.syster]!, distance: "1.6" };
    const pappa = { ...runners[id.pappa]!, distance: "1.6" };
    // One paid competing runner per save: two children are two saves, whoever follows them.
    const both = await update(v, {
      runners: { ...runners, [id.barn]: barn, [id.syster]: syster, [id.pappa]: pappa },
      version: 1,
    });
    expect(both.res.status).toBe(400);
    expect(both.body.error).toBe(
      "Ändra en betald löpare i taget: spara först ändringen av Lo Ek och ändra sedan Siv Ek.",
    );
    // Lo alone: the father still has Siv on 0.8.
    const first = await update(v, { runners: { ...runners, [id.barn]: barn }, version: 1 });
    expect(first.res.status).toBe(200);
    const sisterAlone = await update(v, {
      runners: { ...runners, [id.barn]: barn, [id.syster]: syster },
      version: first.body.version,
    });
    expect(sisterAlone.res.status).toBe(400);
    expect(sisterAlone.body.error).toBe(
      "Inget barn i anmälan springer 0,8 km efter ändringen, och Per Ek springer med barn där. Flytta Per med till 1,6 km i samma ändring.",
    );
    const second = await update(v, {
      runners: { ...runners, [id.barn]: barn, [id.syster]: syster, [id.pappa]: pappa },
      version: first.body.version,
    });
    expect(second.res.status).toBe(200);
    for (const r of [id.barn, id.syster, id.pappa]) expect(await participant(r)).toMatchObject({ distance: "1.6" });
  });

  it("two tabs: one moves the child and the father, the other renames the mother: never a father left behind", async () => {
    for (let round = 0; round < 3; round++) {
      const { v, id, runners } = await paidFamily();
      const [moved, renamed] = await Promise.all([
        update(v, {
          runners: {
            ...runners,
            [id.barn]: { ...runners[id.barn]!, distance: "1.6" },
            [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
          },
          version: 1,
        }),
        update(v, {
          runners: { ...runners, [id.mamma]: { ...runners[id.mamma]!, firstname: `Mia${round}` } },
          version: 1,
        }),
      ]);
      expect([moved.res.status, renamed.res.status].sort()).toEqual([200, 409]);
      const child = await participant(id.barn);
      const father = await participant(id.pappa);
      // Wherever the race object put the child, the father is on the same distance, and the race agrees with D1.
      expect(father?.distance).toBe(child?.distance);
      const part = RACE[child!.distance as "1.6" | "0.8"];
      expect(child?.race_id).toBe(part);
      expect(await testRace(part).getRunner(id.barn)).toMatchObject({ firstname: "Lo" });
      // A page that read the list before the repair is sent the current one on its next save.
      const stale = await update(v, { runners, version: 2 });
      if (child?.distance === "1.6" && renamed.res.status === 200) expect(stale.res.status).toBe(409);
    }
  });
});

describe("a refund took the child out: the rest of the family is never stranded", () => {
  it("the family adds and pays a sibling, edits the mother, and moves the father to the sibling's distance", async () => {
    const { v, id, payid, runners } = await paidFamily();
    const refunded = await refund({ payid, amount: 100, deregister: [id.barn] });
    expect(refunded.status).toBe(201);
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number) });
    // The father stays as he was: registered, paid, on 0.8.
    expect(await participant(id.pappa)).toMatchObject({ deregistered_at: null, paid_by: payid, distance: "0.8" });

    // A sibling added (before issue 39 every save was refused here: 'Inget barn i anmälan springer 0,8 km').
    const { reg, map } = await storedMap(v);
    const withSister = {
      ...map,
      [id.syster]: runner({ firstname: "Siv", lastname: "Ek", age: 9, distance: "1.6", group: "Dam" }),
    };
    const added = await update(v, { runners: withSister, version: reg.version });
    expect(added.res.status).toBe(200);
    expect(added.body).toMatchObject({ barn: 1, vuxna: 0, medBarn: 0, listPrice: 100 });
    const booked = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    expect(booked.res.status).toBe(200);
    expect(booked.body.amount).toBe(100);
    await payOnPhone(booked.body.token!, "PAID");

    // The mother renamed: one paid runner, saved (race object and D1).
    const renamed = await update(v, {
      runners: { ...withSister, [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" } },
      version: added.body.version,
    });
    expect(renamed.res.status).toBe(200);
    expect(await testRace(RACE["5.6"]).getRunner(id.mamma)).toMatchObject({ firstname: "Mia" });

    // The father changed but left without a child is checked (and named); moved to the sibling's distance he is valid.
    const fatherRenamed = await update(v, {
      runners: {
        ...withSister,
        [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" },
        [id.pappa]: { ...runners[id.pappa]!, firstname: "Pelle" },
      },
      version: renamed.body.version,
    });
    expect(fatherRenamed.res.status).toBe(400);
    expect(fatherRenamed.body.error).toBe(
      "Inget barn i anmälan springer 0,8 km. Pelle Ek springer med barn och måste välja samma distans som ett barn (1,6 km).",
    );
    const fatherMoved = await update(v, {
      runners: {
        ...withSister,
        [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" },
        [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
      },
      version: renamed.body.version,
    });
    expect(fatherMoved.res.status).toBe(200);
    expect(await participant(id.pappa)).toMatchObject({ distance: "1.6", paid_by: payid, deregistered_at: null });
    // The refunded child is still unchangeable.
    const child = await update(v, {
      runners: {
        ...withSister,
        [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" },
        [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
        [id.barn]: { ...runners[id.barn]!, firstname: "Love" },
      },
      version: fatherMoved.body.version,
    });
    expect(child.res.status).toBe(409);
    expect(child.body.error).toBe("Lo Ek är avregistrerad och kan inte ändras.");
  });

  it("an unpaid companion left without a child: booking names it (nothing booked), and the family removes it", async () => {
    const v = await login();
    const id = ids();
    const child = { [id.barn]: runner({ firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8", group: "Ingen" }) };
    expect((await update(v, { runners: child, version: 0 })).res.status).toBe(200);
    const paid = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    await payOnPhone(paid.body.token!, "PAID");
    const withFather = { ...child, [id.pappa]: family(id)[id.pappa]! };
    const added = await update(v, { runners: withFather, version: 1 });
    expect(added.res.status).toBe(200);
    expect((await refund({ payid: paid.body.payref, amount: 100, deregister: [id.barn] })).status).toBe(201);

    const before = await familyRows(v.email);
    const refused = await book(v, { barn: 0, vuxna: 0, kampanj: "" });
    expect(refused.res.status).toBe(400);
    expect(refused.body.error).toBe(
      "Per Ek springer med barn, men inget barn i anmälan springer 0,8 km längre. Ta bort Per, eller flytta Per till samma distans som ett barn, innan ni betalar.",
    );
    expect(refused.body.errors).toEqual({ [`${id.pappa}.companion`]: refused.body.error });
    expect(await familyRows(v.email)).toEqual(before);

    // Another change beside him is saved; then he is removed (unpaid).
    const { reg, map } = await storedMap(v);
    const sister = runner({ firstname: "Siv", lastname: "Ek", age: 9, distance: "1.6", group: "Dam" });
    const withSister = await update(v, { runners: { ...map, [id.syster]: sister }, version: reg.version });
    expect(withSister.res.status).toBe(200);
    const { [id.pappa]: _father, ...rest } = { ...map, [id.syster]: sister };
    void _father;
    const removed = await update(v, { runners: rest, version: withSister.body.version });
    expect(removed.res.status).toBe(200);
    expect(await participant(id.pappa)).toBeNull();
    expect((await book(v, { barn: 1, vuxna: 0, kampanj: "" })).res.status).toBe(200);
  });

  it("a refund that lands mid-move, the child in its new race and still in its old: out of both", async () => {
    const { id, payid } = await paidFamily();
    // The move's middle, held still: the 1.6 km race has added the child (its mirror links D1 to it) while the
    // 0.8 km race still holds it on its way. D1 names one race; the refund must not trust that alone.
    const child = await testRace(RACE["0.8"]).getRunner(id.barn);
    if (!child) throw new Error("the child is not in its race");
    const { firstname, lastname, age, company, group } = child;
    await testRace(RACE["1.6"]).run(
      { type: "add-runner", runner: { id: id.barn, firstname, lastname, age, company, group, bib: null } },
      { actor: "test" },
    );
    expect(await participant(id.barn)).toMatchObject({ race_id: RACE["1.6"] });

    expect((await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] })).status).toBe(201);
    expect(await testRace(RACE["1.6"]).getRunner(id.barn)).toBeNull();
    expect(await testRace(RACE["0.8"]).getRunner(id.barn)).toBeNull();
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number), race_id: null });
  });

  it("the refund of the child while the family moves child and father: never a father moved without his child", async () => {
    for (let round = 0; round < 3; round++) {
      const { v, id, payid, runners } = await paidFamily();
      const [moved, refunded] = await Promise.all([
        update(v, {
          runners: {
            ...runners,
            [id.barn]: { ...runners[id.barn]!, distance: "1.6" },
            [id.pappa]: { ...runners[id.pappa]!, distance: "1.6" },
          },
          version: 1,
        }),
        refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] }),
      ]);
      expect(refunded.status).toBe(201);
      const child = await participant(id.barn);
      const father = await participant(id.pappa);
      // The organiser's refund takes the child and the father out either way, in whichever order the two land.
      expect(child).toMatchObject({ deregistered_at: expect.any(Number), race_id: null });
      expect(father).toMatchObject({ deregistered_at: expect.any(Number) });
      expect([200, 409]).toContain(moved.res.status);
      if (moved.res.status === 200) expect([child?.distance, father?.distance]).toEqual(["1.6", "1.6"]);
      else expect(moved.body.error).toMatch(/avregistrerad|ändrats|betalning/);
      expect(await testRace(RACE["1.6"]).getRunner(id.barn)).toBeNull();
      expect(await testRace(RACE["0.8"]).getRunner(id.barn)).toBeNull();
    }
  });
});

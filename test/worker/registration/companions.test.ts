/**
 * Issue 28, item 6: an adult running with a child without competing ('Springer med barn (ej tävlande)',
 * shared/companion.ts). Registered through /update, priced apart at the season's companionPrice (0 kr by default;
 * a price the season sets is charged), paid with the family's order (or, alone at 0 kr, as a free order), never a
 * runner of a race object (no bib, no time, never DNS, never holding back 'Avsluta lopp'), listed on the race's
 * public companions list; bad input is a Swedish 4xx with nothing written.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { get, loginAdmin, post } from "../helpers";
import { at, familyRows, getRegistration, login, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { payOnPhone, paymentRow, receiptsTo, setCallbacks } from "../swish-helpers";

const RACE_08 = raceIdForSeason("0.8", SEASON);

async function book(v: Visitor, body: Record<string, unknown>, when = OPEN_AT) {
  const res = await post("/book-v2", body, { env: at(when), jar: v.jar, headers: v.headers });
  return {
    res,
    body: (await res.json()) as { token?: string; payref?: string; amount?: number; error?: string },
  };
}

function ids() {
  const tail = crypto.randomUUID().slice(0, 8);
  return { mamma: `mamma-${tail}`, barn: `barn-${tail}`, pappa: `pappa-${tail}`, moster: `moster-${tail}` };
}

/** A mother on 5.6, a child on 0.8 and the father running 0.8 with the child. */
function family(id: ReturnType<typeof ids>) {
  return {
    [id.mamma]: runner({ firstname: "Maria", lastname: "Ek", age: 41, distance: "5.6", group: "Dam" }),
    [id.barn]: runner({ firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8", group: "Ingen" }),
    [id.pappa]: runner({ firstname: "Per", lastname: "Ek", age: 43, distance: "0.8", group: "Ingen", companion: true }),
  };
}

async function participant(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function publicCompanions(part: string) {
  const res = await get(`/api/races/companions/${part}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { companions: { firstname: string; sort: string; type: string }[] }).companions;
}

async function paidFamily() {
  const v = await login();
  const id = ids();
  expect((await update(v, { runners: family(id), version: 0 })).res.status).toBe(200);
  const booked = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
  expect(booked.res.status).toBe(200);
  await payOnPhone(booked.body.token!, "PAID");
  return { v, id, payid: booked.body.payref! };
}

afterEach(async () => {
  await setCallbacks("normal");
});

describe("registering an adult who runs with a child", () => {
  it("is counted apart and costs the season's companion price (0 kr): the order is the child's and the adult's", async () => {
    const v = await login();
    const id = ids();
    const saved = await update(v, { runners: family(id), version: 0 });
    expect(saved.res.status).toBe(200);
    expect(saved.body.deltagare[id.pappa]).toMatchObject({ companion: true });
    expect(saved.body.deltagare[id.mamma]).not.toHaveProperty("companion");
    // Early tier: adult 150 + child 100 + companion 0.
    expect(saved.body).toMatchObject({ barn: 1, vuxna: 1, medBarn: 1, listPrice: 250 });
    expect((await participant(id.pappa))?.companion).toBe(1);

    const booked = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
    expect(booked.res.status).toBe(200);
    expect(booked.body.amount).toBe(250);
    const row = (await paymentRow(booked.body.payref!)) as Record<string, unknown> | null;
    expect(row).toMatchObject({ amount: 250, barn: 1, vuxna: 1 });
    expect(JSON.parse(String(row!.runner_prices))).toEqual({ [id.mamma]: 150, [id.barn]: 100, [id.pappa]: 0 });
    expect(String(row!.message)).toContain("1 med barn");
  });

  it("once paid: the child and the mother are in their races, the companion in none, listed as 'Med barn'", async () => {
    const { v, id } = await paidFamily();
    // The receipt names him as running with the child.
    const [receipt] = await receiptsTo(v.email);
    expect(receipt?.text).toContain("Per Ek, 0,8km, springer med barn (ej tävlande)");
    const pappa = await participant(id.pappa);
    expect(pappa).toMatchObject({ paid_price: 0, race_id: null, bib: null });
    expect(pappa?.paid_by).not.toBeNull();
    const race = testRace(RACE_08);
    expect(await race.getRunner(id.barn)).not.toBeNull();
    expect(await race.getRunner(id.pappa)).toBeNull();
    expect((await race.listRunners()).map((r) => r.id)).not.toContain(id.pappa);

    // The public start list: the race's runners without him; the companions' list with him, no id, no age.
    const view = (await (await get(`/api/races/get/${RACE_08}`)).json()) as { firstname?: string }[];
    expect(view.map((r) => r.firstname)).toContain("Lo");
    expect(view.map((r) => r.firstname)).not.toContain("Per");
    const companions = await publicCompanions(RACE_08);
    const per = companions.find((c) => c.sort === `companion-${id.pappa}`);
    expect(per).toEqual({
      type: "companion",
      part: RACE_08,
      sort: `companion-${id.pappa}`,
      firstname: "Per",
      lastname: "Ek",
      company: "",
    });
    // Never on another distance's list.
    expect((await publicCompanions(raceIdForSeason("5.6", SEASON))).map((c) => c.sort)).not.toContain(
      `companion-${id.pappa}`,
    );
    expect((await get("/api/races/companions/race-990101-08")).status).toBe(404);
  });

  it("race day: no bib, DNS or finish for a companion (Swedish 404); DNS for all and 'Avsluta lopp' are not held back", async () => {
    const { id } = await paidFamily();
    const jar = await loginAdmin();
    const race = testRace(RACE_08);
    expect((await get(`/admin/api/races/start/${RACE_08}`, { jar })).status).toBe(200);
    for (const path of [
      `/admin/api/races/register-bib/${RACE_08}/runner-${id.pappa}/77`,
      `/admin/api/races/dns/${RACE_08}/runner-${id.pappa}/on`,
      `/admin/api/races/finish/${RACE_08}/runner-${id.pappa}`,
      `/admin/api/races/change-distance/${raceIdForSeason("1.6", SEASON)}/${RACE_08}/runner-${id.pappa}`,
    ]) {
      const res = await get(path, { jar });
      expect(`${res.status} ${await res.text()}`).toBe('404 {"error":"Löparen finns inte i loppet."}');
    }
    expect(await participant(id.pappa)).toMatchObject({ bib: null, race_id: null });

    // 'Markera ej hämtade som DNS' marks nobody who is no runner of the race.
    const bulk = await get(`/admin/api/races/dns-not-picked-up/${RACE_08}?confirm=DNS`, { jar });
    expect(bulk.status).toBe(200);
    expect(await race.getRunner(id.pappa)).toBeNull();
    // Every runner of the race DNS, then 'Avsluta lopp': the companion waits for nothing.
    for (const r of await race.listRunners()) {
      if (r.finished === null && !r.dns) await race.run({ type: "set-dns", runnerId: r.id, dns: true });
    }
    const ended = await get(`/admin/api/races/end/${RACE_08}`, { jar });
    expect(ended.status).toBe(200);
    expect(((await ended.json()) as { race: { state: string } }).race.state).toBe("ended");
    expect(await race.getRunner(id.pappa)).toBeNull();
    expect((await publicCompanions(RACE_08)).map((c) => c.sort)).toContain(`companion-${id.pappa}`);
    await race.run({ type: "reset" });
  });

  it("costs the season's own companion price when it sets one: the Worker charges it, in the total and the share", async () => {
    const was = SEASON.companionPrice;
    SEASON.companionPrice = 40;
    try {
      const v = await login();
      const id = ids();
      const saved = await update(v, { runners: family(id), version: 0 });
      expect(saved.res.status).toBe(200);
      // Early tier: adult 150 + child 100 + companion 40.
      expect(saved.body).toMatchObject({ barn: 1, vuxna: 1, medBarn: 1, listPrice: 290 });

      // The order's total is the Worker's, recomputed from the stored runners: what Swish is asked for.
      const booked = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
      expect(booked.res.status).toBe(200);
      expect(booked.body.amount).toBe(290);
      const row = (await paymentRow(booked.body.payref!)) as Record<string, unknown> | null;
      expect(row).toMatchObject({ amount: 290, barn: 1, vuxna: 1 });
      expect(JSON.parse(String(row!.runner_prices))).toEqual({ [id.mamma]: 150, [id.barn]: 100, [id.pappa]: 40 });
      const swish = await env.DB.prepare("SELECT amount_ore FROM dev_swish_payments WHERE token = ?")
        .bind(booked.body.token!)
        .first<{ amount_ore: number }>();
      expect(swish?.amount_ore).toBe(29_000);

      await payOnPhone(booked.body.token!, "PAID");
      expect(await participant(id.pappa)).toMatchObject({ paid_by: booked.body.payref, paid_price: 40, race_id: null });
    } finally {
      SEASON.companionPrice = was;
    }
  });

  it("a companion added after the family paid is a free order of 0 kr (no Swish), and joins no race", async () => {
    const { v, id } = await paidFamily();
    const now = await getRegistration(v);
    const runners = {
      ...family(id),
      [id.moster]: runner({ firstname: "Eva", lastname: "Ek", age: 38, distance: "0.8", companion: true }),
    };
    const saved = await update(v, { runners, version: now.body.version });
    expect(saved.res.status).toBe(200);
    expect(saved.body).toMatchObject({ barn: 0, vuxna: 0, medBarn: 1, listPrice: 0 });
    const booked = await book(v, { barn: 0, vuxna: 0, kampanj: "" });
    expect(booked.res.status).toBe(200);
    expect(booked.body).toMatchObject({ token: "kampanj", amount: 0 });
    expect(booked.body.payref).toMatch(/^kampanj_MEDBARN_/);
    const row = await paymentRow(booked.body.payref!);
    expect(row).toMatchObject({ status: "PAID", amount: 0, kampanj: null, barn: 0, vuxna: 0 });
    expect(await participant(id.moster)).toMatchObject({ paid_by: booked.body.payref, paid_price: 0, race_id: null });
    expect(await testRace(RACE_08).getRunner(id.moster)).toBeNull();
  });
});

describe("the bib desk", () => {
  it("shows the companion with the family, without a bib, and marks the pick-up in D1 (once; undo; refused for others)", async () => {
    const { v, id } = await paidFamily();
    const jar = await loginAdmin();
    const registrationId = String((await participant(id.pappa))!.registration_id);
    const family = (await (await get(`/admin/api/checkin/family/anmalan/${registrationId}`, { jar })).json()) as {
      runners: { id: string; raceId: string | null; bib: number | null; companion?: boolean; paid: boolean }[];
    };
    expect(family.runners.find((r) => r.id === id.pappa)).toMatchObject({
      companion: true,
      raceId: null,
      bib: null,
      paid: true,
    });
    const pickup = (runners: unknown[], pickedUp = true, actionId = crypto.randomUUID()) =>
      post("/admin/api/checkin/pickup", { runners, pickedUp, actionId, at: Date.now() }, { jar });

    // A competing runner sent without a race is refused, and the companion beside it is not marked either.
    const refused = await pickup([
      { id: id.pappa, raceId: null },
      { id: id.mamma, raceId: null },
    ]);
    expect(refused.status).toBe(409);
    expect((await participant(id.pappa))?.picked_up_at).toBeNull();

    const first = await pickup([
      { id: id.barn, raceId: RACE_08 },
      { id: id.pappa, raceId: null },
    ]);
    expect(first.status).toBe(200);
    const answer = (await first.json()) as { outcome: string; runners: { id: string; pickedUpAt: number | null }[] };
    expect(answer.outcome).toBe("picked-up");
    const at = (await participant(id.pappa))?.picked_up_at;
    expect(at).not.toBeNull();
    // A second desk: nothing changes, the first moment stays and is reported.
    const second = (await (await pickup([{ id: id.pappa, raceId: null }])).json()) as { already: string[] };
    expect(second.already).toEqual([id.pappa]);
    expect((await participant(id.pappa))?.picked_up_at).toBe(at);
    const undone = (await (await pickup([{ id: id.pappa, raceId: null }], false)).json()) as { outcome: string };
    expect(undone.outcome).toBe("undone");
    expect((await participant(id.pappa))?.picked_up_at).toBeNull();
    void v;
  });
});

describe("bad input: a Swedish 400 or 409, nothing written", () => {
  it("refuses a child as companion, a companion on a distance no child runs, and a companion flag that is no boolean", async () => {
    const v = await login();
    const id = ids();
    const before = await familyRows(v.email);
    const child = await update(v, {
      runners: { ...family(id), [id.barn]: runner({ firstname: "Lo", age: 6, distance: "0.8", companion: true }) },
      version: 0,
    });
    expect(child.res.status).toBe(400);
    expect(child.body.errors?.[`${id.barn}.companion`]).toMatch(/Bara en vuxen/);
    const elsewhere = await update(v, {
      runners: { ...family(id), [id.pappa]: runner({ firstname: "Per", age: 43, distance: "2.8", companion: true }) },
      version: 0,
    });
    expect(elsewhere.res.status).toBe(400);
    expect(elsewhere.body.errors?.[`${id.pappa}.companion`]).toBe(
      "Inget barn i anmälan springer 2,8 km. Per Berg springer med barn och måste välja samma distans som ett barn (0,8 km).",
    );
    const weird = await update(v, {
      runners: { ...family(id), [id.pappa]: runner({ age: 43, distance: "0.8", companion: "ja" }) },
      version: 0,
    });
    expect(weird.res.status).toBe(400);
    expect(weird.body.errors?.[`${id.pappa}.companion`]).toBe("Ange om löparen springer med barn som ja eller nej");
    expect(await familyRows(v.email)).toEqual(before);
  });

  it("removing (or moving) the last child of the companion's distance is refused: the family moves the companion in the same save", async () => {
    const v = await login();
    const id = ids();
    const saved = await update(v, { runners: family(id), version: 0 });
    const { [id.barn]: _child, ...withoutChild } = family(id);
    void _child;
    const removed = await update(v, { runners: withoutChild, version: saved.body.version });
    expect(removed.res.status).toBe(400);
    expect(removed.body.errors?.[`${id.pappa}.companion`]).toMatch(/Inget barn i anmälan springer 0,8 km/);
    const moved = await update(v, {
      runners: { ...family(id), [id.barn]: runner({ firstname: "Lo", age: 6, distance: "1.6" }) },
      version: saved.body.version,
    });
    expect(moved.res.status).toBe(400);
    const both = await update(v, {
      runners: {
        ...family(id),
        [id.barn]: runner({ firstname: "Lo", age: 6, distance: "1.6" }),
        [id.pappa]: runner({ firstname: "Per", age: 43, distance: "1.6", companion: true }),
      },
      version: saved.body.version,
    });
    expect(both.res.status).toBe(200);
  });

  it("a paid companion cannot become a competing runner (nor a paid runner a companion): 409, nothing written", async () => {
    const { v, id } = await paidFamily();
    const now = await getRegistration(v);
    const before = await familyRows(v.email);
    const competing = await update(v, {
      runners: {
        ...family(id),
        [id.pappa]: runner({ firstname: "Per", lastname: "Ek", age: 43, distance: "0.8", group: "Ingen" }),
      },
      version: now.body.version,
    });
    expect(competing.res.status).toBe(409);
    expect(competing.body.error).toMatch(/betald som medföljande vuxen/);
    const mother = await update(v, {
      runners: {
        ...family(id),
        [id.mamma]: runner({
          firstname: "Maria",
          lastname: "Ek",
          age: 41,
          distance: "0.8",
          group: "Dam",
          companion: true,
        }),
      },
      version: now.body.version,
    });
    expect(mother.res.status).toBe(409);
    expect(await familyRows(v.email)).toEqual(before);
    // A paid companion's name is still the family's to correct, in D1 alone (no race object holds it).
    const renamed = await update(v, {
      runners: {
        ...family(id),
        [id.pappa]: runner({
          firstname: "Pelle",
          lastname: "Ek",
          age: 43,
          distance: "0.8",
          group: "Ingen",
          companion: true,
        }),
      },
      version: now.body.version,
    });
    expect(renamed.res.status).toBe(200);
    expect(await participant(id.pappa)).toMatchObject({ firstname: "Pelle", race_id: null });
  });
});

describe("two tabs of one family", () => {
  it("one adds a companion while the other removes the child it needs: one save wins, the other is a 409, never both", async () => {
    const v = await login();
    const id = ids();
    const base = {
      [id.mamma]: runner({ firstname: "Maria", lastname: "Ek", age: 41, distance: "5.6" }),
      [id.barn]: runner({ firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8" }),
    };
    const saved = await update(v, { runners: base, version: 0 });
    const version = saved.body.version;
    const { [id.barn]: _child, ...withoutChild } = base;
    void _child;
    const [a, b] = await Promise.all([
      update(v, {
        runners: { ...base, [id.pappa]: runner({ firstname: "Per", age: 43, distance: "0.8", companion: true }) },
        version,
      }),
      update(v, { runners: withoutChild, version }),
    ]);
    expect([a.res.status, b.res.status].sort()).toEqual([200, 409]);
    const rows = (await familyRows(v.email)).participants as { id: string; companion: number; distance: string }[];
    const companions = rows.filter((r) => r.companion === 1);
    // Whatever won, no companion is left without a child on its distance.
    for (const c of companions) expect(rows.some((r) => r.id === id.barn && r.distance === c.distance)).toBe(true);
  });
});

/**
 * Issue 39, item 3: a parent whose child registered online buys a companion place at the box office
 * (`POST /admin/api/quickreg/companion`, src/worker/box-office/companion-sale.ts), through the real Worker, D1, the
 * race objects and the Swish simulator. The companion joins the child's registration once paid (the family's
 * `GET /get` lists it, paid, and the start list has it as 'Med barn'), never before; every refusal is Swedish and
 * writes nothing; a retry of the same sale sells no second place; two desks selling the same parent sell one; the
 * family's save based on the list before the sale cannot drop the companion.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { QuickRegStarted, QuickRegStatus } from "../../../src/shared/box-office";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { RunnerFields } from "../../../src/shared/registration-schema";
import { SEASON } from "../../../src/shared/season";
import { companionRunnerId } from "../../../src/worker/box-office/companion-sale";
import { saleGuard } from "../../../src/worker/box-office/companion-sale-db";
import { database } from "../../../src/worker/db/client";
import { participants } from "../../../src/worker/db/schema";
import { saveRunners } from "../../../src/worker/db/registrations-db";
import { get, loginAdmin, post, storedState, waitFor, type CookieJar } from "../helpers";
import { at, getRegistration, login, OPEN_AT, runner, update } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";
import { testRace } from "../race-calls";

const RACE_16 = raceIdForSeason("1.6", SEASON);

let admin: CookieJar;
beforeEach(async () => {
  await setCallbacks("normal");
  admin = await loginAdmin();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

type Answer = QuickRegStarted & { error?: string; errors?: Record<string, string> };

/**
 * A family registered online that has paid: a mother on 5.6, a child on 1.6 and a father running 1.6 with the child
 * (a companion of its own), paid in the Swish simulator.
 */
async function onlineFamily() {
  const v = await login();
  const tail = crypto.randomUUID().slice(0, 8);
  const lastname = `Nätsson${tail}`;
  const id = { mamma: `mamma-${tail}`, barn: `barn-${tail}`, pappa: `pappa-${tail}` };
  const runners = {
    [id.mamma]: runner({ firstname: "Greta", lastname, age: 40, distance: "5.6" }),
    [id.barn]: runner({ firstname: "Lo", lastname, age: 8, distance: "1.6", group: "Ingen" }),
    [id.pappa]: runner({ firstname: "Per", lastname, age: 44, distance: "1.6", group: "Herr", companion: true }),
  };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const booked = await post(
    "/book-v2",
    { barn: 1, vuxna: 1, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  const { token, payref } = await json<{ token: string; payref: string }>(booked);
  await payOnPhone(token, "PAID");
  return { v, id, runners, lastname, payid: payref };
}

function sale(childId: string, fields: Record<string, unknown> = {}) {
  return {
    saleId: crypto.randomUUID(),
    childId,
    firstname: "Karin",
    lastname: "Kassadotter",
    age: "41",
    distance: "1.6",
    group: "Dam",
    method: "kontant",
    ...fields,
  };
}

async function sell(body: Record<string, unknown>, status = 200): Promise<Answer> {
  return json<Answer>(await post("/admin/api/quickreg/companion", body, { jar: admin }), status);
}

async function quickRegStatus(payid: string) {
  return json<QuickRegStatus>(await get(`/admin/api/quickreg/${payid}`, { jar: admin }));
}

async function row(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function companionsNamed(firstname: string, lastname: string) {
  const { results } = await env.DB.prepare("SELECT * FROM participants WHERE firstname = ? AND lastname = ?")
    .bind(firstname, lastname)
    .all<Record<string, unknown>>();
  return results;
}

async function startListCompanions(part: string): Promise<string[]> {
  const res = await get(`/api/races/companions/${part}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { companions: { sort: string }[] }).companions.map((c) => c.sort);
}

describe("a companion place for a parent whose child registered online", () => {
  it("is sold at 0 kr, joins the child's registration: GET /get lists it paid, the start list has it, no race", async () => {
    const { v, id, lastname } = await onlineFamily();
    const before = (await getRegistration(v)).body;
    const body = sale(id.barn, { lastname });
    const started = await sell(body);
    expect(started).toMatchObject({ method: "kampanj", amount: SEASON.companionPrice, raceId: RACE_16 });
    expect(started.payid).toMatch(/^kampanj_MEDBARN_[0-9a-f]{16}$/);
    expect(started.token).toBeUndefined();

    const companionId = companionRunnerId(body.saleId);
    const { body: family } = await getRegistration(v);
    expect(family.deltagare[companionId]).toMatchObject({
      firstname: "Karin",
      lastname,
      age: 41,
      distance: "1.6",
      group: "Dam",
      bib: null,
      companion: true,
      paidBy: started.payid,
      price: 0,
      deregistered: null,
    });
    // The family's other runners as they were, and its version moved on (a save from before is stale).
    expect(Object.keys(family.deltagare).sort()).toEqual([...Object.keys(before.deltagare), companionId].sort());
    expect(family.version).toBe(before.version + 1);
    expect(await row(companionId)).toMatchObject({
      registration_id: (await row(id.barn))!.registration_id,
      phone: null,
      race_id: null,
      paid_price: 0,
    });

    // Checked in at the table, in no race, listed as 'Med barn' on the child's distance.
    const done = await quickRegStatus(started.payid);
    expect(done).toMatchObject({ status: "PAID", added: true, method: "kampanj", amount: 0 });
    expect(done.runners).toEqual([
      expect.objectContaining({
        id: companionId,
        companion: true,
        bib: null,
        added: true,
        pickedUpAt: expect.any(Number),
        family: { email: v.email, joined: true },
      }),
    ]);
    expect(await testRace(RACE_16).getRunner(companionId)).toBeNull();
    expect(await startListCompanions(RACE_16)).toContain(`companion-${companionId}`);

    // The family's page can save its list with the companion in it (the family's rule: a child on its distance).
    const runners = Object.fromEntries(
      Object.entries(family.deltagare).map(([key, r]) => [
        key,
        { ...runner(), ...pick(r, ["firstname", "lastname", "age", "company", "distance", "group", "companion"]) },
      ]),
    );
    expect((await update(v, { runners, version: family.version })).res.status).toBe(200);
    expect((await row(companionId))!.registration_id).toBe((await row(id.barn))!.registration_id);
  });

  it("refuses, in Swedish and writing nothing: no such child, a box-office child, an adult, a companion, unpaid, deregistered, a young companion, another distance", async () => {
    const { v, id, runners, lastname, payid } = await onlineFamily();
    // A late sibling added after the family paid: registered, not paid.
    const { body: now } = await getRegistration(v);
    const late = `sen-${crypto.randomUUID().slice(0, 8)}`;
    const lateRunner = runner({ firstname: "Ebbe", lastname, age: 5, distance: "1.6", group: "Ingen" });
    expect((await update(v, { runners: { ...runners, [late]: lateRunner }, version: now.version })).res.status).toBe(
      200,
    );
    const boxOffice = await json<{ payid: string }>(
      await post(
        "/admin/api/quickreg",
        {
          firstname: "Kalle",
          lastname: "Kassabarn",
          age: "9",
          distance: "1.6",
          group: "Herr",
          phone: "070-111 22 33",
          bib: String(30_000 + Math.floor(Math.random() * 60_000)),
          method: "kontant",
        },
        { jar: admin },
      ),
    );
    const boxOfficeChild = JSON.parse(
      (await env.DB.prepare("SELECT participant_ids FROM payments WHERE id = ?")
        .bind(boxOffice.payid)
        .first<{ participant_ids: string }>())!.participant_ids,
    )[0] as string;

    const before = await storedState();
    const refusals: [Record<string, unknown>, number, string][] = [
      [sale("finns-inte"), 404, "Barnet finns inte bland årets anmälningar på nätet. Sök fram barnet igen."],
      [sale(boxOfficeChild), 404, "Barnet finns inte bland årets anmälningar på nätet. Sök fram barnet igen."],
      [
        sale(id.mamma, { distance: "5.6" }),
        400,
        `Greta ${lastname} är 40 år och tävlar som vuxen. Bara ett barn (under 16 år) kan ha en vuxen som springer med.`,
      ],
      [sale(id.pappa), 400, `Per ${lastname} springer själv med barn och är inget barn att springa med.`],
      [
        sale(late),
        409,
        `Anmälan för Ebbe ${lastname} är inte betald. Familjen betalar barnet först (i kassan eller på nätet).`,
      ],
      [sale(id.barn, { age: "15" }), 400, "Bara en vuxen (16 år eller äldre) kan springa med barn utan att tävla."],
      [
        sale(id.barn, { distance: "0.8" }),
        409,
        `Lo ${lastname} springer 1,6 km, inte 0,8 km. Den som springer med barn springer samma distans som barnet.`,
      ],
      [sale(id.barn, { firstname: "Per", lastname }), 409, `Per ${lastname} finns redan i familjens anmälan.`],
      [sale(id.barn, { childId: "" }), 400, "Välj barnet som den vuxna springer med."],
      [sale(id.barn, { saleId: "1" }), 400, "Ogiltigt köp-id. Ladda om sidan och försök igen."],
      [sale(id.barn, { firstname: "" }), 400, "Obligatorisk"],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await sell(body, status);
      expect(answer.error, JSON.stringify(body)).toBe(message);
    }
    expect(await storedState()).toEqual(before);

    // Deregistered by a refund of the family's payment (the organiser's 'Återbetala och avregistrera').
    const refund = await post(
      "/admin/api/refunds",
      { payid, amount: 100, idempotencyKey: crypto.randomUUID(), deregister: [id.barn] },
      { jar: admin },
    );
    expect(refund.status, await refund.text()).toBeLessThan(300);
    await waitFor(async () => (await row(id.barn))!.deregistered_at !== null, 5000, "the child deregistered");
    const deregistered = await storedState();
    expect((await sell(sale(id.barn), 409)).error).toBe(`Lo ${lastname} är avregistrerad och springer inte i år.`);
    expect(await storedState()).toEqual(deregistered);
  });

  it("a retry of the same sale is answered with the sale made: one place, one payment, also when sent at once", async () => {
    const { v, id, lastname } = await onlineFamily();
    const body = sale(id.barn, { lastname, firstname: "Rut" });
    const first = await sell(body);
    expect(await sell(body)).toEqual(first);

    // Sent three times at once (a double tap, a tab's retry): one answer, one row, one payment.
    const together = sale(id.barn, { lastname, firstname: "Siv" });
    const answers = await Promise.all([1, 2, 3].map(() => sell(together)));
    expect(new Set(answers.map((a) => a.payid)).size).toBe(1);
    for (const firstname of ["Rut", "Siv"]) expect(await companionsNamed(firstname, lastname)).toHaveLength(1);
    const covering = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE participant_ids = ?")
      .bind(JSON.stringify([companionRunnerId(together.saleId)]))
      .first<{ n: number }>();
    expect(covering!.n).toBe(1);
    const { body: family } = await getRegistration(v);
    const companions = Object.values(family.deltagare).filter((r) => r.companion === true);
    expect(companions.map((r) => r.firstname).sort()).toEqual(["Per", "Rut", "Siv"]);
  });

  it("two desks selling the same parent at once sell one place; the other hears who has the name", async () => {
    const { v, id, lastname } = await onlineFamily();
    const desks = await Promise.all(
      [1, 2].map(() =>
        post("/admin/api/quickreg/companion", sale(id.barn, { lastname, firstname: "Tove" }), { jar: admin }),
      ),
    );
    expect(desks.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = (await desks.find((r) => r.status === 409)!.json()) as { error: string };
    expect(refused.error).toBe(`Tove ${lastname} finns redan i familjens anmälan.`);
    expect(await companionsNamed("Tove", lastname)).toHaveLength(1);

    // The write's own guard, met by a desk whose checks ran before the other desk's sale: the batch is refused
    // whole (the name now in the family, any case of its letters), nothing written.
    const registrationId = String((await row(id.barn))!.registration_id);
    const db = database(env.DB);
    const late = `kassa-${crypto.randomUUID()}`;
    const guard = saleGuard(db, {
      registrationId,
      childId: id.barn,
      season: SEASON.year,
      distance: "1.6",
      adultAge: SEASON.adultAge,
      firstname: " TOVE ",
      lastname,
      since: Date.now() - 60_000,
    });
    const insert = db.insert(participants).values({
      id: late,
      registrationId: null,
      joinsRegistrationId: registrationId,
      season: SEASON.year,
      firstname: "TOVE",
      lastname,
      age: 40,
      distance: "1.6",
      group: "Dam",
      createdAt: Date.now(),
      companion: true,
    });
    await expect(db.batch([guard, insert])).rejects.toThrow();
    expect(await row(late)).toBeNull();
    expect(Object.values((await getRegistration(v)).body.deltagare).filter((r) => r.firstname === "Tove")).toHaveLength(
      1,
    );
  });

  it("the family's save based on the list before the sale cannot drop the companion: 409 with the list that has it", async () => {
    const { v, id, runners, lastname } = await onlineFamily();
    const { body: read } = await getRegistration(v);
    const started = await sell(sale(id.barn, { lastname, firstname: "Ulla" }));
    const companionId = (await companionsNamed("Ulla", lastname))[0]!.id as string;
    const registrationId = String((await row(id.barn))!.registration_id);

    // The family's page adds a sibling to the list it read before the sale, from that version.
    const sibling = `syskon-${crypto.randomUUID().slice(0, 8)}`;
    const stale = {
      ...runners,
      [sibling]: runner({ firstname: "Bo", lastname, age: 6, distance: "1.6", group: "Ingen" }),
    };
    const refused = await update(v, { runners: stale, version: read.version });
    expect(refused.res.status).toBe(409);
    expect(refused.body.registration!.deltagare[companionId]).toMatchObject({ companion: true, paidBy: started.payid });
    // An older page that sends no version: the companion is paid and is not left out.
    const unversioned = await update(v, { runners: stale });
    expect(unversioned.res.status).toBe(409);
    expect(unversioned.body.error).toContain("kan inte tas bort");
    // The save read before the sale and written after it (registrations-db.ts saveRunners from the old version).
    const written = await saveRunners(database(env.DB), {
      registrationId,
      season: SEASON.year,
      expectedVersion: read.version,
      runners: stale as Record<string, RunnerFields>,
      now: Date.now(),
    });
    expect(written).toEqual({ status: "conflict" });
    expect(await row(companionId)).toMatchObject({ registration_id: registrationId, paid_by: started.payid });
    expect(await row(sibling)).toBeNull();

    // With the list as it is now the family's change goes through, the companion kept.
    const { body: current } = await getRegistration(v);
    const withCompanion = {
      ...stale,
      [companionId]: runner({
        firstname: "Ulla",
        lastname: "Kassadotter",
        age: 41,
        distance: "1.6",
        group: "Dam",
        companion: true,
      }),
    };
    const saved = await update(v, { runners: withCompanion, version: current.version });
    expect(saved.res.status, JSON.stringify(saved.body)).toBe(200);
    expect(Object.keys(saved.body.deltagare)).toEqual(expect.arrayContaining([companionId, sibling]));
  });

  it("at a companion price above 0 kr: Swish, the family's only once paid, a retry shows the same QR, declined stays the box office's", async () => {
    const was = SEASON.companionPrice;
    SEASON.companionPrice = 40;
    try {
      const { v, id, lastname } = await onlineFamily();
      const registrationId = String((await row(id.barn))!.registration_id);
      const body = sale(id.barn, { lastname, firstname: "Vera", method: "swish" });
      const started = await sell(body);
      expect(started).toMatchObject({ method: "swish", amount: 40, raceId: RACE_16 });
      expect(started.token).toMatch(/^[0-9a-fA-F]{32}$/);
      expect(await sell(body)).toEqual(started);

      // Waiting in Swish: the box office's own, not in the family's list; another desk cannot sell her too.
      const companionId = companionRunnerId(body.saleId);
      expect((await getRegistration(v)).body.deltagare[companionId]).toBeUndefined();
      expect(await row(companionId)).toMatchObject({
        registration_id: null,
        joins_registration_id: registrationId,
        paid_by: null,
        phone: null,
      });
      expect((await sell(sale(id.barn, { lastname, firstname: "vera" }), 409)).error).toBe(
        `Vera ${lastname} säljs just nu i en annan kassa och väntar på betalningen. Vänta några minuter eller välj ett annat namn.`,
      );
      expect((await sell(sale(id.barn, { method: "kampanj", kampanj: "FRIBILJETT" }), 400)).error).toBe(
        "En kampanjkod ändrar inte priset för den som springer med barn. Betala med Swish eller kontant.",
      );

      const version = (await getRegistration(v)).body.version;
      await payOnPhone(started.token!, "PAID");
      const { body: family } = await getRegistration(v);
      expect(family.deltagare[companionId]).toMatchObject({ companion: true, paidBy: started.payid, price: 40 });
      expect(family.version).toBe(version + 1);
      expect((await quickRegStatus(started.payid)).runners[0]).toMatchObject({
        added: true,
        pickedUpAt: expect.any(Number),
        family: { email: v.email, joined: true },
      });

      // Declined: never the family's; the same sale again answers that sale, a new one sells the place.
      const declinedBody = sale(id.barn, { lastname, firstname: "Yrsa", method: "swish" });
      const declined = await sell(declinedBody);
      await payOnPhone(declined.token!, "DECLINED");
      expect(await quickRegStatus(declined.payid)).toMatchObject({ status: "DECLINED", added: false });
      expect((await quickRegStatus(declined.payid)).runners[0]!.family).toEqual({ email: v.email, joined: false });
      expect((await getRegistration(v)).body.deltagare[companionRunnerId(declinedBody.saleId)]).toBeUndefined();
      expect(await row(companionRunnerId(declinedBody.saleId))).toMatchObject({ registration_id: null, paid_by: null });
      expect(await sell(declinedBody)).toEqual({ payid: declined.payid, method: "swish", amount: 40, raceId: RACE_16 });
      const cashBody = sale(id.barn, { lastname, firstname: "Yrsa" });
      const cash = await sell(cashBody);
      expect(cash).toMatchObject({ method: "kontant", amount: 40 });
      expect((await getRegistration(v)).body.deltagare[companionRunnerId(cashBody.saleId)]).toMatchObject({
        paidBy: cash.payid,
        price: 40,
      });

      // The family's personal data has the box-office payment that paid its companion, and its erasure clears
      // what that payment says about the payer.
      const exported = await json<{ boxOffice: { payments: { id: string }[] } }>(
        await get(`/admin/api/personal-data/export?email=${encodeURIComponent(v.email)}`, { jar: admin }),
      );
      expect(exported.boxOffice.payments.map((p) => p.id)).toEqual(expect.arrayContaining([started.payid, cash.payid]));
      const erased = await post("/admin/api/personal-data/erase", { email: v.email, confirm: v.email }, { jar: admin });
      expect(erased.status, await erased.text()).toBe(200);
      const payment = await env.DB.prepare("SELECT message, token FROM payments WHERE id = ?")
        .bind(started.payid)
        .first();
      expect(payment).toEqual({ message: null, token: null });
    } finally {
      SEASON.companionPrice = was;
    }
  });
});

function pick(r: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
}

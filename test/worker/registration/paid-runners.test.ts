/**
 * Issue 24 item 3: a paid family can still change things while registration is open. Paid status is each runner's
 * (paid by the payment that booked it); a late sibling is paid for alone on a second Swish payment of the same
 * registration, at today's tier and with a campaign code if one applies; a paid runner is edited through its race
 * object (a new distance is the object's move) so race day and D1 agree; what may not change is refused in
 * Swedish with nothing written. The interleavings the issue names: two tabs adding a sibling at once, a payment
 * settling while the family edits, a D1 save that loses after the race object changed, the backfill of existing
 * paid registrations.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../src/shared/clock";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { claimCampaignUseStatement } from "../../../src/worker/campaigns/campaigns-db";
import { database } from "../../../src/worker/db/client";
import { reconcilePayments } from "../../../src/worker/payments/payments";
import { testRace } from "../race-calls";
import { loginAdmin, post, visitorJar } from "../helpers";
import {
  at,
  CLOSED_AT,
  familyRows,
  getRegistration,
  LATE_AT,
  login,
  newClient,
  OPEN_AT,
  runner,
  update,
  type Visitor,
} from "../registration-helpers";
import { payOnPhone, paymentRow, receiptsTo, setCallbacks } from "../swish-helpers";

const RACE = {
  "5.6": raceIdForSeason("5.6", SEASON),
  "2.8": raceIdForSeason("2.8", SEASON),
  "1.6": raceIdForSeason("1.6", SEASON),
  "0.8": raceIdForSeason("0.8", SEASON),
};

async function book(v: Visitor, body: Record<string, unknown>, when = OPEN_AT) {
  const res = await post("/book-v2", body, { env: at(when), jar: v.jar, headers: v.headers });
  return {
    res,
    body: (await res.json()) as { token?: string; payref?: string; amount?: number; error?: string },
  };
}

function ids() {
  const tail = crypto.randomUUID().slice(0, 8);
  return { mamma: `mamma-${tail}`, barn: `barn-${tail}`, syster: `syster-${tail}`, bror: `bror-${tail}` };
}

/** A family of a mother (5.6) and a child (1.6) that has paid 250 kr (early tier) through the simulator. */
async function paidFamily() {
  const v = await login();
  const id = ids();
  const runners = {
    [id.mamma]: runner({ firstname: "Maria", lastname: "Lind", age: 41, distance: "5.6", group: "Dam" }),
    [id.barn]: runner({ firstname: "Ola", lastname: "Lind", age: 9, distance: "1.6", group: "Herr" }),
  };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const first = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
  expect(first.res.status).toBe(200);
  expect(first.body.amount).toBe(250);
  await payOnPhone(first.body.token!, "PAID");
  return { v, id, runners, payid: first.body.payref! };
}

async function raceRunner(part: string, id: string) {
  return testRace(part).getRunner(id);
}

async function participant(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

afterEach(async () => {
  await setCallbacks("normal");
});

describe("a late sibling: a second payment on the same registration", () => {
  it("a paid family adds a sibling and pays 100 kr more; both payments show, each runner paid by its own", async () => {
    const { v, id, runners, payid } = await paidFamily();
    let got = (await getRegistration(v)).body;
    expect(got.deltagare[id.mamma]).toMatchObject({ paidBy: payid, price: 150 });
    expect(got.deltagare[id.barn]).toMatchObject({ paidBy: payid, price: 100 });
    expect(got).toMatchObject({ barn: 0, vuxna: 0, listPrice: 0, locked: false });

    const withSister = {
      ...runners,
      [id.syster]: runner({ firstname: "Siv", lastname: "Lind", age: 6, distance: "0.8" }),
    };
    const added = await update(v, { runners: withSister, version: 1 });
    expect(added.res.status).toBe(200);
    expect(added.body.deltagare[id.syster]).toMatchObject({ paidBy: null, price: null });
    // Only the sister is left to pay, at today's tier.
    expect(added.body).toMatchObject({ barn: 1, vuxna: 0, listPrice: 100 });

    const second = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    expect(second.res.status).toBe(200);
    expect(second.body.amount).toBe(100);
    const row = (await familyRows(v.email)).payments.find((p) => p.id === second.body.payref)!;
    expect(row).toMatchObject({ amount: 100, barn: 1, vuxna: 0, status: "CREATED" });
    expect(JSON.parse(row.participant_ids as string)).toEqual([id.syster]);
    expect(JSON.parse(row.runner_prices as string)).toEqual({ [id.syster]: 100 });

    await payOnPhone(second.body.token!, "PAID");
    got = (await getRegistration(v)).body;
    expect(got.payid).toBe(second.body.payref);
    expect(Object.keys(got.swishtory).sort()).toEqual([payid, second.body.payref].sort());
    expect(got.swishtory[payid]).toMatchObject({ amount: 250, status: "PAID" });
    expect(got.swishtory[second.body.payref!]).toMatchObject({ amount: 100, status: "PAID" });
    expect(got.deltagare[id.syster]).toMatchObject({ paidBy: second.body.payref, price: 100 });
    expect(got.deltagare[id.mamma]).toMatchObject({ paidBy: payid, price: 150 });
    expect(got).toMatchObject({ barn: 0, vuxna: 0, listPrice: 0 });

    // The sister runs in her race; the first payment's runners were not added twice.
    expect(await raceRunner(RACE["0.8"], id.syster)).toMatchObject({ firstname: "Siv" });
    expect(await raceRunner(RACE["5.6"], id.mamma)).toMatchObject({ firstname: "Maria" });
    // Two receipts: the second is for the sister alone.
    const receipts = await receiptsTo(v.email);
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.text).toContain("Betalningen gäller:\n- Siv Lind, 0,8km");
    expect(receipts[1]!.text).not.toContain("Maria");
    expect(receipts[1]!.text).toContain("Belopp: 100 kr");
  });

  it("is priced at today's tier (late: a child 150) and may use a campaign code", async () => {
    const { v, id, runners } = await paidFamily();
    const withTwo = {
      ...runners,
      [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }),
      [id.bror]: runner({ firstname: "Bo", age: 30, distance: "2.8" }),
    };
    expect((await update(v, { runners: withTwo, version: 1 }, LATE_AT)).body).toMatchObject({
      barn: 1,
      vuxna: 1,
      listPrice: 150 + 250,
    });
    // VANLOPP50: 50 kr per person, for the two added runners only.
    const booked = await book(v, { barn: 1, vuxna: 1, kampanj: "VANLOPP50" }, LATE_AT);
    expect(booked.res.status).toBe(200);
    expect(booked.body.amount).toBe(100);
    const row = (await paymentRow(booked.body.payref!))!;
    expect(row.amount).toBe(100);
    await payOnPhone(booked.body.token!, "PAID");

    // Item 4: the page shows what was paid: each runner at the price it was booked at, not today's tier (the first
    // child 100 kr in the early tier, though a child costs 150 now), and the campaign code used.
    const got = (await getRegistration(v, LATE_AT)).body;
    expect(got.deltagare[id.barn]).toMatchObject({ price: 100 });
    expect(got.deltagare[id.syster]).toMatchObject({ price: 50, paidBy: booked.body.payref });
    expect(got.deltagare[id.bror]).toMatchObject({ price: 50, paidBy: booked.body.payref });
    expect(got.swishtory[booked.body.payref!]).toMatchObject({ kampanj: "VANLOPP50", amount: 100, refunds: [] });
  });

  it("a second payment whose callback never comes is settled by the cron, and its runner becomes paid", async () => {
    const { v, id, runners } = await paidFamily();
    const withSister = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(200);
    const second = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    await setCallbacks("drop");
    await payOnPhone(second.body.token!, "PAID");
    expect((await paymentRow(second.body.payref!))!.status).toBe("CREATED");
    expect((await getRegistration(v)).body.deltagare[id.syster]).toMatchObject({ paidBy: null });

    // The sweep a few minutes later (the payment was made at the test clock's OPEN_AT).
    await reconcilePayments(env, fixedClock(Date.parse(OPEN_AT) + 5 * 60_000));
    expect((await paymentRow(second.body.payref!))!.status).toBe("PAID");
    expect((await getRegistration(v)).body.deltagare[id.syster]).toMatchObject({
      paidBy: second.body.payref,
      price: 100,
    });
    expect(await raceRunner(RACE["0.8"], id.syster)).toMatchObject({ firstname: "Siv" });
    expect(await receiptsTo(v.email)).toHaveLength(2);
  });

  it("a capped code the first payment used up needs a use of its own for the sibling", async () => {
    const code = `EN${crypto
      .randomUUID()
      .slice(0, 6)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "X")}`;
    const admin = await loginAdmin();
    expect((await post("/admin/api/kampanjkoder", { code, rule: "flat50", maxUses: 1 }, { jar: admin })).status).toBe(
      201,
    );
    const v = await login();
    const id = ids();
    const runners = { [id.mamma]: runner({ age: 41 }) };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const first = await book(v, { barn: 0, vuxna: 1, kampanj: code });
    expect(first.body.amount).toBe(50);
    await payOnPhone(first.body.token!, "PAID");

    const withSister = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(200);
    const before = await familyRows(v.email);
    const refused = await book(v, { barn: 1, vuxna: 0, kampanj: code });
    expect(refused.res.status).toBe(400);
    expect(refused.body.error).toBe("Kampanjkoden gäller inte. Ta bort den eller skriv en annan.");
    expect(await familyRows(v.email)).toEqual(before);
  });

  it("nothing left to pay is a Swedish 409", async () => {
    const { v } = await paidFamily();
    const again = await book(v, { barn: 0, vuxna: 0, kampanj: "" });
    expect(again.res.status).toBe(409);
    expect(again.body.error).toBe("Alla löpare i anmälan är redan betalda.");
  });

  it("two tabs adding a sibling at once: one is saved, the other gets 409 with the list, nothing lost", async () => {
    const { v, id, runners } = await paidFamily();
    const tabA = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    const tabB = { ...runners, [id.bror]: runner({ firstname: "Bo", age: 12, distance: "1.6" }) };
    const [a, b] = await Promise.all([
      update(v, { runners: tabA, version: 1 }),
      update(v, { runners: tabB, version: 1 }),
    ]);
    expect([a.res.status, b.res.status].sort()).toEqual([200, 409]);
    const loser = a.res.status === 409 ? a : b;
    expect(loser.body.error).toBe(
      "Anmälan har ändrats i ett annat fönster. Listan har uppdaterats – gör din ändring igen.",
    );
    expect(Object.keys(loser.body.registration!.deltagare)).toHaveLength(3);
    expect((await familyRows(v.email)).participants).toHaveLength(3);
  });

  it("adding while a payment waits is refused; 'Avbryt betalningen' withdraws it and then the sibling can be added", async () => {
    const v = await login();
    const id = ids();
    const runners = { [id.mamma]: runner({ age: 41 }) };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const open = await book(v, { barn: 0, vuxna: 1, kampanj: "" });
    const withSister = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(409);

    const cancelled = await post("/cancel-payment", {}, { env: at(OPEN_AT), jar: v.jar, headers: v.headers });
    expect(cancelled.status).toBe(200);
    expect(
      ((await cancelled.json()) as { swishtory: Record<string, { status: string }> }).swishtory[open.body.payref!],
    ).toMatchObject({ status: "CANCELLED" });
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(200);
  });
});

describe("editing a paid runner while registration is open", () => {
  it("names, club and group go to the race object first, then D1: the two agree", async () => {
    const { v, id, runners } = await paidFamily();
    const renamed = {
      ...runners,
      [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia", company: "IK Ekbacken", group: "Ingen", age: 42 },
    };
    const { res, body } = await update(v, { runners: renamed, version: 1 });
    expect(res.status).toBe(200);
    expect(body.deltagare[id.mamma]).toMatchObject({ firstname: "Mia", company: "IK Ekbacken", age: 42 });
    expect(await raceRunner(RACE["5.6"], id.mamma)).toMatchObject({
      firstname: "Mia",
      company: "IK Ekbacken",
      group: "Ingen",
      age: 42,
    });
    const events = await testRace(RACE["5.6"]).events();
    expect(events.at(-1)).toMatchObject({ type: "runner-updated", actor: "anmälan" });
    // Still paid by the same payment, at the price booked.
    expect(body.deltagare[id.mamma]).toMatchObject({ paidBy: expect.any(String), price: 150 });
  });

  it("a new distance is the race object's move: out of the old race, into the new one; no new payment", async () => {
    const { v, id, runners } = await paidFamily();
    const moved = { ...runners, [id.mamma]: { ...runners[id.mamma]!, distance: "2.8" } };
    const { res, body } = await update(v, { runners: moved, version: 1 });
    expect(res.status).toBe(200);
    expect(body.deltagare[id.mamma]).toMatchObject({ distance: "2.8", price: 150 });
    expect(await raceRunner(RACE["5.6"], id.mamma)).toBeNull();
    expect(await raceRunner(RACE["2.8"], id.mamma)).toMatchObject({ firstname: "Maria", distance: "2.8" });
    expect(await participant(id.mamma)).toMatchObject({ distance: "2.8", race_id: RACE["2.8"] });
    expect((await familyRows(v.email)).payments).toHaveLength(1);
  });

  it("an age that moves a runner between child and adult price is refused, naming whom to write to", async () => {
    const { v, id, runners } = await paidFamily();
    const before = await familyRows(v.email);
    const older = { ...runners, [id.barn]: { ...runners[id.barn]!, age: 16 } };
    const { res, body } = await update(v, { runners: older, version: 1 });
    expect(res.status).toBe(409);
    expect(body.error).toBe(
      "Med åldern 16 år blir Ola Lind vuxen och får ett annat pris än det som betalades. Det kan inte ändras här – skriv till info@example.se så hjälper vi dig.",
    );
    expect(await familyRows(v.email)).toEqual(before);
    expect(await raceRunner(RACE["1.6"], id.barn)).toMatchObject({ age: 9 });
  });

  it("after registration has closed: a Swedish 403, nothing changes in D1 or the race", async () => {
    const { v, id, runners } = await paidFamily();
    const before = await familyRows(v.email);
    const renamed = { ...runners, [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" } };
    const { res, body } = await update(v, { runners: renamed, version: 1 }, CLOSED_AT);
    expect(res.status).toBe(403);
    expect(body.error).toBe(
      "Anmälan är stängd, så löparna kan inte längre ändras här. Skriv till info@example.se om något behöver ändras.",
    );
    expect(await familyRows(v.email)).toEqual(before);
    expect(await raceRunner(RACE["5.6"], id.mamma)).toMatchObject({ firstname: "Maria" });
  });

  it("one paid runner at a time; a paid runner not yet in its race waits a moment (409)", async () => {
    const { v, id, runners } = await paidFamily();
    const both = {
      [id.mamma]: { ...runners[id.mamma]!, firstname: "Mia" },
      [id.barn]: { ...runners[id.barn]!, firstname: "Olle" },
    };
    const two = await update(v, { runners: both, version: 1 });
    expect(two.res.status).toBe(400);
    expect(two.body.error).toBe(
      "Ändra en betald löpare i taget: spara först ändringen av Maria Lind och ändra sedan Ola Lind.",
    );

    await env.DB.prepare("UPDATE participants SET race_id = NULL WHERE id = ?").bind(id.barn).run();
    const notPlaced = await update(v, { runners: { ...runners, [id.barn]: both[id.barn]! }, version: 1 });
    expect(notPlaced.res.status).toBe(409);
    expect(notPlaced.body.error).toBe(
      "Ola Lind läggs just nu in i startlistan efter betalningen. Försök igen om en liten stund.",
    );
  });

  it("when D1's save loses to another tab after the race changed, the race gets D1's details back", async () => {
    for (let round = 0; round < 3; round++) {
      const { v, id, runners } = await paidFamily();
      // Tab A renames the paid mother (race object first); tab B, from the same version, changes the club of the
      // paid child. One D1 save wins; the race of the loser is put back, so race and D1 agree either way.
      const tabA = { ...runners, [id.mamma]: { ...runners[id.mamma]!, firstname: `Mia${round}` } };
      const tabB = { ...runners, [id.barn]: { ...runners[id.barn]!, company: `Klubb${round}` } };
      const [a, b] = await Promise.all([
        update(v, { runners: tabA, version: 1 }),
        update(v, { runners: tabB, version: 1 }),
      ]);
      expect([a.res.status, b.res.status].sort()).toEqual([200, 409]);
      for (const [key, part] of [
        [id.mamma, RACE["5.6"]],
        [id.barn, RACE["1.6"]],
      ] as const) {
        const d1 = (await participant(key))!;
        expect(await raceRunner(part, key)).toMatchObject({ firstname: d1.firstname, company: d1.company });
      }
    }
  });

  it("a sibling's payment that settles while the family edits a paid runner: both go through", async () => {
    const { v, id, runners } = await paidFamily();
    const withSister = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(200);
    const second = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    const renamed = { ...withSister, [id.mamma]: { ...withSister[id.mamma]!, firstname: "Mia" } };
    const [edit] = await Promise.all([update(v, { runners: renamed, version: 2 }), payOnPhone(second.body.token!)]);
    expect(edit.res.status).toBe(200);
    const got = (await getRegistration(v)).body;
    expect(got.deltagare[id.syster]).toMatchObject({ paidBy: second.body.payref });
    expect(got.deltagare[id.mamma]).toMatchObject({ firstname: "Mia" });
    expect(await raceRunner(RACE["5.6"], id.mamma)).toMatchObject({ firstname: "Mia" });
    expect(await raceRunner(RACE["0.8"], id.syster)).toMatchObject({ firstname: "Siv" });
  });
});

describe("a late sibling's payment and a capped campaign code", () => {
  const CAMPAIGN_USED_UP =
    "Kampanjkoden hann användas av någon annan efter att din betalning misslyckades och gäller inte längre. Ta bort den eller skriv en annan.";

  async function cappedCode(maxUses: number) {
    const code = `SYS${crypto.randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase()}`;
    const admin = await loginAdmin();
    expect((await post("/admin/api/kampanjkoder", { code, rule: "flat50", maxUses }, { jar: admin })).status).toBe(201);
    return code;
  }

  async function uses(code: string) {
    return (await env.DB.prepare("SELECT uses FROM campaign_codes WHERE code = ?")
      .bind(code)
      .first<{ uses: number }>())!.uses;
  }

  /** A mother who paid with `code` (50 kr), and a sister added since, not paid yet. */
  async function paidWithCodeThenSister(code: string) {
    const v = await login();
    const id = ids();
    const runners = { [id.mamma]: runner({ age: 41 }) };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const first = await book(v, { barn: 0, vuxna: 1, kampanj: code });
    expect(first.body.amount).toBe(50);
    await payOnPhone(first.body.token!, "PAID");
    const withSister = { ...runners, [id.syster]: runner({ firstname: "Siv", age: 6, distance: "0.8" }) };
    expect((await update(v, { runners: withSister, version: 1 })).res.status).toBe(200);
    return { v, id, first: first.body.payref! };
  }

  async function preview(v: Visitor, code: string) {
    const res = await post(
      "/validate-kampanj",
      { kampanj: code, barn: 1, vuxna: 0 },
      { env: at(OPEN_AT), jar: v.jar, headers: { ...v.headers, ...newClient() } },
    );
    return res.json();
  }

  it("the sibling's payment claims a use of its own; declined, it gives that use back and keeps the code for the retry", async () => {
    const code = await cappedCode(2);
    const { v, first } = await paidWithCodeThenSister(code);
    expect(await uses(code)).toBe(1);
    const second = await book(v, { barn: 1, vuxna: 0, kampanj: code });
    expect(second.res.status).toBe(200);
    expect(second.body.amount).toBe(50);
    expect(await uses(code)).toBe(2);

    await payOnPhone(second.body.token!, "DECLINED");
    // The first payment, PAID, keeps its use; the sibling's failed one gives its own back.
    expect(await uses(code)).toBe(1);
    const view = (await getRegistration(v)).body;
    expect(view.payid).toBe(second.body.payref);
    expect(view.swishtory[second.body.payref!]).toMatchObject({ status: "DECLINED", kampanj: code });
    expect(view.swishtory[first]).toMatchObject({ status: "PAID", kampanj: code });
    expect(await preview(v, code)).toEqual({ valid: true, price: 50 });

    const retry = await book(v, { barn: 1, vuxna: 0, kampanj: code });
    expect(retry.res.status).toBe(200);
    expect(await paymentRow(retry.body.payref!)).toMatchObject({ status: "CREATED", amount: 50, kampanj: code });
    expect(await uses(code)).toBe(2);
  });

  it("the sibling's use taken by another family meanwhile: the family hears so, and can pay without the code", async () => {
    const code = await cappedCode(2);
    const { v } = await paidWithCodeThenSister(code);
    const second = await book(v, { barn: 1, vuxna: 0, kampanj: code });
    await payOnPhone(second.body.token!, "ERROR", "RF07");
    expect(await uses(code)).toBe(1);
    const other = await login();
    expect((await update(other, { runners: { [ids().mamma]: runner({ age: 30 }) }, version: 0 })).res.status).toBe(200);
    expect((await book(other, { barn: 0, vuxna: 1, kampanj: code })).res.status).toBe(200);
    expect(await uses(code)).toBe(2);

    expect(await preview(v, code)).toEqual({ valid: false, price: 100, usedUp: true });
    const refused = await book(v, { barn: 1, vuxna: 0, kampanj: code });
    expect(refused.res.status).toBe(400);
    expect(refused.body.error).toBe(CAMPAIGN_USED_UP);
    const full = await book(v, { barn: 1, vuxna: 0, kampanj: "" });
    expect(full.res.status).toBe(200);
    expect(full.body.amount).toBe(100);
  });

  it("orders for some of the same runners share one use: the claim and the release trigger agree", async () => {
    const tail = crypto.randomUUID().slice(0, 8);
    const code = `DELA${tail.toUpperCase()}`;
    const reg = `reg-${tail}`;
    const now = Date.parse(OPEN_AT);
    const payid = () => crypto.randomUUID().replaceAll("-", "").toUpperCase();
    const [paid, again, sibling] = [payid(), payid(), payid()];
    const insert = (id: string, status: string, runnerIds: string[]) =>
      env.DB.prepare(
        `INSERT INTO payments (id, registration_id, season, amount, status, date_created, kampanj, participant_ids)
         VALUES (?, ?, 2025, 50, ?, ?, ?, ?)`,
      ).bind(id, reg, status, now, code, JSON.stringify(runnerIds));
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, 2025, ?, 1, ?, ?)",
      ).bind(reg, `dela-${tail}@example.se`, now, now),
      env.DB.prepare(
        "INSERT INTO campaign_codes (code, rule, max_uses, uses, created_at) VALUES (?, 'flat50', 2, 1, ?)",
      ).bind(code, now),
      // The family's paid order for the mother holds the one use counted so far.
      insert(paid, "PAID", [`mamma-${tail}`]),
    ]);
    const db = database(env.DB);
    const claim = (runnerIds: string[]) =>
      claimCampaignUseStatement(db, code, now, { registrationId: reg, runnerIds }).get();

    // An order for the mother again (booked on a page read before her payment settled) shares the paid order's use.
    expect(await claim([`mamma-${tail}`])).toBeUndefined();
    await insert(again, "CREATED", [`mamma-${tail}`]).run();
    // The sister's order is for another runner: it claims a use of its own.
    expect(await claim([`syster-${tail}`])).toEqual({ uses: 2 });
    await insert(sibling, "CREATED", [`syster-${tail}`]).run();

    const settle = (id: string) =>
      env.DB.prepare("UPDATE payments SET status = 'DECLINED' WHERE id = ? AND status = 'CREATED'").bind(id).run();
    // The mother's second order fails: the use it shared stays with her paid order.
    await settle(again);
    expect(await uses(code)).toBe(2);
    // The sister's fails: her own use comes back, though a paid order of the registration carries the code.
    await settle(sibling);
    expect(await uses(code)).toBe(1);
  });
});

describe("existing paid registrations (migrations/0010_runner_payments.sql)", () => {
  /** The migration's backfill statements, run again over rows written as they were before it. */
  async function backfill() {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0010_"))!;
    const updates = migration.queries
      .map((q) => q.replace(/^(\s*--[^\n]*\n)+/, "").trim())
      .filter((q) => q.startsWith("UPDATE `participants`"));
    expect(updates).toHaveLength(3);
    for (const q of updates) await env.DB.prepare(q).run();
  }

  it("a registration paid until now becomes runners paid by its payid; a box-office runner by its sale", async () => {
    const tail = crypto.randomUUID().slice(0, 8);
    const email = `gammal-${tail}@example.se`;
    const now = Date.parse(OPEN_AT);
    const payid = crypto.randomUUID().replaceAll("-", "").toUpperCase();
    const kassa = crypto.randomUUID().replaceAll("-", "").toUpperCase();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, 2025, ?, 1, ?, ?)",
      ).bind(`reg-${tail}`, email, now, now),
      ...[
        [`a-${tail}`, "Vera", 41, "5.6"],
        [`b-${tail}`, "Ivar", 9, "1.6"],
      ].map(([pid, name, age, distance]) =>
        env.DB.prepare(
          `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, created_at)
           VALUES (?, ?, 2025, ?, 'Gammal', ?, ?, ?)`,
        ).bind(pid, `reg-${tail}`, name, age, distance, now),
      ),
      // Paid before the migration: no runner prices, and (as the old model never needed it) runners named only
      // through the registration's payid.
      env.DB.prepare(
        `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, barn, vuxna)
         VALUES (?, ?, 2025, 250, 'PAID', ?, ?, 1, 1)`,
      ).bind(payid, `reg-${tail}`, now, now),
      env.DB.prepare("UPDATE registrations SET payid = ? WHERE id = ?").bind(payid, `reg-${tail}`),
      env.DB.prepare(
        `INSERT INTO participants (id, season, firstname, lastname, age, distance, phone, created_at)
         VALUES (?, 2025, 'Kassa', 'Köpare', 35, '2.8', '0701', ?)`,
      ).bind(`k-${tail}`, now),
      env.DB.prepare(
        `INSERT INTO payments (id, season, origin, amount, status, date_created, date_paid, participant_ids)
         VALUES (?, 2025, 'kassa', 300, 'PAID', ?, ?, ?)`,
      ).bind(kassa, now, now, JSON.stringify([`k-${tail}`])),
      // As before the migration: nobody has a paid_by yet.
      env.DB.prepare("UPDATE participants SET paid_by = NULL, paid_price = NULL WHERE id IN (?, ?, ?)").bind(
        `a-${tail}`,
        `b-${tail}`,
        `k-${tail}`,
      ),
    ]);

    await backfill();
    expect(await participant(`a-${tail}`)).toMatchObject({ paid_by: payid, paid_price: null });
    expect(await participant(`b-${tail}`)).toMatchObject({ paid_by: payid, paid_price: null });
    expect(await participant(`k-${tail}`)).toMatchObject({ paid_by: kassa, paid_price: 300 });

    // The family's page works the booked prices out from the payment (early tier the day it was made).
    const jar = await visitorJar(email);
    const got = (await getRegistration({ email, jar, headers: {} })).body;
    expect(got.deltagare[`a-${tail}`]).toMatchObject({ paidBy: payid, price: 150 });
    expect(got.deltagare[`b-${tail}`]).toMatchObject({ paidBy: payid, price: 100 });
  });
});

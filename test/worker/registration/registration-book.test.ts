/**
 * Prices and payment: POST /validate-kampanj (campaign preview) and POST /book-v2 (server-side counts and price,
 * the free campaign path, Swish, the paid lock).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { offsetClock, systemClock } from "../../../src/shared/clock";
import { SEASON } from "../../../src/shared/season";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { builtinCampaigns } from "../../../src/worker/campaigns/builtin-campaigns";
import { claimCampaignUse } from "../../../src/worker/campaigns/campaigns-db";
import { database } from "../../../src/worker/db/client";
import { MAX_UNPAID_ATTEMPTS } from "../../../src/worker/payments/payments-db";
import { reconcilePayments, recordFreePayment, startSwishPayment } from "../../../src/worker/payments/payments";
import { get, loginAdmin, post, storedState, visitorJar, type CallInit } from "../helpers";
import { paymentRow, payOnPhone } from "../swish-helpers";
import {
  at,
  campaignRows,
  CLOSED_AT,
  familyRows,
  getRegistration,
  inOneRateLimitWindow,
  LATE_AT,
  login,
  newClient,
  OPEN_AT,
  runner,
  uniqueEmail,
  update,
  type Visitor,
} from "../registration-helpers";

/**
 * The rate-limit tests make 21–123 calls and may run twice (inOneRateLimitWindow); on a loaded two-core machine
 * that takes longer than the default 5 s.
 */
const RATE_LIMIT_TEST_MS = 60_000;

const CAMPAIGN_INVALID = "Kampanjkoden gäller inte. Ta bort den eller skriv en annan.";
const CAMPAIGN_USED_UP =
  "Kampanjkoden hann användas av någon annan efter att din betalning misslyckades och gäller inte längre. Ta bort den eller skriv en annan.";
const DAY = 24 * 60 * 60_000;

async function validateKampanj(body: unknown, init: CallInit = {}) {
  const res = await post("/validate-kampanj", body, { env: at(OPEN_AT), headers: newClient(), ...init });
  return { res, body: (await res.json()) as { valid?: boolean; price?: number; error?: string } };
}

async function book(v: Visitor, body: unknown, when = OPEN_AT) {
  const res = await post("/book-v2", body, { env: at(when), jar: v.jar, headers: v.headers });
  return {
    res,
    body: (await res.json()) as { token?: string; payref?: string; error?: string; errors?: Record<string, string> },
  };
}

/** One adult and two children, with runner ids of their own (ids are unique across registrations). */
function newFamily() {
  const tail = crypto.randomUUID().slice(0, 8);
  return {
    [`a-${tail}`]: runner({ firstname: "Vera", age: 41 }),
    [`b-${tail}`]: runner({ firstname: "Ivar", age: 9, distance: "1.6", group: "Herr" }),
    [`c-${tail}`]: runner({ firstname: "Tove", age: 2015, distance: "0.8" }),
  };
}

async function familyWithRunners(when = OPEN_AT): Promise<Visitor & { ids: string[] }> {
  const v = await login(uniqueEmail(), when);
  const runners = newFamily();
  expect((await update(v, { runners }, when)).res.status).toBe(200);
  return { ...v, ids: Object.keys(runners) };
}

async function makeCode(code: string, rule: string, extra: Record<string, unknown> = {}) {
  const jar = await loginAdmin();
  const res = await post("/admin/api/kampanjkoder", { code, rule, ...extra }, { jar });
  expect(res.status).toBe(201);
  return jar;
}

describe("POST /validate-kampanj", () => {
  const counts = { barn: 2, vuxna: 1 };

  it("prices the built-in codes from the counts sent (early tier: child 100, adult 150)", async () => {
    expect((await validateKampanj({ kampanj: "VANLOPP50", ...counts })).body).toEqual({ valid: true, price: 150 });
    expect((await validateKampanj({ kampanj: "fribiljett", ...counts })).body).toEqual({ valid: true, price: 0 });
    expect((await validateKampanj({ kampanj: " tidigfagel ", ...counts })).body).toEqual({ valid: true, price: 200 });
  });

  it("an unknown or empty code is not valid and costs the list price", async () => {
    expect((await validateKampanj({ kampanj: "GISSNING1", ...counts })).body).toEqual({ valid: false, price: 350 });
    expect((await validateKampanj({ kampanj: "", ...counts })).body).toEqual({ valid: false, price: 350 });
    expect((await validateKampanj({ barn: 0, vuxna: 0 })).body).toEqual({ valid: false, price: 0 });
  });

  it("follows the price tier and the early-bird code's end (1 Oct 2025)", async () => {
    const late = { env: at(LATE_AT) };
    expect((await validateKampanj({ kampanj: "", ...counts }, late)).body).toEqual({ valid: false, price: 550 });
    expect((await validateKampanj({ kampanj: "TIDIGFAGEL", ...counts }, late)).body).toEqual({
      valid: true,
      price: 400,
    });
    const after = { env: at("2025-10-02T00:00:01+02:00") };
    expect((await validateKampanj({ kampanj: "TIDIGFAGEL", ...counts }, after)).body).toEqual({
      valid: false,
      price: 550,
    });
    const lastSecond = { env: at("2025-10-01T23:59:58+02:00") };
    expect((await validateKampanj({ kampanj: "TIDIGFAGEL", ...counts }, lastSecond)).body.valid).toBe(true);
  });

  it("knows the organiser's codes, and not once disabled or expired", async () => {
    const jar = await makeCode("SPONSOR7", "flat50");
    expect((await validateKampanj({ kampanj: "sponsor7", ...counts })).body).toEqual({ valid: true, price: 150 });
    expect((await post("/admin/api/kampanjkoder/SPONSOR7/disable", {}, { jar })).status).toBe(200);
    expect((await validateKampanj({ kampanj: "SPONSOR7", ...counts })).body).toEqual({ valid: false, price: 350 });

    await makeCode("GAMMAL1X", "free", { validUntil: "2025-08-24" });
    expect((await validateKampanj({ kampanj: "GAMMAL1X", ...counts })).body.valid).toBe(false);
    expect(
      (await validateKampanj({ kampanj: "GAMMAL1X", ...counts }, { env: at("2025-08-24T23:59:00+02:00") })).body.valid,
    ).toBe(true);
  });

  it("a built-in code disabled by the organiser is not valid", async () => {
    const jar = await loginAdmin();
    expect((await post("/admin/api/kampanjkoder/VANLOPP50/disable", {}, { jar })).status).toBe(200);
    expect((await validateKampanj({ kampanj: "VANLOPP50", ...counts })).body.valid).toBe(false);
    expect((await post("/admin/api/kampanjkoder/VANLOPP50/enable", {}, { jar })).status).toBe(200);
    expect((await validateKampanj({ kampanj: "VANLOPP50", ...counts })).body.valid).toBe(true);
  });

  it("refuses bad input with a Swedish 400", async () => {
    const before = await storedState();
    const bad: unknown[] = [
      { kampanj: "X", barn: -1, vuxna: 1 },
      { kampanj: "X", barn: "2", vuxna: 1 },
      { kampanj: "X", barn: 1.5, vuxna: 1 },
      { kampanj: "X", barn: 21, vuxna: 1 },
      { kampanj: "X", barn: 1 },
      { kampanj: "X".repeat(41), barn: 1, vuxna: 1 },
      { kampanj: 5, barn: 1, vuxna: 1 },
      { kampanj: ["FRIBILJETT"], barn: 1, vuxna: 1 },
      null,
      "FRIBILJETT",
    ];
    for (const body of bad) {
      const { res, body: answer } = await validateKampanj(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer.error).toMatch(/^(Ange ett antal|Ogiltig kampanjkod)/);
    }
    expect(await storedState()).toEqual(before);
  });

  it("rate-limits code look-ups per client: 429 after 20 a minute", { timeout: RATE_LIMIT_TEST_MS }, async () => {
    // KAMPANJ_RL counts per clock minute (inOneRateLimitWindow says why that matters); judged in one window.
    const { headers, statuses } = await inOneRateLimitWindow(async () => {
      const headers = newClient();
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push((await validateKampanj({ kampanj: `GISSA${i}`, ...counts }, { headers })).res.status);
      }
      return { headers, statuses };
    });
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
    // An empty code is only the list price, not a guess.
    expect((await validateKampanj({ kampanj: "", ...counts }, { headers })).res.status).toBe(200);
  });
});

describe("POST /book-v2", () => {
  it("needs a session (401), an open registration (403) and at least one runner (400)", async () => {
    expect((await post("/book-v2", { barn: 0, vuxna: 1, kampanj: "" }, { env: at(OPEN_AT) })).status).toBe(401);

    const empty = await login();
    const { res, body } = await book(empty, { barn: 0, vuxna: 0, kampanj: "" });
    expect(res.status).toBe(400);
    expect(body.error).toBe("Lägg till minst en deltagare innan du går till betalning.");

    const v = await familyWithRunners();
    const closed = await book(v, { barn: 2, vuxna: 1, kampanj: "" }, CLOSED_AT);
    expect(closed.res.status).toBe(403);
    expect(closed.body).toEqual({ error: "Anmälan är stängd" });
  });

  it("checks the counts against the stored runners: {errors} with barn, and vuxna when it differs", async () => {
    const v = await familyWithRunners();
    const before = { rows: await familyRows(v.email), counts: await storedState() };

    const both = await book(v, { barn: 3, vuxna: 2, kampanj: "" });
    expect(both.res.status).toBe(400);
    expect(both.body.errors).toEqual({
      barn: "Antalet barn stämmer inte (2 anmälda)",
      vuxna: "Antalet vuxna stämmer inte (1 anmälda)",
    });
    expect(both.body.error).toBe("Antalet barn stämmer inte (2 anmälda)");

    const barnOnly = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
    expect(barnOnly.body.errors).toEqual({ barn: "Antalet barn stämmer inte (2 anmälda)" });

    const vuxnaOnly = await book(v, { barn: 2, vuxna: 0, kampanj: "" });
    expect(Object.keys(vuxnaOnly.body.errors!).sort()).toEqual(["barn", "vuxna"]);
    expect(vuxnaOnly.body.errors!.vuxna).toBe("Antalet vuxna stämmer inte (1 anmälda)");

    for (const body of [
      { barn: -1, vuxna: 1 },
      { barn: "2", vuxna: 1 },
      { vuxna: 1 },
      { barn: 2, vuxna: 1, kampanj: 7 },
      [],
    ]) {
      expect((await book(v, body)).res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await familyRows(v.email)).toEqual(before.rows);
    expect(await storedState()).toEqual(before.counts);
  });

  it("a free campaign code: token 'kampanj', a PAID kampanj_FRIBILJETT payment, its runners paid by it", async () => {
    const v = await familyWithRunners();
    const usesBefore = ((await campaignRows()).find((r) => r.code === "FRIBILJETT")?.uses as number | undefined) ?? 0;
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "fribiljett" });
    expect(res.status).toBe(200);
    expect(body.token).toBe("kampanj");
    expect(body.payref).toMatch(/^kampanj_FRIBILJETT/);

    const rows = await familyRows(v.email);
    expect(rows.payments).toHaveLength(1);
    expect(rows.payments[0]).toMatchObject({
      id: body.payref,
      status: "PAID",
      amount: 0,
      kampanj: "FRIBILJETT",
      barn: 2,
      vuxna: 1,
    });
    expect(JSON.parse(rows.payments[0]!.participant_ids as string).sort()).toEqual([...v.ids].sort());
    expect((await campaignRows()).find((r) => r.code === "FRIBILJETT")?.uses).toBe(usesBefore + 1);

    const got = (await getRegistration(v)).body;
    expect(got.swishtory[body.payref!]).toMatchObject({ status: "PAID", kampanj: "FRIBILJETT" });
    for (const id of v.ids) expect(got.deltagare[id]).toMatchObject({ paidBy: body.payref, price: 0 });

    const again = await book(v, { barn: 2, vuxna: 1, kampanj: "FRIBILJETT" });
    expect(again.res.status).toBe(409);
    expect(again.body).toEqual({ error: "Alla löpare i anmälan är redan betalda." });
    expect((await update(v, { runners: {} })).res.status).toBe(409);
  });

  it("a code with one use left: the first family gets it, the second is refused and can book without it", async () => {
    await makeCode("ENGANG1X", "free", { maxUses: 1 });
    const first = await familyWithRunners();
    const second = await familyWithRunners();
    expect((await book(first, { barn: 2, vuxna: 1, kampanj: "ENGANG1X" })).body.token).toBe("kampanj");
    // The preview now says it is used up…
    expect((await validateKampanj({ kampanj: "ENGANG1X", barn: 2, vuxna: 1 })).body).toEqual({
      valid: false,
      price: 350,
    });
    const row = (await campaignRows()).find((r) => r.code === "ENGANG1X");
    expect(row).toMatchObject({ uses: 1, max_uses: 1 });
    // …the second family's booking with it is refused and changes nothing…
    const before = { rows: await familyRows(second.email), counts: await storedState() };
    const refused = await book(second, { barn: 2, vuxna: 1, kampanj: "ENGANG1X" });
    expect(refused.res.status).toBe(400);
    expect(refused.body).toEqual({ error: CAMPAIGN_INVALID, errors: { kampanj: CAMPAIGN_INVALID } });
    expect(await familyRows(second.email)).toEqual(before.rows);
    expect(await storedState()).toEqual(before.counts);
    // …and without the code it books at the list price, through Swish.
    const { body } = await book(second, { barn: 2, vuxna: 1, kampanj: "" });
    expect(body.token).not.toBe("kampanj");
    expect((await familyRows(second.email)).payments[0]).toMatchObject({ amount: 350, kampanj: null });
    expect((await campaignRows()).find((r) => r.code === "ENGANG1X")).toMatchObject({ uses: 1 });
  });

  it("the last use cannot go to two families booking at the same moment", async () => {
    await makeCode("SISTA1XX", "free", { maxUses: 1 });
    const families = await Promise.all([familyWithRunners(), familyWithRunners(), familyWithRunners()]);
    const results = await Promise.all(families.map((f) => book(f, { barn: 2, vuxna: 1, kampanj: "SISTA1XX" })));
    const free = results.filter((r) => r.body.token === "kampanj");
    expect(free).toHaveLength(1);
    expect((await campaignRows()).find((r) => r.code === "SISTA1XX")).toMatchObject({ uses: 1 });
    const paidRows = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE kampanj = 'SISTA1XX'").first<{
      n: number;
    }>();
    expect(paidRows?.n).toBe(1);
    // Either the code was already used up when evaluated or the claim lost: a 400 either way, and no payment.
    for (const [i, r] of results.entries()) {
      if (r.body.token === "kampanj") continue;
      expect(r.res.status).toBe(400);
      expect(r.body.errors).toEqual({ kampanj: CAMPAIGN_INVALID });
      expect((await familyRows(families[i]!.email)).payments).toEqual([]);
    }
  });

  it("prices a 15-year-old as a child and a 16-year-old as an adult (spec: under 16 is a child)", async () => {
    const v = await login();
    const tail = crypto.randomUUID().slice(0, 8);
    const runners = {
      [`femton-${tail}`]: runner({ firstname: "Femton", age: 15, distance: "2.8" }),
      [`sexton-${tail}`]: runner({ firstname: "Sexton", age: 16, distance: "2.8" }),
    };
    const saved = await update(v, { runners });
    expect(saved.res.status).toBe(200);
    // Early tier: a child 100, an adult 150.
    expect(saved.body).toMatchObject({ barn: 1, vuxna: 1, listPrice: 250 });

    // Counts that call both children, or both adults, are refused: the server counts from the stored ages.
    for (const counts of [
      { barn: 2, vuxna: 0 },
      { barn: 0, vuxna: 2 },
    ]) {
      const refused = await book(v, { ...counts, kampanj: "" });
      expect(refused.res.status, JSON.stringify(counts)).toBe(400);
      expect(refused.body.errors).toHaveProperty("barn");
    }
    const { res, body } = await book(v, { barn: 1, vuxna: 1, kampanj: "" });
    expect(res.status).toBe(200);
    expect(await paymentRow(body.payref!)).toMatchObject({ amount: 250, barn: 1, vuxna: 1 });
    // A campaign rule sees the same split: −50 per runner gives 50 + 100.
    const early = await book(v, { barn: 1, vuxna: 1, kampanj: "TIDIGFAGEL" });
    expect(await paymentRow(early.body.payref!)).toMatchObject({ amount: 150, barn: 1, vuxna: 1 });
  });

  it("without a code: a Swish payment for the list price, {token, payref}", async () => {
    const v = await familyWithRunners();
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(res.status).toBe(200);
    expect(body.token).toEqual(expect.any(String));
    expect(body.token).not.toBe("kampanj");
    expect(body.payref).toMatch(/^[0-9A-F]{32}$/);
    const rows = await familyRows(v.email);
    expect(rows.payments).toHaveLength(1);
    expect(rows.payments[0]).toMatchObject({ id: body.payref, amount: 350, barn: 2, vuxna: 1, status: "CREATED" });
    expect((await getRegistration(v)).body.locked).toBe(false);
  });

  it("booking again withdraws the payment still waiting in Swish; once paid there, there is nothing to book", async () => {
    const v = await familyWithRunners();
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    const second = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(second.res.status).toBe(200);
    expect(second.body.payref).not.toBe(first.body.payref);
    const rows = await familyRows(v.email);
    expect(rows.payments.find((p) => p.id === first.body.payref)?.status).toBe("CANCELLED");
    expect(rows.payments.find((p) => p.id === second.body.payref)?.status).toBe("CREATED");
    expect(rows.registrations[0]).toMatchObject({ payid: second.body.payref });

    // The family pays the second one in the Swish app; whether or not the callback has arrived, a new booking
    // finds out and is refused.
    expect((await post(`/dev/swish/pay/${second.body.token}`, { status: "PAID" })).status).toBe(200);
    const third = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(third.res.status).toBe(409);
    expect(third.body).toEqual({ error: "Alla löpare i anmälan är redan betalda." });
    const after = await familyRows(v.email);
    expect(after.payments).toHaveLength(2);
    expect(after.payments.find((p) => p.id === second.body.payref)?.status).toBe("PAID");
    expect(after.participants.every((p) => p.paid_by === second.body.payref)).toBe(true);
  });

  it("a discount code: Swish for the campaign price; the browser's price is never used", async () => {
    const v = await familyWithRunners(LATE_AT);
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "VANLOPP50", price: 1 }, LATE_AT);
    expect(res.status).toBe(200);
    const rows = await familyRows(v.email);
    expect(rows.payments[0]).toMatchObject({ id: body.payref, amount: 150, kampanj: "VANLOPP50" });
  });

  it("a code typed in lower case with spaces around it is the code; spaces inside make another word (Swedish 400)", async () => {
    const v = await familyWithRunners();
    for (const kampanj of ["vanlopp 50", "fri biljett", "VAN LOPP50"]) {
      expect((await validateKampanj({ kampanj, barn: 2, vuxna: 1 })).body).toEqual({ valid: false, price: 350 });
      const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj });
      expect(res.status, kampanj).toBe(400);
      expect(body.error).toBe(CAMPAIGN_INVALID);
    }
    expect((await familyRows(v.email)).payments).toEqual([]);
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "  vanlopp50\t" });
    expect(res.status).toBe(200);
    expect((await familyRows(v.email)).payments[0]).toMatchObject({
      id: body.payref,
      amount: 150,
      kampanj: "VANLOPP50",
    });
  });

  it("a code's use is counted once per family, however often it books", async () => {
    await makeCode("RABATT9X", "flat50", { maxUses: 5 });
    const v = await familyWithRunners();
    for (let i = 0; i < 3; i++) {
      const { res } = await book(v, { barn: 2, vuxna: 1, kampanj: "rabatt9x" });
      expect(res.status).toBe(200);
    }
    expect((await campaignRows()).find((r) => r.code === "RABATT9X")).toMatchObject({ uses: 1 });
    expect((await familyRows(v.email)).payments.map((p) => p.amount)).toEqual([150, 150, 150]);
  });

  it("a code that does not apply (unknown, expired, disabled) is a 400 at booking and changes nothing", async () => {
    const jar = await makeCode("AVSTANGD2", "flat50");
    expect((await post("/admin/api/kampanjkoder/AVSTANGD2/disable", {}, { jar })).status).toBe(200);
    await makeCode("UTGATT2X", "flat50", { validUntil: "2025-08-24" });
    const v = await familyWithRunners();
    // A payment already waiting must not be withdrawn by a refused booking either.
    const waiting = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(waiting.res.status).toBe(200);
    const before = { rows: await familyRows(v.email), counts: await storedState(), codes: await campaignRows() };
    for (const kampanj of ["FINNSINTE", "utgatt2x", "AVSTANGD2", " avstangd2 "]) {
      const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj });
      expect(res.status, kampanj).toBe(400);
      expect(body).toEqual({ error: CAMPAIGN_INVALID, errors: { kampanj: CAMPAIGN_INVALID } });
    }
    expect(await familyRows(v.email)).toEqual(before.rows);
    expect(await storedState()).toEqual(before.counts);
    expect(await campaignRows()).toEqual(before.codes);
    expect(before.rows.payments[0]).toMatchObject({ id: waiting.body.payref, status: "CREATED" });
    // The preview keeps the spec's answer for the same codes: not valid, the list price.
    expect((await validateKampanj({ kampanj: "FINNSINTE", barn: 2, vuxna: 1 })).body).toEqual({
      valid: false,
      price: 350,
    });
    // An empty code is simply the list price.
    const listPrice = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(listPrice.res.status).toBe(200);
    expect((await familyRows(v.email)).payments.find((p) => p.id === listPrice.body.payref)).toMatchObject({
      amount: 350,
      kampanj: null,
    });
  });

  it("two tabs booking at the same moment leave exactly one live Swish payment", async () => {
    for (let round = 0; round < 3; round++) {
      const v = await familyWithRunners();
      const results = await Promise.all([0, 1, 2].map(() => book(v, { barn: 2, vuxna: 1, kampanj: "" })));
      for (const r of results) {
        if (r.res.status === 200) continue;
        expect(r.res.status).toBe(409);
        expect(r.body).toEqual({ error: "En annan betalning startades samtidigt. Ladda om sidan." });
      }
      expect(results.some((r) => r.res.status === 200)).toBe(true);
      const rows = await familyRows(v.email);
      const live = rows.payments.filter((p) => p.status === "CREATED");
      expect(live).toHaveLength(1);
      expect(rows.registrations[0]).toMatchObject({ payid: live[0]!.id });
      // Swish agrees: of the family's payment requests, only that one can still be paid.
      const atSwish = await Promise.all(
        rows.payments.map((p) => swishClientFor(env).retrievePaymentRequest(p.id as string)),
      );
      expect(atSwish.filter((p) => p?.status === "CREATED").map((p) => p!.id)).toEqual([live[0]!.id]);
    }
  });
});

describe("a capped code's use is held only while its order is open or paid", () => {
  const uses = async (code: string) => (await campaignRows()).find((r) => r.code === code)?.uses;

  it("a declined payment gives the use back, and the family's retry claims it again at the discounted price", async () => {
    await makeCode("ENGANG2X", "flat50", { maxUses: 1 });
    const v = await familyWithRunners();
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: "engang2x" });
    expect(first.res.status).toBe(200);
    expect(await uses("ENGANG2X")).toBe(1);
    // The payer declines in the Swish app: the order ends unpaid and holds the use no more.
    await payOnPhone(first.body.token!, "DECLINED");
    expect(await paymentRow(first.body.payref!)).toMatchObject({ status: "DECLINED" });
    expect(await uses("ENGANG2X")).toBe(0);
    // Step 3 reads the failed order's code from the family's registration, to book the retry with it.
    const view = (await getRegistration(v)).body;
    expect(view.payid).toBe(first.body.payref);
    expect(view.swishtory[first.body.payref!]).toMatchObject({ status: "DECLINED", kampanj: "ENGANG2X" });

    const preview = await validateKampanj(
      { kampanj: "ENGANG2X", barn: 2, vuxna: 1 },
      { jar: v.jar, headers: { ...v.headers, ...newClient() } },
    );
    expect(preview.body).toEqual({ valid: true, price: 150 });
    const again = await book(v, { barn: 2, vuxna: 1, kampanj: "ENGANG2X" });
    expect(again.res.status).toBe(200);
    expect(await paymentRow(again.body.payref!)).toMatchObject({ status: "CREATED", amount: 150, kampanj: "ENGANG2X" });
    expect(await uses("ENGANG2X")).toBe(1);
    // Booking once more while that order is open keeps the family's use (it is not claimed twice).
    const third = await book(v, { barn: 2, vuxna: 1, kampanj: "ENGANG2X" });
    expect(third.res.status).toBe(200);
    expect(await paymentRow(again.body.payref!)).toMatchObject({ status: "CANCELLED" });
    expect(await paymentRow(third.body.payref!)).toMatchObject({ status: "CREATED", amount: 150 });
    expect(await uses("ENGANG2X")).toBe(1);
  });

  it("a use given back can go to another family; the first family then hears so in Swedish and can pay without it", async () => {
    await makeCode("ENGANG3X", "flat50", { maxUses: 1 });
    const v = await familyWithRunners();
    const other = await familyWithRunners();
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: "ENGANG3X" });
    await payOnPhone(first.body.token!, "ERROR", "RF07");
    expect(await uses("ENGANG3X")).toBe(0);
    const taken = await book(other, { barn: 2, vuxna: 1, kampanj: "ENGANG3X" });
    expect(taken.res.status).toBe(200);
    expect(await uses("ENGANG3X")).toBe(1);

    // The family whose payment carried the code is told it was used up; anyone else only that it does not apply.
    const own = await validateKampanj(
      { kampanj: "ENGANG3X", barn: 2, vuxna: 1 },
      { jar: v.jar, headers: { ...v.headers, ...newClient() } },
    );
    expect(own.body).toEqual({ valid: false, price: 350, usedUp: true });
    expect((await validateKampanj({ kampanj: "ENGANG3X", barn: 2, vuxna: 1 })).body).toEqual({
      valid: false,
      price: 350,
    });
    const before = await familyRows(v.email);
    const refused = await book(v, { barn: 2, vuxna: 1, kampanj: "ENGANG3X" });
    expect(refused.res.status).toBe(400);
    expect(refused.body.error).toBe(CAMPAIGN_USED_UP);
    expect(refused.body.errors).toEqual({ kampanj: CAMPAIGN_USED_UP });
    expect(await familyRows(v.email)).toEqual(before);
    const full = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(full.res.status).toBe(200);
    expect(await paymentRow(full.body.payref!)).toMatchObject({ amount: 350, kampanj: null });
  });

  it("a payment withdrawn by a change of runners gives the use back", async () => {
    await makeCode("ENGANG4X", "flat50", { maxUses: 1 });
    const v = await familyWithRunners();
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: "ENGANG4X" });
    expect(await uses("ENGANG4X")).toBe(1);
    const current = (await getRegistration(v)).body;
    const runners = Object.fromEntries(Object.entries(current.deltagare).slice(0, 2));
    expect((await update(v, { runners, version: current.version })).res.status).toBe(200);
    expect(await paymentRow(first.body.payref!)).toMatchObject({ status: "CANCELLED" });
    expect(await uses("ENGANG4X")).toBe(0);
  });

  it("ten families who open Swish and walk away do not use up a ten-use code", async () => {
    await makeCode("TIOGANGER", "flat50", { maxUses: 10 });
    const walkers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const v = await familyWithRunners();
      const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "TIOGANGER" });
      expect(res.status).toBe(200);
      walkers.push(body.payref!);
    }
    expect(await uses("TIOGANGER")).toBe(10);
    const eleventh = await familyWithRunners();
    expect((await book(eleventh, { barn: 2, vuxna: 1, kampanj: "TIOGANGER" })).res.status).toBe(400);

    // Nobody pays: the cron gives each payment up (a day on), and every use comes back.
    const later = offsetClock(Date.now() + DAY + 60_000);
    for (let sweep = 0; sweep < 5; sweep++) {
      const statuses = await Promise.all(walkers.map(async (id) => (await paymentRow(id))!.status));
      if (statuses.every((s) => s === "ERROR")) break;
      await reconcilePayments(env, later);
    }
    for (const id of walkers) expect(await paymentRow(id)).toMatchObject({ status: "ERROR", error_code: "TM01" });
    expect(await uses("TIOGANGER")).toBe(0);
    const late = await book(eleventh, { barn: 2, vuxna: 1, kampanj: "TIOGANGER" });
    expect(late.res.status).toBe(200);
    expect(await uses("TIOGANGER")).toBe(1);
  }, 60_000);
});

describe("a payment covers exactly one order", () => {
  it("a free order and a Swish booking at the same moment never leave a live Swish request beside a paid free order", async () => {
    for (let round = 0; round < 6; round++) {
      const v = await familyWithRunners();
      const [free, swish] = await Promise.all([
        book(v, { barn: 2, vuxna: 1, kampanj: "FRIBILJETT" }),
        book(v, { barn: 2, vuxna: 1, kampanj: "" }),
      ]);
      const rows = await familyRows(v.email);
      const paidFree = rows.payments.filter((p) => p.status === "PAID");
      const atSwish = await Promise.all(
        rows.payments
          .filter((p) => !String(p.id).startsWith("kampanj"))
          .map((p) => swishClientFor(env).retrievePaymentRequest(p.id as string)),
      );
      const liveAtSwish = atSwish.filter((p) => p?.status === "CREATED");
      // Exactly one of the two orders is written; the other is refused with 409 and leaves nothing behind.
      expect([free.res.status, swish.res.status].sort(), JSON.stringify([free.body, swish.body])).toContain(200);
      if (paidFree.length > 0) {
        expect(liveAtSwish).toEqual([]);
        expect(rows.payments).toHaveLength(1);
        expect(swish.res.status).toBe(409);
      } else {
        expect(liveAtSwish).toHaveLength(1);
        expect(free.res.status).toBe(409);
      }
    }
  });

  it("a free order takes the Swish booking's guard: one based on what was read before a Swish booking is refused", async () => {
    const v = await familyWithRunners();
    const [registration] = (await familyRows(v.email)).registrations;
    const readBefore = { payid: registration!.payid as string | null, version: registration!.version as number };
    const swish = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(swish.res.status).toBe(200);
    const usesBefore = (await campaignRows()).find((r) => r.code === "FRIBILJETT")?.uses ?? 0;

    const refusal = await recordFreePayment(env, systemClock, {
      registrationId: registration!.id as string,
      season: SEASON.year,
      kampanj: "FRIBILJETT",
      barn: 2,
      vuxna: 1,
      participantIds: v.ids,
      expected: readBefore,
    }).then(
      () => null,
      (e: unknown) => e as { status: number; message: string },
    );
    expect(refusal).toMatchObject({ status: 409, message: "En annan betalning startades samtidigt. Ladda om sidan." });
    const rows = await familyRows(v.email);
    expect(rows.payments.map((p) => p.status)).toEqual(["CREATED"]);
    expect(rows.registrations[0]!.payid).toBe(swish.body.payref);
    expect((await campaignRows()).find((r) => r.code === "FRIBILJETT")?.uses ?? 0).toBe(usesBefore);
  });

  it("a campaign code's claim checks its cap, 'disabled' and validity in one statement", async () => {
    const db = database(env.DB);
    const builtins = builtinCampaigns(env);
    const now = Date.parse(OPEN_AT);
    await makeCode("CLAIMCAP", "flat50", { maxUses: 1 });
    await makeCode("CLAIMOFF", "flat50");
    await makeCode("CLAIMOLD", "flat50", { validUntil: "2025-08-01" });
    expect((await post("/admin/api/kampanjkoder/CLAIMOFF/disable", {}, { jar: await loginAdmin() })).status).toBe(200);

    expect(await claimCampaignUse(db, "CLAIMOFF", now, builtins)).toBe(false);
    expect(await claimCampaignUse(db, "CLAIMOLD", now, builtins)).toBe(false);
    expect(await claimCampaignUse(db, "CLAIMCAP", now, builtins)).toBe(true);
    expect(await claimCampaignUse(db, "CLAIMCAP", now, builtins)).toBe(false);
    const uses = Object.fromEntries((await campaignRows()).map((r) => [r.code, r.uses]));
    expect(uses).toMatchObject({ CLAIMCAP: 1, CLAIMOFF: 0, CLAIMOLD: 0 });
  });

  it("the claim and the payment row are written together: a booking refused by the guard consumes no use", async () => {
    await makeCode("TILLSAMMANS", "flat50", { maxUses: 5 });
    const v = await familyWithRunners();
    const [registration] = (await familyRows(v.email)).registrations;
    // A runner save got in after this booking read the registration: the order is refused whole.
    const stale = { payid: registration!.payid as string | null, version: (registration!.version as number) - 1 };
    const refused = await startSwishPayment(env, systemClock, {
      registrationId: registration!.id as string,
      season: SEASON.year,
      amount: 250,
      barn: 2,
      vuxna: 1,
      kampanj: "TILLSAMMANS",
      participantIds: v.ids,
      origin: "registration",
      message: "Byloppet 2025",
      requestOrigin: "http://localhost",
      expected: stale,
    }).then(
      () => null,
      (e: unknown) => e as { status: number },
    );
    expect(refused).toMatchObject({ status: 409 });
    expect((await familyRows(v.email)).payments).toEqual([]);
    expect((await campaignRows()).find((r) => r.code === "TILLSAMMANS")).toMatchObject({ uses: 0 });

    // Booked for real: the use and the payment row come together.
    const booked = await book(v, { barn: 2, vuxna: 1, kampanj: "TILLSAMMANS" });
    expect(booked.res.status).toBe(200);
    expect((await familyRows(v.email)).payments).toMatchObject([{ kampanj: "TILLSAMMANS", status: "CREATED" }]);
    expect((await campaignRows()).find((r) => r.code === "TILLSAMMANS")).toMatchObject({ uses: 1 });
  });

  it(`a registration keeps at most ${MAX_UNPAID_ATTEMPTS} open or failed payments; then booking is a Swedish 429`, async () => {
    const v = await familyWithRunners();
    for (let i = 0; i < MAX_UNPAID_ATTEMPTS; i++) {
      const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    const before = await familyRows(v.email);
    expect(before.payments).toHaveLength(MAX_UNPAID_ATTEMPTS);
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: "" });
    expect(res.status).toBe(429);
    expect(body.error).toMatch(/^För många betalningsförsök för den här anmälan\./);
    const after = await familyRows(v.email);
    expect(after.payments).toHaveLength(MAX_UNPAID_ATTEMPTS);
    // The open one was withdrawn before the refusal (booking again always does that first): nothing is left to pay.
    expect(after.payments.filter((p) => p.status === "CREATED")).toEqual([]);
  });
});

// VISITOR_RL and CLIENT_RL count per clock minute, not over a sliding minute: a run that straddles xx:xx:00 starts
// counting again half-way and would not reach the limit. Each run below is therefore judged only when all its
// calls fell within one window (inOneRateLimitWindow in registration-helpers.ts), and is repeated, with a fresh
// session and fresh clients, when they did not. Every call comes from a new client address, so in the per-session
// tests only the per-session limit can refuse the 61st call.
describe("per-session and per-client limits", { timeout: RATE_LIMIT_TEST_MS }, () => {
  it("/update: a session gets 60 calls a minute, whatever its clients; then 429 in Swedish", async () => {
    const { statuses, refusal } = await inOneRateLimitWindow(async () => {
      const v = await login();
      const statuses: number[] = [];
      let refusal: unknown = null;
      for (let i = 0; i < 61; i++) {
        const res = await post("/update", { runners: {} }, { env: at(OPEN_AT), jar: v.jar, headers: newClient() });
        statuses.push(res.status);
        if (res.status === 429) refusal = await res.json();
      }
      return { statuses, refusal };
    });
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect(refusal).toEqual({ error: "För många förfrågningar på kort tid. Vänta en minut och försök igen." });
  });

  it("/book-v2: the same per-session limit", async () => {
    const statuses = await inOneRateLimitWindow(async () => {
      const v = await familyWithRunners();
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        // Counts that do not match are refused cheaply (400), but they still count.
        const res = await post(
          "/book-v2",
          { barn: 9, vuxna: 9, kampanj: "" },
          { env: at(OPEN_AT), jar: v.jar, headers: newClient() },
        );
        statuses.push(res.status);
      }
      return statuses;
    });
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("/verify: a client gets 120 calls a minute, whatever its sessions", async () => {
    const statuses = await inOneRateLimitWindow(async () => {
      const client = newClient();
      const statuses: number[] = [];
      for (let s = 0; s < 3; s++) {
        const jar = await visitorJar(uniqueEmail("verify"));
        for (let i = 0; i < 41; i++) {
          statuses.push((await get(`/verify?id=${"A".repeat(32)}`, { jar, headers: client })).status);
        }
      }
      return statuses;
    });
    expect(statuses.slice(0, 120).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(120)).toEqual([429, 429, 429]);
  });
});

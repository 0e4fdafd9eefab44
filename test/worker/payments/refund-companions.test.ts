/**
 * Issue 39, item 2, on the organiser's side: 'Återbetala och avregistrera' of a child takes out, on request, the
 * paid companions of the family the child leaves without any child (`companions`, payments/deregistration.ts): one
 * the refunded payment booked leaves with it; one another payment booked at 0 kr is deregistered when the refund is
 * PAID; one booked above 0 kr gets its price back from its own payment by a refund of its own, once, however often
 * the request is repeated, and leaves when that is PAID (Swish refusing it leaves the companion registered, and the
 * answer says so). Bad input is a Swedish 4xx naming the runner, with nothing written.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { newInstructionId } from "../../../src/worker/payments/payments";
import { testRace } from "../race-calls";
import { CookieJar, loginAdmin, post, storedState, waitFor } from "../helpers";
import { at, getRegistration, login, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { auditCount, payOnPhone, paymentRow, setCallbacks, setSwishDelay } from "../swish-helpers";

const RACE_08 = raceIdForSeason("0.8", SEASON);

let admin: CookieJar;

beforeEach(async () => {
  await setCallbacks("normal");
  admin = await loginAdmin();
});
afterEach(async () => {
  await setCallbacks("normal");
});

interface RefundAnswer {
  refund: { id: string; amount: number; status: string };
  deregister: string[];
  deregistration: {
    runners: string[];
    keptInRace: unknown[];
    companionRefunds?: { id: string; refund: string | null; amount: number; status: string; error?: string }[];
  } | null;
  error?: string;
}

async function refund(body: Record<string, unknown>, idempotencyKey = crypto.randomUUID()) {
  const res = await post("/admin/api/refunds", { idempotencyKey, ...body }, { jar: admin });
  return { status: res.status, body: (await res.json()) as RefundAnswer };
}

async function book(v: Visitor, barn: number, vuxna: number) {
  const res = await post(
    "/book-v2",
    { barn, vuxna, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; payref: string; amount: number };
}

function ids() {
  const tail = crypto.randomUUID().slice(0, 8);
  return { mamma: `mamma-${tail}`, barn: `barn-${tail}`, pappa: `pappa-${tail}`, syster: `syster-${tail}` };
}

const mamma = runner({ firstname: "Maria", lastname: "Ek", age: 41, distance: "5.6", group: "Dam" });
const barn = runner({ firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8", group: "Ingen" });
const pappa = runner({ firstname: "Per", lastname: "Ek", age: 43, distance: "0.8", group: "Ingen", companion: true });

/** A mother (5.6) and a child (0.8) paid (250 kr), then the father running with the child on a payment of his own. */
async function fatherPaidApart(id: ReturnType<typeof ids>) {
  const v = await login();
  const first = { [id.mamma]: mamma, [id.barn]: barn };
  expect((await update(v, { runners: first, version: 0 })).res.status).toBe(200);
  const family = await book(v, 1, 1);
  await payOnPhone(family.token, "PAID");
  expect((await update(v, { runners: { ...first, [id.pappa]: pappa }, version: 1 })).res.status).toBe(200);
  const res = await post(
    "/book-v2",
    { barn: 0, vuxna: 0, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  expect(res.status).toBe(200);
  const father = (await res.json()) as { token: string; payref: string; amount: number };
  if (father.token !== "kampanj") await payOnPhone(father.token, "PAID");
  return { v, payid: family.payref, fatherPayid: father.payref, fatherAmount: father.amount };
}

async function participant(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?")
    .bind(id)
    .first<{ deregistered_at: number | null; paid_by: string | null; distance: string }>();
}

async function refundsOf(payid: string) {
  return (
    await env.DB.prepare("SELECT amount, status, deregister FROM refunds WHERE payid = ? ORDER BY created_at")
      .bind(payid)
      .all<{ amount: number; status: string; deregister: string }>()
  ).results;
}

/** A test run with the season's companion price set (0 kr in the season config), put back however it ends. */
async function atCompanionPrice(price: number, run: () => Promise<void>): Promise<void> {
  const was = SEASON.companionPrice;
  SEASON.companionPrice = price;
  try {
    await run();
  } finally {
    SEASON.companionPrice = was;
  }
}

describe("'Ta också bort': the companion leaves with the child", () => {
  it("paid by the same payment: taken out with the child (its 0 kr within the amount), the family page shows both out", async () => {
    const v = await login();
    const id = ids();
    expect(
      (await update(v, { runners: { [id.mamma]: mamma, [id.barn]: barn, [id.pappa]: pappa }, version: 0 })).res.status,
    ).toBe(200);
    const paid = await book(v, 1, 1);
    await payOnPhone(paid.token, "PAID");
    const { status, body } = await refund({
      payid: paid.payref,
      amount: 100,
      deregister: [id.barn],
      companions: [id.pappa],
    });
    expect(status).toBe(201);
    expect(body.deregister).toEqual([id.barn, id.pappa].sort());
    expect(body.deregistration).toEqual({ runners: [id.barn, id.pappa].sort(), keptInRace: [] });
    expect(await participant(id.pappa)).toMatchObject({ deregistered_at: expect.any(Number) });
    expect(await testRace(RACE_08).getRunner(id.barn)).toBeNull();
    const family = (await getRegistration(v)).body;
    expect(family.deltagare[id.pappa]).toMatchObject({ deregistered: expect.any(String) });
    expect(family.deltagare[id.mamma]).toMatchObject({ deregistered: null });
  });

  it("paid 0 kr by a payment of his own (a free order): deregistered when the child's refund is PAID, no refund of his", async () => {
    const id = ids();
    const { payid, fatherPayid, fatherAmount } = await fatherPaidApart(id);
    expect(fatherAmount).toBe(0);
    const { status, body } = await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] });
    expect(status).toBe(201);
    expect(body.deregistration).toEqual({ runners: [id.barn, id.pappa].sort(), keptInRace: [] });
    expect(await participant(id.pappa)).toMatchObject({ deregistered_at: expect.any(Number), paid_by: fatherPayid });
    expect(await refundsOf(fatherPayid)).toEqual([]);
  });

  it("paid above 0 kr by his own Swish payment: refunded from it, once, and deregistered by that refund", () =>
    atCompanionPrice(40, async () => {
      const id = ids();
      const { v, payid, fatherPayid, fatherAmount } = await fatherPaidApart(id);
      expect(fatherAmount).toBe(40);
      // The request's own checks settle both refunds here: Swish's callback racing them is the next test.
      await setCallbacks("drop");
      const key = crypto.randomUUID();
      const { status, body } = await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] }, key);
      expect(status).toBe(201);
      expect(body.deregister).toEqual([id.barn, id.pappa].sort());
      const [own] = await refundsOf(fatherPayid);
      expect(body.deregistration).toEqual({
        runners: [id.barn],
        keptInRace: [],
        companionRefunds: [
          { id: id.pappa, refund: expect.stringMatching(/^[0-9A-F]{32}$/), amount: 40, status: "PAID" },
        ],
      });
      expect(own).toEqual({ amount: 40, status: "PAID", deregister: JSON.stringify([id.pappa]) });
      expect(await participant(id.pappa)).toMatchObject({ deregistered_at: expect.any(Number) });
      expect(await auditCount("refund.deregistered", body.deregistration!.companionRefunds![0]!.refund!)).toBe(1);

      // The same request again (a lost answer): the same refunds, no second one of either payment.
      const again = await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] }, key);
      expect(again.status).toBe(200);
      expect(again.body.deregistration).toEqual(body.deregistration);
      expect(await refundsOf(fatherPayid)).toHaveLength(1);
      expect(await refundsOf(payid)).toHaveLength(1);
      // The family sees the father's payment paid back.
      const family = (await getRegistration(v)).body;
      expect(family.swishtory[fatherPayid]).toMatchObject({ refunds: [{ amount: 40, status: "PAID" }] });
      expect(family.deltagare[id.pappa]).toMatchObject({ deregistered: expect.any(String) });
    }));

  it("Swish's callback for the child's refund racing the request: each refund asked once, the father out once", () =>
    atCompanionPrice(40, async () => {
      const id = ids();
      const { payid, fatherPayid } = await fatherPaidApart(id);
      // Swish calls back twice for each refund as soon as it lands, and each answer of its API takes 400 ms: the
      // callback may settle the child's refund and take the runners out before the request's own check does (a
      // busy machine made it so in a run of the fast tests). Whichever path writes the deregistration first is the
      // record; the other asks the father's refund under the same key and gets that one. The answer may find the
      // father's refund still on its way to Swish (CREATED); it lands PAID all the same.
      await setCallbacks("duplicate");
      await setSwishDelay(400);
      const { status, body } = await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] });
      expect(status).toBe(201);
      expect(body.deregistration?.runners).toEqual([id.barn]);
      const [told] = body.deregistration!.companionRefunds!;
      expect(told).toMatchObject({ id: id.pappa, amount: 40, status: expect.stringMatching(/^(CREATED|PAID)$/) });
      await waitFor(async () => (await refundsOf(fatherPayid))[0]?.status === "PAID", 10_000, "the father's refund");
      expect(await refundsOf(fatherPayid)).toEqual([
        { amount: 40, status: "PAID", deregister: JSON.stringify([id.pappa]) },
      ]);
      expect(await refundsOf(payid)).toHaveLength(1);
      await waitFor(async () => (await participant(id.pappa))?.deregistered_at != null, 10_000, "the father out");
      expect(await auditCount("refund.deregistered", told!.refund!)).toBe(1);
    }));

  it("Swish refusing the father's refund: the child is out, the father stays registered, and the answer says why", () =>
    atCompanionPrice(40, async () => {
      const id = ids();
      const { payid, fatherPayid } = await fatherPaidApart(id);
      // Paid back outside the site already: Swish refuses ours (RF08), which our books cannot know beforehand.
      await swishClientFor(env).createRefund(newInstructionId(), {
        originalPaymentReference: (await paymentRow(fatherPayid))!.payment_reference!,
        callbackUrl: "http://localhost/swish/callback/refund",
        payerAlias: env.SWISH_PAYEE_ALIAS,
        amount: "40.00",
        currency: "SEK",
      });
      const { status, body } = await refund({ payid, amount: 100, deregister: [id.barn], companions: [id.pappa] });
      expect(status).toBe(201);
      expect(body.deregistration?.runners).toEqual([id.barn]);
      expect(body.deregistration?.companionRefunds).toEqual([
        {
          id: id.pappa,
          refund: expect.any(String),
          amount: 40,
          status: "ERROR",
          error: expect.stringMatching(/^Swish nekade återbetalningen: .*\(RF08\)/),
        },
      ]);
      expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number) });
      expect(await participant(id.pappa)).toMatchObject({ deregistered_at: null });
    }));
});

describe("bad input: a Swedish 4xx naming the runner, nothing written", () => {
  it("a companion who keeps a child, an unpaid one, a competing runner, another family's, a bad id", async () => {
    const v = await login();
    const id = ids();
    const syster = runner({ firstname: "Siv", lastname: "Ek", age: 8, distance: "0.8", group: "Dam" });
    const runners = { [id.mamma]: mamma, [id.barn]: barn, [id.syster]: syster, [id.pappa]: pappa };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const paid = await book(v, 2, 1);
    await payOnPhone(paid.token, "PAID");
    const other = ids();
    const otherFamily = await fatherPaidApart(other);
    // An unpaid companion: a second father added after the payment.
    const unpaidId = `farfar-${id.barn}`;
    const farfar = runner({ firstname: "Bo", lastname: "Ek", age: 70, distance: "0.8", companion: true });
    expect((await update(v, { runners: { ...runners, [unpaidId]: farfar }, version: 1 })).res.status).toBe(200);

    const before = await storedState();
    const keeps = await refund({ payid: paid.payref, amount: 100, deregister: [id.barn], companions: [id.pappa] });
    expect(keeps.status).toBe(422);
    expect(keeps.body.error).toBe(
      "Per Ek springer med ett barn som är kvar på 0,8 km och tas därför inte bort. Ta bara bort Per Ek om barnen på 0,8 km också avregistreras.",
    );
    const unpaid = await refund({
      payid: paid.payref,
      amount: 200,
      deregister: [id.barn, id.syster],
      companions: [unpaidId],
    });
    expect(unpaid.status).toBe(422);
    expect(unpaid.body.error).toBe("Bo Ek är inte betald: familjen kan själv ta bort Bo i sin anmälan.");
    const competing = await refund({ payid: paid.payref, amount: 100, deregister: [id.barn], companions: [id.mamma] });
    expect(competing.status).toBe(422);
    expect(competing.body.error).toBe(
      "Maria Ek springer inte med barn. Kryssa i Maria Ek bland löparna för att avregistrera Maria Ek med betalningen.",
    );
    const elsewhere = await refund({
      payid: paid.payref,
      amount: 100,
      deregister: [id.barn],
      companions: [other.pappa],
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error).toBe("Per Ek hör till en annan anmälan än betalningen och kan inte tas bort här.");
    const badId = await refund({ payid: paid.payref, amount: 100, deregister: [id.barn], companions: ["<x>"] });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe("Ogiltig löpare att avregistrera.");
    expect(await storedState()).toEqual(before);
    void otherFamily;

    // Both children leaving: the paid father may go too (the unpaid one is the family's to remove).
    const both = await refund({
      payid: paid.payref,
      amount: 200,
      deregister: [id.barn, id.syster],
      companions: [id.pappa],
    });
    expect(both.status).toBe(201);
    expect(await participant(id.pappa)).toMatchObject({ deregistered_at: expect.any(Number) });
    expect(await participant(unpaidId)).toMatchObject({ deregistered_at: null, paid_by: null });
  });
});

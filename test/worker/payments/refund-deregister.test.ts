/**
 * Issue 24 item 5: refunds that cancel ('Återbetala och avregistrera'). The named runners leave once the refund is
 * PAID: out of their race object and start list, the goodie bags, the RaceSplitter export and the current-runners
 * mailing, audited once; the admin overview and the family's page show the refund and the deregistered runner. A
 * refund Swish refuses, or one we refuse (more than was paid, a runner the payment did not book), deregisters
 * nobody and writes nothing. A runner of a race that has started stays in it, and the answer says so. A refund
 * racing the family's edit of the same runner, a deregistration cut off half-way (the cron finishes it), and a
 * box-office Swish sale refunded from the admin screens.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/shared/clock";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { BoxOfficeSale, OverviewRegistration } from "../../../src/shared/registrations-overview";
import { SEASON } from "../../../src/shared/season";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { newInstructionId } from "../../../src/worker/payments/payments";
import { testRace } from "../race-calls";
import { reconcileRefunds } from "../../../src/worker/payments/refunds";
import { CookieJar, get, loginAdmin, post, storedState } from "../helpers";
import { at, getRegistration, login, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { auditCount, payOnPhone, paymentRow, setCallbacks } from "../swish-helpers";

const RACE = {
  "5.6": raceIdForSeason("5.6", SEASON),
  "1.6": raceIdForSeason("1.6", SEASON),
  "0.8": raceIdForSeason("0.8", SEASON),
};

let admin: CookieJar;

/** The race object's answers as values (a refusal throws). */
function race(part: string) {
  return testRace(part);
}

beforeEach(async () => {
  await setCallbacks("normal");
  admin = await loginAdmin();
});

afterEach(async () => {
  // One test starts the 0.8 race; the others want it not started.
  const started = race(RACE["0.8"]);
  if (await started.getRace().catch(() => null)) await started.run({ type: "reset" });
});

interface RefundAnswer {
  payid: string;
  refund: { id: string; amount: number; status: string };
  refundable: number;
  deregistration: { runners: string[]; keptInRace: { id: string; part: string; state: string }[] } | null;
  error?: string;
}

async function refund(payid: string, amount: number, deregister?: string[], idempotencyKey = crypto.randomUUID()) {
  const res = await post(
    "/admin/api/refunds",
    { payid, amount, idempotencyKey, ...(deregister ? { deregister } : {}) },
    { jar: admin },
  );
  return { status: res.status, body: (await res.json()) as RefundAnswer };
}

/** A family (a mother on 5.6, a child on `childDistance`) that has paid 250 kr through the real flow. */
async function paidFamily(childDistance: "1.6" | "0.8" = "1.6") {
  const v = await login();
  const tail = crypto.randomUUID().slice(0, 8);
  const id = { mamma: `mamma-${tail}`, barn: `barn-${tail}` };
  const runners = {
    [id.mamma]: runner({ firstname: "Stina", lastname: `Stål${tail}`, age: 40, distance: "5.6" }),
    [id.barn]: runner({ firstname: "Love", lastname: `Stål${tail}`, age: 8, distance: childDistance }),
  };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const res = await post(
    "/book-v2",
    { barn: 1, vuxna: 1, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  const { token, payref } = (await res.json()) as { token: string; payref: string };
  await payOnPhone(token, "PAID");
  return { v, id, runners, payid: payref, tail };
}

async function participant(id: string) {
  return env.DB.prepare("SELECT * FROM participants WHERE id = ?")
    .bind(id)
    .first<{ deregistered_at: number | null; race_id: string | null; paid_by: string | null; firstname: string }>();
}

async function goodieBagTotal(): Promise<number> {
  const res = await get("/admin/api/goodiebags", { jar: admin });
  return ((await res.json()) as { totals: { total: number } }).totals.total;
}

async function raceSplitter(): Promise<string> {
  return (await get("/admin/api/export2racesplitter", { jar: admin })).text();
}

async function currentRunners(): Promise<{ name: string; email: string }[]> {
  return (await get("/admin/api/get_current_runners_handler", { jar: admin })).json();
}

async function overviewOf(v: Visitor): Promise<OverviewRegistration> {
  const list = (await (
    await get(`/admin/registrations?season=${SEASON.year}`, { jar: admin })
  ).json()) as OverviewRegistration[];
  return list.find((r) => r.email === v.email)!;
}

describe("Återbetala och avregistrera", () => {
  it("the runner leaves its race, the goodie bags, the exports and the mailing; audited; shown to admin and family", async () => {
    const { v, id, payid, tail } = await paidFamily();
    expect(await race(RACE["1.6"]).getRunner(id.barn)).not.toBeNull();
    const bags = await goodieBagTotal();
    expect(await raceSplitter()).toContain(`Love,Stål${tail}`);

    const { status, body } = await refund(payid, 100, [id.barn]);
    expect(status).toBe(201);
    expect(body.refund).toMatchObject({ amount: 100, status: "PAID" });
    expect(body.deregistration).toEqual({ runners: [id.barn], keptInRace: [] });

    expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number), race_id: null });
    expect(await race(RACE["1.6"]).getRunner(id.barn)).toBeNull();
    const startList = (await (await get(`/api/races/get/${RACE["1.6"]}`)).json()) as { id?: string }[];
    expect(startList.map((r) => r.id)).not.toContain(id.barn);
    expect(await goodieBagTotal()).toBe(bags - 1);
    const csv = await raceSplitter();
    expect(csv).not.toContain(`Love,Stål${tail}`);
    expect(csv).toContain(`Stina,Stål${tail}`);
    const mailing = (await currentRunners()).find((r) => r.email === v.email)!;
    expect(mailing.name).toBe(`Stina Stål${tail}`);
    // The mother runs on.
    expect(await race(RACE["5.6"]).getRunner(id.mamma)).not.toBeNull();

    expect(await auditCount("refund.deregistered", body.refund.id)).toBe(1);
    const overview = await overviewOf(v);
    expect(overview.deltagare[id.barn]).toMatchObject({ deregistered: expect.any(String) });
    expect(overview.swishtory[payid]).toMatchObject({ refunded: 100, refundable: 150 });
    const family = (await getRegistration(v)).body;
    expect(family.deltagare[id.barn]).toMatchObject({ deregistered: expect.any(String), paidBy: payid });
    expect(family.swishtory[payid]).toMatchObject({
      refunds: [{ amount: 100, status: "PAID", datePaid: expect.any(String) }],
    });

    // A repeated request with the same key answers the same, and deregisters nothing twice.
    const key = crypto.randomUUID();
    const mother = await refund(payid, 150, [id.mamma], key);
    expect(mother.status).toBe(201);
    const again = await refund(payid, 150, [id.mamma], key);
    expect(again.status).toBe(200);
    expect(again.body.deregistration).toEqual(mother.body.deregistration);
    expect(await auditCount("refund.deregistered", mother.body.refund.id)).toBe(1);
    // The family can no longer change a deregistered runner.
    const reg = (await getRegistration(v)).body;
    const map = Object.fromEntries(Object.values(reg.deltagare).map((r) => [r.id, { ...r, company: "Ny" }]));
    const changed = await update(v, {
      runners: { ...map, [id.mamma]: { ...reg.deltagare[id.mamma] } },
      version: reg.version,
    });
    expect(changed.res.status).toBe(409);
    expect(changed.body.error).toBe(`Love Stål${tail} är avregistrerad och kan inte ändras.`);
  });

  it("a refund that keeps the runners deregisters nobody", async () => {
    const { id, payid } = await paidFamily();
    const { status, body } = await refund(payid, 50);
    expect(status).toBe(201);
    expect(body.deregistration).toBeNull();
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: null });
    expect(await race(RACE["1.6"]).getRunner(id.barn)).not.toBeNull();
  });

  it("bad input: more than was paid, a runner the payment did not book, a bad id: a Swedish 4xx and nothing written", async () => {
    const { id, payid } = await paidFamily();
    const other = await paidFamily();
    const before = await storedState();
    const tooMuch = await refund(payid, 251, [id.barn]);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error).toBe("Beloppet är större än vad som finns kvar att återbetala (250 kr).");
    const notBooked = await refund(payid, 100, [other.id.barn]);
    expect(notBooked.status).toBe(422);
    expect(notBooked.body.error).toBe(
      `Love Stål${other.tail} betalades inte med den här betalningen och kan inte avregistreras här.`,
    );
    const badId = await refund(payid, 100, ["<script>"]);
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe("Ogiltig löpare att avregistrera.");
    expect(await storedState()).toEqual(before);
  });

  it("a refund Swish refuses (RF08) deregisters nobody", async () => {
    const { id, payid } = await paidFamily();
    // Swish has paid back most of it already (a refund made outside the site): Swish refuses ours.
    await swishClientFor(env).createRefund(newInstructionId(), {
      originalPaymentReference: (await paymentRow(payid))!.payment_reference!,
      callbackUrl: "http://localhost/swish/callback/refund",
      payerAlias: env.SWISH_PAYEE_ALIAS,
      amount: "200.00",
      currency: "SEK",
    });
    const { status } = await refund(payid, 100, [id.barn]);
    expect(status).toBe(422);
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: null, race_id: RACE["1.6"] });
    expect(await race(RACE["1.6"]).getRunner(id.barn)).not.toBeNull();
  });

  it("a runner of a race that has started stays in it: deregistered in D1, and the answer says where", async () => {
    const { id, payid } = await paidFamily("0.8");
    await race(RACE["0.8"]).run({ type: "start", tap: {} });
    const { status, body } = await refund(payid, 100, [id.barn]);
    expect(status).toBe(201);
    expect(body.deregistration).toEqual({
      runners: [id.barn],
      keptInRace: [{ id: id.barn, part: RACE["0.8"], state: "started" }],
    });
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number), race_id: RACE["0.8"] });
    expect(await race(RACE["0.8"]).getRunner(id.barn)).not.toBeNull();
  });

  it("a refund racing the family's edit of the same runner: the runner ends out of the race and deregistered", async () => {
    for (let round = 0; round < 3; round++) {
      const { v, id, runners, payid } = await paidFamily();
      const renamed = { ...runners, [id.barn]: { ...runners[id.barn]!, firstname: `Lova${round}` } };
      const [edit, refunded] = await Promise.all([
        update(v, { runners: renamed, version: 1 }),
        refund(payid, 100, [id.barn]),
      ]);
      expect(refunded.status).toBe(201);
      expect([200, 409]).toContain(edit.res.status);
      if (edit.res.status === 409) expect(edit.body.error).toMatch(/avregistrerad|ändrats|betalning/);
      expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number), race_id: null });
      expect(await race(RACE["1.6"]).getRunner(id.barn)).toBeNull();
    }
  });

  it("a deregistration cut off half-way is finished by the cron, once", async () => {
    const { id, payid } = await paidFamily();
    // A PAID refund whose deregistration never ran (the Worker stopped after settling it).
    const refundId = newInstructionId();
    await env.DB.prepare(
      `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by,
         created_at, date_paid, settled_at, deregister)
       VALUES (?, ?, ?, 100, 'PAID', ?, 'cb', 'arrangor@example.se', ?, ?, ?, ?)`,
    )
      .bind(
        refundId,
        payid,
        SEASON.year,
        crypto.randomUUID(),
        Date.now(),
        Date.now(),
        Date.now(),
        JSON.stringify([id.barn]),
      )
      .run();
    await reconcileRefunds(env, systemClock);
    expect(await participant(id.barn)).toMatchObject({ deregistered_at: expect.any(Number), race_id: null });
    expect(await race(RACE["1.6"]).getRunner(id.barn)).toBeNull();
    await reconcileRefunds(env, systemClock);
    expect(await auditCount("refund.deregistered", refundId)).toBe(1);
  });
});

describe("box-office Swish sales from the admin screens", () => {
  it("are listed per season and can be refunded, the runner deregistered", async () => {
    const started = (await (
      await post(
        "/admin/api/quickreg",
        {
          firstname: "Kim",
          lastname: "Kassa",
          age: "34",
          distance: "5.6",
          group: "Dam",
          phone: "070-123 45 67",
          bib: String(8000 + Math.floor(Math.random() * 900)),
        },
        { jar: admin },
      )
    ).json()) as { payid: string; token: string };
    await payOnPhone(started.token, "PAID");

    const sales = (await (
      await get(`/admin/api/box-office-sales?season=${SEASON.year}`, { jar: admin })
    ).json()) as BoxOfficeSale[];
    const sale = sales.find((s) => s.payment.id === started.payid)!;
    expect(sale.payment).toMatchObject({ method: "swish", status: "PAID", amount: 300, refundable: 300 });
    expect(sale.runner).toMatchObject({ firstname: "Kim", paidBy: started.payid, price: 300, deregistered: null });

    const { status, body } = await refund(started.payid, 300, [sale.runner!.id]);
    expect(status).toBe(201);
    expect(body.deregistration).toEqual({ runners: [sale.runner!.id], keptInRace: [] });
    expect(await race(RACE["5.6"]).getRunner(sale.runner!.id)).toBeNull();
    const after = (await (
      await get(`/admin/api/box-office-sales?season=${SEASON.year}`, { jar: admin })
    ).json()) as BoxOfficeSale[];
    expect(after.find((s) => s.payment.id === started.payid)).toMatchObject({
      payment: { refunded: 300, refundable: 0 },
      runner: { deregistered: expect.any(String) },
    });
    // Admins only.
    expect((await get(`/admin/api/box-office-sales`)).status).toBe(401);
  });
});

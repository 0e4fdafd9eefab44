/**
 * The family's runner map: POST /update (full map, validation, versions, two tabs, paid runners) and what GET /get
 * answers, including the "welcome back" runners of an earlier season.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { afterPaid, RUNNERS_ADDED, settlePayment } from "../../../src/worker/payments/payments";
import { post, rawPost, storedState } from "../helpers";
import {
  at,
  familyRows,
  getRegistration,
  LATE_AT,
  login,
  OPEN_AT,
  runner,
  uniqueEmail,
  update,
  type Visitor,
} from "../registration-helpers";
import { auditCount, callback, paymentRow, receiptsTo, setCallbacks } from "../swish-helpers";

/**
 * Runner ids are client-made and unique across all registrations (the SPA uses UUIDs), so every test gets its
 * own: `id.mamma` is e.g. 'mamma-3f9a1c2e'.
 */
function newFamily() {
  const tail = crypto.randomUUID().slice(0, 8);
  const id = { mamma: `mamma-${tail}`, pappa: `pappa-${tail}`, barn1: `barn1-${tail}` };
  const runners = {
    [id.mamma]: runner(),
    [id.pappa]: runner({ firstname: "Per", age: 40, group: "Herr", distance: "2.8", company: "Byns IF" }),
    [id.barn1]: runner({ firstname: "Lo", age: 7, group: "Ingen", distance: "0.8" }),
  };
  return { id, runners, uid: (name: string) => `${name}-${tail}` };
}

/** A free order of 0 kr for every runner stored now, PAID (its runners become paid by it). */
async function paid(v: Visitor) {
  const rows = await familyRows(v.email);
  const reg = rows.registrations[0] as { id: string };
  const payid = `kampanj_TEST_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare(
    "INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, kampanj, barn, vuxna, participant_ids) VALUES (?, ?, 2025, 0, 'PAID', ?, ?, 'TEST', 1, 2, ?)",
  )
    .bind(payid, reg.id, Date.parse(OPEN_AT), Date.parse(OPEN_AT), JSON.stringify(rows.participants.map((p) => p.id)))
    .run();
  return payid;
}

describe("POST /update", () => {
  it("saves the full map and answers the registration with the new version", async () => {
    const v = await login();
    const { id, runners } = newFamily();
    const { res, body } = await update(v, { runners });
    expect(res.status).toBe(200);
    expect(body.version).toBe(1);
    const unpaid = { bib: null, paidBy: null, price: null, deregistered: null };
    expect(body.deltagare).toEqual({
      [id.mamma]: { id: id.mamma, ...runners[id.mamma], ...unpaid },
      [id.pappa]: { id: id.pappa, ...runners[id.pappa], ...unpaid },
      [id.barn1]: { id: id.barn1, ...runners[id.barn1], company: "", ...unpaid },
    });
    expect(body).toMatchObject({ barn: 1, vuxna: 2, listPrice: 100 + 2 * 150, locked: false });
    expect((await getRegistration(v)).body.deltagare).toEqual(body.deltagare);
  });

  it("edits, adds and deletes by sending the new full map", async () => {
    const v = await login();
    const { id, runners, uid } = newFamily();
    expect((await update(v, { runners })).res.status).toBe(200);
    const next = {
      [id.mamma]: { ...runners[id.mamma], distance: "1.6" },
      [uid("barn2")]: runner({ firstname: "Mi", age: 2014 }),
    };
    const { res, body } = await update(v, { runners: next, version: 1 });
    expect(res.status).toBe(200);
    expect(Object.keys(body.deltagare).sort()).toEqual([uid("barn2"), id.mamma]);
    expect(body.deltagare[id.mamma]?.distance).toBe("1.6");
    // Spec: above 1000 is a birth year (2025 − 2014 = 11).
    expect(body.deltagare[uid("barn2")]?.age).toBe(11);
    expect(body.version).toBe(2);
    expect((await familyRows(v.email)).participants).toHaveLength(2);
  });

  it("the spec's plain {runners} (no version) still saves", async () => {
    const v = await login();
    const { id, runners } = newFamily();
    expect((await update(v, { runners })).res.status).toBe(200);
    const { res, body } = await update(v, { runners: { [id.mamma]: runners[id.mamma] } });
    expect(res.status).toBe(200);
    expect(body.version).toBe(2);
    expect(Object.keys(body.deltagare)).toEqual([id.mamma]);
  });

  it("an empty map removes every runner", async () => {
    const v = await login();
    const { runners } = newFamily();
    await update(v, { runners });
    const { res, body } = await update(v, { runners: {}, version: 1 });
    expect(res.status).toBe(200);
    expect(body.deltagare).toEqual({});
    expect((await familyRows(v.email)).participants).toEqual([]);
  });

  it("keeps a bib the organiser gave a runner when the family edits the runner", async () => {
    const v = await login();
    const { id, runners } = newFamily();
    await update(v, { runners });
    await env.DB.prepare("UPDATE participants SET bib = 612 WHERE id = ?").bind(id.mamma).run();
    const { body } = await update(v, {
      runners: { ...runners, [id.mamma]: { ...runners[id.mamma], company: "Klubben" } },
    });
    expect(body.deltagare[id.mamma]).toMatchObject({ bib: 612, company: "Klubben" });
  });

  it("two tabs: the save based on an old version gets 409 with the current registration, nothing lost", async () => {
    const v = await login();
    const { id, runners, uid } = newFamily();
    await update(v, { runners });
    const tabA = { runners: { ...runners, [uid("extra")]: runner({ firstname: "Ada" }) }, version: 1 };
    const tabB = { runners: { [id.mamma]: runners[id.mamma] }, version: 1 };
    expect((await update(v, tabA)).res.status).toBe(200);
    const before = await familyRows(v.email);
    const { res, body } = await update(v, tabB);
    expect(res.status).toBe(409);
    expect(body.error).toBe("Anmälan har ändrats i ett annat fönster. Listan har uppdaterats – gör din ändring igen.");
    expect(body.registration?.version).toBe(2);
    expect(Object.keys(body.registration!.deltagare).sort()).toEqual(
      [id.barn1, uid("extra"), id.mamma, id.pappa].sort(),
    );
    expect(await familyRows(v.email)).toEqual(before);
  });

  it("two saves at the same moment from the same version: exactly one wins", async () => {
    const v = await login();
    const { runners, uid } = newFamily();
    await update(v, { runners });
    const results = await Promise.all(
      ["ett", "tva", "tre"].map((name) =>
        update(v, { runners: { [uid(name)]: runner({ firstname: name }) }, version: 1 }),
      ),
    );
    const statuses = results.map((r) => r.res.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.res.status === 200)!.body;
    const rows = await familyRows(v.email);
    expect(rows.participants.map((p) => p.id)).toEqual(Object.keys(winner.deltagare));
    expect((rows.registrations[0] as { version: number }).version).toBe(2);
  });

  it("two saves at the same moment without versions: both based on what they read, none lost silently", async () => {
    const v = await login();
    const { runners, uid } = newFamily();
    await update(v, { runners });
    const results = await Promise.all(
      ["fyra", "fem"].map((name) => update(v, { runners: { ...runners, [uid(name)]: runner({ firstname: name }) } })),
    );
    // Each save is whole: the stored map is exactly the map of the last save that succeeded.
    const ok = results.filter((r) => r.res.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([200, 409]).toContain(r.res.status);
    const last = ok.reduce((a, b) => (a.body.version > b.body.version ? a : b)).body;
    expect((await familyRows(v.email)).participants.map((p) => p.id).sort()).toEqual(
      Object.keys(last.deltagare).sort(),
    );
  });

  it("a version from the future is a conflict too", async () => {
    const v = await login();
    const { runners } = newFamily();
    const { res } = await update(v, { runners, version: 7 });
    expect(res.status).toBe(409);
    expect((await familyRows(v.email)).participants).toEqual([]);
  });

  it("refuses bad runners with the form's Swedish messages and changes nothing", async () => {
    const v = await login();
    const { runners: family } = newFamily();
    await update(v, { runners: family });
    const before = { rows: await familyRows(v.email), counts: await storedState() };
    const cases: [unknown, string][] = [
      [{ runners: { a: runner({ firstname: "" }) } }, "Ange namn"],
      [{ runners: { a: runner({ lastname: "  " }) } }, "Ange namn"],
      [{ runners: { a: runner({ firstname: 5 }) } }, "Ange namn"],
      [{ runners: { a: runner({ firstname: "x".repeat(10_000) }) } }, "Namnet får vara högst 60 tecken"],
      [{ runners: { a: runner({ firstname: "<script>alert(1)</script>" }) } }, "Namnet får inte innehålla < eller >"],
      [{ runners: { a: runner({ lastname: "Berg\u0007" }) } }, "Namnet innehåller otillåtna tecken"],
      [{ runners: { a: runner({ age: -1 }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: 999 }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: 2031 }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: 1e300 }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: "tio" }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: null }) } }, "Ange ålder"],
      [{ runners: { a: runner({ age: 10.5 }) } }, "Ange ålder"],
      [{ runners: { a: runner({ distance: "10" }) } }, "Välj en distans"],
      [{ runners: { a: runner({ distance: 42 }) } }, "Välj en distans"],
      [{ runners: { a: runner({ distance: undefined }) } }, "Välj en distans"],
      [{ runners: { a: runner({ group: "Barn" }) } }, "Välj Ingen, Dam eller Herr"],
      [{ runners: { a: runner({ company: "c".repeat(81) }) } }, "Klubb/företag får vara högst 80 tecken"],
      [{ runners: { a: runner({ company: { name: "x" } }) } }, "Ange klubb/företag som text"],
      [{ runners: { a: "Anna" } }, "Ogiltiga uppgifter om deltagaren"],
      [{ runners: { "a b": runner() } }, "Ogiltigt deltagar-id"],
      [{ runners: { ["x".repeat(61)]: runner() } }, "Ogiltigt deltagar-id"],
      [
        { runners: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`r${i}`, runner()])) },
        "Högst 20 deltagare per anmälan",
      ],
      [{ runners: [runner()] }, "Ogiltig deltagarlista"],
      [{ runners: null }, "Ogiltig deltagarlista"],
      [{ runners: "alla" }, "Ogiltig deltagarlista"],
      [{}, "Ogiltig deltagarlista"],
      [{ runners: family, version: "1" }, "Ogiltig version"],
      [{ runners: family, version: -1 }, "Ogiltig version"],
      [{ runners: family, version: 1.5 }, "Ogiltig version"],
      [[family], "Ogiltig deltagarlista"],
    ];
    for (const [body, message] of cases) {
      const { res, body: answer } = await update(v, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(answer.error, JSON.stringify(body).slice(0, 100)).toBe(message);
    }
    const broken = await rawPost("/update", '{"runners": {', { jar: v.jar, headers: v.headers, env: at(OPEN_AT) });
    expect(broken.status).toBe(400);
    const huge = await rawPost("/update", JSON.stringify({ runners: { a: runner({ company: "x".repeat(70_000) }) } }), {
      jar: v.jar,
      headers: v.headers,
      env: at(OPEN_AT),
    });
    expect(huge.status).toBe(413);
    expect(await familyRows(v.email)).toEqual(before.rows);
    expect(await storedState()).toEqual(before.counts);
  });

  it("names every bad field of every runner in errors", async () => {
    const v = await login();
    const { res, body } = await update(v, {
      runners: { ok: runner(), bad: runner({ firstname: "", age: -4, distance: "9.9" }) },
    });
    expect(res.status).toBe(400);
    expect(body.errors).toEqual({
      "bad.firstname": "Ange namn",
      "bad.age": "Ange ålder",
      "bad.distance": "Välj en distans",
    });
  });

  it("a family cannot take over another family's runner by its id", async () => {
    const a = await login();
    const shared = `delad-${crypto.randomUUID()}`;
    await update(a, { runners: { [shared]: runner({ firstname: "Astrid" }) } });
    const b = await login();
    const before = await familyRows(a.email);
    const { res, body } = await update(b, { runners: { [shared]: runner({ firstname: "Kapare" }) } });
    expect(res.status).toBe(409);
    expect(body.error).toBe(
      "Löparen hör till någon annan och kan inte sparas i din anmälan. Ladda om sidan och lägg till löparen igen.",
    );
    expect(await familyRows(a.email)).toEqual(before);
    expect((await familyRows(b.email)).participants).toEqual([]);
  });

  it("without a session: 401; from another site: 403", async () => {
    expect((await post("/update", { runners: {} }, { env: at(OPEN_AT) })).status).toBe(401);
    const v = await login();
    const res = await rawPost("/update", JSON.stringify({ runners: {} }), {
      jar: v.jar,
      env: at(OPEN_AT),
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(403);
  });

  it("a paid runner cannot be removed: 409 naming whom to write to, nothing changes; /get shows who paid", async () => {
    const v = await login();
    const { id, runners } = newFamily();
    await update(v, { runners });
    const payid = await paid(v);
    const before = await familyRows(v.email);
    const { res, body } = await update(v, { runners: {}, version: 1 });
    expect(res.status).toBe(409);
    expect(body.error).toBe(
      "Anna Berg är betald och kan inte tas bort här. Skriv till info@example.se om Anna inte kan springa, så hjälper vi dig.",
    );
    expect(await familyRows(v.email)).toEqual(before);
    const got = (await getRegistration(v)).body;
    expect(got.locked).toBe(false);
    expect(got.deltagare[id.mamma]).toMatchObject({ paidBy: payid, price: 0, deregistered: null });
    expect(Object.keys(got.deltagare)).toHaveLength(3);
    // Nothing is left to pay.
    expect(got).toMatchObject({ barn: 0, vuxna: 0, listPrice: 0 });
  });

  it("the late price tier shows in listPrice", async () => {
    const v = await login(uniqueEmail(), LATE_AT);
    const { runners } = newFamily();
    const { body } = await update(v, { runners }, LATE_AT);
    expect(body.listPrice).toBe(150 + 2 * 250);
  });
});

describe("POST /update while a Swish payment waits for the old list", () => {
  const PAYMENT_RACE = "En annan betalning startades samtidigt. Ladda om sidan.";

  afterEach(async () => {
    await setCallbacks("normal");
  });

  /** A family of one adult and one child with a Swish payment booked for them (CREATED, waiting in the app). */
  async function bookedFamily() {
    const v = await login();
    const { id, runners, uid } = newFamily();
    const two = { [id.mamma]: runners[id.mamma]!, [id.barn1]: runners[id.barn1]! };
    expect((await update(v, { runners: two, version: 0 })).res.status).toBe(200);
    const res = await post(
      "/book-v2",
      { barn: 1, vuxna: 1, kampanj: "" },
      { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
    );
    expect(res.status).toBe(200);
    const booking = (await res.json()) as { token: string; payref: string };
    const three = { ...two, [uid("barn2")]: runner({ firstname: "Siv", age: 5, distance: "0.8", group: "Ingen" }) };
    return { v, two, three, ...booking };
  }

  async function registrationId(v: Visitor) {
    return ((await familyRows(v.email)).registrations[0] as { id: string }).id;
  }

  it("adding a runner while the payment waits is refused in Swedish, and nothing changes", async () => {
    const { v, three, payref } = await bookedFamily();
    const before = await familyRows(v.email);
    const { res, body } = await update(v, { runners: three, version: 1 });
    expect(res.status).toBe(409);
    expect(body.error).toBe(
      "En betalning väntar i Swish. Betala den klart, eller tryck på Avbryt betalningen, innan du lägger till fler löpare.",
    );
    expect(await familyRows(v.email)).toEqual(before);
    expect((await paymentRow(payref))!.status).toBe("CREATED");
  });

  it("changing a runner withdraws the waiting payment: its QR can no longer pay for the old list", async () => {
    const { v, two, token, payref } = await bookedFamily();
    const [adultId, childId] = Object.keys(two);
    const changed = { [adultId!]: two[adultId!]!, [childId!]: { ...two[childId!]!, distance: "1.6" } };
    const { res, body } = await update(v, { runners: changed, version: 1 });
    expect(res.status).toBe(200);
    expect(body.payid).toBeNull();
    expect(body.swishtory[payref]).toMatchObject({ status: "CANCELLED" });
    expect((await paymentRow(payref))!.status).toBe("CANCELLED");

    // The payer opens the old request in the Swish app: Swish refuses it.
    expect((await post(`/dev/swish/pay/${token}`, { status: "PAID" })).status).toBe(409);

    // Even if Swish reported it paid after all, a withdrawn payment settles nothing: not by a callback, a poll or
    // the after-payment step. (The simulator's own state is edited to play a Swish that disagrees.)
    await env.DB.prepare(
      "UPDATE dev_swish_payments SET status = 'PAID', date_paid = ?, payment_reference = 'X1', error_code = NULL WHERE id = ?",
    )
      .bind(Date.now(), payref)
      .run();
    const identifier = (await paymentRow(payref))!.callback_identifier;
    expect((await callback({ id: payref, status: "PAID", amount: 250 }, identifier)).status).toBe(200);
    expect(await settlePayment(env, payref, "poll")).toEqual({ settled: false, status: "CANCELLED" });
    await afterPaid(env, payref);
    expect((await paymentRow(payref))!.status).toBe("CANCELLED");
    expect(await auditCount(RUNNERS_ADDED, payref)).toBe(0);
    expect(await receiptsTo(v.email)).toHaveLength(0);

    const got = (await getRegistration(v)).body;
    expect(Object.values(got.deltagare).every((r) => r.paidBy === null)).toBe(true);
    // The next booking is for both runners, as they are now.
    const rebook = await post(
      "/book-v2",
      { barn: 1, vuxna: 1, kampanj: "" },
      { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
    );
    expect(rebook.status).toBe(200);
    const { payref: next } = (await rebook.json()) as { payref: string };
    const payment = (await familyRows(v.email)).payments.find((p) => p.id === next)!;
    expect(JSON.parse(payment.participant_ids as string).sort()).toEqual(Object.keys(two).sort());
  });

  it("if the waiting payment was paid meanwhile, the change is refused and its runners show as paid", async () => {
    const { v, two, token, payref } = await bookedFamily();
    // Paid in the app, and the callback never came: only asking Swish finds out.
    await setCallbacks("drop");
    expect((await post(`/dev/swish/pay/${token}`, { status: "PAID" })).status).toBe(200);
    expect((await paymentRow(payref))!.status).toBe("CREATED");

    const [adultId, childId] = Object.keys(two);
    const changed = { [adultId!]: two[adultId!]!, [childId!]: { ...two[childId!]!, company: "Ny klubb" } };
    const { res, body } = await update(v, { runners: changed, version: 1 });
    expect(res.status).toBe(409);
    expect(body).toEqual({
      error: "En betalning gick igenom just nu. Sidan visar nu vad som är betalt – gör din ändring igen om den behövs.",
    });
    expect((await paymentRow(payref))!.status).toBe("PAID");
    const got = (await getRegistration(v)).body;
    expect(Object.values(got.deltagare).map((r) => r.paidBy)).toEqual([payref, payref]);
    expect(Object.values(got.deltagare).map((r) => r.company)).not.toContain("Ny klubb");
    expect(got.version).toBe(1);
  });

  it("while Swish cannot be asked, the change is refused and nothing changes", async () => {
    const { v, two, payref } = await bookedFamily();
    const before = await familyRows(v.email);
    const [adultId, childId] = Object.keys(two);
    const changed = { [adultId!]: two[adultId!]!, [childId!]: { ...two[childId!]!, age: 6 } };
    const res = await post(
      "/update",
      { runners: changed, version: 1 },
      // Swish is out of reach: every call gets a 404 from a path that is not Swish.
      {
        env: at(OPEN_AT, { SWISH_BASE_URL: "http://localhost:8787/dev/swish/ingen-swish/" }),
        jar: v.jar,
        headers: v.headers,
      },
    );
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "Swish svarade inte som väntat. Försök igen om en stund." });
    expect(await familyRows(v.email)).toEqual(before);
    expect((await paymentRow(payref))!.status).toBe("CREATED");
  });

  it("a payment that never reached Swish: 409 while it may still be on its way, withdrawn here once it is old", async () => {
    const v = await login();
    const { runners } = newFamily();
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const payid = crypto.randomUUID().replaceAll("-", "").toUpperCase();
    // What a booking leaves between writing its row and hearing from Swish (no token yet).
    await env.DB.prepare(
      "INSERT INTO payments (id, registration_id, season, amount, status, date_created, barn, vuxna) VALUES (?, ?, 2025, 400, 'CREATED', ?, 1, 2)",
    )
      .bind(payid, await registrationId(v), Date.parse(OPEN_AT))
      .run();
    const before = await familyRows(v.email);
    const { res, body } = await update(v, { runners: {}, version: 1 });
    expect(res.status).toBe(409);
    expect(body).toEqual({ error: PAYMENT_RACE });
    expect(await familyRows(v.email)).toEqual(before);

    // Minutes later it can no longer be on its way (a create call gives up after 10 s): it is withdrawn here.
    await env.DB.prepare("UPDATE payments SET date_created = ? WHERE id = ?")
      .bind(Date.parse(OPEN_AT) - 5 * 60_000, payid)
      .run();
    const later = await update(v, { runners: {}, version: 1 });
    expect(later.res.status).toBe(200);
    expect(Object.keys(later.body.deltagare)).toHaveLength(0);
    expect(await paymentRow(payid)).toMatchObject({
      status: "CANCELLED",
      error_message: "Betalningen nådde aldrig Swish",
    });
  });

  it("a booking and a runner save at the same moment never leave a live payment for another list", async () => {
    for (let round = 0; round < 4; round++) {
      const { v, three } = await bookedFamily();
      await Promise.all([
        post("/book-v2", { barn: 1, vuxna: 1, kampanj: "" }, { env: at(OPEN_AT), jar: v.jar, headers: v.headers }),
        update(v, { runners: three, version: 1 }),
      ]);
      const rows = await familyRows(v.email);
      const stored = rows.participants.map((p) => p.id as string).sort();
      const live = rows.payments.filter((p) => p.status === "CREATED");
      expect(live.length).toBeLessThanOrEqual(1);
      for (const p of live) expect(JSON.parse(p.participant_ids as string).sort()).toEqual(stored);
    }
  });
});

describe("a free order and a runner save at the same moment", () => {
  it("never mark a runner paid that the order does not cover", async () => {
    for (let round = 0; round < 4; round++) {
      const v = await login();
      const { id, runners, uid } = newFamily();
      const two = { [id.mamma]: runners[id.mamma]!, [id.barn1]: runners[id.barn1]! };
      expect((await update(v, { runners: two, version: 0 })).res.status).toBe(200);
      const three = { ...two, [uid("barn2")]: runner({ firstname: "Siv", age: 5, distance: "0.8", group: "Ingen" }) };
      await Promise.all([
        post(
          "/book-v2",
          { barn: 1, vuxna: 1, kampanj: "FRIBILJETT" },
          { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
        ),
        update(v, { runners: three, version: 1 }),
      ]);
      // Whichever came first, a runner is paid exactly when the PAID order covers it: the order never counts the
      // third runner as paid, and a third runner saved first is in the order or the order was refused.
      const rows = await familyRows(v.email);
      const covered = new Set(
        rows.payments.filter((x) => x.status === "PAID").flatMap((p) => JSON.parse(p.participant_ids as string)),
      );
      for (const p of rows.participants) expect(p.paid_by !== null).toBe(covered.has(p.id));
    }
  });
});

describe("welcome back: previousRunners", () => {
  async function registered2024(email: string, runners: { id: string; firstname: string; age: number }[]) {
    const regId = crypto.randomUUID();
    const t = Date.parse("2024-08-20T10:00:00+02:00");
    await env.DB.prepare(
      "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, 2024, ?, 1, ?, ?)",
    )
      .bind(regId, email, t, t)
      .run();
    for (const [i, r] of runners.entries()) {
      await env.DB.prepare(
        "INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, \"group\", created_at) VALUES (?, ?, 2024, ?, 'Lund', ?, 'IK Lund', '1.6', 'Ingen', ?)",
      )
        .bind(r.id, regId, r.firstname, r.age, t + i)
        .run();
    }
  }

  it("offers last season's runners a year older, minus those already added", async () => {
    const email = uniqueEmail("aterkommande");
    await registered2024(email, [
      { id: `old-${crypto.randomUUID()}`, firstname: "Elsa", age: 9 },
      { id: `old-${crypto.randomUUID()}`, firstname: "Nils", age: 15 },
    ]);
    const v = await login(email);
    const first = (await getRegistration(v)).body;
    expect(first.previousRunners).toEqual([
      { firstname: "Elsa", lastname: "Lund", age: 10, company: "IK Lund", distance: "1.6", group: "Ingen" },
      { firstname: "Nils", lastname: "Lund", age: 16, company: "IK Lund", distance: "1.6", group: "Ingen" },
    ]);
    const { body } = await update(v, { runners: { n: { ...first.previousRunners[1] } } });
    expect(body.previousRunners.map((r) => r.firstname)).toEqual(["Elsa"]);
    expect(body.vuxna).toBe(1);
    // Last season's rows are untouched.
    expect((await familyRows(email)).participants.filter((p) => p.season === 2024)).toHaveLength(2);
  });

  it("a new family has none", async () => {
    const v = await login();
    expect((await getRegistration(v)).body.previousRunners).toEqual([]);
  });
});

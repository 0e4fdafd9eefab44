/**
 * Epassi invitations: POST/GET /admin/api/invite/epassi and the resend call, and the code they make: worth one
 * runner's fee in /validate-kampanj and /book-v2, reserved by the order that books with it, used once that order
 * is PAID, given back when it ends unpaid (declined, withdrawn, given up by the cron), and never used by two orders.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { offsetClock } from "../../../src/shared/clock";
import { database } from "../../../src/worker/db/client";
import { listInvitations } from "../../../src/worker/epassi/epassi-db";
import { reconcilePayments } from "../../../src/worker/payments/payments";
import { call, CookieJar, get, loginAdmin, post, rawPost, storedState, visitorJar, type CallInit } from "../helpers";
import {
  at,
  campaignRows,
  familyRows,
  login,
  newClient,
  OPEN_AT,
  runner,
  uniqueEmail,
  update,
  type Visitor,
} from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const SENT = "Invitation sent successfully!";
const SEND_FAILED =
  "Inbjudan sparades men e-postmeddelandet kunde inte skickas. Försök igen med 'Skicka igen' i listan.";
const CAMPAIGN_INVALID = "Kampanjkoden gäller inte. Ta bort den eller skriv en annan.";
const CODE_SHAPE = /^EPASSI[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}$/;

interface InvitationView {
  id: number;
  name: string;
  email: string;
  code: string;
  createdBy: string;
  createdAt: string;
  sentAt: string | null;
  sendError: string | null;
  state: "unused" | "reserved" | "used" | "disabled";
  use: { payid: string; registrationEmail: string | null; origin: string; at: string } | null;
}

interface ErrorBody {
  message?: string;
  error?: string;
  errors?: Record<string, string>;
}

async function invite(jar: CookieJar, body: unknown, init: CallInit = {}) {
  const res = await post("/admin/api/invite/epassi", body, { jar, ...init });
  return { res, body: (await res.json()) as { message: string; invitation: InvitationView } & ErrorBody };
}

async function sendTo(jar: CookieJar, who = "Eva Epassi") {
  const email = uniqueEmail("epassi");
  const { res, body } = await invite(jar, { name: who, email });
  expect(res.status).toBe(201);
  return body.invitation;
}

async function listed(jar: CookieJar): Promise<InvitationView[]> {
  const res = await get("/admin/api/invite/epassi", { jar });
  expect(res.status).toBe(200);
  return ((await res.json()) as { invitations: InvitationView[] }).invitations;
}

async function entryFor(jar: CookieJar, id: number): Promise<InvitationView> {
  return (await listed(jar)).find((i) => i.id === id)!;
}

async function outboxTo(email: string) {
  const res = await get(`/dev/outbox.json?to=${encodeURIComponent(email)}`);
  return (await res.json()) as { to: string; subject: string; text: string; html: string; kind: string }[];
}

async function codeRow(code: string) {
  return (await campaignRows()).find((r) => r.code === code);
}

async function validateKampanj(body: unknown) {
  const res = await post("/validate-kampanj", body, { env: at(OPEN_AT), headers: newClient() });
  return (await res.json()) as { valid?: boolean; price?: number };
}

async function book(v: Visitor, body: unknown) {
  const res = await post("/book-v2", body, { env: at(OPEN_AT), jar: v.jar, headers: v.headers });
  return { res, body: (await res.json()) as { token?: string; payref?: string } & ErrorBody };
}

/** Early tier: adult 150, child 100. */
async function family(runners: Record<string, unknown>[]): Promise<Visitor> {
  const v = await login(uniqueEmail("familj"), OPEN_AT);
  const tail = crypto.randomUUID().slice(0, 8);
  const map = Object.fromEntries(runners.map((r, i) => [`e${i}-${tail}`, runner(r)]));
  expect((await update(v, { runners: map })).res.status).toBe(200);
  return v;
}

/** One adult and two children: list price 350, with an Epassi code 200 (the adult's 150 waived). */
const ADULT_AND_TWO_CHILDREN = [
  { firstname: "Vera", age: 41 },
  { firstname: "Ivar", age: 9, distance: "1.6" },
  { firstname: "Tove", age: 7, distance: "0.8" },
];

describe("POST /admin/api/invite/epassi", () => {
  it("is for admins only", async () => {
    const body = { name: "Eva", email: "eva@example.se" };
    expect((await post("/admin/api/invite/epassi", body)).status).toBe(401);
    const visitor = await visitorJar("besokare@example.se");
    expect((await post("/admin/api/invite/epassi", body, { jar: visitor })).status).toBe(401);
    expect((await get("/admin/api/invite/epassi", { jar: visitor })).status).toBe(401);
    const admin = await loginAdmin();
    const crossSite = await call("/admin/api/invite/epassi", {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify(body),
    });
    expect(crossSite.status).toBe(403);
    expect(await outboxTo("eva@example.se")).toEqual([]);
  });

  it("stores the invitation and a single-use 'epassi' code, and e-mails the code with a link to /anmalan", async () => {
    const jar = await loginAdmin();
    const email = uniqueEmail("Epassi");
    const { res, body } = await invite(jar, { name: "  Eva Epassi ", email: ` ${email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(body.message).toBe(SENT);
    const inv = body.invitation;
    expect(inv).toMatchObject({
      name: "Eva Epassi",
      email: email.toLowerCase(),
      createdBy: "arrangor@example.se",
      sendError: null,
      state: "unused",
      use: null,
    });
    expect(inv.code).toMatch(CODE_SHAPE);
    expect(inv.sentAt).toEqual(expect.any(String));

    expect(await codeRow(inv.code)).toMatchObject({
      rule: "epassi",
      max_uses: 1,
      uses: 0,
      disabled: 0,
      builtin: 0,
      created_by: "arrangor@example.se",
      // Valid through the race day (Stockholm), for the box office on the morning.
      valid_until: Date.parse("2025-09-14T00:00:00+02:00") - 1,
    });
    const stored = await env.DB.prepare("SELECT * FROM epassi_invitations WHERE id = ?").bind(inv.id).first();
    expect(stored).toMatchObject({ name: "Eva Epassi", email: email.toLowerCase(), code: inv.code, send_error: null });
    expect(stored!.sent_at).toEqual(expect.any(Number));

    const [mail, ...more] = await outboxTo(email);
    expect(more).toEqual([]);
    expect(mail!.kind).toBe("epassi");
    expect(mail!.subject).toBe("Din kod till Byloppet 2025 (Epassi)");
    expect(mail!.text).toContain("Hej Eva Epassi!");
    expect(mail!.text).toContain(`\n${inv.code}\n`);
    expect(mail!.text).toContain("http://localhost/anmalan");
    expect(mail!.html).toContain(`href="http://localhost/anmalan"`);
    expect(mail!.html).toContain(inv.code);
    const logged = await env.DB.prepare(`SELECT status FROM email_log WHERE kind = 'epassi' AND "to" = ?`)
      .bind(email.toLowerCase())
      .all();
    expect(logged.results).toEqual([{ status: "sent" }]);
    const audit = await env.DB.prepare("SELECT actor FROM audit_log WHERE action = 'epassi.invite' AND subject = ?")
      .bind(email.toLowerCase())
      .first();
    expect(audit).toEqual({ actor: "arrangor@example.se" });
  });

  it("escapes the name in the e-mail's HTML", async () => {
    const jar = await loginAdmin();
    const email = uniqueEmail("html");
    expect((await invite(jar, { name: "<b>Eva</b> & co", email })).res.status).toBe(201);
    const [mail] = await outboxTo(email);
    expect(mail!.html).toContain("Hej &lt;b&gt;Eva&lt;/b&gt; &amp; co!");
    expect(mail!.html).not.toContain("<b>Eva</b>");
  });

  it("makes a new code for every invitation, also to the same address", async () => {
    const jar = await loginAdmin();
    const email = uniqueEmail("tva");
    const first = (await invite(jar, { name: "Två Gånger", email })).body.invitation;
    const second = (await invite(jar, { name: "Två Gånger", email })).body.invitation;
    expect(second.code).not.toBe(first.code);
    expect((await outboxTo(email)).map((m) => m.text.includes(first.code) || m.text.includes(second.code))).toEqual([
      true,
      true,
    ]);
  });

  it("refuses bad input with the spec's message in `message` (and `error`), stores nothing and sends nothing", async () => {
    const jar = await loginAdmin();
    await listed(jar);
    const before = await storedState();
    const address = uniqueEmail("fel");
    const cases: [unknown, string, Record<string, string>?][] = [
      [{}, "Name is required", { name: "Name is required", email: "E-mail is required" }],
      [{ name: "", email: address }, "Name is required", { name: "Name is required" }],
      [{ name: "   ", email: address }, "Name is required"],
      [{ name: 42, email: address }, "Name is required"],
      [{ name: ["Eva"], email: address }, "Name is required"],
      [{ name: null, email: address }, "Name is required"],
      [{ name: "x".repeat(101), email: address }, "Namnet får vara högst 100 tecken."],
      [{ name: "Eva\nBcc: x@example.se", email: address }, "Namnet får inte innehålla radbrytningar eller styrtecken."],
      [{ name: "Eva" }, "E-mail is required", { email: "E-mail is required" }],
      [{ name: "Eva", email: "" }, "E-mail is required"],
      [{ name: "Eva", email: 7 }, "E-mail is required"],
      [{ name: "Eva", email: "inte-en-adress" }, "E-mail must be valid", { email: "E-mail must be valid" }],
      [{ name: "Eva", email: "eva@example" }, "E-mail must be valid"],
      [{ name: "Eva", email: "eva @example.se" }, "E-mail must be valid"],
      [{ name: "Eva", email: "eva@@example.se" }, "E-mail must be valid"],
      [{ name: "Eva", email: `${"a".repeat(250)}@example.se` }, "E-mail must be valid"],
      [["Eva", address], "Ange namn och e-postadress."],
      ["Eva", "Ange namn och e-postadress."],
      [null, "Ange namn och e-postadress."],
    ];
    for (const [body, message, errors] of cases) {
      const { res, body: answer } = await invite(jar, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer.message, JSON.stringify(body)).toBe(message);
      expect(answer.error, JSON.stringify(body)).toBe(message);
      if (errors) expect(answer.errors, JSON.stringify(body)).toEqual(errors);
    }
    const broken = await rawPost("/admin/api/invite/epassi", '{"name": "Eva", "email":', { jar });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      message: "Förfrågan innehåller ogiltig JSON.",
      error: "Förfrågan innehåller ogiltig JSON.",
    });
    const huge = await rawPost(
      "/admin/api/invite/epassi",
      JSON.stringify({ name: "x".repeat(70_000), email: address }),
      {
        jar,
      },
    );
    expect(huge.status).toBe(413);
    const form = await rawPost("/admin/api/invite/epassi", "name=Eva", { jar, contentType: "text/plain" });
    expect(form.status).toBe(415);
    expect(await storedState()).toEqual(before);
    expect(await outboxTo(address)).toEqual([]);
  });

  it("a failed send keeps the invitation and its code as not sent (502 with message); resending sends the same code", async () => {
    const jar = await loginAdmin();
    const email = uniqueEmail("ejskickad");
    // The bulk provider without its key: a real send that fails.
    const failing = { EMAIL_TRANSPORT: "resend", EMAIL_API_KEY: "" } as Partial<Env>;
    const { res, body } = await invite(jar, { name: "Olle Ej", email }, { env: failing });
    expect(res.status).toBe(502);
    expect(body).toEqual({ message: SEND_FAILED, error: SEND_FAILED });

    const entry = (await listed(jar)).find((i) => i.email === email)!;
    expect(entry).toMatchObject({ sentAt: null, state: "unused", sendError: "EMAIL_API_KEY is not set" });
    expect(entry.code).toMatch(CODE_SHAPE);
    expect(await codeRow(entry.code)).toMatchObject({ rule: "epassi", max_uses: 1, uses: 0 });
    expect(await outboxTo(email)).toEqual([]);
    const log = await env.DB.prepare(`SELECT status FROM email_log WHERE kind = 'epassi' AND "to" = ?`)
      .bind(email)
      .all();
    expect(log.results).toEqual([{ status: "failed" }]);

    // Still failing: still not sent.
    const again = await post(`/admin/api/invite/epassi/${entry.id}/resend`, {}, { jar, env: failing });
    expect(again.status).toBe(502);
    expect(((await again.json()) as ErrorBody).message).toBe(SEND_FAILED);
    expect((await entryFor(jar, entry.id)).sentAt).toBeNull();

    const resent = await post(`/admin/api/invite/epassi/${entry.id}/resend`, {}, { jar });
    expect(resent.status).toBe(200);
    const resentBody = (await resent.json()) as { message: string; invitation: InvitationView };
    expect(resentBody.message).toBe(SENT);
    expect(resentBody.invitation).toMatchObject({ id: entry.id, code: entry.code, sendError: null });
    expect(resentBody.invitation.sentAt).toEqual(expect.any(String));
    const mails = await outboxTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(entry.code);
  }, 30_000);

  it("resend: 404 for an unknown invitation, 400 for a bad id, both with message", async () => {
    const jar = await loginAdmin();
    const unknown = await post("/admin/api/invite/epassi/999999999/resend", {}, { jar });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Inbjudan finns inte.", error: "Inbjudan finns inte." });
    for (const id of ["abc", "0", "-1", "1.5", "9".repeat(13)]) {
      const res = await post(`/admin/api/invite/epassi/${id}/resend`, {}, { jar });
      expect(res.status, id).toBe(400);
      expect(((await res.json()) as ErrorBody).message, id).toBe("Inbjudan finns inte.");
    }
  });
});

describe("GET /admin/api/invite/epassi", () => {
  it("lists the invitations sent, newest first, with who sent them and the state of each code", async () => {
    const jar = await loginAdmin();
    const first = await sendTo(jar, "Första");
    const second = await sendTo(jar, "Andra");
    const list = await listed(jar);
    const ours = list.filter((i) => i.id === first.id || i.id === second.id);
    expect(ours.map((i) => i.name)).toEqual(["Andra", "Första"]);
    expect(ours.every((i) => i.createdBy === "arrangor@example.se" && i.state === "unused" && i.use === null)).toBe(
      true,
    );
    expect(list.indexOf(ours[0]!)).toBeLessThan(list.indexOf(ours[1]!));

    // The organiser can switch a code off at /admin/kampanjkoder; the list says so.
    expect((await post(`/admin/api/kampanjkoder/${first.code}/disable`, {}, { jar })).status).toBe(200);
    expect((await entryFor(jar, first.id)).state).toBe("disabled");
    // And the organiser's code list shows the Epassi codes with their rule.
    const codes = (await (await get("/admin/api/kampanjkoder", { jar })).json()) as {
      kampanjkoder: { code: string; rule: string; maxUses: number; note: string }[];
    };
    expect(codes.kampanjkoder.find((c) => c.code === second.code)).toMatchObject({
      rule: "epassi",
      maxUses: 1,
      note: `Epassi-inbjudan: Andra <${second.email}>`,
    });
  });
});

describe("an Epassi code at registration", () => {
  it("is worth one runner's fee, the most expensive one: /validate-kampanj and /book-v2 agree", async () => {
    const jar = await loginAdmin();
    const { code } = await sendTo(jar);
    // 1 adult + 2 children: 350 − 150.
    expect(await validateKampanj({ kampanj: code.toLowerCase(), barn: 2, vuxna: 1 })).toEqual({
      valid: true,
      price: 200,
    });
    // Children only: one child's 100 waived.
    expect(await validateKampanj({ kampanj: code, barn: 3, vuxna: 0 })).toEqual({ valid: true, price: 200 });
    // Two adults: one adult's 150 waived.
    expect(await validateKampanj({ kampanj: code, barn: 0, vuxna: 2 })).toEqual({ valid: true, price: 150 });
    const v = await family(ADULT_AND_TWO_CHILDREN);
    // The browser's price is never used.
    const { res, body } = await book(v, { barn: 2, vuxna: 1, kampanj: code, price: 1 });
    expect(res.status).toBe(200);
    expect(body.token).not.toBe("kampanj");
    expect((await familyRows(v.email)).payments).toEqual([
      expect.objectContaining({ id: body.payref, amount: 200, kampanj: code, status: "CREATED" }),
    ]);
  });

  it("is reserved by a booked order, used once that order is PAID, and then valid for nobody", async () => {
    await setCallbacks("normal");
    const jar = await loginAdmin();
    const { id, code } = await sendTo(jar);
    const v = await family(ADULT_AND_TWO_CHILDREN);
    const { body } = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    const reserved = await entryFor(jar, id);
    expect(reserved.state).toBe("reserved");
    expect(reserved.use).toMatchObject({ payid: body.payref, registrationEmail: v.email, origin: "registration" });
    // Held by that order: another family's preview says no.
    expect(await validateKampanj({ kampanj: code, barn: 2, vuxna: 1 })).toEqual({ valid: false, price: 350 });

    await payOnPhone(body.token!, "PAID");
    const used = await entryFor(jar, id);
    expect(used.state).toBe("used");
    expect(used.use).toMatchObject({ payid: body.payref, registrationEmail: v.email });
    const paidAt = (await familyRows(v.email)).payments[0]!.date_paid as number;
    expect(used.use!.at).toBe(new Date(paidAt).toISOString());
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    expect(await validateKampanj({ kampanj: code, barn: 2, vuxna: 1 })).toEqual({ valid: false, price: 350 });
    const other = await family(ADULT_AND_TWO_CHILDREN);
    const refused = await book(other, { barn: 2, vuxna: 1, kampanj: code });
    expect(refused.res.status).toBe(400);
    expect(refused.body).toEqual({ error: CAMPAIGN_INVALID, errors: { kampanj: CAMPAIGN_INVALID } });
    // A used code is not sent again.
    const resend = await post(`/admin/api/invite/epassi/${id}/resend`, {}, { jar });
    expect(resend.status).toBe(409);
    expect(((await resend.json()) as ErrorBody).message).toBe("Koden är redan använd; inbjudan skickas inte igen.");
  }, 30_000);

  it("pays a one-runner registration in full: a free order, used at once", async () => {
    const jar = await loginAdmin();
    const { id, code } = await sendTo(jar);
    const v = await family([{ firstname: "Solo", age: 30 }]);
    expect(await validateKampanj({ kampanj: code, barn: 0, vuxna: 1 })).toEqual({ valid: true, price: 0 });
    const { res, body } = await book(v, { barn: 0, vuxna: 1, kampanj: code });
    expect(res.status).toBe(200);
    expect(body.token).toBe("kampanj");
    expect(body.payref).toMatch(new RegExp(`^kampanj_${code}_`));
    expect((await familyRows(v.email)).payments[0]).toMatchObject({ status: "PAID", amount: 0, kampanj: code });
    expect(await entryFor(jar, id)).toMatchObject({ state: "used", use: { payid: body.payref } });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
  });

  it("stays usable when the order that held it is declined: by the same family or another", async () => {
    await setCallbacks("normal");
    const jar = await loginAdmin();
    const { id, code } = await sendTo(jar);
    const v = await family(ADULT_AND_TWO_CHILDREN);
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    await payOnPhone(first.body.token!, "DECLINED");
    expect((await familyRows(v.email)).payments[0]).toMatchObject({ status: "DECLINED" });
    expect(await codeRow(code)).toMatchObject({ uses: 0 });
    expect(await entryFor(jar, id)).toMatchObject({ state: "unused", use: null });
    expect(await validateKampanj({ kampanj: code, barn: 2, vuxna: 1 })).toEqual({ valid: true, price: 200 });

    // Another family takes it now, and the first family, holding nothing, is refused: told that it was taken.
    const other = await family(ADULT_AND_TWO_CHILDREN);
    const taken = await book(other, { barn: 2, vuxna: 1, kampanj: code });
    expect(taken.res.status).toBe(200);
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    const refused = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(refused.res.status).toBe(400);
    expect(refused.body.errors?.kampanj).toMatch(/^Kampanjkoden hann användas av någon annan/);
    expect((await familyRows(v.email)).payments).toHaveLength(1);

    // The other family's Swish fails too (an error in the app): back again, and the first family can use it.
    await payOnPhone(taken.body.token!, "ERROR", "RF07");
    expect(await codeRow(code)).toMatchObject({ uses: 0 });
    const again = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(again.res.status).toBe(200);
    await payOnPhone(again.body.token!, "PAID");
    expect(await entryFor(jar, id)).toMatchObject({ state: "used", use: { registrationEmail: v.email } });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
  }, 30_000);

  it("booking again (the first payment withdrawn) moves the one use to the new order, never two", async () => {
    const jar = await loginAdmin();
    const { id, code } = await sendTo(jar);
    const v = await family(ADULT_AND_TWO_CHILDREN);
    const first = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    const second = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(second.res.status).toBe(200);
    const payments = (await familyRows(v.email)).payments;
    expect(payments.find((p) => p.id === first.body.payref)).toMatchObject({ status: "CANCELLED" });
    expect(payments.find((p) => p.id === second.body.payref)).toMatchObject({ status: "CREATED", amount: 200 });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    expect(await entryFor(jar, id)).toMatchObject({ state: "reserved", use: { payid: second.body.payref } });
  });

  it("an order abandoned in Swish gives it back when the cron gives the payment up", async () => {
    await setCallbacks("drop");
    try {
      const jar = await loginAdmin();
      const { id, code } = await sendTo(jar);
      const v = await family(ADULT_AND_TWO_CHILDREN);
      const { body } = await book(v, { barn: 2, vuxna: 1, kampanj: code });
      expect(await codeRow(code)).toMatchObject({ uses: 1 });
      await reconcilePayments(env, offsetClock(Date.now() + 24 * 60 * 60_000 + 60_000));
      expect((await familyRows(v.email)).payments.find((p) => p.id === body.payref)).toMatchObject({
        status: "ERROR",
        error_code: "TM01",
      });
      expect(await codeRow(code)).toMatchObject({ uses: 0 });
      expect((await entryFor(jar, id)).state).toBe("unused");
    } finally {
      await setCallbacks("normal");
    }
  }, 30_000);

  it("two families booking with one code at the same moment: one order holds it, the other pays nothing", async () => {
    await setCallbacks("normal");
    const jar = await loginAdmin();
    for (let round = 0; round < 3; round++) {
      const { id, code } = await sendTo(jar);
      const families = await Promise.all([0, 1, 2].map(() => family(ADULT_AND_TWO_CHILDREN)));
      const results = await Promise.all(families.map((f) => book(f, { barn: 2, vuxna: 1, kampanj: code })));
      const winners = results.filter((r) => r.res.status === 200);
      expect(winners).toHaveLength(1);
      for (const [i, r] of results.entries()) {
        if (r.res.status === 200) continue;
        expect(r.res.status).toBe(400);
        expect(r.body.errors).toEqual({ kampanj: CAMPAIGN_INVALID });
        expect((await familyRows(families[i]!.email)).payments).toEqual([]);
      }
      const held = await env.DB.prepare(
        "SELECT count(*) AS n FROM payments WHERE kampanj = ? AND status IN ('CREATED', 'PAID')",
      )
        .bind(code)
        .first<{ n: number }>();
      expect(held?.n).toBe(1);
      expect(await codeRow(code)).toMatchObject({ uses: 1 });
      await payOnPhone(winners[0]!.body.token!, "PAID");
      expect(await entryFor(jar, id)).toMatchObject({ state: "used", use: { payid: winners[0]!.body.payref } });
    }
  }, 30_000);

  it("a failed order of any other capped code gives its use back too", async () => {
    await setCallbacks("normal");
    const jar = await loginAdmin();
    const code = `CAP${crypto
      .randomUUID()
      .slice(0, 8)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "")}`.slice(0, 20);
    expect((await post("/admin/api/kampanjkoder", { code, rule: "flat50", maxUses: 1 }, { jar })).status).toBe(201);
    const v = await family(ADULT_AND_TWO_CHILDREN);
    const { body } = await book(v, { barn: 2, vuxna: 1, kampanj: code });
    expect(await codeRow(code)).toMatchObject({ uses: 1 });
    await payOnPhone(body.token!, "DECLINED");
    expect(await codeRow(code)).toMatchObject({ uses: 0 });
  });
});

describe("the invitation list's query", () => {
  it("finds each code's orders through the payments_kampanj index, never reading all payments", async () => {
    const jar = await loginAdmin();
    await sendTo(jar);
    const statements: { sql: string; params: unknown[] }[] = [];
    const recording = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare") {
          return (sql: string) => {
            const statement = target.prepare(sql);
            return new Proxy(statement, {
              get(s, p) {
                if (p === "bind") {
                  return (...params: unknown[]) => {
                    statements.push({ sql, params });
                    return s.bind(...params);
                  };
                }
                const value = Reflect.get(s, p, s) as unknown;
                return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(s) : value;
              },
            });
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const listedNow = await listInvitations(database(recording));
    expect(listedNow.length).toBeGreaterThan(0);
    const list = statements.find((s) => /from "epassi_invitations"/.test(s.sql))!;
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${list.sql}`)
      .bind(...list.params)
      .all<{ detail: string }>();
    const steps = results.map((r) => r.detail);
    expect(steps.filter((d) => /\bpayments\b/.test(d))).toEqual([
      expect.stringMatching(/^SEARCH payments USING INDEX payments_kampanj \(kampanj=\? AND status=\?\)( LEFT-JOIN)?$/),
    ]);
  });
});

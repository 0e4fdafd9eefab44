/**
 * Personal data on request: the summary, the JSON export (every kind of row stored about an address, no secrets)
 * and the erasure (exactly what docs/data-and-security.md says: runners and contact data anonymised or deleted, bookkeeping
 * fields of payments kept, a runner in a race not yet ended anonymised in the race object, the visitor signed
 * out, one audit line naming the address only by its hash), its refusals (nothing changes) and its repetition.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { addParticipantsToRaces } from "../../../src/worker/race-day/race-runners";
import { testRace } from "../race-calls";
import { call, CookieJar, get, loginAdmin, post, storedState, visitorJar, DEV_ADMIN } from "../helpers";

const YEAR = SEASON.year;
const DAY = 24 * 60 * 60_000;

function hex32(): string {
  return crypto.randomUUID().replace(/-/g, "").toUpperCase();
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

interface Family {
  email: string;
  reg2024: string;
  reg2025: string;
  pay2024: string;
  pay2025: string;
  runners: string[];
  /** The 2025 runner put into the 5.6 km race object. */
  racer: string;
  visitor: CookieJar;
}

const run = (sql: string, ...binds: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...binds)
    .run();

/** A family with something in every table that can name an address; `tag` keeps two families apart. */
async function family(tag: string): Promise<Family> {
  const email = `${tag}.${crypto.randomUUID().slice(0, 6)}@example.se`;
  const now = Date.now();
  const reg2024 = crypto.randomUUID();
  const reg2025 = crypto.randomUUID();
  const pay2024 = hex32();
  const pay2025 = hex32();
  const runners = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  const [old, racer, child] = runners as [string, string, string];

  for (const [id, season] of [
    [reg2024, YEAR - 1],
    [reg2025, YEAR],
  ] as const) {
    await run(
      "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)",
      id,
      season,
      email,
      now - DAY,
      now - DAY,
    );
  }
  const participant = `INSERT INTO participants
      (id, registration_id, season, firstname, lastname, age, company, distance, "group", phone, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  await run(participant, old, reg2024, YEAR - 1, "Greta", `Ek-${tag}`, 40, "IK Ek", "2.8", "Dam", "0701112233", now);
  await run(participant, racer, reg2025, YEAR, "Greta", `Ek-${tag}`, 41, "IK Ek", "5.6", "Dam", null, now);
  await run(participant, child, reg2025, YEAR, "Olle", `Ek-${tag}`, 9, "", "0.8", "Herr", null, now + 1);

  const paymentSql = `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid,
      payment_reference, payer_alias, payee_alias, message, token, callback_identifier, payee_payment_reference,
      barn, vuxna, participant_ids, settled_at)
      VALUES (?, ?, ?, ?, 'PAID', ?, ?, ?, '46701112233', '1231181189', ?, ?, ?, ?, ?, ?, ?, ?)`;
  await run(
    paymentSql,
    pay2024,
    reg2024,
    YEAR - 1,
    150,
    now - DAY,
    now - DAY,
    `REF${tag}24`,
    "Byloppet 2024: 0 barn, 1 vuxen",
    "tok24",
    hex32(),
    pay2024,
    0,
    1,
    JSON.stringify([old]),
    now - DAY,
  );
  await run(
    paymentSql,
    pay2025,
    reg2025,
    YEAR,
    250,
    now - 1000,
    now - 900,
    `REF${tag}25`,
    "Byloppet 2025: 1 barn, 1 vuxen",
    "tok25",
    hex32(),
    pay2025,
    1,
    1,
    JSON.stringify([racer, child]),
    now - 900,
  );
  await run("UPDATE registrations SET payid = ? WHERE id = ?", pay2024, reg2024);
  await run("UPDATE registrations SET payid = ? WHERE id = ?", pay2025, reg2025);
  await run(
    `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by,
       created_at, date_paid, payment_reference)
     VALUES (?, ?, ?, 50, 'PAID', ?, ?, ?, ?, ?, ?)`,
    hex32(),
    pay2024,
    YEAR - 1,
    crypto.randomUUID(),
    hex32(),
    DEV_ADMIN,
    now - DAY / 2,
    now - DAY / 2,
    `RF${tag}`,
  );

  // The 2025 adult runs the 5.6 km race, which has not ended: the race object holds the name too.
  const db = database(env.DB);
  await ensureSeasonRaces(db, SEASON);
  await addParticipantsToRaces(
    env,
    db,
    [
      {
        id: racer,
        firstname: "Greta",
        lastname: `Ek-${tag}`,
        age: 41,
        company: "IK Ek",
        group: "Dam",
        distance: "5.6",
      },
    ],
    SEASON,
  );

  const mail = `INSERT INTO email_log ("to", subject, html, text, kind, transport, status, created_at)
    VALUES (?, ?, ?, ?, ?, 'outbox', 'sent', ?)`;
  await run(mail, email, "Kvitto", `<p>Greta Ek-${tag}</p>`, `Greta Ek-${tag}`, "receipt", now);
  await run(mail, email, "Din inloggningskod", "", "", "login-code", now);
  await run(
    `INSERT INTO login_codes (id, email, code_hash, created_at, expires_at, attempts, client_key)
     VALUES (?, ?, 'hemlig-hash', ?, ?, 1, '10.0.0.1')`,
    crypto.randomUUID(),
    email,
    now,
    now + 600_000,
  );
  await run(
    "INSERT INTO login_failures (id, email, code_id, at) VALUES (?, ?, 'x', ?)",
    crypto.randomUUID(),
    email,
    now,
  );
  await run("INSERT INTO unsubscribes (email, at) VALUES (?, ?)", email, now);
  const mailing = await env.DB.prepare(
    "INSERT INTO mailings (audience, subject, message, created_by, created_at) VALUES ('previous', 'Välkommen', 'Hej', ?, ?) RETURNING id",
  )
    .bind(DEV_ADMIN, now)
    .first<{ id: number }>();
  await run(
    "INSERT INTO mailing_recipients (mailing_id, email, name, status) VALUES (?, ?, ?, 'sent')",
    mailing!.id,
    email,
    `Greta Ek-${tag}`,
  );
  // A results mail (registration/results-mails.ts): its own mailing naming the family's runners, and what it said.
  const resultsMailing = await env.DB.prepare(
    "INSERT INTO mailings (audience, subject, message, created_by, created_at) VALUES ('results', 'Officiella resultat', ?, 'system', ?) RETURNING id",
  )
    .bind(`Olle Ek-${tag}: 04:10,2`, now)
    .first<{ id: number }>();
  await run(
    "INSERT INTO mailing_recipients (mailing_id, email, name, race, status) VALUES (?, ?, '', 'race-250913-08', 'sent')",
    resultsMailing!.id,
    email,
  );
  await run(
    "INSERT INTO results_mails (registration_id, race_id, results, mailed_at) VALUES (?, 'race-250913-08', ?, ?)",
    reg2025,
    JSON.stringify([{ id: child, name: `Olle Ek-${tag}`, status: "finished", time: "04:10.200" }]),
    now,
  );
  await run(
    "INSERT INTO epassi_invitations (name, email, code, created_by, created_at) VALUES (?, ?, ?, ?, ?)",
    `Greta Ek-${tag}`,
    email,
    `EP${tag.toUpperCase()}`,
    DEV_ADMIN,
    now,
  );
  await run(
    "INSERT INTO campaign_codes (code, rule, note, created_at) VALUES (?, 'free', ?, ?)",
    `NOTE${tag.toUpperCase()}`,
    `Till ${email.toUpperCase()} (sponsor)`,
    now,
  );
  const auditSql = "INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)";
  await run(auditSql, now, "system", "payment.receipt-sent", pay2025, JSON.stringify({ to: email }));
  await run(auditSql, now, email, "visitor.something", null, "{}");
  await run(auditSql, now, DEV_ADMIN, "admin.note", email, "{}");
  const visitor = await visitorJar(email);
  return { email, reg2024, reg2025, pay2024, pay2025, runners, racer, visitor };
}

/** Every row of every table that mentions `text` anywhere (case-insensitive), as "table: row". */
async function rowsMentioning(text: string): Promise<string[]> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const found: string[] = [];
  for (const { name } of tables.results) {
    for (const row of (await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results) {
      const json = JSON.stringify(row);
      if (json.toLowerCase().includes(text.toLowerCase())) found.push(`${name}: ${json}`);
    }
  }
  return found;
}

/** A family's rows (by its ids and address) in every table, for "the other family is untouched". */
async function familyRows(f: Family) {
  const q = async (sql: string, ...binds: unknown[]) =>
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .all()
    ).results;
  return {
    registrations: await q("SELECT * FROM registrations WHERE id IN (?, ?)", f.reg2024, f.reg2025),
    participants: await q("SELECT * FROM participants WHERE registration_id IN (?, ?)", f.reg2024, f.reg2025),
    payments: await q("SELECT * FROM payments WHERE id IN (?, ?)", f.pay2024, f.pay2025),
    mentions: await rowsMentioning(f.email),
  };
}

let admin: CookieJar;
let anna: Family;
let bo: Family;

beforeAll(async () => {
  admin = await loginAdmin();
  anna = await family("anna");
  bo = await family("bo");
});

const summary = (email: unknown, jar = admin) =>
  get(`/admin/api/personal-data?email=${encodeURIComponent(String(email))}`, { jar });
const exportFile = (email: string, jar = admin) =>
  get(`/admin/api/personal-data/export?email=${encodeURIComponent(email)}`, { jar });
const erase = (body: unknown, jar = admin) => post("/admin/api/personal-data/erase", body, { jar });

describe("personal data: find and export", () => {
  it("is for admins only", async () => {
    const visitor = anna.visitor;
    expect((await summary(anna.email, visitor)).status).toBe(401);
    expect((await exportFile(anna.email, visitor)).status).toBe(401);
    expect((await erase({ email: anna.email, confirm: anna.email }, visitor)).status).toBe(401);
    expect((await get(`/admin/api/personal-data?email=${anna.email}`)).status).toBe(401);
  });

  it("sums up what is stored, whatever the case of the address typed", async () => {
    const res = await summary(` ${anna.email.toUpperCase()} `);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      email: anna.email,
      registrations: [
        {
          season: YEAR - 1,
          payid: anna.pay2024,
          paid: true,
          runners: [{ firstname: "Greta", lastname: "Ek-anna", age: 40, distance: "2.8", race: null }],
        },
        {
          season: YEAR,
          payid: anna.pay2025,
          paid: true,
          runners: [
            { firstname: "Greta", lastname: "Ek-anna", age: 41, distance: "5.6", race: `race-250913-56` },
            { firstname: "Olle", lastname: "Ek-anna", age: 9, distance: "0.8", race: null },
          ],
        },
      ],
      counts: {
        registrations: 2,
        runners: 3,
        payments: 2,
        refunds: 1,
        emails: 2,
        loginCodes: 1,
        loginFailures: 1,
        sessions: 1,
        unsubscribes: 1,
        mailings: 2,
        epassiInvitations: 1,
        campaignCodes: 1,
        auditRows: 3,
      },
      openPayment: false,
      admin: false,
    });
  });

  it("answers 400 for a missing or malformed address and 404 for an address with nothing stored", async () => {
    for (const path of ["/admin/api/personal-data", "/admin/api/personal-data/export"]) {
      const missing = await get(path, { jar: admin });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: string }).error).toBe("Ange en giltig e-postadress.");
      const bad = await get(`${path}?email=inte-en-adress`, { jar: admin });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBe("Ange en giltig e-postadress.");
      const long = await get(`${path}?email=${"a".repeat(250)}@example.se`, { jar: admin });
      expect(long.status).toBe(400);
    }
    const before = await storedState();
    const unknown = await summary("ingen.alls@example.se");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("Inget finns sparat om ingen.alls@example.se.");
    expect((await exportFile("ingen.alls@example.se")).status).toBe(404);
    expect(await storedState()).toEqual(before);
  });

  it("exports every kind of row as one JSON attachment, without secrets, and audits it by the address's hash", async () => {
    const res = await exportFile(anna.email);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      new RegExp(
        `^attachment; filename="personuppgifter-${anna.email.replace(/\./g, "\\.")}-\\d{4}-\\d{2}-\\d{2}\\.json"$`,
      ),
    );
    const text = await res.text();
    const file = JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(file.email).toBe(anna.email);
    expect(file.registrations.map((r: { season: number }) => r.season)).toEqual([YEAR - 1, YEAR]);
    const [r2024, r2025] = file.registrations;
    expect(r2024.deltagare).toEqual([
      expect.objectContaining({ firstname: "Greta", company: "IK Ek", phone: "0701112233", distance: "2.8" }),
    ]);
    expect(r2025.deltagare.map((p: { firstname: string }) => p.firstname)).toEqual(["Greta", "Olle"]);
    // What the results mail told the family about their runners.
    expect(r2024.resultsMails).toEqual([]);
    expect(r2025.resultsMails).toEqual([
      expect.objectContaining({
        raceId: "race-250913-08",
        results: [expect.objectContaining({ name: "Olle Ek-anna" })],
      }),
    ]);
    expect(r2024.payments).toEqual([
      expect.objectContaining({
        id: anna.pay2024,
        amount: 150,
        status: "PAID",
        payerAlias: "46701112233",
        paymentReference: "REFanna24",
        datePaid: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        refunds: [expect.objectContaining({ amount: 50, status: "PAID", paymentReference: "RFanna" })],
      }),
    ]);
    expect(r2025.payments[0].refunds).toEqual([]);
    expect(file.emails.map((e: { kind: string }) => e.kind)).toEqual(["receipt", "login-code"]);
    expect(file.emails[0].text).toBe("Greta Ek-anna");
    expect(file.loginCodes).toEqual([expect.objectContaining({ attempts: 1, clientKey: "10.0.0.1" })]);
    expect(file.loginFailures).toHaveLength(1);
    expect(file.sessions).toEqual([expect.objectContaining({ kind: "visitor", revokedAt: null })]);
    expect(file.unsubscribed).toEqual(expect.objectContaining({ email: anna.email }));
    expect(file.mailings).toEqual([
      expect.objectContaining({ name: "Greta Ek-anna", subject: "Välkommen" }),
      expect.objectContaining({ audience: "results", subject: "Officiella resultat" }),
    ]);
    expect(file.epassiInvitations).toEqual([expect.objectContaining({ name: "Greta Ek-anna", code: "EPANNA" })]);
    expect(file.campaignCodes).toEqual([expect.objectContaining({ code: "NOTEANNA" })]);
    expect(file.admin).toBe(false);
    expect(file.audit.map((a: { action: string }) => a.action)).toEqual([
      "payment.receipt-sent",
      "visitor.something",
      "admin.note",
    ]);
    expect(file.audit[0].detail).toEqual({ to: anna.email });
    // Secrets are not personal data to hand out: the login code's hash, the session's id.
    expect(text).not.toContain("hemlig-hash");
    expect(file.sessions[0].id).toBeUndefined();
    // Nothing of the other family.
    expect(text).not.toContain(bo.email);
    expect(text).not.toContain("Ek-bo");

    const line = await env.DB.prepare(
      "SELECT * FROM audit_log WHERE action = 'personal-data.export' ORDER BY id DESC",
    ).first<{ actor: string; subject: string; detail: string }>();
    expect(line!.actor).toBe(DEV_ADMIN);
    expect(line!.subject).toBe(await sha256(anna.email));
    expect(line!.detail).not.toContain(anna.email);
    expect(JSON.parse(line!.detail)).toEqual(expect.objectContaining({ registrations: 2, runners: 3, payments: 2 }));
  });
});

describe("personal data: erasure", () => {
  it("refuses wrong types, missing fields, a confirmation that does not match and an unknown address, changing nothing", async () => {
    const before = await storedState();
    const cases: [unknown, number, string][] = [
      [{ email: anna.email }, 400, "Skriv e-postadressen en gång till för att bekräfta raderingen."],
      [{ email: anna.email, confirm: "ja" }, 400, "Skriv e-postadressen en gång till för att bekräfta raderingen."],
      [{ email: anna.email, confirm: bo.email }, 400, "Skriv e-postadressen en gång till för att bekräfta raderingen."],
      [{ email: 5, confirm: 5 }, 400, "Ange en giltig e-postadress."],
      [{ confirm: anna.email }, 400, "Ange en giltig e-postadress."],
      [[anna.email], 400, "Ange e-postadressen och bekräftelsen."],
      [
        { email: "ingen.alls@example.se", confirm: "ingen.alls@example.se" },
        404,
        "Inget finns sparat om ingen.alls@example.se.",
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await erase(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    const notJson = await call("/admin/api/personal-data/erase", {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "x-loppet-client": "1" },
      body: "{email:",
    });
    expect(notJson.status).toBe(400);
    expect(await storedState()).toEqual(before);
  });

  it("waits while a Swish payment of the family is open (409), changing nothing", async () => {
    const carl = await family("carl");
    await run("UPDATE payments SET status = 'CREATED', date_paid = NULL WHERE id = ?", carl.pay2025);
    const before = await storedState();
    const res = await erase({ email: carl.email, confirm: carl.email });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^Familjen har en Swish-betalning som inte är avslutad/,
    );
    expect(await storedState()).toEqual(before);
    expect((await summary(carl.email)).status).toBe(200);
  });

  it("anonymises and deletes exactly what it says, keeps the bookkeeping, signs the visitor out, and can be repeated", async () => {
    const boBefore = await familyRows(bo);
    const paymentsBefore = (
      await env.DB.prepare("SELECT * FROM payments WHERE id IN (?, ?) ORDER BY id")
        .bind(anna.pay2024, anna.pay2025)
        .all()
    ).results;
    expect((await get("/get", { jar: anna.visitor })).status).toBe(200);

    const res = await erase({ email: anna.email.toUpperCase(), confirm: ` ${anna.email} ` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      erased: {
        registrations: 2,
        runners: 3,
        payments: 2,
        emails: 2,
        loginCodes: 1,
        loginFailures: 1,
        sessions: 1,
        unsubscribes: 1,
        mailings: 2,
        epassiInvitations: 1,
        campaignCodes: 1,
        auditRows: 3,
        raceRunners: 1,
      },
    });

    // The address and the names are nowhere any more (the audit line of the earlier export named only the hash).
    expect(await rowsMentioning(anna.email)).toEqual([]);
    expect(await rowsMentioning("Ek-anna")).toEqual([]);

    // Registrations stay for their payments, under a placeholder that is on the unsubscribe list.
    const regs = (
      await env.DB.prepare("SELECT id, email, payid FROM registrations WHERE id IN (?, ?) ORDER BY season")
        .bind(anna.reg2024, anna.reg2025)
        .all<{ id: string; email: string; payid: string }>()
    ).results;
    expect(regs).toEqual([
      { id: anna.reg2024, email: `raderad-${anna.reg2024}@raderad.invalid`, payid: anna.pay2024 },
      { id: anna.reg2025, email: `raderad-${anna.reg2025}@raderad.invalid`, payid: anna.pay2025 },
    ]);
    const placeholders = await env.DB.prepare("SELECT count(*) AS n FROM unsubscribes WHERE email IN (?, ?)")
      .bind(regs[0]!.email, regs[1]!.email)
      .first<{ n: number }>();
    expect(placeholders!.n).toBe(2);

    // Runners: anonymous, keeping age, distance, group, bib and race.
    const runners = (
      await env.DB.prepare(
        `SELECT id, firstname, lastname, company, phone, age, distance, "group", race_id FROM participants
          WHERE registration_id IN (?, ?) ORDER BY season, created_at`,
      )
        .bind(anna.reg2024, anna.reg2025)
        .all()
    ).results;
    expect(runners).toEqual([
      {
        id: anna.runners[0],
        firstname: "Anonym",
        lastname: "Löpare",
        company: "",
        phone: null,
        age: 40,
        distance: "2.8",
        group: "Dam",
        race_id: null,
      },
      {
        id: anna.runners[1],
        firstname: "Anonym",
        lastname: "Löpare",
        company: "",
        phone: null,
        age: 41,
        distance: "5.6",
        group: "Dam",
        race_id: "race-250913-56",
      },
      {
        id: anna.runners[2],
        firstname: "Anonym",
        lastname: "Löpare",
        company: "",
        phone: null,
        age: 9,
        distance: "0.8",
        group: "Herr",
        race_id: null,
      },
    ]);
    // …and in the race object of the race not yet ended.
    const inRace = await testRace("race-250913-56").getRunner(anna.racer);
    expect(inRace).toEqual(expect.objectContaining({ firstname: "Anonym", lastname: "Löpare", company: "", age: 41 }));
    // The race-day log still has the runner's entries (added, erased) but no longer the name or the club.
    const log = (await testRace("race-250913-56").events())
      .map((e) => JSON.stringify(e))
      .filter((e) => e.includes(anna.racer));
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(log.join("\n")).not.toMatch(/Greta|Ek-|IK Ek/);

    // Payments keep every bookkeeping field; the payer's phone, the message and the Swish token/callback go.
    const paymentsAfter = (
      await env.DB.prepare("SELECT * FROM payments WHERE id IN (?, ?) ORDER BY id")
        .bind(anna.pay2024, anna.pay2025)
        .all()
    ).results;
    expect(paymentsAfter).toEqual(
      paymentsBefore.map((p) => ({ ...p, payer_alias: null, message: null, token: null, callback_identifier: null })),
    );
    expect(paymentsAfter.map((p) => [p.amount, p.status, p.payment_reference])).toEqual(
      paymentsBefore.map((p) => [p.amount, p.status, p.payment_reference]),
    );
    const refunds = await env.DB.prepare("SELECT count(*) AS n FROM refunds WHERE payid = ?")
      .bind(anna.pay2024)
      .first<{ n: number }>();
    expect(refunds!.n).toBe(1);

    // E-mail log: kind, subject and time stay, address and body go.
    const mails = (
      await env.DB.prepare(
        `SELECT "to", subject, html, text, kind FROM email_log WHERE "to" = 'raderad@raderad.invalid' ORDER BY id`,
      ).all()
    ).results;
    expect(mails).toEqual([
      { to: "raderad@raderad.invalid", subject: "Kvitto", html: "", text: "", kind: "receipt" },
      { to: "raderad@raderad.invalid", subject: "Din inloggningskod", html: "", text: "", kind: "login-code" },
    ]);
    // Signed out at once.
    expect((await get("/get", { jar: anna.visitor })).status).toBe(401);
    // Audit: the receipt step keeps its payid (so it is not sent again) with the address replaced.
    const receipt = await env.DB.prepare(
      "SELECT subject, detail FROM audit_log WHERE action = 'payment.receipt-sent' AND subject = ?",
    )
      .bind(anna.pay2025)
      .first<{ subject: string; detail: string }>();
    expect(JSON.parse(receipt!.detail)).toEqual({ to: "[raderad]" });
    const hash = await sha256(anna.email);
    const about = (
      await env.DB.prepare("SELECT action, actor, subject FROM audit_log WHERE actor = ?1 OR subject = ?1 ORDER BY id")
        .bind(hash)
        .all()
    ).results;
    expect(about).toEqual([
      { action: "visitor.something", actor: hash, subject: null },
      { action: "admin.note", actor: DEV_ADMIN, subject: hash },
      { action: "personal-data.export", actor: DEV_ADMIN, subject: hash },
      { action: "personal-data.erase", actor: DEV_ADMIN, subject: hash },
    ]);
    const note = await env.DB.prepare("SELECT note FROM campaign_codes WHERE code = 'NOTEANNA'").first<{
      note: string;
    }>();
    expect(note!.note).toBe("Till [raderad] (sponsor)");

    // The other family is exactly as it was.
    expect(await familyRows(bo)).toEqual(boBefore);

    // Again: nothing is stored about the address any more, so nothing changes.
    const before = await storedState();
    const again = await erase({ email: anna.email, confirm: anna.email });
    expect(again.status).toBe(404);
    expect(await storedState()).toEqual(before);
  });
});

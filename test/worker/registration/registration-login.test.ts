/**
 * Logging in to the registration with an e-mailed code: POST /email, POST /code, GET /get without a session,
 * and the closed registration (spec §4, §7; DESIGN.md §2).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { useLoginCode } from "../../../src/worker/session/login-codes-db";
import { call, CookieJar, get, post, rawPost, storedState } from "../helpers";
import {
  at,
  CLOSED_AT,
  familyRows,
  getRegistration,
  inOneRateLimitWindow,
  login,
  minutesAfter,
  newClient,
  OPEN_AT,
  requestCode,
  runner,
  uniqueEmail,
  update,
} from "../registration-helpers";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hexOf = async (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function loginCodeRow(id: string) {
  return env.DB.prepare("SELECT * FROM login_codes WHERE id = ?")
    .bind(id)
    .first<{ email: string; code_hash: string; attempts: number; used_at: number | null; expires_at: number }>();
}

async function confirm(body: Record<string, unknown>, init: { env?: Partial<Env>; headers?: Record<string, string> }) {
  const jar = new CookieJar();
  const res = await post("/code", body, { ...init, jar });
  const text = await res.text();
  return { res, jar, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("POST /email", () => {
  it("answers {id, code} with a 6-digit code in development, lower-cases the address and e-mails the code", async () => {
    const email = uniqueEmail("Stor.Bokstav").replace("@example.se", "@Example.SE");
    const { res, body } = await requestCode(`  ${email} `, { env: at(OPEN_AT), headers: newClient() });
    expect(res.status).toBe(200);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.code).toMatch(/^\d{6}$/);

    const row = await loginCodeRow(body.id!);
    expect(row?.email).toBe(email.toLowerCase());
    expect(row!.expires_at - Date.parse(OPEN_AT)).toBeGreaterThanOrEqual(10 * 60_000 - 5_000);
    expect(row!.expires_at - Date.parse(OPEN_AT)).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    // The mail itself (the development outbox stands in for the mailbox) carries the code.
    const [mail] = (await (await call(`/dev/outbox.json?to=${encodeURIComponent(email.toLowerCase())}`)).json()) as {
      subject: string;
      text: string;
      html: string;
      kind: string;
    }[];
    expect(mail?.kind).toBe("login-code");
    expect(mail?.text).toContain(`Din inloggningskod: ${body.code}`);
    expect(mail?.text).toContain("10 minuter");
    expect(mail?.html).toContain(body.code);
  });

  it("stores the code as an HMAC under the server secret, not as a plain hash of id and code", async () => {
    const email = uniqueEmail();
    const { body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const row = await loginCodeRow(body.id!);
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.code_hash).not.toContain(body.code);
    // A plain SHA-256 of id and code could be found from a copy of the database by trying the million codes.
    expect(row?.code_hash).not.toBe(
      await hexOf(await crypto.subtle.digest("SHA-256", utf8(`${body.id}:${body.code}`))),
    );
    const key = await crypto.subtle.importKey(
      "raw",
      utf8(env.SESSION_SECRET!),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const hmac = await hexOf(await crypto.subtle.sign("HMAC", key, utf8(`login-code\u0000${body.id}:${body.code}`)));
    expect(row?.code_hash).toBe(hmac);
    // Without the secret the Worker refuses to make or check codes rather than store a weaker hash.
    const keyless = await requestCode(uniqueEmail(), {
      env: at(OPEN_AT, { SESSION_SECRET: "" }),
      headers: newClient(),
    });
    expect(keyless.res.status).toBe(500);
  });

  it("the e-mail log keeps to whom, what and when of a login-code mail, never its body", async () => {
    const email = uniqueEmail();
    const { body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const logged = await env.DB.prepare("SELECT * FROM email_log WHERE \"to\" = ? AND kind = 'login-code'")
      .bind(email)
      .all<{ subject: string; text: string; html: string; status: string; created_at: number }>();
    expect(logged.results).toHaveLength(1);
    const [entry] = logged.results;
    expect(entry).toMatchObject({ subject: "Din inloggningskod till Byloppet", status: "sent", html: "", text: "" });
    expect(Math.abs(entry!.created_at - Date.parse(OPEN_AT))).toBeLessThan(60_000);
    expect(JSON.stringify(entry)).not.toContain(body.code);
  });

  it("gives every request a new code, and different codes (CSPRNG, not a counter)", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const codes = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const { body } = await requestCode(email, { env: at(OPEN_AT), headers });
      codes.add(body.code!);
    }
    expect(codes.size).toBeGreaterThanOrEqual(3);
  });

  it("does not hand out the code outside development: {id, code: ''}, the code only in the e-mail", async () => {
    const email = uniqueEmail("prod");
    const headers = newClient();
    const { res, body } = await requestCode(email, { env: { DEV_MODE: "false" }, headers });
    expect(res.status).toBe(200);
    expect(body.code).toBe("");
    const [mail] = (await (await call(`/dev/outbox.json?to=${encodeURIComponent(email)}`)).json()) as {
      text: string;
    }[];
    const code = /Din inloggningskod: (\d{6})/.exec(mail!.text)![1];
    // Production clock is the real one (2026): the 2025 registration is closed and this family has none → 403.
    const { res: confirmed, body: answer } = await confirm(
      { email, codeId: body.id, code },
      { env: { DEV_MODE: "false" }, headers },
    );
    expect(confirmed.status).toBe(403);
    expect(answer).toEqual({ error: "Anmälan är stängd" });
  });

  it("refuses invalid addresses with 400 'Ogiltig e-postadress' and stores nothing", async () => {
    const before = await storedState();
    const bad: unknown[] = [
      "",
      "   ",
      "anna",
      "anna@",
      "@example.se",
      "anna@example",
      "anna @example.se",
      "<script>@example.se",
      `${"a".repeat(250)}@example.se`,
      42,
      null,
      true,
      ["a@example.se"],
      { email: "a@example.se" },
    ];
    for (const email of bad) {
      const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(body.error).toBe("Ogiltig e-postadress");
    }
    const missing = await post("/email", {}, { headers: newClient() });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe("Ogiltig e-postadress");
    const notObject = await post("/email", ["a@example.se"], { headers: newClient() });
    expect(notObject.status).toBe(400);
    const broken = await rawPost("/email", '{"email": "a@exa', { headers: newClient() });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toMatch(/JSON/);
    const form = await rawPost("/email", "email=a@example.se", {
      headers: newClient(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    expect(await storedState()).toEqual(before);
  });

  it("refuses a cross-site request (no client header, foreign Origin)", async () => {
    const res = await call("/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", ...newClient() },
      body: JSON.stringify({ email: uniqueEmail() }),
    });
    expect(res.status).toBe(403);
  });

  it("mails at most 5 codes per address per hour, from any number of clients; then 429 until the hour has passed", async () => {
    const email = uniqueEmail("flood");
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await requestCode(email, { env: at(minutesAfter(OPEN_AT, i)), headers: newClient() })).res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const { res, body } = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 10)), headers: newClient() });
    expect(res.status).toBe(429);
    // The first code leaves the hour at 10:00 + 60 min: 50 minutes from 10:10 (51 when rounded up by a moment).
    expect(body.error).toMatch(
      /^Vi har redan skickat flera koder till den här e-postadressen\. Använd koden i det senaste mejlet eller begär en ny om 5[01] minuter\.$/,
    );
    const mailed = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE \"to\" = ? AND kind = 'login-code'")
      .bind(email)
      .first<{ n: number }>();
    expect(mailed!.n).toBe(5);
    // A rolling hour: once the first code is an hour old, one more may be mailed.
    const later = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 60.5)), headers: newClient() });
    expect(later.res.status).toBe(200);
  });

  it("rate-limits per client: one client asking for many addresses gets 429", async () => {
    // The binding counts per clock minute: judged only on a run within one window (inOneRateLimitWindow).
    const statuses = await inOneRateLimitWindow(async () => {
      const headers = newClient();
      const run: number[] = [];
      for (let i = 0; i < 12; i++) run.push((await requestCode(uniqueEmail("spray"), { headers })).res.status);
      return run;
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe("POST /code", () => {
  it("a new family: 204 with a visitor session and an empty registration; /get then answers it", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const { res, jar, body } = await confirm(
      { email, codeId: sent.id, code: sent.code },
      { env: at(OPEN_AT), headers },
    );
    expect(res.status).toBe(204);
    expect(body).toBeNull();
    expect(res.headers.getSetCookie().join()).toMatch(/__Host-session=.+; Max-Age=\d+/);

    const { res: got, body: reg } = await getRegistration({ email, jar, headers });
    expect(got.status).toBe(200);
    expect(reg).toMatchObject({
      email,
      deltagare: {},
      payid: null,
      swishtory: {},
      version: 0,
      locked: false,
      registrationOpen: true,
      previousRunners: [],
    });
    expect((await familyRows(email)).registrations).toHaveLength(1);
  });

  it("a returning family: 200 with {email, deltagare, payid, swishtory, version}", async () => {
    const v = await login();
    expect((await update(v, { runners: { r1: runner() } })).res.status).toBe(200);
    const { body: sent } = await requestCode(v.email, { env: at(OPEN_AT), headers: v.headers });
    const { res, body } = await confirm(
      { email: v.email, codeId: sent.id, code: sent.code },
      { env: at(OPEN_AT), headers: v.headers },
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      email: v.email,
      deltagare: { r1: { id: "r1", firstname: "Anna", lastname: "Berg", age: 34, distance: "5.6", group: "Dam" } },
      payid: null,
      swishtory: {},
      version: 1,
    });
  });

  it("takes the address in any case and the code as a number", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    if (sent.code!.startsWith("0")) return; // a number cannot carry a leading zero
    const { res } = await confirm(
      { email: email.toUpperCase(), codeId: sent.id, code: Number(sent.code) },
      { env: at(OPEN_AT), headers },
    );
    expect(res.status).toBe(204);
  });

  it("a wrong code: 400 'Fel kod…', the try is counted, no session", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const wrong = sent.code === "000000" ? "000001" : "000000";
    const { res, body, jar } = await confirm({ email, codeId: sent.id, code: wrong }, { env: at(OPEN_AT), headers });
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: "Fel kod. Kontrollera koden i mejlet och försök igen." });
    expect(jar.size).toBe(0);
    expect((await loginCodeRow(sent.id!))?.attempts).toBe(1);
    expect((await familyRows(email)).sessions).toEqual([]);
  });

  it("the right code for another address is a wrong code", async () => {
    const headers = newClient();
    const email = uniqueEmail();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const { res } = await confirm(
      { email: uniqueEmail("annan"), codeId: sent.id, code: sent.code },
      { env: at(OPEN_AT), headers },
    );
    expect(res.status).toBe(400);
  });

  it("5 wrong tries lock the code: even the right code is then refused", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const wrong = String((Number(sent.code) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++) {
      const { res, body } = await confirm({ email, codeId: sent.id, code: wrong }, { env: at(OPEN_AT), headers });
      expect(res.status).toBe(400);
      expect(body?.error).toBe("Fel kod. Kontrollera koden i mejlet och försök igen.");
    }
    const { res, body, jar } = await confirm(
      { email, codeId: sent.id, code: sent.code },
      { env: at(OPEN_AT), headers },
    );
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: "Koden kan inte användas längre. Begär en ny kod." });
    expect(jar.size).toBe(0);
    expect((await loginCodeRow(sent.id!))?.attempts).toBe(5);
    // A new code works.
    const { body: again } = await requestCode(email, { env: at(OPEN_AT), headers });
    expect(
      (await confirm({ email, codeId: again.id, code: again.code }, { env: at(OPEN_AT), headers })).res.status,
    ).toBe(204);
  });

  it("parallel guesses cannot get more than 5 comparisons out of one code", async () => {
    const email = uniqueEmail();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const guesses = Array.from({ length: 8 }, (_, i) =>
      String((Number(sent.code) + 1 + i) % 1_000_000).padStart(6, "0"),
    );
    await Promise.all(
      guesses.map((code) => confirm({ email, codeId: sent.id, code }, { env: at(OPEN_AT), headers: newClient() })),
    );
    expect((await loginCodeRow(sent.id!))?.attempts).toBe(5);
  });

  it("a code is single use", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    expect((await confirm({ email, codeId: sent.id, code: sent.code }, { env: at(OPEN_AT), headers })).res.status).toBe(
      204,
    );
    const { res, body } = await confirm({ email, codeId: sent.id, code: sent.code }, { env: at(OPEN_AT), headers });
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: "Koden kan inte användas längre. Begär en ny kod." });
  });

  it("a code expires after 10 minutes: 410 'Koden har gått ut. Begär en ny kod.'", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const late = at(minutesAfter(OPEN_AT, 11));
    const { res, body, jar } = await confirm({ email, codeId: sent.id, code: sent.code }, { env: late, headers });
    expect(res.status).toBe(410);
    expect(body).toEqual({ error: "Koden har gått ut. Begär en ny kod." });
    expect(jar.size).toBe(0);
    // Nine minutes on, it still works.
    const { body: fresh } = await requestCode(email, { env: at(OPEN_AT), headers });
    const { res: ok } = await confirm(
      { email, codeId: fresh.id, code: fresh.code },
      { env: at(minutesAfter(OPEN_AT, 9)), headers },
    );
    expect(ok.status).toBe(204);
  });

  it("an unknown code id: 400 'Koden kan inte användas längre…'", async () => {
    const { res, body } = await confirm(
      { email: uniqueEmail(), codeId: crypto.randomUUID(), code: "123456" },
      { env: at(OPEN_AT), headers: newClient() },
    );
    expect(res.status).toBe(400);
    expect(body).toEqual({ error: "Koden kan inte användas längre. Begär en ny kod." });
  });

  it("refuses malformed bodies with a Swedish 400 and changes nothing", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: sent } = await requestCode(email, { env: at(OPEN_AT), headers });
    const before = { counts: await storedState(), code: await loginCodeRow(sent.id!) };
    const bodies: unknown[] = [
      {},
      { email, codeId: sent.id },
      { email, code: sent.code },
      { codeId: sent.id, code: sent.code },
      { email: "inte-en-adress", codeId: sent.id, code: sent.code },
      { email, codeId: sent.id, code: "12345" },
      { email, codeId: sent.id, code: "1234567" },
      { email, codeId: sent.id, code: "12a456" },
      { email, codeId: sent.id, code: -1 },
      { email, codeId: sent.id, code: 1.5 },
      { email, codeId: sent.id, code: null },
      { email, codeId: sent.id, code: ["123456"] },
      { email, codeId: 7, code: sent.code },
      { email, codeId: "x".repeat(500), code: sent.code },
      { email, codeId: sent.id, code: "9".repeat(10_000) },
      "123456",
      null,
    ];
    for (const b of bodies) {
      const res = await post("/code", b, { env: at(OPEN_AT), headers });
      expect(res.status, JSON.stringify(b).slice(0, 80)).toBe(400);
      const answer = (await res.json()) as { error: string };
      expect(answer.error).toMatch(/[a-zåäö]/i);
      expect(answer.error).not.toMatch(/invalid|expected|required/i);
    }
    expect(await storedState()).toEqual(before.counts);
    expect(await loginCodeRow(sent.id!)).toEqual(before.code);
  });

  it("rate-limits code tries per client: 429", async () => {
    const statuses = await inOneRateLimitWindow(async () => {
      const headers = newClient();
      const run: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await post(
          "/code",
          { email: uniqueEmail(), codeId: crypto.randomUUID(), code: "123456" },
          { env: at(OPEN_AT), headers },
        );
        run.push(res.status);
      }
      return run;
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
  });
});

describe("guessing is bounded per address, whatever the number of clients", () => {
  const wrongFor = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");

  it("at most 20 wrong codes per address per hour; then every try and every new code is 429 until the hour has passed", async () => {
    const email = uniqueEmail("gissning");
    const statuses: number[] = [];
    let lastCode: { id?: string; code?: string } = {};
    // Each request from a new client (the client limit never applies): a code, then its 5 tries, again and again.
    for (let round = 0; round < 6; round++) {
      const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
      if (res.status !== 200) {
        statuses.push(res.status);
        break;
      }
      lastCode = body;
      for (let i = 0; i < 5; i++) {
        const guess = await confirm(
          { email, codeId: body.id, code: wrongFor(body.code!, i) },
          { env: at(OPEN_AT), headers: newClient() },
        );
        statuses.push(guess.res.status);
      }
    }
    const evaluatedWrong = statuses.filter((s) => s === 400).length;
    console.log(`wrong codes evaluated for one address within the hour: ${evaluatedWrong}`);
    expect(evaluatedWrong).toBe(20);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    const { sum } = (await env.DB.prepare("SELECT sum(attempts) AS sum FROM login_codes WHERE email = ?")
      .bind(email)
      .first<{ sum: number }>())!;
    expect(sum).toBe(20);

    // Locked out: the right code of the newest code is refused too, and no new code is mailed.
    const right = await confirm(
      { email, codeId: lastCode.id, code: lastCode.code },
      { env: at(minutesAfter(OPEN_AT, 5)), headers: newClient() },
    );
    expect(right.res.status).toBe(429);
    expect(right.body?.error).toMatch(/^För många felaktiga koder för den här e-postadressen\..* om 5[56] minuter\.$/);
    expect(right.jar.size).toBe(0);
    const mail = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 30)), headers: newClient() });
    expect(mail.res.status).toBe(429);
    expect(mail.body.error).toMatch(/^För många felaktiga koder.* om 3[01] minuter\.$/);
    expect((await familyRows(email)).sessions).toEqual([]);

    // Once the hour has passed, a new code logs in.
    const later = at(minutesAfter(OPEN_AT, 61));
    const fresh = await requestCode(email, { env: later, headers: newClient() });
    expect(fresh.res.status).toBe(200);
    expect((await confirm({ email, codeId: fresh.body.id, code: fresh.body.code }, { env: later })).res.status).toBe(
      204,
    );
  });

  it("parallel guesses from many clients at once still evaluate at most 20 wrong codes per hour", async () => {
    const email = uniqueEmail("parallell");
    let evaluatedWrong = 0;
    let refused = 0;
    for (let round = 0; round < 5; round++) {
      const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
      if (res.status === 429) {
        refused++;
        continue;
      }
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          confirm(
            { email, codeId: body.id, code: wrongFor(body.code!, i) },
            { env: at(OPEN_AT), headers: newClient() },
          ),
        ),
      );
      evaluatedWrong += answers.filter(
        (a) => a.res.status === 400 && a.body?.error === "Fel kod. Kontrollera koden i mejlet och försök igen.",
      ).length;
    }
    console.log(`wrong codes evaluated for one address (12 parallel guesses per code): ${evaluatedWrong}`);
    expect(evaluatedWrong).toBe(20);
    expect(refused).toBe(1);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM login_failures WHERE email = ?")
      .bind(email)
      .first<{ n: number }>())!;
    expect(n).toBe(20);
  });

  it("19 wrong codes spread over 4 codes, then 5 guesses at once against a fifth code: at most one is evaluated", async () => {
    const email = uniqueEmail("spridd");
    const wrongPerCode = [5, 5, 5, 4];
    for (const wrong of wrongPerCode) {
      const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
      expect(res.status).toBe(200);
      for (let i = 0; i < wrong; i++) {
        const guess = await confirm(
          { email, codeId: body.id, code: wrongFor(body.code!, i) },
          { env: at(OPEN_AT), headers: newClient() },
        );
        expect(guess.res.status).toBe(400);
      }
    }
    // 19 wrong so far, and 4 codes mailed: a fifth code is still mailed, with all of its own 5 tries.
    const fifth = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    expect(fifth.res.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        confirm(
          { email, codeId: fifth.body.id, code: wrongFor(fifth.body.code!, i) },
          { env: at(OPEN_AT), headers: newClient() },
        ),
      ),
    );
    const evaluated = answers.filter(
      (a) => a.res.status === 400 && a.body?.error === "Fel kod. Kontrollera koden i mejlet och försök igen.",
    );
    console.log(`of 5 parallel guesses at 19 wrong codes, evaluated: ${evaluated.length}`);
    expect(evaluated.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.res.status === 429)).toHaveLength(5 - evaluated.length);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM login_failures WHERE email = ?")
      .bind(email)
      .first<{ n: number }>())!;
    expect(n).toBeLessThanOrEqual(20);

    // The same bound in the data function itself, whatever any caller checked first: the next 5 at once are all
    // refused before their code is compared.
    const db = database(env.DB);
    const checks = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        useLoginCode(db, {
          id: fifth.body.id!,
          email,
          code: wrongFor(fifth.body.code!, 10 + i),
          now: Date.parse(OPEN_AT) + 1000,
          secret: env.SESSION_SECRET,
        }),
      ),
    );
    expect(checks.map((c) => c.status)).toEqual(Array(5).fill("locked"));
  });

  it("a new code makes the older codes of the address unusable", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body: first } = await requestCode(email, { env: at(OPEN_AT), headers });
    const { body: second } = await requestCode(email, { env: at(OPEN_AT), headers });
    const old = await confirm({ email, codeId: first.id, code: first.code }, { env: at(OPEN_AT), headers });
    expect(old.res.status).toBe(400);
    expect(old.body).toEqual({ error: "Koden kan inte användas längre. Begär en ny kod." });
    expect(old.jar.size).toBe(0);
    const fresh = await confirm({ email, codeId: second.id, code: second.code }, { env: at(OPEN_AT), headers });
    expect(fresh.res.status).toBe(204);
  });

  it("a right code is not counted as a wrong try", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { body } = await requestCode(email, { env: at(OPEN_AT), headers });
    expect((await confirm({ email, codeId: body.id, code: body.code }, { env: at(OPEN_AT), headers })).res.status).toBe(
      204,
    );
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM login_failures WHERE email = ?")
      .bind(email)
      .first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});

describe("closed registration", () => {
  it("a family with no registration gets 403 'Anmälan är stängd' and no session", async () => {
    const email = uniqueEmail();
    const headers = newClient();
    const { res: sentRes, body: sent } = await requestCode(email, { env: at(CLOSED_AT), headers });
    expect(sentRes.status).toBe(200);
    const { res, body, jar } = await confirm(
      { email, codeId: sent.id, code: sent.code },
      { env: at(CLOSED_AT), headers },
    );
    expect(res.status).toBe(403);
    expect(body).toEqual({ error: "Anmälan är stängd" });
    expect(jar.size).toBe(0);
    expect(await familyRows(email)).toEqual({ registrations: [], participants: [], payments: [], sessions: [] });
  });

  it("a family with a registration can still log in and see it, read-only", async () => {
    const v = await login();
    expect((await update(v, { runners: { a: runner() } })).res.status).toBe(200);
    const { body: sent } = await requestCode(v.email, { env: at(CLOSED_AT), headers: v.headers });
    const { res, body, jar } = await confirm(
      { email: v.email, codeId: sent.id, code: sent.code },
      { env: at(CLOSED_AT), headers: v.headers },
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ email: v.email, registrationOpen: false, deltagare: { a: { firstname: "Anna" } } });
    const closedVisitor = { ...v, jar };
    const before = await familyRows(v.email);
    const { res: saved, body: refusal } = await update(closedVisitor, { runners: {} }, CLOSED_AT);
    expect(saved.status).toBe(403);
    expect(refusal).toEqual({ error: "Anmälan är stängd" });
    expect(await familyRows(v.email)).toEqual(before);
  });
});

describe("GET /get", () => {
  it("without a session: 401 'Inte inloggad'", async () => {
    const res = await get("/get", { env: at(OPEN_AT) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad" });
  });

  it("with a forged or logged-out session: 401", async () => {
    const forged = new CookieJar();
    forged.set("__Host-session", "eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4In0.AAAA");
    expect((await get("/get", { env: at(OPEN_AT), jar: forged })).status).toBe(401);

    const v = await login();
    expect((await get("/get", { env: at(OPEN_AT), jar: v.jar })).status).toBe(200);
    const kept = new CookieJar();
    kept.set("__Host-session", v.jar.get("__Host-session")!);
    expect((await get("/api/logout", { env: at(OPEN_AT), jar: v.jar })).status).toBeLessThan(400);
    // The old cookie, replayed after logout, is refused server-side.
    expect((await get("/get", { env: at(OPEN_AT), jar: kept })).status).toBe(401);
  });
});

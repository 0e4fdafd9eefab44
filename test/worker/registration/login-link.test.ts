/**
 * The login mail's one-time sign-in link (issue 43, item 2; session/login-codes-db.ts): POST /login-link {token}
 * signs in once, while wrong guesses have locked the address's codes and after newer codes were requested; an
 * expired, used or garbled token is refused with a Swedish 4xx; opening the link (a GET) signs no one in.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, CookieJar, get, post } from "../helpers";
import { at, familyRows, minutesAfter, newClient, OPEN_AT, requestCode, uniqueEmail } from "../registration-helpers";

interface Mail {
  subject: string;
  text: string;
  html: string;
  kind: string;
}

async function mailsTo(email: string): Promise<Mail[]> {
  return (await (await call(`/dev/outbox.json?to=${encodeURIComponent(email)}`)).json()) as Mail[];
}

/** The token of the newest login mail to the address (the outbox lists the newest first). */
async function newestLinkToken(email: string): Promise<string> {
  const [mail] = await mailsTo(email);
  const token = /\/anmalan\/lank\?t=([0-9a-f]{64})/.exec(mail!.text)?.[1];
  expect(token).toBeDefined();
  return token!;
}

async function useLink(token: unknown, when = OPEN_AT, init: { headers?: Record<string, string> } = {}) {
  const jar = new CookieJar();
  const res = await post("/login-link", { token }, { env: at(when), headers: init.headers ?? newClient(), jar });
  const text = await res.text();
  return { res, jar, body: text ? (JSON.parse(text) as { error?: string; email?: string }) : null };
}

async function signedIn(jar: CookieJar, when = OPEN_AT): Promise<boolean> {
  return (await get("/get", { env: at(when), jar, headers: newClient() })).status === 200;
}

const wrongFor = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");

/** A stranger's hour: 4 codes, each guessed 5 times wrong, from fresh clients; the address is then locked. */
async function lockOut(email: string) {
  for (let round = 0; round < 4; round++) {
    const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    expect(res.status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const guess = await post(
        "/code",
        { email, codeId: body.id, code: wrongFor(body.code!, i) },
        { env: at(OPEN_AT), headers: newClient() },
      );
      expect(guess.status).toBe(400);
    }
  }
}

describe("the sign-in link", () => {
  it("comes in the login mail with the code, stored only as a keyed hash, and signs in once", async () => {
    const email = uniqueEmail("lank");
    const { res, body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    expect(res.status).toBe(200);
    const [mail] = await mailsTo(email);
    expect(mail!.text).toContain(`Din inloggningskod: ${body.code}`);
    const token = await newestLinkToken(email);
    expect(mail!.text).toContain(`http://localhost/anmalan/lank?t=${token}`);
    expect(mail!.html).toContain(`href="http://localhost/anmalan/lank?t=${token}"`);
    const row = await env.DB.prepare("SELECT link_hash FROM login_codes WHERE id = ?")
      .bind(body.id)
      .first<{ link_hash: string }>();
    expect(row!.link_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.link_hash).not.toBe(token);
    // The e-mail log keeps no body of a login mail.
    const logged = await env.DB.prepare(`SELECT html, text FROM email_log WHERE "to" = ?`)
      .bind(email)
      .first<{ html: string; text: string }>();
    expect(logged).toEqual({ html: "", text: "" });

    const first = await useLink(token);
    expect(first.res.status).toBe(204);
    expect(await signedIn(first.jar)).toBe(true);

    const again = await useLink(token);
    expect(again.res.status).toBe(400);
    expect(again.body?.error).toBe("Inloggningslänken har redan använts. Begär en ny kod om du behöver logga in igen.");
    expect(again.jar.size).toBe(0);
    // One mail, one sign-in: the code of the same mail is used up too.
    const code = await post("/code", { email, codeId: body.id, code: body.code }, { env: at(OPEN_AT) });
    expect(code.status).toBe(400);
  });

  it("a code used first uses up the link of the same mail", async () => {
    const email = uniqueEmail("kod-forst");
    const { body } = await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const token = await newestLinkToken(email);
    expect((await post("/code", { email, codeId: body.id, code: body.code }, { env: at(OPEN_AT) })).status).toBe(204);
    const link = await useLink(token);
    expect(link.res.status).toBe(400);
    expect(link.body?.error).toMatch(/^Inloggningslänken har redan använts/);
  });

  it("two tabs at once: exactly one signs in", async () => {
    const email = uniqueEmail("tva-flikar");
    await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const token = await newestLinkToken(email);
    const answers = await Promise.all([useLink(token), useLink(token), useLink(token)]);
    expect(answers.map((a) => a.res.status).sort()).toEqual([204, 400, 400]);
    expect(answers.filter((a) => a.jar.size > 0)).toHaveLength(1);
    expect((await familyRows(email)).sessions).toHaveLength(1);
  });

  it("a later code request does not undo it", async () => {
    const email = uniqueEmail("senare-kod");
    await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const firstToken = await newestLinkToken(email);
    const later = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 2)), headers: newClient() });
    expect(later.res.status).toBe(200);
    const link = await useLink(firstToken, minutesAfter(OPEN_AT, 3));
    expect(link.res.status).toBe(204);
    expect(await signedIn(link.jar, minutesAfter(OPEN_AT, 3))).toBe(true);
  });

  it("works while wrong guesses have locked the address's codes, and the locked address is mailed a link alone", async () => {
    const email = uniqueEmail("sparrad");
    await lockOut(email);
    const strangersLastMail = await newestLinkToken(email);

    // The family asks for a code: none is made, but a mail with a link goes out (the address's fifth of the hour).
    const asked = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 5)), headers: newClient() });
    expect(asked.res.status).toBe(429);
    expect(asked.body.error).toMatch(
      /^För många felaktiga koder för den här e-postadressen, så vi skickar ingen ny kod förrän om 5[56] minuter\. Vi har i stället mejlat dig en inloggningslänk – öppna mejlet och logga in med länken\.$/,
    );
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toMatch(/^Din inloggningslänk till /);
    expect(mail!.text).not.toMatch(/inloggningskod: \d{6}/);
    const token = await newestLinkToken(email);
    expect(token).not.toBe(strangersLastMail);
    const rows = await env.DB.prepare("SELECT code_hash FROM login_codes WHERE email = ? ORDER BY created_at")
      .bind(email)
      .all<{ code_hash: string }>();
    expect(rows.results).toHaveLength(5);
    expect(rows.results.filter((r) => r.code_hash === "")).toHaveLength(1);

    // Codes stay locked for the hour; the link signs in.
    const link = await useLink(token, minutesAfter(OPEN_AT, 6));
    expect(link.res.status).toBe(204);
    expect(await signedIn(link.jar, minutesAfter(OPEN_AT, 6))).toBe(true);
    // So does the link of a mail the stranger caused (every mail carries one): the registration is there now.
    const theirs = await useLink(strangersLastMail, minutesAfter(OPEN_AT, 7));
    expect(theirs.res.status).toBe(200);
    expect(theirs.body?.email).toBe(email);

    // The mails of the hour are spent: nothing more is mailed until it has passed.
    const sixth = await requestCode(email, { env: at(minutesAfter(OPEN_AT, 8)), headers: newClient() });
    expect(sixth.res.status).toBe(429);
    expect(sixth.body.error).toMatch(/^För många felaktiga koder för den här e-postadressen\. .* om 5[23] minuter\.$/);
    expect(await mailsTo(email)).toHaveLength(5);

    // Once the hour has passed, the link-only row is still no code: no try is counted against it.
    const linkOnly = (await env.DB.prepare("SELECT id FROM login_codes WHERE email = ? AND code_hash = ''")
      .bind(email)
      .first<{ id: string }>())!;
    const typed = await post(
      "/code",
      { email, codeId: linkOnly.id, code: "123456" },
      { env: at(minutesAfter(OPEN_AT, 61)), headers: newClient() },
    );
    expect(typed.status).toBe(400);
    expect(((await typed.json()) as { error: string }).error).toBe("Koden kan inte användas längre. Begär en ny kod.");
    const tried = await env.DB.prepare("SELECT attempts FROM login_codes WHERE id = ?")
      .bind(linkOnly.id)
      .first<{ attempts: number }>();
    expect(tried!.attempts).toBe(0);
  });

  it("an expired link: 410, no session", async () => {
    const email = uniqueEmail("gammal-lank");
    await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const token = await newestLinkToken(email);
    const late = await useLink(token, minutesAfter(OPEN_AT, 10.5));
    expect(late.res.status).toBe(410);
    expect(late.body?.error).toBe("Inloggningslänken har gått ut. Begär en ny kod.");
    expect(late.jar.size).toBe(0);
    expect((await familyRows(email)).sessions).toEqual([]);
  });

  it.each([
    ["a garbled token", "inte-en-token"],
    ["a guessed token of the right shape", "ab".repeat(32)],
    ["a token cut short", "a".repeat(63)],
    ["an empty token", ""],
    ["a number", 12345],
    ["no token at all", undefined],
  ])("%s: 400 'Inloggningslänken är ogiltig…', no session", async (_what, token) => {
    const res = await useLink(token);
    expect(res.res.status).toBe(400);
    expect(res.body?.error).toBe(
      "Inloggningslänken är ogiltig. Kontrollera att hela länken kom med, eller begär en ny kod.",
    );
    expect(res.jar.size).toBe(0);
  });

  it("a GET never signs in: opening the link shows the page, and the token stays usable", async () => {
    const email = uniqueEmail("skanner");
    await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const token = await newestLinkToken(email);
    for (const path of [`/anmalan/lank?t=${token}`, `/login-link?token=${token}`, `/login-link?t=${token}`]) {
      const jar = new CookieJar();
      const res = await call(path, { env: at(OPEN_AT), jar, headers: newClient() });
      await res.arrayBuffer();
      expect(res.status).toBeLessThan(500);
      expect(jar.size).toBe(0);
    }
    expect((await familyRows(email)).sessions).toEqual([]);
    expect((await useLink(token)).res.status).toBe(204);
  });

  it("refuses a cross-site POST (foreign Origin, no client header) and leaves the token usable", async () => {
    const email = uniqueEmail("korsvis");
    await requestCode(email, { env: at(OPEN_AT), headers: newClient() });
    const token = await newestLinkToken(email);
    const res = await call("/login-link", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", ...newClient() },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(403);
    expect((await useLink(token)).res.status).toBe(204);
  });
});

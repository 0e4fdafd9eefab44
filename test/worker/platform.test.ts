/**
 * The platform: sessions (cookie shape, what the token carries, server-side revocation and expiry by the
 * server's clock), logout, the admin allowlist, the e-mail sender and its log, and the audit helper.
 */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { decodeJwt, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { emailSender, RESEND_API_URL } from "../../src/worker/adapters/email";
import { emailLogErasure } from "../../src/worker/db/email-log";
import { emailScope, ERASED_ADDRESS, ERASED_TEXT } from "../../src/worker/db/erasure";
import { addAdmin, removeAdmin } from "../../src/worker/session/admins-db";
import { audit } from "../../src/worker/db/audit";
import { database } from "../../src/worker/db/client";
import type { AppEnv } from "../../src/worker/env";
import { appContext } from "../../src/worker/middleware/context";
import { sessionContext } from "../../src/worker/session/session-middleware";
import { SESSION_MAX_AGE_SECONDS, startSession } from "../../src/worker/session/sessions";
import { fixedClock } from "../../src/shared/clock";
import { call, CookieJar, DEV_ADMIN, get, loginAdmin, post, sessionJar, visitorJar, waitFor } from "./helpers";

/** The real session code in a minimal app: sign in a visitor, and report what the middleware sees. */
function sessionApp() {
  const app = new Hono<AppEnv>();
  app.use(appContext);
  app.use(sessionContext);
  app.post("/t/login/:email", async (c) => c.json(await startSession(c, "visitor", c.req.param("email"))));
  app.get("/t/whoami", (c) => c.json({ session: c.var.session, admin: c.var.admin }));
  return app;
}

async function sessionAppCall(url: string, init: RequestInit = {}, jar?: CookieJar) {
  const headers = new Headers(init.headers);
  if (jar?.size) headers.set("cookie", jar.header());
  const res = await sessionApp().fetch(new Request(url, { ...init, headers }), env);
  jar?.store(res);
  return res;
}

async function whoami(jar: CookieJar, base = "http://localhost") {
  const res = await sessionAppCall(`${base}/t/whoami`, {}, jar);
  return (await res.json()) as { session: { email: string; id: string } | null; admin: { email: string } | null };
}

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const sessionRow = (id: string) =>
  env.DB.prepare("SELECT * FROM sessions WHERE id = ?")
    .bind(id)
    .first<{ id: string; kind: string; email: string; expires_at: number; revoked_at: number | null }>();

describe("visitor sessions", () => {
  it("sets __Host-session with HttpOnly, Secure, SameSite=Lax, Path=/ and a 30-day Max-Age (never Expires)", async () => {
    const res = await sessionAppCall("http://localhost/t/login/Familj@Example.se", { method: "POST" });
    const [cookie, ...rest] = res.headers.getSetCookie();
    expect(rest).toEqual([]);
    expect(cookie).toMatch(/^__Host-session=[^;]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookie).not.toMatch(/expires/i);
    expect(SESSION_MAX_AGE_SECONDS.visitor).toBe(30 * 24 * 3600);
    expect(SESSION_MAX_AGE_SECONDS.admin).toBe(12 * 3600);
  });

  it("keeps the __Host- prefix on https, and drops it with Secure on plain http to another host", async () => {
    const https = await sessionAppCall("https://lopp.example.se/t/login/a@example.se", { method: "POST" });
    expect(https.headers.getSetCookie()[0]).toMatch(/^__Host-session=.*; Secure; SameSite=Lax$/);

    const jar = new CookieJar();
    const http = await sessionAppCall("http://lopp.test/t/login/b@example.se", { method: "POST" }, jar);
    const cookie = http.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^session=[^;]+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await whoami(jar, "http://lopp.test")).session?.email).toBe("b@example.se");
  });

  it("carries a 256-bit secret in an HS256 JWT; D1 keeps only its SHA-256", async () => {
    const jar = new CookieJar();
    const res = await sessionAppCall("http://localhost/t/login/c@example.se", { method: "POST" }, jar);
    const session = (await res.json()) as { id: string; email: string; kind: string };
    const claims = decodeJwt(jar.get("__Host-session")!);
    expect(claims).toMatchObject({ kind: "visitor", email: "c@example.se" });
    expect(claims.exp! - claims.iat!).toBe(SESSION_MAX_AGE_SECONDS.visitor);
    const sid = claims.sid as string;
    expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    expect(session.id).toBe(await sha256Hex(sid));
    const row = await sessionRow(session.id);
    expect(row).toMatchObject({ kind: "visitor", email: "c@example.se", revoked_at: null });
    expect(JSON.stringify(row)).not.toContain(sid);
    expect((await whoami(jar)).session).toEqual({
      id: session.id,
      kind: "visitor",
      email: "c@example.se",
      expiresAt: row!.expires_at,
    });
  });

  it("ignores a tampered token, a token signed with another key, and a visitor token in the admin cookie", async () => {
    const jar = await visitorJar("d@example.se");
    const token = jar.get("__Host-session")!;
    expect((await whoami(jar)).session?.email).toBe("d@example.se");

    const [h, p, s] = token.split(".");
    const forged = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
    forged.email = "annan@example.se";
    const forgedPayload = btoa(JSON.stringify(forged)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    jar.set("__Host-session", `${h}.${forgedPayload}.${s}`);
    expect((await whoami(jar)).session).toBeNull();

    const otherKey = await new SignJWT(forged)
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    jar.set("__Host-session", otherKey);
    expect((await whoami(jar)).session).toBeNull();

    const swapped = new CookieJar();
    swapped.set("__Host-admin", token);
    expect((await whoami(swapped)).admin).toBeNull();
  });

  it("refuses a revoked session and one whose row expired by the server clock", async () => {
    const jar = await visitorJar("e@example.se");
    const { session } = await whoami(jar);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, session!.id)
      .run();
    expect((await whoami(jar)).session).toBeNull();

    const jar2 = await visitorJar("f@example.se");
    const { session: s2 } = await whoami(jar2);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").bind(Date.now(), s2!.id).run();
    expect((await whoami(jar2)).session).toBeNull();
  });

  it("judges expiry by the server clock (NOW shifted in development)", async () => {
    const jar = await loginAdmin();
    expect(((await (await get("/api/config", { jar })).json()) as { isAdmin: boolean }).isAdmin).toBe(true);
    const later = (hours: number) => ({
      NOW: new Date(Date.now() + hours * 3600_000).toISOString(),
      NOW_SET_AT: String(Date.now()),
    });
    const at = async (hours: number) =>
      ((await (await get("/api/config", { jar, env: later(hours) })).json()) as { isAdmin: boolean }).isAdmin;
    expect(await at(11)).toBe(true);
    expect(await at(13)).toBe(false);
  });

  it("a new sign-in revokes the browser's previous session of that kind", async () => {
    const jar = await loginAdmin();
    const first = decodeJwt(jar.get("__Host-admin")!).sid as string;
    await loginAdmin(jar);
    expect((await sessionRow(await sha256Hex(first)))!.revoked_at).not.toBeNull();
    expect(((await (await get("/api/config", { jar })).json()) as { isAdmin: boolean }).isAdmin).toBe(true);
  });
});

describe("GET /api/logout", () => {
  it("revokes both sessions server-side and clears both cookies", async () => {
    const jar = await loginAdmin(await visitorJar("g@example.se"));
    const tokens = { visitor: jar.get("__Host-session")!, admin: jar.get("__Host-admin")! };
    const res = await get("/api/logout", { jar });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const cleared = res.headers.getSetCookie();
    expect(cleared).toContain("__Host-session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax");
    expect(cleared).toContain("__Host-admin=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax");
    expect(jar.size).toBe(0);

    for (const kind of ["visitor", "admin"] as const) {
      const row = await sessionRow(await sha256Hex(decodeJwt(tokens[kind]).sid as string));
      expect(row!.revoked_at).not.toBeNull();
    }
    // The old cookies, replayed, are worth nothing.
    const replay = new CookieJar();
    replay.set("__Host-session", tokens.visitor);
    replay.set("__Host-admin", tokens.admin);
    const config = (await (await get("/api/config", { jar: replay })).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ isLoggedIn: false, isAdmin: false });
    expect((await get("/admin/api/me", { jar: replay })).status).toBe(401);
  });

  it("is refused cross-site (a state-changing GET) and then changes nothing", async () => {
    const jar = await visitorJar("h@example.se");
    const res = await call("/api/logout", { jar, headers: { "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(403);
    expect(((await (await get("/api/config", { jar })).json()) as { isLoggedIn: boolean }).isLoggedIn).toBe(true);
  });
});

describe("admin allowlist", () => {
  it("reads ADMIN_EMAILS comma-separated and case-insensitively", async () => {
    const overrides = { ADMIN_EMAILS: " Forsta@Example.se , andra@example.se " };
    const res = await post("/admin/api/dev-login", { email: "forsta@example.se" }, { env: overrides });
    expect(res.status).toBe(200);
    const res2 = await post("/admin/api/dev-login", { email: "ANDRA@example.se" }, { env: overrides });
    expect(res2.status).toBe(200);
    expect(await res2.json()).toEqual({ ok: true, email: "andra@example.se", role: "organiser" });
  });

  it("ends admin rights at the next request once the address leaves the admins table", async () => {
    const db = database(env.DB);
    await addAdmin(db, "tillfallig@example.se", Date.now());
    const jar = await loginAdmin(new CookieJar(), "tillfallig@example.se");
    expect((await get("/admin/api/me", { jar })).status).toBe(200);
    await removeAdmin(db, "tillfallig@example.se");
    const res = await get("/admin/api/me", { jar });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
  });

  it("an admin session is not a visitor session", async () => {
    const jar = await sessionJar("admin", DEV_ADMIN);
    const config = (await (await get("/api/config", { jar })).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ isAdmin: true, isLoggedIn: false });
  });
});

describe("e-mail sender", () => {
  const mail = (to: string, subject = "Din kod") => ({
    to,
    subject,
    html: `<p>Hej <b>${to}</b></p>`,
    text: `Hej ${to}`,
    kind: "login-code",
  });
  const logged = (to: string) =>
    env.DB.prepare('SELECT * FROM email_log WHERE "to" = ? ORDER BY id').bind(to).all<Record<string, unknown>>();

  it("outbox: logs the mail as sent, and /dev/outbox(.json) show it newest first", async () => {
    const sender = emailSender(env, database(env.DB), fixedClock(1_757_000_000_000));
    await sender.send(mail("ut1@example.se", "Första"));
    await sender.send({ ...mail("ut1@example.se", "Andra <script>"), mailingId: 7 });
    const rows = (await logged("ut1@example.se")).results;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      transport: "outbox",
      status: "sent",
      kind: "login-code",
      created_at: 1_757_000_000_000,
    });
    expect(rows[1]).toMatchObject({ mailing_id: 7 });

    const json = (await (await call("/dev/outbox.json?to=UT1@example.se")).json()) as Record<string, unknown>[];
    expect(json.map((m) => m.subject)).toEqual(["Andra <script>", "Första"]);
    expect(json[0]).toMatchObject({
      to: "ut1@example.se",
      html: "<p>Hej <b>ut1@example.se</b></p>",
      text: "Hej ut1@example.se",
      kind: "login-code",
      createdAt: 1_757_000_000_000,
    });
    expect(typeof json[0]!.id).toBe("number");

    const page = await call("/dev/outbox");
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain("Andra &lt;script&gt;");
    expect(html).not.toContain("Andra <script>");
    expect(html).toContain("ut1@example.se");
    expect(html.indexOf("Andra &lt;script&gt;")).toBeLessThan(html.indexOf("Första"));
  });

  it("resend: posts to the provider with the API key, logs sent; a refusal is logged failed and thrown", async () => {
    const requests: Request[] = [];
    let status = 200;
    const providerFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init));
      return new Response(status === 200 ? '{"id":"x"}' : '{"message":"invalid to"}', { status });
    }) as typeof fetch;
    const resendEnv = { ...env, EMAIL_TRANSPORT: "resend", EMAIL_API_KEY: "re_test" } as Env;
    const sender = emailSender(resendEnv, database(env.DB), fixedClock(1), { fetch: providerFetch });

    await sender.send(mail("re1@example.se"));
    expect(requests[0]!.url).toBe(RESEND_API_URL);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer re_test");
    expect(await requests[0]!.json()).toEqual({
      from: env.EMAIL_FROM,
      to: ["re1@example.se"],
      subject: "Din kod",
      html: "<p>Hej <b>re1@example.se</b></p>",
      text: "Hej re1@example.se",
    });
    expect((await logged("re1@example.se")).results[0]).toMatchObject({ transport: "resend", status: "sent" });

    status = 422;
    await expect(sender.send(mail("re2@example.se"))).rejects.toThrow(/422/);
    expect((await logged("re2@example.se")).results[0]).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/422/),
    });

    const keyless = emailSender({ ...resendEnv, EMAIL_API_KEY: undefined } as Env, database(env.DB), fixedClock(1), {
      fetch: providerFetch,
    });
    await expect(keyless.send(mail("re3@example.se"))).rejects.toThrow(/EMAIL_API_KEY/);
    expect((await logged("re3@example.se")).results[0]).toMatchObject({ status: "failed" });
  });

  it("an erasure while a mail is on its way: the log line stays erased, the provider's error too", async () => {
    // The provider answers only when told: the erasure runs between the send's start and its end.
    let answer: (res: Response) => void = () => {};
    const providerFetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
    const resendEnv = { ...env, EMAIL_TRANSPORT: "resend", EMAIL_API_KEY: "re_test" } as Env;
    const sender = emailSender(resendEnv, database(env.DB), fixedClock(1), { fetch: providerFetch });
    const erase = async (to: string) => {
      for (const { statement } of emailLogErasure(env.DB, emailScope(to))) await statement.run();
    };
    const erasedRows = () =>
      env.DB.prepare('SELECT status, error, subject FROM email_log WHERE "to" = ? ORDER BY id')
        .bind(ERASED_ADDRESS)
        .all<{ status: string; error: string | null; subject: string }>();

    const sent = sender.send(mail("flight1@example.se", "Under väg 1"));
    await waitFor(async () => (await logged("flight1@example.se")).results.length === 1, 5000, "the line before");
    await erase("flight1@example.se");
    answer(new Response('{"id":"x"}', { status: 200 }));
    await sent;
    expect((await logged("flight1@example.se")).results).toEqual([]);
    expect((await erasedRows()).results.filter((r) => r.subject === "Under väg 1")).toEqual([
      { status: "sent", error: null, subject: "Under väg 1" },
    ]);

    const refused = sender.send(mail("flight2@example.se", "Under väg 2"));
    await waitFor(async () => (await logged("flight2@example.se")).results.length === 1, 5000, "the line before");
    await erase("flight2@example.se");
    answer(new Response('{"message":"flight2@example.se is not valid"}', { status: 422 }));
    await expect(refused).rejects.toThrow(/422/);
    expect((await logged("flight2@example.se")).results).toEqual([]);
    const [line] = (await erasedRows()).results.filter((r) => r.subject === "Under väg 2");
    expect(line).toMatchObject({ status: "failed" });
    expect(line!.error).toContain(ERASED_TEXT);
    expect(line!.error).not.toContain("flight2@example.se");
  });

  it("cloudflare: sends through the send_email binding (simulated locally) and logs the outcome", async () => {
    const sender = emailSender({ ...env, EMAIL_TRANSPORT: "cloudflare" }, database(env.DB), fixedClock(2));
    await sender.send(mail("cf1@example.se"));
    expect((await logged("cf1@example.se")).results[0]).toMatchObject({ transport: "cloudflare", status: "sent" });

    // The binding only sends from its allowed addresses; its refusal is logged and passed on.
    const wrongFrom = emailSender(
      { ...env, EMAIL_TRANSPORT: "cloudflare", EMAIL_FROM: "inte-tillaten@example.se" },
      database(env.DB),
      fixedClock(3),
    );
    await expect(wrongFrom.send(mail("cf2@example.se"))).rejects.toThrow(/not allowed/);
    expect((await logged("cf2@example.se")).results[0]).toMatchObject({
      transport: "cloudflare",
      status: "failed",
      error: expect.stringMatching(/not allowed/),
    });
  });

  it("refuses an unknown transport", () => {
    expect(() => emailSender({ ...env, EMAIL_TRANSPORT: "smtp" }, database(env.DB), fixedClock(0))).toThrow(
      /EMAIL_TRANSPORT/,
    );
  });
});

describe("audit", () => {
  it("appends who, device, what, subject and detail", async () => {
    await audit(
      database(env.DB),
      { actor: DEV_ADMIN, device: "telefon-1", action: "race.start", subject: "race-250913-08", detail: { at: 5 } },
      1234,
    );
    const row = await env.DB.prepare("SELECT * FROM audit_log WHERE action = 'race.start'").first();
    expect(row).toMatchObject({
      at: 1234,
      actor: DEV_ADMIN,
      device: "telefon-1",
      subject: "race-250913-08",
      detail: '{"at":5}',
    });
  });
});

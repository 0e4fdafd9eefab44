/**
 * Admin sign-in: Google ID tokens verified with jose against a key set (signature, aud, iss, exp, email_verified)
 * and the allowlist. Tokens come from the Worker's development "Google" (POST /dev/google-token, keys at
 * /dev/jwks.json) or are signed here with keys the Worker has never seen.
 */
import { env } from "cloudflare:workers";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { CLOCK_TOLERANCE_SECONDS, verifyGoogleCredential } from "../../../src/worker/adapters/google";
import { addAdmin } from "../../../src/worker/session/admins-db";
import { database } from "../../../src/worker/db/client";
import { call, CookieJar, DEV_ADMIN, get, post } from "../helpers";
import { newClient } from "../registration-helpers";

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function devToken(claims: Record<string, unknown>): Promise<string> {
  const res = await post("/dev/google-token", claims);
  expect(res.status).toBe(200);
  const { credential } = (await res.json()) as { credential: string };
  return credential;
}

async function authenticate(credential: unknown, jar = new CookieJar()) {
  // A client of its own per call: the client limit (ADMIN_AUTH_RL) has its own test (admin-authenticate-bounds).
  const res = await post("/admin/api/authenticate", { credential }, { jar, headers: newClient() });
  return { res, body: (await res.json()) as Record<string, unknown>, jar };
}

async function expectRefused(credential: string) {
  const { res, body, jar } = await authenticate(credential);
  expect(res.status).toBe(401);
  expect(body).toEqual({ error: "Ej admin!" });
  expect(res.headers.getSetCookie()).toEqual([]);
  expect(jar.size).toBe(0);
}

/** A key pair the Worker does not know, and tokens signed with it shaped exactly like Google's. */
let foreign: { privateKey: CryptoKey; jwk: JWK };
beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  foreign = {
    privateKey: pair.privateKey,
    jwk: { ...(await exportJWK(pair.publicKey)), kid: "test-key", alg: "RS256" },
  };
});

function googleShaped(email: string, overrides: Record<string, unknown> = {}) {
  return {
    email,
    email_verified: true,
    aud: env.GOOGLE_CLIENT_ID,
    iss: "https://accounts.google.com",
    sub: "1234567890",
    iat: nowSeconds(),
    exp: nowSeconds() + 3600,
    ...overrides,
  };
}

async function signForeign(payload: Record<string, unknown>, kid = "test-key"): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid }).sign(foreign.privateKey);
}

describe("POST /admin/api/authenticate", () => {
  it("signs in an allowlisted, verified Google account and sets only the admin cookie", async () => {
    const { res, body, jar } = await authenticate(await devToken({ email: DEV_ADMIN }));
    expect(res.status).toBe(200);
    expect(body).toEqual({ ok: true, email: DEV_ADMIN, role: "organiser" });
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^__Host-admin=[^;]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);

    const config = await (await get("/api/config", { jar })).json<{ isAdmin: boolean; isLoggedIn: boolean }>();
    expect(config.isAdmin).toBe(true);
    expect(config.isLoggedIn).toBe(false);

    const audit = await env.DB.prepare(
      "SELECT actor, action, detail FROM audit_log WHERE action = 'admin.sign-in' ORDER BY id DESC LIMIT 1",
    ).first<{ actor: string; action: string; detail: string }>();
    expect(audit).toMatchObject({ actor: DEV_ADMIN, action: "admin.sign-in" });
    expect(JSON.parse(audit!.detail)).toEqual({ method: "google" });
  });

  it("accepts the issuer without scheme and an upper-case address", async () => {
    const { res, body } = await authenticate(
      await devToken({ email: "ARRANGOR@Example.se", iss: "accounts.google.com" }),
    );
    expect(res.status).toBe(200);
    expect(body).toEqual({ ok: true, email: DEV_ADMIN, role: "organiser" });
  });

  it("accepts an admin from the admins table", async () => {
    await addAdmin(database(env.DB), "tabell-admin@example.se", Date.now());
    const { res } = await authenticate(await devToken({ email: "tabell-admin@example.se" }));
    expect(res.status).toBe(200);
  });

  it("refuses garbage", async () => {
    await expectRefused("not-a-jwt");
    await expectRefused("a.b.c");
    await expectRefused("eyJhbGciOiJub25lIn0.eyJlbWFpbCI6ImFycmFuZ29yQGV4YW1wbGUuc2UifQ.");
  });

  it("refuses an expired token (beyond the clock tolerance)", async () => {
    await expectRefused(await devToken({ email: DEV_ADMIN, exp: nowSeconds() - CLOCK_TOLERANCE_SECONDS - 60 }));
  });

  it("refuses the wrong audience", async () => {
    await expectRefused(await devToken({ email: DEV_ADMIN, aud: "someone-else.apps.googleusercontent.com" }));
  });

  it("refuses the wrong issuer", async () => {
    await expectRefused(await devToken({ email: DEV_ADMIN, iss: "https://evil.example" }));
  });

  it("refuses an unverified e-mail", async () => {
    await expectRefused(await devToken({ email: DEV_ADMIN, email_verified: false }));
  });

  it("refuses a verified account that is not an admin, and audits the attempt", async () => {
    await expectRefused(await devToken({ email: "besokare@example.se" }));
    const row = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'admin.sign-in-refused' AND actor = 'besokare@example.se'",
    ).first();
    expect(row).not.toBeNull();
  });

  it("refuses a token signed with another key, whatever kid it names", async () => {
    const jwks = (await (await call("/dev/jwks.json")).json()) as { keys: JWK[] };
    const devKid = jwks.keys[0]!.kid!;
    await expectRefused(await signForeign(googleShaped(DEV_ADMIN)));
    await expectRefused(await signForeign(googleShaped(DEV_ADMIN), devKid));
  });

  it("refuses an HS256 token (no algorithm confusion)", async () => {
    const token = await new SignJWT(googleShaped(DEV_ADMIN))
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(env.SESSION_SECRET));
    await expectRefused(token);
  });

  it("answers 400 in Swedish for a missing or non-text credential", async () => {
    for (const body of [{}, { credential: 42 }, { credential: "" }]) {
      const res = await post("/admin/api/authenticate", body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { error: string };
      expect(json.error).toMatch(/Inloggningsuppgiften/);
    }
  });

  it("answers 503 when the key set cannot be fetched", async () => {
    const res = await post(
      "/admin/api/authenticate",
      { credential: await signForeign(googleShaped(DEV_ADMIN)) },
      // Port 9 (discard) on loopback: nothing listens, nothing leaves the machine.
      { env: { GOOGLE_JWKS_URL: "http://127.0.0.1:9/certs" } },
    );
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/Google/);
  });
});

describe("POST /admin/api/dev-login", () => {
  it("signs in an allowlisted address with the admin cookie only", async () => {
    const jar = new CookieJar();
    const res = await post("/admin/api/dev-login", { email: DEV_ADMIN }, { jar });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, email: DEV_ADMIN, role: "organiser" });
    expect(jar.get("__Host-admin")).toBeTruthy();
    expect(jar.get("__Host-session")).toBeUndefined();
    expect((await get("/admin/api/me", { jar })).status).toBe(200);
  });

  it("refuses an address not on the allowlist", async () => {
    const res = await post("/admin/api/dev-login", { email: "nagon@example.se" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Ej admin!" });
  });

  it("validates the address", async () => {
    const res = await post("/admin/api/dev-login", { email: "inte-en-adress" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Ogiltig e-postadress" });
  });
});

describe("verifyGoogleCredential (the adapter, with a key set of the test's own)", () => {
  const options = () => ({
    clientId: "client.apps.googleusercontent.com",
    jwksUrl: "http://jwks.test/keys",
    now: Date.now(),
    fetchJwks: async () => Response.json({ keys: [foreign.jwk] }),
  });

  it("returns the identity of a valid token, lower-cased", async () => {
    const token = await signForeign(googleShaped("Admin@Example.se", { aud: "client.apps.googleusercontent.com" }));
    await expect(verifyGoogleCredential(token, options())).resolves.toMatchObject({
      email: "admin@example.se",
      sub: "1234567890",
    });
  });

  it("judges expiry by the injected clock, with at most the stated tolerance", async () => {
    const exp = nowSeconds() + 600;
    const token = await signForeign(googleShaped("a@example.se", { aud: "client.apps.googleusercontent.com", exp }));
    const at = (seconds: number) => ({ ...options(), now: seconds * 1000 });
    await expect(verifyGoogleCredential(token, at(exp + CLOCK_TOLERANCE_SECONDS - 1))).resolves.toBeTruthy();
    await expect(verifyGoogleCredential(token, at(exp + CLOCK_TOLERANCE_SECONDS + 1))).rejects.toThrow();
    expect(CLOCK_TOLERANCE_SECONDS).toBeLessThanOrEqual(60);
  });

  it("reports an unreachable key set as unavailable, not as a bad token", async () => {
    const token = await signForeign(googleShaped("a@example.se", { aud: "client.apps.googleusercontent.com" }));
    await expect(
      verifyGoogleCredential(token, {
        ...options(),
        jwksUrl: "http://jwks-down.test/keys",
        fetchJwks: async () => {
          throw new TypeError("connection refused");
        },
      }),
    ).rejects.toMatchObject({ keysUnavailable: true });
    await expect(
      verifyGoogleCredential(token, {
        ...options(),
        jwksUrl: "http://jwks-500.test/keys",
        fetchJwks: async () => new Response("oops", { status: 500 }),
      }),
    ).rejects.toMatchObject({ keysUnavailable: true });
    await expect(verifyGoogleCredential("garbage", options())).rejects.toMatchObject({ keysUnavailable: false });
  });
});

/**
 * Sessions (DESIGN.md §3). A session is a 256-bit random secret; D1 keeps a row keyed by the secret's SHA-256,
 * so a leaked database cannot be turned into cookies, and logout revokes the row. The cookie carries the secret
 * inside an HS256 JWT (key SESSION_SECRET) with the kind, the e-mail and an expiry, so a forged or edited cookie
 * is refused before D1 is asked.
 *
 * Lifetimes: a visitor session lasts 30 days (a family comes back to its registration over weeks); an admin
 * session 12 hours (one race day; the Google sign-in is one click away).
 *
 * Cookies: `__Host-session` (visitor) and `__Host-admin` (admin), `HttpOnly; Secure; SameSite=Lax; Path=/` with
 * Max-Age and never Expires, because the development clock may be shifted (NOW) while the browser's is not.
 * The `__Host-` prefix needs Secure, which browsers accept on https and on http://localhost; on plain http to
 * any other host the cookies are named `session` / `admin` and are not Secure.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { jwtVerify, SignJWT } from "jose";
import type { AppEnv, SessionInfo } from "../env";
import { sha256Hex } from "../lib/crypto";
import { database, type Db } from "../db/client";
import { findLiveSession, insertSession, revokeSession, type SessionKind } from "./sessions-db";
import { isLoopbackHost } from "../lib/loopback";
import { forgetRaceDaySession } from "./race-day-sessions";
import { keptInIsolate } from "../lib/isolate-memory";

export type { SessionKind };

export const SESSION_MAX_AGE_SECONDS: Record<SessionKind, number> = {
  visitor: 30 * 24 * 60 * 60,
  admin: 12 * 60 * 60,
};

const SECRET_BYTES = 32;

/** Whether the browser will keep a Secure (and so `__Host-`) cookie set by this URL. */
export function secureCookiesAllowed(url: string | URL): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "https:" || (protocol === "http:" && isLoopbackHost(hostname));
}

export function sessionCookieName(kind: SessionKind, url: string | URL): string {
  const base = kind === "admin" ? "admin" : "session";
  return secureCookiesAllowed(url) ? `__Host-${base}` : base;
}

/**
 * The HMAC keys imported from SESSION_SECRET, by secret: importing one is a WebCrypto call that every request
 * verifying a cookie would otherwise make again. Only settled keys are kept (a request that finds none imports its
 * own), and an isolate only ever sees its deployment's secret (tests a few), so the map stays tiny.
 */
const importedKeys = new Map<string, CryptoKey>();
const MAX_IMPORTED_KEYS = 8;

async function signingKey(secret: string | undefined): Promise<CryptoKey> {
  // A short or missing key would make every cookie forgeable; refuse to run rather than sign with it.
  if (!secret || secret.length < 32) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  const known = importedKeys.get(secret);
  if (known) return known;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  if (importedKeys.size >= MAX_IMPORTED_KEYS) importedKeys.clear();
  importedKeys.set(secret, key);
  return key;
}

function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export interface NewSession {
  session: SessionInfo;
  /** The cookie value (a signed JWT). */
  token: string;
  maxAgeSeconds: number;
}

/** Creates the D1 row and the signed token; no HTTP involved (startSession puts it in a cookie). */
export async function createSession(
  db: Db,
  sessionSecret: string | undefined,
  kind: SessionKind,
  email: string,
  now: number,
): Promise<NewSession> {
  const key = await signingKey(sessionSecret);
  const normalized = email.trim().toLowerCase();
  const secret = randomSecret();
  const id = await sha256Hex(secret);
  const maxAgeSeconds = SESSION_MAX_AGE_SECONDS[kind];
  const nowSeconds = Math.floor(now / 1000);
  await insertSession(db, { id, kind, email: normalized, createdAt: now, expiresAt: now + maxAgeSeconds * 1000 });
  const token = await new SignJWT({ sid: secret, kind, email: normalized })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + maxAgeSeconds)
    .sign(key);
  return {
    session: { id, kind, email: normalized, expiresAt: now + maxAgeSeconds * 1000 },
    token,
    maxAgeSeconds,
  };
}

/**
 * Tokens this isolate has verified, by kind and token, under the secret they verified with: a token is a fixed
 * string, so verifying it again with the same secret gives the same answer until its own expiry, which is checked on
 * every use. That saves the HMAC and the SHA-256 of every request a signed-in browser makes (a volunteer's taps).
 * Only what verified is kept (a refusal is worked out again each time), only settled values, and at most
 * MAX_VERIFIED_TOKENS per secret, the oldest out first. Whether the session is still live is D1's question, asked as
 * before (`liveSession`; race-day-sessions.ts for race-day calls).
 */
const verifiedTokens = keptInIsolate(new Map<string, Map<string, { id: string; email: string; expiresAt: number }>>());
const MAX_VERIFIED_TOKENS = 256;

/** The session id (D1 key) a token names, if its signature, kind and expiry hold; D1 is not asked. */
export async function sessionIdFromToken(
  sessionSecret: string | undefined,
  kind: SessionKind,
  token: string,
  now: number,
): Promise<{ id: string; email: string } | null> {
  const key = await signingKey(sessionSecret);
  const tokenKey = `${kind} ${token}`;
  const cached = verifiedTokens.get(sessionSecret!)?.get(tokenKey);
  // jose refuses a token once `exp` (whole seconds) is not after the current second: the same bound.
  if (cached && now < cached.expiresAt) return { id: cached.id, email: cached.email };
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now) });
    if (payload.kind !== kind || typeof payload.sid !== "string" || typeof payload.email !== "string") return null;
    const claimed = { id: await sha256Hex(payload.sid), email: payload.email };
    if (typeof payload.exp === "number") remember(sessionSecret!, tokenKey, claimed, payload.exp * 1000);
    return claimed;
  } catch {
    return null;
  }
}

function remember(secret: string, key: string, claimed: { id: string; email: string }, expiresAt: number): void {
  let tokens = verifiedTokens.get(secret);
  if (!tokens) {
    if (verifiedTokens.size >= MAX_IMPORTED_KEYS) verifiedTokens.clear();
    tokens = new Map();
    verifiedTokens.set(secret, tokens);
  }
  tokens.delete(key);
  if (tokens.size >= MAX_VERIFIED_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(key, { ...claimed, expiresAt });
}

/** A verified session: valid token, and a D1 row of the same kind that is neither revoked nor expired. */
export async function readSession(
  db: Db,
  sessionSecret: string | undefined,
  kind: SessionKind,
  token: string,
  now: number,
): Promise<SessionInfo | null> {
  const claimed = await sessionIdFromToken(sessionSecret, kind, token, now);
  if (!claimed) return null;
  return liveSession(db, claimed, kind, now);
}

/** The D1 half of readSession: the claimed session's row, live and of the same kind and e-mail. */
export async function liveSession(
  db: Db,
  claimed: { id: string; email: string },
  kind: SessionKind,
  now: number,
): Promise<SessionInfo | null> {
  const row = await findLiveSession(db, claimed.id, kind, now);
  if (!row || row.email !== claimed.email) return null;
  return { id: row.id, kind, email: row.email, expiresAt: row.expiresAt };
}

function setSessionCookie(c: Context<AppEnv>, kind: SessionKind, value: string, maxAge: number): void {
  const secure = secureCookiesAllowed(c.req.url);
  setCookie(c, sessionCookieName(kind, c.req.url), value, {
    httpOnly: true,
    secure,
    sameSite: "Lax",
    path: "/",
    maxAge,
  });
}

export function sessionCookie(c: Context<AppEnv>, kind: SessionKind): string | undefined {
  return getCookie(c, sessionCookieName(kind, c.req.url)) || undefined;
}

/** Revokes the D1 row behind this browser's cookie of `kind`, if it carries a genuine one (live or not). */
async function revokeCookieSession(c: Context<AppEnv>, db: Db, kind: SessionKind, now: number): Promise<void> {
  const token = sessionCookie(c, kind);
  const claimed = token ? await sessionIdFromToken(c.env.SESSION_SECRET, kind, token, now) : null;
  if (!claimed) return;
  await revokeSession(db, claimed.id, now);
  if (kind === "admin") forgetRaceDaySession(claimed.id);
}

/**
 * Signs in: a fresh session (a new identity at every sign-in; the one this browser had of the same kind is
 * revoked), its cookie on the response, and the context updated so the rest of this request sees it.
 */
export async function startSession(c: Context<AppEnv>, kind: SessionKind, email: string): Promise<SessionInfo> {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  await revokeCookieSession(c, db, kind, now);
  const created = await createSession(db, c.env.SESSION_SECRET, kind, email, now);
  setSessionCookie(c, kind, created.token, created.maxAgeSeconds);
  c.set(kind === "admin" ? "admin" : "session", created.session);
  return created.session;
}

/** Logs out everything this browser holds: both rows revoked server-side, both cookies cleared. */
export async function endSessions(c: Context<AppEnv>): Promise<void> {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  for (const kind of ["visitor", "admin"] as const) {
    await revokeCookieSession(c, db, kind, now);
    setSessionCookie(c, kind, "", 0);
  }
  c.set("session", null);
  c.set("admin", null);
}

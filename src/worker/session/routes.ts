/**
 * Signing in and out. Admins sign in with Google (POST /admin/api/authenticate {credential}: at most 10 calls a
 * minute per client (ADMIN_AUTH_RL), each token once, admin-sign-in.ts); in development
 * also by e-mail alone (POST /admin/api/dev-login {email}, in dev/routes.ts). Both answer 401 'Ej admin!' for
 * anyone not on the allowlist (ADMIN_EMAILS plus the admins table). GET /api/logout ends every session of the
 * browser.
 */
import { Hono } from "hono";
import { z } from "zod";
import { verifyGoogleCredential, GoogleCredentialError } from "../adapters/google";
import { adminDevice, NOT_ADMIN, signInAdmin, tokenFingerprint } from "./admin-sign-in";
import { audit } from "../db/audit";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError, tooMany, unauthorized } from "../lib/errors";
import { allowed, clientKey } from "../middleware/rate-limit";
import { devJwksFetch } from "../adapters/google-stand-in";
import { validate } from "../middleware/validate";
import { endSessions } from "./sessions";
import { RACE_HUB_NAME } from "../../shared/object-calls";
import { raceIdForSeason } from "../../shared/race-id";
import { SEASON } from "../../shared/season";
import { races } from "../db/schema";

export const authRoutes = new Hono<AppEnv>();
export const logoutRoutes = new Hono<AppEnv>();

const authenticateBody = z.object({
  credential: z
    .string({ error: "Inloggningsuppgiften saknas." })
    .min(1, "Inloggningsuppgiften saknas.")
    .max(16_384, "Inloggningsuppgiften är för lång."),
});

authRoutes.post("/authenticate", validate("json", authenticateBody), async (c) => {
  const { credential } = c.req.valid("json");
  // Before the token is verified or anything audited: a client replaying or spraying tokens is stopped here.
  if (!(await allowed(c.env.ADMIN_AUTH_RL, `admin-auth:${clientKey(c)}`))) {
    throw tooMany("För många inloggningsförsök. Vänta en minut och försök igen.");
  }
  let identity;
  try {
    identity = await verifyGoogleCredential(credential, {
      clientId: c.env.GOOGLE_CLIENT_ID,
      jwksUrl: c.env.GOOGLE_JWKS_URL,
      now: c.var.clock.now(),
      fetchJwks: c.var.devMode ? devJwksFetch : undefined,
    });
  } catch (err) {
    if (!(err instanceof GoogleCredentialError)) throw err;
    if (err.keysUnavailable) throw new ApiError(503, "Kunde inte nå Google just nu. Försök igen om en stund.");
    throw unauthorized(NOT_ADMIN);
  }
  return signInAdmin(c, identity.email, "google", await tokenFingerprint(credential));
});

/** Who the admin session belongs to (the admin guard has already refused everyone else). */
authRoutes.get("/me", (c) => c.json({ email: c.var.admin?.email ?? null }));

logoutRoutes.get("/", async (c) => {
  const admin = c.var.admin;
  await endSessions(c);
  if (admin) {
    await audit(
      database(c.env.DB),
      { actor: admin.email, device: adminDevice(c), action: "admin.sign-out" },
      c.var.clock.now(),
    );
    // The session's live sockets stop at once, on the hub and every race (src/durable/socket-sessions.ts). After
    // the answer: signing out never waits on them.
    c.executionCtx.waitUntil(closeSessionSockets(c.env, admin.id));
  }
  return c.json({ ok: true });
});

/**
 * Asks the hub and every race object to close the session's sockets, all at once; one that fails (logged) keeps no
 * other from closing. The race objects are named by race id, and D1's index lists every race of every season (a
 * few a season: tens of calls); this season's are asked even when D1 cannot list them. A race object with no row in
 * the index (none should exist) is not asked: its sockets of this session stream until its next re-check finds the
 * session revoked (at a subscribe, or with the first broadcast SESSION_RECHECK_MS after the last re-check), as for a
 * session revoked elsewhere. A race that never had an object gets one (empty) from this call.
 */
async function closeSessionSockets(env: Env, session: string): Promise<void> {
  const closing = [settle(env.RACE_HUB.getByName(RACE_HUB_NAME).closeSessionSockets(session))];
  const parts = new Set(SEASON.races.map((race) => raceIdForSeason(race.distance, SEASON)));
  try {
    for (const race of await database(env.DB).select({ part: races.part }).from(races).all()) parts.add(race.part);
  } catch (err) {
    console.warn("listing the races to close a signed-out session's sockets failed", err);
  }
  for (const part of parts) closing.push(settle(env.RACE.getByName(part).closeSessionSockets(session)));
  await Promise.all(closing);
}

/** A failed call is logged, never thrown: handled from the start, while the others are still being made. */
async function settle(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    console.warn("closing a signed-out session's sockets failed", err);
  }
}

/**
 * Signing in and out. Admins sign in with Google (POST /admin/api/authenticate {credential}: at most 10 calls a
 * minute per client (ADMIN_AUTH_RL), each token once, admin-sign-in.ts); in development
 * also by e-mail alone (POST /admin/api/dev-login {email}, in dev/routes.ts). Both answer 401 'Ej admin!' for
 * anyone not on the allowlist (ADMIN_EMAILS plus the admins table). GET /api/logout ends every session of the
 * browser.
 */
import type { AdminMe } from "../../shared/api-answers";
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
import { closeSessionSockets } from "./session-sockets";

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

/** Who the admin session belongs to, and its role (the admin guard has already refused everyone else). */
authRoutes.get("/me", (c) =>
  c.json({ email: c.var.admin?.email ?? null, role: c.var.admin?.role ?? null } satisfies AdminMe),
);

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
    c.executionCtx.waitUntil(closeSessionSockets(c.env, [admin.id]));
  }
  return c.json({ ok: true });
});

/**
 * Signing in and out. Admins sign in with Google (POST /admin/api/authenticate {credential}); in development
 * also by e-mail alone (POST /admin/api/dev-login {email}). Both answer 401 'Ej admin!' for anyone not on the
 * allowlist (ADMIN_EMAILS plus the admins table). GET /api/logout ends every session of the browser.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { verifyGoogleCredential, GoogleCredentialError } from "../adapters/google";
import { devJwksFetch } from "../adapters/google-dev";
import { isAdminEmail } from "../db/admins";
import { audit } from "../db/audit";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError, unauthorized } from "../errors";
import { devOnly } from "../middleware/dev-only";
import { validate } from "../middleware/validate";
import { endSessions, startSession } from "../sessions";

export const authRoutes = new Hono<AppEnv>();

const NOT_ADMIN = "Ej admin!";

const authenticateBody = z.object({
  credential: z
    .string({ error: "Inloggningsuppgiften saknas." })
    .min(1, "Inloggningsuppgiften saknas.")
    .max(16_384, "Inloggningsuppgiften är för lång."),
});

const devLoginBody = z.object({
  email: z.email({ error: "Ogiltig e-postadress" }).max(254, "Ogiltig e-postadress"),
});

function device(c: Context<AppEnv>): string | null {
  return c.req.header("user-agent")?.slice(0, 200) ?? null;
}

/** Signs in `email` as admin if the allowlist has it; every attempt by a real identity is audited. */
async function signInAdmin(c: Context<AppEnv>, email: string, method: "google" | "dev-login") {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  if (!(await isAdminEmail(db, email, c.env.ADMIN_EMAILS))) {
    await audit(db, { actor: email, device: device(c), action: "admin.sign-in-refused", detail: { method } }, now);
    throw unauthorized(NOT_ADMIN);
  }
  const session = await startSession(c, "admin", email);
  await audit(db, { actor: session.email, device: device(c), action: "admin.sign-in", detail: { method } }, now);
  return c.json({ ok: true, email: session.email });
}

authRoutes.post("/admin/api/authenticate", validate("json", authenticateBody), async (c) => {
  const { credential } = c.req.valid("json");
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
  return signInAdmin(c, identity.email, "google");
});

authRoutes.post("/admin/api/dev-login", devOnly, validate("json", devLoginBody), async (c) => {
  return signInAdmin(c, c.req.valid("json").email.trim().toLowerCase(), "dev-login");
});

/** Who the admin session belongs to (the admin guard has already refused everyone else). */
authRoutes.get("/admin/api/me", (c) => c.json({ email: c.var.admin?.email ?? null }));

authRoutes.get("/api/logout", async (c) => {
  const admin = c.var.admin;
  await endSessions(c);
  if (admin) {
    await audit(
      database(c.env.DB),
      { actor: admin.email, device: device(c), action: "admin.sign-out" },
      c.var.clock.now(),
    );
  }
  return c.json({ ok: true });
});

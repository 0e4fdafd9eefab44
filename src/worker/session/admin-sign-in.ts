/**
 * Signing in an admin, whichever way the identity was established: Google (session/routes.ts) or, in development
 * only, the e-mail alone (dev/routes.ts). Admin status comes from the allowlist (ADMIN_EMAILS plus the admins
 * table); every attempt by a real identity is audited.
 */
import type { Context } from "hono";
import { isAdminEmail } from "./admins-db";
import { audit } from "../db/audit";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { unauthorized } from "../lib/errors";
import { startSession } from "./sessions";

export const NOT_ADMIN = "Ej admin!";

/** The browser's user agent, as the device of an admin's audit lines. */
export function adminDevice(c: Context<AppEnv>): string | null {
  return c.req.header("user-agent")?.slice(0, 200) ?? null;
}

/** Signs in `email` as admin if the allowlist has it (401 'Ej admin!' otherwise). */
export async function signInAdmin(c: Context<AppEnv>, email: string, method: "google" | "dev-login") {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  if (!(await isAdminEmail(db, email, c.env.ADMIN_EMAILS))) {
    await audit(db, { actor: email, device: adminDevice(c), action: "admin.sign-in-refused", detail: { method } }, now);
    throw unauthorized(NOT_ADMIN);
  }
  const session = await startSession(c, "admin", email);
  await audit(db, { actor: session.email, device: adminDevice(c), action: "admin.sign-in", detail: { method } }, now);
  return c.json({ ok: true, email: session.email });
}

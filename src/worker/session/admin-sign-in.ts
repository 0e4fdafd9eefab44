/**
 * Signing in an admin, whichever way the identity was established: Google (session/routes.ts) or, in development
 * only, the e-mail alone (dev/routes.ts). Admin status comes from the allowlist (ADMIN_EMAILS plus the admins
 * table); every attempt by a real identity is audited. A Google token signs in once (issue 43): its SHA-256 is the
 * subject of the attempt's audit line, written only when no sign-in line has that subject yet, in one statement,
 * so a replayed token (or the same one sent from two tabs at once) is refused and writes nothing. The token's
 * `exp` is at most an hour away; the line outlives it (an admin's line is kept, a refused one for
 * RETENTION_MS.refusedSignIns, db/retention.ts).
 */
import type { AdminSignedIn } from "../../shared/api-answers";
import type { Context } from "hono";
import { adminRole } from "./admins-db";
import { audit } from "../db/audit";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { unauthorized } from "../lib/errors";
import { startSession } from "./sessions";

export const NOT_ADMIN = "Ej admin!";
export const TOKEN_USED = "Inloggningen har redan använts. Logga in med Google igen.";

const SIGN_IN_ACTIONS = ["admin.sign-in", "admin.sign-in-refused"] as const;

/** The browser's user agent, as the device of an admin's audit lines. */
export function adminDevice(c: Context<AppEnv>): string | null {
  return c.req.header("user-agent")?.slice(0, 200) ?? null;
}

/** The fingerprint of a Google token: its SHA-256, hex, as the subject of its sign-in audit line. */
export async function tokenFingerprint(credential: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credential));
  return `google:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Writes the attempt's audit line unless a sign-in line already names `subject` (the token's fingerprint), in one
 * statement (index audit_log_action_subject). True when this call wrote it: the token's first use.
 */
async function auditFirstUse(
  db: ReturnType<typeof database>,
  entry: { actor: string; device: string | null; action: (typeof SIGN_IN_ACTIONS)[number]; subject: string },
  detail: Record<string, unknown>,
  now: number,
): Promise<boolean> {
  const result = await db.$client
    .prepare(
      `INSERT INTO audit_log (at, actor, device, action, subject, detail)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE action IN (?7, ?8) AND subject = ?5)`,
    )
    .bind(now, entry.actor, entry.device, entry.action, entry.subject, JSON.stringify(detail), ...SIGN_IN_ACTIONS)
    .run();
  return result.meta.changes === 1;
}

/**
 * Signs in `email` as admin if the allowlist has it (401 'Ej admin!' otherwise), answering with its role. With
 * `token` (a Google token's fingerprint) a token already used is refused (401) before anything is written or a session
 * started.
 */
export async function signInAdmin(
  c: Context<AppEnv>,
  email: string,
  method: "google" | "dev-login",
  token: string | null = null,
) {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const role = await adminRole(db, email, c.env.ADMIN_EMAILS);
  const admin = role !== null;
  const action = admin ? "admin.sign-in" : "admin.sign-in-refused";
  if (token !== null) {
    const first = await auditFirstUse(
      db,
      { actor: email, device: adminDevice(c), action, subject: token },
      { method },
      now,
    );
    if (!first) throw unauthorized(TOKEN_USED);
  } else {
    await audit(db, { actor: email, device: adminDevice(c), action, detail: { method } }, now);
  }
  if (!role) throw unauthorized(NOT_ADMIN);
  const session = await startSession(c, "admin", email);
  c.set("admin", { ...session, role });
  return c.json({ ok: true, email: session.email, role } satisfies AdminSignedIn);
}

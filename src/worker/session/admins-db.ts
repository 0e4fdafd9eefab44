/**
 * Who is admin, and in which role (issue 43): the addresses in the ADMIN_EMAILS variable are organisers, always;
 * the `admins` table names further people, each a volunteer or an organiser, added, changed and removed on the
 * admins screen (session/admins-routes.ts).
 *
 * Every change there is one D1 batch under one condition: the audit line first, then the change (a removal also revokes
 * the person's admin sessions, before the row goes), each only when the target is as the change expects and the acting
 * admin is (still) an organiser. A batch is one transaction, and the audit line does not touch `admins`, so both
 * statements see the same rows: either both are written or neither. The acting admin's role is read inside that
 * transaction, so two organisers demoting (or removing) each other at the same moment cannot both succeed: the later
 * batch finds its actor a volunteer (or gone) and writes nothing (`changeAdmins` answers false; the route answers 403).
 * An actor named in ADMIN_EMAILS has no row to read: the variable cannot change while a request runs.
 */
import { eq } from "drizzle-orm";
import type { AdminChange, AdminEntry, AdminRole } from "../../shared/admin-roles";
import { isAdminRole } from "../../shared/admin-roles";
import type { Db } from "../db/client";
import { admins } from "../db/schema";

/** The ADMIN_EMAILS variable: comma-separated, compared lower-cased. */
export function parseAdminEmails(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The role of `email`: 'organiser' for ADMIN_EMAILS, else the `admins` row's role; null for anyone else. */
export async function adminRole(db: Db, email: string, adminEmailsVar: string | undefined): Promise<AdminRole | null> {
  const normalized = email.trim().toLowerCase();
  if (!normalized) return null;
  if (parseAdminEmails(adminEmailsVar).has(normalized)) return "organiser";
  const row = await db.select({ role: admins.role }).from(admins).where(eq(admins.email, normalized)).get();
  return row && isAdminRole(row.role) ? row.role : null;
}

/** Admin status comes from the allowlist: the ADMIN_EMAILS variable plus the `admins` table. */
export async function isAdminEmail(db: Db, email: string, adminEmailsVar: string | undefined): Promise<boolean> {
  return (await adminRole(db, email, adminEmailsVar)) !== null;
}

/** Adds `email` with `role` unless it has a row already; no audit line (the admins screen uses changeAdmins). */
export async function addAdmin(db: Db, email: string, now: number, role: AdminRole = "organiser"): Promise<void> {
  await db.insert(admins).values({ email: email.trim().toLowerCase(), addedAt: now, role }).onConflictDoNothing();
}

export async function removeAdmin(db: Db, email: string): Promise<void> {
  await db.delete(admins).where(eq(admins.email, email.trim().toLowerCase()));
}

/** Every admin: ADMIN_EMAILS first (fixed organisers), then the table's, each by address. */
export async function listAdmins(db: Db, adminEmailsVar: string | undefined): Promise<AdminEntry[]> {
  const fixed = parseAdminEmails(adminEmailsVar);
  const rows = await db.select().from(admins).orderBy(admins.email).all();
  const added = new Map(rows.map((r) => [r.email, r]));
  const list: AdminEntry[] = [...fixed]
    .sort()
    .map((email) => ({ email, role: "organiser", fixed: true, addedAt: added.get(email)?.addedAt ?? null }));
  for (const row of rows) {
    if (fixed.has(row.email) || !isAdminRole(row.role)) continue;
    list.push({ email: row.email, role: row.role, fixed: false, addedAt: row.addedAt });
  }
  return list;
}

/** Who makes a change: the address, whether ADMIN_EMAILS names it, and the browser's user agent for the audit. */
export interface AdminActor {
  email: string;
  fixed: boolean;
  device: string | null;
}

/** ?2 the actor's address, ?3 1 when ADMIN_EMAILS names it. */
const ACTOR_IS_ORGANISER = `(?3 = 1 OR EXISTS (SELECT 1 FROM admins WHERE email = ?2 AND role = 'organiser'))`;
/** The target's role before the change (?1 its address), for the audit line's detail. */
const ROLE_BEFORE = `(SELECT role FROM admins WHERE email = ?1)`;

/** Each change: when it may be made (?1 target, ?2 actor, ?3 actor fixed, ?4 the new role), the write, the detail. */
const CHANGES = {
  add: {
    action: "admin.add",
    condition: `NOT EXISTS (SELECT 1 FROM admins WHERE email = ?1) AND ${ACTOR_IS_ORGANISER}`,
    write: (condition: string) => `INSERT INTO admins (email, added_at, role) SELECT ?1, ?5, ?4 WHERE ${condition}`,
    detail: `json_object('role', ?4)`,
  },
  "change-role": {
    action: "admin.change-role",
    condition: `EXISTS (SELECT 1 FROM admins WHERE email = ?1 AND role != ?4) AND ${ACTOR_IS_ORGANISER}`,
    write: (condition: string) => `UPDATE admins SET role = ?4 WHERE email = ?1 AND ${condition}`,
    detail: `json_object('role', ?4, 'from', ${ROLE_BEFORE})`,
  },
  remove: {
    action: "admin.remove",
    condition: `EXISTS (SELECT 1 FROM admins WHERE email = ?1) AND ${ACTOR_IS_ORGANISER}`,
    write: (condition: string) => `DELETE FROM admins WHERE email = ?1 AND ${condition}`,
    detail: `json_object('from', ${ROLE_BEFORE})`,
  },
} as const;

/**
 * Makes the change and its audit line in one batch (see the top of this file), only when the actor is an organiser
 * and the target is as expected: 'add' an address that has no row, 'change-role' a row with another role, 'remove'
 * a row that exists. The caller refuses ADMIN_EMAILS targets and the actor's own address before this. True when
 * both were written; false when neither was (the caller finds out why).
 */
export async function changeAdmins(d1: D1Database, actor: AdminActor, change: AdminChange, now: number) {
  const rule = CHANGES[change.type];
  const role = change.type === "remove" ? null : change.role;
  const params = [change.email.trim().toLowerCase(), actor.email, actor.fixed ? 1 : 0, role, now];
  const auditLine = prepared(
    d1,
    `INSERT INTO audit_log (at, actor, device, action, subject, detail)
     SELECT ?5, ?2, ?6, ?7, ?1, ${rule.detail} WHERE ${rule.condition}`,
    [...params, actor.device, rule.action],
  );
  // A removal also ends the person's admin sessions, before the row goes (the condition still holds): a cookie of
  // theirs must not come back to life should they be added again.
  const revoke =
    change.type === "remove"
      ? [
          prepared(
            d1,
            `UPDATE sessions SET revoked_at = ?5
              WHERE email = ?1 AND kind = 'admin' AND revoked_at IS NULL AND expires_at > ?5 AND ${rule.condition}`,
            params,
          ),
        ]
      : [];
  const [audited] = await d1.batch([auditLine, ...revoke, prepared(d1, rule.write(rule.condition), params)]);
  return audited!.meta.changes === 1;
}

/** `sql` with the first of `params` bound, as many as its highest `?N` names (D1 refuses a different count). */
function prepared(d1: D1Database, sql: string, params: unknown[]): D1PreparedStatement {
  const used = Math.max(0, ...[...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  return d1.prepare(sql).bind(...params.slice(0, used));
}

/** The admin sessions of `email` that a removal at `at` revoked (their sockets are closed: admins-routes.ts). */
export async function sessionsRevokedAt(d1: D1Database, email: string, at: number): Promise<string[]> {
  const rows = await d1
    .prepare("SELECT id FROM sessions WHERE email = ?1 AND kind = 'admin' AND revoked_at = ?2")
    .bind(email.trim().toLowerCase(), at)
    .all<{ id: string }>();
  return rows.results.map((r) => r.id);
}

import type { Db } from "./client";
import { auditLog } from "./schema";
import { ERASED_TEXT, scoped, type ErasureScope, type ErasureStatement } from "./erasure";

export interface AuditEntry {
  /** Who: an admin's e-mail, a visitor's e-mail, or 'system'. */
  actor: string;
  /** Which device, when known (a race-day device id, or the browser's user agent). */
  device?: string | null;
  /** What, as a dotted verb: 'admin.sign-in', 'race.start' … */
  action: string;
  /** What it was done to (a race id, a payid, an e-mail). */
  subject?: string | null;
  detail?: Record<string, unknown>;
}

/** Appends one line to the audit log. `now` is the server clock's epoch ms. */
export async function audit(db: Db, entry: AuditEntry, now: number): Promise<void> {
  await db.insert(auditLog).values({
    at: now,
    actor: entry.actor,
    device: entry.device ?? null,
    action: entry.action,
    subject: entry.subject ?? null,
    detail: JSON.stringify(entry.detail ?? {}),
  });
}

/**
 * Appends the line unless one with the same action and subject exists, in one statement, so callers racing each
 * other (replayed callbacks answered before their work is done) still write it once. True when this call wrote it.
 */
export async function auditOnce(db: Db, entry: AuditEntry & { subject: string }, now: number): Promise<boolean> {
  const result = await db.$client
    .prepare(
      `INSERT INTO audit_log (at, actor, device, action, subject, detail)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE action = ?4 AND subject = ?5)`,
    )
    .bind(now, entry.actor, entry.device ?? null, entry.action, entry.subject, JSON.stringify(entry.detail ?? {}))
    .run();
  return result.meta.changes > 0;
}

/**
 * Erasure (db/erasure.ts): where an audit row has the address as actor or subject it becomes `hash` (its
 * SHA-256, `sha256:<hex>`), and inside a detail each of the person's texts (address, phone) becomes '[raderad]'.
 * Rows about the person's payments keep the payid (a bookkeeping reference). The detail can only be searched whole
 * (`instr`): acceptable for an action taken a few times a year.
 */
export function auditErasure(d1: D1Database, scope: ErasureScope, hash: string): ErasureStatement[] {
  const statements: ErasureStatement[] = [];
  if (scope.email !== null) {
    statements.push({
      count: "auditRows",
      statement: scoped(
        d1,
        scope,
        `UPDATE audit_log SET actor = CASE WHEN actor = ?1 THEN ?3 ELSE actor END,
            subject = CASE WHEN subject = ?1 THEN ?3 ELSE subject END,
            detail = replace(detail, ?1, ?4)
          WHERE actor = ?1 OR subject = ?1 OR instr(detail, ?1) > 0`,
        hash,
        ERASED_TEXT,
      ),
    });
  }
  for (const text of scope.texts) {
    if (text === scope.email || text === "") continue;
    statements.push({
      count: "auditRows",
      statement: scoped(
        d1,
        scope,
        "UPDATE audit_log SET detail = replace(detail, ?3, ?4) WHERE instr(detail, ?3) > 0",
        text,
        ERASED_TEXT,
      ),
    });
  }
  return statements;
}

import type { Db } from "./client";
import { auditLog } from "./schema";

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

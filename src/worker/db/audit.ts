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

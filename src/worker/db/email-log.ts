import type { Db } from "./client";
import { ERASED_ADDRESS, ERASED_TEXT, scoped, type ErasureScope, type ErasureStatement } from "./erasure";
import { emailLog } from "./schema";

export interface EmailLogEntry {
  to: string;
  subject: string;
  /** Empty for a mail that carries a secret (a login code), and once the body's retention has passed. */
  html: string;
  text: string;
  kind: string;
  transport: string;
  /** 'unknown': no answer from the provider (adapters/email.ts), so the mail may have left. */
  status: "sent" | "failed" | "unknown";
  error?: string | null;
  mailingId?: number | null;
  createdAt: number;
}

export async function logEmail(db: Db, entry: EmailLogEntry): Promise<number> {
  const row = await db
    .insert(emailLog)
    .values({ ...entry, error: entry.error ?? null, mailingId: entry.mailingId ?? null })
    .returning({ id: emailLog.id })
    .get();
  return row.id;
}

/**
 * Settles a send's log line (adapters/email.ts writes it before the mail leaves). Only the status and the error:
 * an erasure that ran while the mail was on its way keeps the line erased, and the address is taken out of the
 * provider's error as the erasure would have.
 */
export async function settleEmailLog(
  db: Db,
  id: number,
  status: EmailLogEntry["status"],
  error: string | null,
  to: string,
): Promise<void> {
  await db.$client
    .prepare(
      `UPDATE email_log SET status = ?1,
         error = CASE WHEN ?2 IS NULL THEN NULL WHEN "to" = ?3 THEN ?2 ELSE replace(?2, ?3, ?4) END
       WHERE id = ?5`,
    )
    .bind(status, error, to, ERASED_TEXT, id)
    .run();
}

/**
 * Erasure (db/erasure.ts): e-mails sent to the address keep kind, subject, time and status; the address, the
 * bodies and any mention of the address in the provider's error are removed. Box-office runners got no e-mail.
 */
export function emailLogErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  if (scope.email === null) return [];
  return [
    {
      count: "emails",
      statement: scoped(
        d1,
        scope,
        `UPDATE email_log SET "to" = ?3, html = '', text = '', error = replace(error, ?1, ?4) WHERE "to" = ?1`,
        ERASED_ADDRESS,
        ERASED_TEXT,
      ),
    },
  ];
}

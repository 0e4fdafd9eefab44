import type { Db } from "./client";
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

import { desc, sql } from "drizzle-orm";
import type { Db } from "./client";
import { emailLog } from "./schema";

export interface EmailLogEntry {
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  transport: string;
  status: "sent" | "failed";
  error?: string | null;
  mailingId?: number | null;
  createdAt: number;
}

export interface LoggedEmail extends EmailLogEntry {
  id: number;
}

export async function logEmail(db: Db, entry: EmailLogEntry): Promise<number> {
  const row = await db
    .insert(emailLog)
    .values({ ...entry, error: entry.error ?? null, mailingId: entry.mailingId ?? null })
    .returning({ id: emailLog.id })
    .get();
  return row.id;
}

/** Newest first; optionally only the mail to one address (compared case-insensitively). */
export async function listEmailLog(db: Db, options: { to?: string; limit?: number } = {}): Promise<LoggedEmail[]> {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const query = db.select().from(emailLog);
  const rows = await (options.to ? query.where(sql`lower(${emailLog.to}) = ${options.to.trim().toLowerCase()}`) : query)
    .orderBy(desc(emailLog.id))
    .limit(limit)
    .all();
  return rows.map((row) => ({ ...row, status: row.status === "failed" ? "failed" : "sent" }));
}

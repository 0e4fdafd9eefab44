/**
 * Development only: the 'outbox' e-mail transport (adapters/email.ts) delivers here instead of sending, and
 * /dev/outbox shows what it holds. Unlike the e-mail log, the outbox keeps every mail whole, login codes
 * included: it is the development stand-in for the recipient's mailbox.
 *
 * Its rows live in a D1 scratch table created on first use, never part of `migrations/`, so a production database
 * never holds one (production sends with the 'cloudflare' transport).
 *
 * A test switch (`POST /dev/outbox/settings {refuse}`, like the Swish simulator's): while `refuse` is on, the outbox
 * refuses every mail as a provider that answers with an error would (the mail did not leave), so the browser tests
 * can leave mailings waiting in the queue's retries and resume them (test/e2e/mass-email.test.ts).
 */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  mailingId: number | null;
  createdAt: number;
}

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  mailing_id: number | null;
  created_at: number;
}

async function ensureTable(db: D1Database): Promise<void> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS dev_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT, "to" TEXT NOT NULL, subject TEXT NOT NULL, html TEXT NOT NULL,
        text TEXT NOT NULL, kind TEXT NOT NULL, mailing_id INTEGER, created_at INTEGER NOT NULL)`,
    )
    .run();
}

/** What the refusing outbox answers (the e-mail adapter treats it as a provider's error answer: tried again). */
export const OUTBOX_REFUSES = "Utkorgen tar inte emot e-post just nu (testläge: /dev/outbox/settings).";

async function ensureSettings(db: D1Database): Promise<void> {
  await db.prepare("CREATE TABLE IF NOT EXISTS dev_outbox_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)").run();
}

export async function outboxRefuses(db: D1Database): Promise<boolean> {
  await ensureSettings(db);
  const row = await db.prepare("SELECT value FROM dev_outbox_settings WHERE key = 'refuse'").first<{ value: string }>();
  return row?.value === "true";
}

export async function setOutboxRefuses(db: D1Database, refuse: boolean): Promise<void> {
  await ensureSettings(db);
  await db
    .prepare(
      `INSERT INTO dev_outbox_settings (key, value) VALUES ('refuse', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    )
    .bind(String(refuse))
    .run();
}

export async function deliverToOutbox(db: D1Database, mail: Omit<OutboxMail, "id">): Promise<void> {
  if (await outboxRefuses(db)) throw new Error(OUTBOX_REFUSES);
  await ensureTable(db);
  await db
    .prepare(
      `INSERT INTO dev_outbox ("to", subject, html, text, kind, mailing_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(mail.to, mail.subject, mail.html, mail.text, mail.kind, mail.mailingId, mail.createdAt)
    .run();
}

/** Newest first; optionally only the mail to one address (compared case-insensitively). */
export async function listOutbox(db: D1Database, options: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  await ensureTable(db);
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const to = options.to?.trim().toLowerCase();
  const { results } = await (
    to
      ? db.prepare(`SELECT * FROM dev_outbox WHERE lower("to") = ? ORDER BY id DESC LIMIT ?`).bind(to, limit)
      : db.prepare(`SELECT * FROM dev_outbox ORDER BY id DESC LIMIT ?`).bind(limit)
  ).all<OutboxRow>();
  return results.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    html: r.html,
    text: r.text,
    kind: r.kind,
    mailingId: r.mailing_id,
    createdAt: r.created_at,
  }));
}

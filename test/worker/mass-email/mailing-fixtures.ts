/**
 * Fixtures for the mass e-mail tests: registrations with runners and a payment written straight into D1 (the
 * registration flow has its own tests), the outbox and e-mail log per address, and a mailing's recipient rows.
 */
import { env } from "cloudflare:workers";
import { randomHex } from "../../../src/worker/lib/crypto";

let seq = 0;

export function mailAddress(prefix = "lopare"): string {
  seq++;
  return `${prefix}-${Date.now().toString(36)}-${seq}@example.se`;
}

export interface FixtureRunner {
  firstname: string;
  lastname: string;
  distance?: "0.8" | "1.6" | "2.8" | "5.6";
  raceId?: string | null;
}

/** A registration of `season` with its runners; `paid` adds a PAID payment for them, otherwise a DECLINED one. */
export async function registration(
  season: number,
  email: string,
  runners: FixtureRunner[],
  paid = true,
): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.parse(`${season}-08-01T10:00:00Z`);
  const runnerIds = runners.map(() => crypto.randomUUID());
  const statements = [
    env.DB.prepare(
      "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)",
    ).bind(id, season, email, now, now),
    ...runners.map((r, i) =>
      env.DB.prepare(
        `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group", race_id, created_at)
         VALUES (?, ?, ?, ?, ?, 30, '', ?, 'Ingen', ?, ?)`,
      ).bind(runnerIds[i], id, season, r.firstname, r.lastname, r.distance ?? "5.6", r.raceId ?? null, now + i),
    ),
  ];
  const payid = randomHex(16).toUpperCase();
  statements.push(
    env.DB.prepare(
      `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, participant_ids)
       VALUES (?, ?, ?, 150, ?, ?, ?, ?)`,
    ).bind(payid, id, season, paid ? "PAID" : "DECLINED", now, paid ? now : null, JSON.stringify(runnerIds)),
    env.DB.prepare("UPDATE registrations SET payid = ? WHERE id = ?").bind(payid, id),
  );
  await env.DB.batch(statements);
  return id;
}

export async function unsubscribe(email: string): Promise<void> {
  await env.DB.prepare("INSERT INTO unsubscribes (email, at) VALUES (?, ?)").bind(email, Date.now()).run();
}

export interface OutboxRow {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  mailing_id: number | null;
}

/** The development outbox's mails to `email` (the table is made on first delivery). */
export async function outboxTo(email: string): Promise<OutboxRow[]> {
  const exists = await env.DB.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dev_outbox'",
  ).first();
  if (!exists) return [];
  return (await env.DB.prepare('SELECT * FROM dev_outbox WHERE "to" = ? ORDER BY id').bind(email).all<OutboxRow>())
    .results;
}

export async function emailLogTo(email: string) {
  return (
    await env.DB.prepare('SELECT status, kind, error, mailing_id FROM email_log WHERE "to" = ? ORDER BY id')
      .bind(email)
      .all<{ status: string; kind: string; error: string | null; mailing_id: number | null }>()
  ).results;
}

export interface RecipientRow {
  email: string;
  name: string;
  race: string | null;
  status: string;
  claimed_at: number | null;
  sent_at: number | null;
  error: string | null;
}

export async function recipientRows(mailingId: number): Promise<RecipientRow[]> {
  return (
    await env.DB.prepare("SELECT * FROM mailing_recipients WHERE mailing_id = ? ORDER BY email")
      .bind(mailingId)
      .all<RecipientRow>()
  ).results;
}

export async function recipientStatus(mailingId: number, email: string): Promise<RecipientRow | null> {
  return env.DB.prepare("SELECT * FROM mailing_recipients WHERE mailing_id = ? AND email = ?")
    .bind(mailingId, email)
    .first<RecipientRow>();
}

/** The tests of one file share D1: each starts without registrations, mailings, unsubscribes or sent mail. */
export async function clearMailingData(): Promise<void> {
  await env.DB.exec(
    'CREATE TABLE IF NOT EXISTS dev_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, "to" TEXT NOT NULL, subject TEXT NOT NULL, html TEXT NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL, mailing_id INTEGER, created_at INTEGER NOT NULL)',
  );
  await env.DB.batch(
    [
      "mailing_recipients",
      "mailings",
      "unsubscribes",
      "email_log",
      "dev_outbox",
      "participants",
      "payments",
      "registrations",
    ].map((table) => env.DB.prepare(`DELETE FROM ${table}`)),
  );
}

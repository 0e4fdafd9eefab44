/**
 * E-mailed login codes (DESIGN.md §2): 6 digits from a CSPRNG, stored only as a keyed hash (HMAC with the server
 * secret, so a copy of the database cannot be searched through the million codes), valid 10 minutes,
 * single use, at most 5 tries, and only the newest code of an address works.
 *
 * Guessing is bounded per address, not per client: a client limit counts per client and per Cloudflare location,
 * so many clients could otherwise each bring fresh tries. D1 counts the wrong tries per address over a rolling
 * hour (at most 20, `login_failures`) and the codes mailed to it (at most 5, `login_codes`). Both limits are
 * checked and the row written in one statement, and every try is counted BEFORE the code is compared, so a burst
 * of parallel requests from any number of clients cannot get past either limit.
 *
 * The sign-in link (issue 43): a stranger who knows an address can spend its wrong tries and lock it for an hour,
 * so every login mail also carries a one-time link, 256 random bits stored as a keyed hash on the code's row
 * (`link_hash`), valid as long as the code. The link is not a guess that can be repeated: it ignores the wrong
 * tries of the address, the code's own tries and newer codes (`replaced_at`), and is refused only when expired or
 * used. While the address is locked, /email mails a link alone (a row whose `code_hash` is '': no code is ever
 * compared with it, useLoginCode answers 'unusable'); it still counts as one of the address's 5 mails of the hour. One mail gives one
 * sign-in: the code and the link share `used_at`, set by one conditional UPDATE, so of two tabs (or the code and
 * the link at once) exactly one signs in and the other hears the link or code was used.
 */
import { eq } from "drizzle-orm";
import { keyedHash, randomHex, sameSecret } from "../lib/crypto";
import type { Db } from "../db/client";
import { loginCodes } from "../db/schema";

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_TRIES = 5;
/** The rolling window of the per-address limits. */
export const LOGIN_WINDOW_MS = 60 * 60_000;
/** Wrong codes one address may have evaluated within any hour, whatever the number of clients or codes. */
export const LOGIN_MAX_FAILURES_PER_HOUR = 20;
/** Codes mailed to one address within any hour (no mail-bombing a stranger). */
export const LOGIN_MAX_CODES_PER_HOUR = 5;
const CODE_SPACE = 1_000_000;

/** A uniformly random 6-digit code: rejection sampling, since 2^32 is not a multiple of 10^6. */
export function newLoginCode(): string {
  const limit = Math.floor(0x1_0000_0000 / CODE_SPACE) * CODE_SPACE;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    const n = buf[0]!;
    if (n < limit) return String(n % CODE_SPACE).padStart(6, "0");
  }
}

/** A sign-in link's token: 32 bytes from the CSPRNG, 64 hex digits (what the link's `?t=` carries). */
export function newLinkToken(): string {
  return randomHex(32);
}

export const LINK_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/** HMAC of a link token under the server secret, hex: what `link_hash` stores and is looked up by. */
function hashLinkToken(secret: string | undefined, token: string): Promise<string> {
  return keyedHash(secret, "login-link", token);
}

/** HMAC of the code and its row id under the server secret, hex. */
function hashLoginCode(secret: string | undefined, id: string, code: string): Promise<string> {
  return keyedHash(secret, "login-code", `${id}:${code}`);
}

/**
 * When the address may try again: the moment the oldest of the `max` newest rows within the window leaves it.
 * Null when fewer than `max` rows are in the window (not locked).
 */
async function lockedUntil(
  db: Db,
  table: "login_failures" | "login_codes",
  email: string,
  now: number,
  max: number,
): Promise<number | null> {
  const column = table === "login_failures" ? "at" : "created_at";
  const row = await db.$client
    .prepare(
      `SELECT ${column} AS at FROM ${table} WHERE email = ?1 AND ${column} > ?2 ORDER BY ${column} DESC LIMIT 1 OFFSET ?3`,
    )
    .bind(email, now - LOGIN_WINDOW_MS, max - 1)
    .first<{ at: number }>();
  return row ? row.at + LOGIN_WINDOW_MS : null;
}

/** Until when the address is locked out by its wrong tries (null: it is not). */
export function failuresLockedUntil(db: Db, email: string, now: number): Promise<number | null> {
  return lockedUntil(db, "login_failures", email, now, LOGIN_MAX_FAILURES_PER_HOUR);
}

export type NewLoginCode =
  | { status: "created"; id: string; expiresAt: number }
  /** Too many wrong tries for this address within the hour: no new code, but a row with the link alone. */
  | { status: "link-only"; id: string; expiresAt: number; retryAt: number }
  /** Too many wrong tries and too many mails for this address within the hour: nothing. */
  | { status: "locked"; retryAt: number }
  /** Too many codes mailed to this address within the hour. */
  | { status: "too-many-codes"; retryAt: number };

/**
 * Stores a new code and its sign-in link for the address unless it is locked out or has had its mails for the
 * hour, and makes every older code of the address unusable (their links stay), in one transaction. Locked out by
 * wrong tries but with a mail left: stores the link alone ('link-only').
 */
export async function createLoginCode(
  db: Db,
  row: {
    id: string;
    email: string;
    code: string;
    linkToken: string;
    now: number;
    clientKey: string;
    secret: string | undefined;
  },
): Promise<NewLoginCode> {
  const expiresAt = row.now + LOGIN_CODE_TTL_MS;
  const since = row.now - LOGIN_WINDOW_MS;
  const d1 = db.$client;
  const [inserted, linkOnly] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO login_codes (id, email, code_hash, created_at, expires_at, attempts, client_key, link_hash)
         SELECT ?1, ?2, ?3, ?4, ?5, 0, ?6, ?10
         WHERE (SELECT count(*) FROM login_codes WHERE email = ?2 AND created_at > ?7) < ?8
           AND (SELECT count(*) FROM login_failures WHERE email = ?2 AND at > ?7) < ?9`,
      )
      .bind(
        row.id,
        row.email,
        await hashLoginCode(row.secret, row.id, row.code),
        row.now,
        expiresAt,
        row.clientKey,
        since,
        LOGIN_MAX_CODES_PER_HOUR,
        LOGIN_MAX_FAILURES_PER_HOUR,
        await hashLinkToken(row.secret, row.linkToken),
      ),
    // The same mail limit; only when the statement above stored nothing because of the wrong tries.
    d1
      .prepare(
        `INSERT INTO login_codes (id, email, code_hash, created_at, expires_at, attempts, client_key, link_hash)
         SELECT ?1, ?2, '', ?3, ?4, 0, ?5, ?8
         WHERE NOT EXISTS (SELECT 1 FROM login_codes WHERE id = ?1)
           AND (SELECT count(*) FROM login_codes WHERE email = ?2 AND created_at > ?6) < ?7`,
      )
      .bind(
        row.id,
        row.email,
        row.now,
        expiresAt,
        row.clientKey,
        since,
        LOGIN_MAX_CODES_PER_HOUR,
        await hashLinkToken(row.secret, row.linkToken),
      ),
    d1
      .prepare(
        `UPDATE login_codes SET replaced_at = ?3
         WHERE email = ?2 AND id <> ?1 AND replaced_at IS NULL AND used_at IS NULL
           AND EXISTS (SELECT 1 FROM login_codes WHERE id = ?1 AND code_hash <> '')`,
      )
      .bind(row.id, row.email, row.now),
  ]);
  if (inserted!.meta.changes > 0) return { status: "created", id: row.id, expiresAt };
  const locked = await failuresLockedUntil(db, row.email, row.now);
  if (linkOnly!.meta.changes > 0) {
    return { status: "link-only", id: row.id, expiresAt, retryAt: locked ?? row.now + LOGIN_WINDOW_MS };
  }
  if (locked !== null) return { status: "locked", retryAt: locked };
  const codes = await lockedUntil(db, "login_codes", row.email, row.now, LOGIN_MAX_CODES_PER_HOUR);
  // Both limits passed when read just now: the hour moved on meanwhile; the next request will get its code.
  return { status: "too-many-codes", retryAt: codes ?? row.now };
}

/** Forgets a code that never reached the address (its e-mail could not be sent), so it counts for nothing. */
export async function deleteLoginCode(db: Db, id: string): Promise<void> {
  await db.delete(loginCodes).where(eq(loginCodes.id, id));
}

export type CodeCheck = { status: "ok" | "wrong" | "expired" | "unusable" } | { status: "locked"; retryAt: number };

/**
 * Checks a code typed by the visitor and, when right, marks it used (atomically: a second use finds it used).
 * 'unusable' = unknown id, a link-only row, already used, replaced by a newer code, or out of tries; 'expired' = past its
 * 10 minutes; 'locked' = the code's address has had its wrong tries for the hour (the right code too is refused).
 */
export async function useLoginCode(
  db: Db,
  input: { id: string; email: string; code: string; now: number; secret: string | undefined },
): Promise<CodeCheck> {
  const row = await db.select().from(loginCodes).where(eq(loginCodes.id, input.id)).get();
  if (
    !row ||
    row.codeHash === "" ||
    row.usedAt !== null ||
    row.replacedAt !== null ||
    row.attempts >= LOGIN_CODE_MAX_TRIES
  ) {
    return { status: "unusable" };
  }
  if (input.now >= row.expiresAt) return { status: "expired" };

  // The try is counted for the code's address (the one that could be taken over) and for the code, in one
  // transaction, and only while both have tries left.
  const failureId = crypto.randomUUID();
  const d1 = db.$client;
  const [counted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO login_failures (id, email, code_id, at)
         SELECT ?1, ?2, ?3, ?4
         WHERE (SELECT count(*) FROM login_failures WHERE email = ?2 AND at > ?5) < ?6
           AND EXISTS (SELECT 1 FROM login_codes WHERE id = ?3 AND used_at IS NULL AND replaced_at IS NULL
             AND attempts < ?7 AND code_hash <> '')`,
      )
      .bind(
        failureId,
        row.email,
        row.id,
        input.now,
        input.now - LOGIN_WINDOW_MS,
        LOGIN_MAX_FAILURES_PER_HOUR,
        LOGIN_CODE_MAX_TRIES,
      ),
    d1
      .prepare(
        `UPDATE login_codes SET attempts = attempts + 1
         WHERE id = ?1 AND EXISTS (SELECT 1 FROM login_failures WHERE id = ?2)`,
      )
      .bind(row.id, failureId),
  ]);
  if (counted!.meta.changes === 0) {
    const locked = await failuresLockedUntil(db, row.email, input.now);
    return locked !== null ? { status: "locked", retryAt: locked } : { status: "unusable" };
  }

  const expected = await hashLoginCode(input.secret, input.id, input.code);
  if (row.email !== input.email || !(await sameSecret(expected, row.codeHash))) return { status: "wrong" };

  // Right: the code is used up and the try was not a failure.
  const [used] = await d1.batch([
    d1.prepare(`UPDATE login_codes SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL`).bind(row.id, input.now),
    d1.prepare(`DELETE FROM login_failures WHERE id = ?1`).bind(failureId),
  ]);
  return used!.meta.changes > 0 ? { status: "ok" } : { status: "unusable" };
}

export type LinkCheck = { status: "ok"; email: string } | { status: "invalid" | "expired" | "used" };

/**
 * Signs in with a link token once: one conditional UPDATE marks the row used, so of two tabs (or a replay, or the
 * code and the link at once) only one gets 'ok'. The wrong tries of the address, the code's tries and newer codes
 * do not matter. 'invalid' = not a token of ours (garbled, guessed, or its row purged or erased).
 */
export async function useLoginLink(
  db: Db,
  input: { token: string; now: number; secret: string | undefined },
): Promise<LinkCheck> {
  if (!LINK_TOKEN_PATTERN.test(input.token)) return { status: "invalid" };
  const hash = await hashLinkToken(input.secret, input.token);
  const d1 = db.$client;
  const used = await d1
    .prepare(
      `UPDATE login_codes SET used_at = ?2 WHERE link_hash = ?1 AND used_at IS NULL AND expires_at > ?2
       RETURNING email`,
    )
    .bind(hash, input.now)
    .first<{ email: string }>();
  if (used) return { status: "ok", email: used.email };
  const row = await d1
    .prepare(`SELECT used_at, expires_at FROM login_codes WHERE link_hash = ?1`)
    .bind(hash)
    .first<{ used_at: number | null; expires_at: number }>();
  if (!row) return { status: "invalid" };
  return { status: row.used_at !== null ? "used" : "expired" };
}

/** Development only (dev/routes.ts): make a code expired now, so the expired-code path can be shown end to end. */
export async function expireLoginCode(db: Db, id: string, now: number): Promise<boolean> {
  const row = await db
    .update(loginCodes)
    .set({ expiresAt: now - 1 })
    .where(eq(loginCodes.id, id))
    .returning({ id: loginCodes.id })
    .get();
  return row !== undefined;
}

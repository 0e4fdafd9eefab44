/**
 * E-mailed login codes (DESIGN.md §2): 6 digits from a CSPRNG, only a salted hash stored, valid 10 minutes,
 * single use, at most 5 tries. Every try is counted BEFORE the code is compared, with a guarded increment, so a
 * burst of parallel guesses cannot get more than 5 comparisons out of one code.
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { sameSecret, sha256Hex } from "../crypto";
import type { Db } from "./client";
import { loginCodes } from "./schema";

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_TRIES = 5;
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

/** SHA-256 of the code salted with its row id, hex. */
function hashLoginCode(id: string, code: string): Promise<string> {
  return sha256Hex(`${id}:${code}`);
}

export async function createLoginCode(
  db: Db,
  row: { id: string; email: string; code: string; now: number; clientKey: string },
): Promise<{ id: string; expiresAt: number }> {
  const expiresAt = row.now + LOGIN_CODE_TTL_MS;
  await db.insert(loginCodes).values({
    id: row.id,
    email: row.email,
    codeHash: await hashLoginCode(row.id, row.code),
    createdAt: row.now,
    expiresAt,
    clientKey: row.clientKey,
  });
  return { id: row.id, expiresAt };
}

export type CodeCheck = "ok" | "wrong" | "expired" | "unusable";

/**
 * Checks a code typed by the visitor and, when right, marks it used (atomically: a second use finds it used).
 * 'unusable' = unknown id, already used, or out of tries; 'expired' = past its 10 minutes.
 */
export async function useLoginCode(
  db: Db,
  input: { id: string; email: string; code: string; now: number },
): Promise<CodeCheck> {
  const row = await db.select().from(loginCodes).where(eq(loginCodes.id, input.id)).get();
  if (!row || row.usedAt !== null || row.attempts >= LOGIN_CODE_MAX_TRIES) return "unusable";
  if (input.now >= row.expiresAt) return "expired";

  const counted = await db
    .update(loginCodes)
    .set({ attempts: sql`${loginCodes.attempts} + 1` })
    .where(and(eq(loginCodes.id, input.id), isNull(loginCodes.usedAt), lt(loginCodes.attempts, LOGIN_CODE_MAX_TRIES)))
    .returning({ attempts: loginCodes.attempts })
    .get();
  if (!counted) return "unusable";

  const expected = await hashLoginCode(input.id, input.code);
  if (row.email !== input.email || !(await sameSecret(expected, row.codeHash))) return "wrong";

  const used = await db
    .update(loginCodes)
    .set({ usedAt: input.now })
    .where(and(eq(loginCodes.id, input.id), isNull(loginCodes.usedAt)))
    .returning({ id: loginCodes.id })
    .get();
  return used ? "ok" : "unusable";
}

/** Development only (routes/dev.ts): make a code expired now, so the expired-code path can be shown end to end. */
export async function expireLoginCode(db: Db, id: string, now: number): Promise<boolean> {
  const row = await db
    .update(loginCodes)
    .set({ expiresAt: now - 1 })
    .where(eq(loginCodes.id, id))
    .returning({ id: loginCodes.id })
    .get();
  return row !== undefined;
}

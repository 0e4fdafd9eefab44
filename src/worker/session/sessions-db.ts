import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions } from "../db/schema";
import { scoped, type ErasureScope, type ErasureStatement } from "../db/erasure";

export type SessionKind = "visitor" | "admin";

export interface SessionRow {
  id: string;
  kind: SessionKind;
  email: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insert(sessions).values(row);
}

/** The session if it exists, is of this kind, is not revoked and has not expired by the server's clock. */
export async function findLiveSession(db: Db, id: string, kind: SessionKind, now: number): Promise<SessionRow | null> {
  const row = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.kind, kind), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .get();
  return row ? { id: row.id, kind, email: row.email, createdAt: row.createdAt, expiresAt: row.expiresAt } : null;
}

export async function revokeSession(db: Db, id: string, now: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/**
 * Erasure (db/erasure.ts): the address's login codes, wrong tries and visitor sessions are deleted (a deleted
 * session is signed out at once). An admin's own session is not the family's data and stays.
 */
export function sessionErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  if (scope.email === null) return [];
  return [
    { count: "loginCodes", statement: scoped(d1, scope, "DELETE FROM login_codes WHERE email = ?1") },
    { count: "loginFailures", statement: scoped(d1, scope, "DELETE FROM login_failures WHERE email = ?1") },
    { count: "sessions", statement: scoped(d1, scope, "DELETE FROM sessions WHERE email = ?1 AND kind = 'visitor'") },
  ];
}

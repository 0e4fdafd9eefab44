import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { admins } from "../db/schema";

/** The ADMIN_EMAILS variable: comma-separated, compared lower-cased. */
export function parseAdminEmails(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Admin status comes from the allowlist: the ADMIN_EMAILS variable plus the `admins` table. */
export async function isAdminEmail(db: Db, email: string, adminEmailsVar: string | undefined): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  if (!normalized) return false;
  if (parseAdminEmails(adminEmailsVar).has(normalized)) return true;
  const row = await db.select({ email: admins.email }).from(admins).where(eq(admins.email, normalized)).get();
  return row !== undefined;
}

export async function addAdmin(db: Db, email: string, now: number): Promise<void> {
  await db.insert(admins).values({ email: email.trim().toLowerCase(), addedAt: now }).onConflictDoNothing();
}

export async function removeAdmin(db: Db, email: string): Promise<void> {
  await db.delete(admins).where(eq(admins.email, email.trim().toLowerCase()));
}

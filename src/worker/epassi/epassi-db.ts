/**
 * Epassi invitations in D1 (src/worker/epassi/epassi.ts holds the rules). An invitation and its campaign code are written
 * together in one batch, so neither exists without the other. Whether a code was used is not stored beside the
 * invitation: it is read from the payments that carry the code (an open one holds it, a paid one used it).
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { EPASSI_RULE } from "../../shared/campaign";
import type { Db } from "../db/client";
import { campaignCodes, epassiInvitations, payments, registrations } from "../db/schema";
import { ERASED_ADDRESS, ERASED_TEXT, scoped, type ErasureScope, type ErasureStatement } from "../db/erasure";

export type InvitationRow = typeof epassiInvitations.$inferSelect;

export interface NewInvitation {
  name: string;
  email: string;
  code: string;
  createdBy: string;
  /** The code's last valid moment, inclusive (epoch ms). */
  validUntil: number;
}

/** The campaign code's note in the organiser's code list: who it was sent to. */
function codeNote(name: string, email: string): string {
  return `Epassi-inbjudan: ${name} <${email}>`.slice(0, 200);
}

/**
 * Writes the invitation and its single-use 'epassi' campaign code in one batch (one transaction). Returns the
 * invitation's id, or null when the code already exists (nothing is written; the caller draws another).
 */
export async function createInvitation(db: Db, inv: NewInvitation, now: number): Promise<number | null> {
  try {
    const [, inserted] = await db.batch([
      db.insert(campaignCodes).values({
        code: inv.code,
        rule: EPASSI_RULE,
        validUntil: inv.validUntil,
        maxUses: 1,
        uses: 0,
        disabled: false,
        builtin: false,
        note: codeNote(inv.name, inv.email),
        createdAt: now,
        createdBy: inv.createdBy,
      }),
      db
        .insert(epassiInvitations)
        .values({ name: inv.name, email: inv.email, code: inv.code, createdBy: inv.createdBy, createdAt: now })
        .returning({ id: epassiInvitations.id }),
    ]);
    return inserted[0]!.id;
  } catch (err) {
    const existing = await db
      .select({ code: campaignCodes.code })
      .from(campaignCodes)
      .where(eq(campaignCodes.code, inv.code))
      .get();
    if (existing) return null;
    throw err;
  }
}

export async function findInvitation(db: Db, id: number): Promise<InvitationRow | undefined> {
  return db.select().from(epassiInvitations).where(eq(epassiInvitations.id, id)).get();
}

export async function markInvitationSent(db: Db, id: number, now: number): Promise<void> {
  await db.update(epassiInvitations).set({ sentAt: now, sendError: null }).where(eq(epassiInvitations.id, id));
}

/** A failed send keeps an earlier successful one's time: the person may still have that first e-mail. */
export async function markInvitationFailed(db: Db, id: number, error: string): Promise<void> {
  await db
    .update(epassiInvitations)
    .set({ sendError: error.slice(0, 500) })
    .where(eq(epassiInvitations.id, id));
}

/** What became of an invitation's code. */
export type CodeState =
  /** Nobody has booked with it. */
  | "unused"
  /** An order waiting for its Swish payment holds it; it is given back if that payment fails. */
  | "reserved"
  /** A paid order used it. */
  | "used"
  /** The organiser switched the code off (admin campaign codes) before it was used. */
  | "disabled";

export interface CodeUse {
  payid: string;
  /** The registration's e-mail; null for a box-office order. */
  registrationEmail: string | null;
  origin: string;
  /** When the order was paid (used) or booked (reserved), epoch ms. */
  at: number;
}

export interface InvitationEntry extends InvitationRow {
  state: CodeState;
  use: CodeUse | null;
}

/** Whether a paid order used the code. */
export async function isCodePaid(db: Db, code: string): Promise<boolean> {
  const row = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.kampanj, code), eq(payments.status, "PAID")))
    .limit(1)
    .get();
  return row !== undefined;
}

/** Every invitation (or the one with `onlyId`), newest first, each with what became of its code. */
export async function listInvitations(db: Db, onlyId?: number): Promise<InvitationEntry[]> {
  const rows = await db
    .select({
      invitation: epassiInvitations,
      disabled: campaignCodes.disabled,
      payid: payments.id,
      status: payments.status,
      origin: payments.origin,
      dateCreated: payments.dateCreated,
      datePaid: payments.datePaid,
      registrationEmail: registrations.email,
    })
    .from(epassiInvitations)
    .leftJoin(campaignCodes, eq(campaignCodes.code, epassiInvitations.code))
    .leftJoin(
      payments,
      and(eq(payments.kampanj, epassiInvitations.code), inArray(payments.status, ["CREATED", "PAID"])),
    )
    .leftJoin(registrations, eq(registrations.id, payments.registrationId))
    .where(onlyId === undefined ? undefined : eq(epassiInvitations.id, onlyId))
    .orderBy(desc(epassiInvitations.createdAt), desc(epassiInvitations.id))
    .all();

  const byId = new Map<number, InvitationEntry>();
  for (const row of rows) {
    const entry = byId.get(row.invitation.id) ?? {
      ...row.invitation,
      state: row.disabled ? ("disabled" as const) : ("unused" as const),
      use: null,
    };
    byId.set(row.invitation.id, entry);
    if (row.payid === null || row.status === null || entry.state === "used") continue;
    const paid = row.status === "PAID";
    entry.state = paid ? "used" : "reserved";
    entry.use = {
      payid: row.payid,
      registrationEmail: row.registrationEmail,
      origin: row.origin ?? "registration",
      at: paid ? (row.datePaid ?? row.dateCreated ?? 0) : (row.dateCreated ?? 0),
    };
  }
  return [...byId.values()];
}

/**
 * Erasure (db/erasure.ts): the address's invitations lose name and address (who sent it, when and the code stay,
 * for the code's use), and their codes' notes, which name the invitee ('Epassi-inbjudan: <name> <address>'), become
 * 'Epassi-inbjudan: [raderad]'. The notes first: they are found through the invitations' address.
 */
export function epassiErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  if (scope.email === null) return [];
  return [
    {
      count: "campaignCodes",
      statement: scoped(
        d1,
        scope,
        "UPDATE campaign_codes SET note = ?3 WHERE code IN (SELECT code FROM epassi_invitations WHERE email = ?1)",
        `Epassi-inbjudan: ${ERASED_TEXT}`,
      ),
    },
    {
      count: "epassiInvitations",
      statement: scoped(
        d1,
        scope,
        "UPDATE epassi_invitations SET name = ?3, email = ?4 WHERE email = ?1",
        ERASED_TEXT,
        ERASED_ADDRESS,
      ),
    },
  ];
}

/**
 * Campaign codes: the season's built-in ones (builtin-campaigns.ts: the CAMPAIGN_CODES secret, or the demo words in
 * development) and the organiser's own, both as rows of `campaign_codes`. A built-in code works from the
 * configuration even before its row exists; once the row exists (admin list or first use) the organiser can
 * disable it there. The configuration stays the truth for a built-in code's rule, end and cap; a row whose word is
 * no longer built in (removed from the secret, or a demo word in production) is never accepted and not listed.
 */
import { and, eq, gte, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { AgeCounts } from "../../shared/age";
import { isCampaignRule, isCampaignValidAt, normalizeCode } from "../../shared/campaign";
import { campaignTotal, listTotal } from "../../shared/pricing";
import { SEASON, type CampaignRule, type Season } from "../../shared/season";
import { stockholmDeadlineEnd } from "../../shared/stockholm";
import type { Db } from "../db/client";
import { campaignCodes, payments } from "../db/schema";
import { ERASED_TEXT, type ErasureScope, type ErasureStatement } from "../db/erasure";
import {
  builtinMaxUses,
  findBuiltin,
  isRefusedWord,
  type BuiltinCampaign,
  type BuiltinCampaigns,
} from "./builtin-campaigns";

export interface CampaignCode {
  code: string;
  rule: CampaignRule;
  /** Last valid moment, inclusive, epoch ms; null = no end. */
  validUntil: number | null;
  maxUses: number | null;
  uses: number;
  disabled: boolean;
  builtin: boolean;
  note: string;
}

/** The inclusive last millisecond of a Stockholm deadline written at any precision ('2025-10-01', '…T23:59:59'). */
export function lastValidMoment(deadline: string): number {
  return stockholmDeadlineEnd(deadline) - 1;
}

/** What the configuration says about a built-in code; D1's row adds the organiser's switch and the uses. */
function builtinFields(c: BuiltinCampaign) {
  return {
    code: normalizeCode(c.code),
    rule: c.rule,
    validUntil: c.validUntil ? lastValidMoment(c.validUntil) : null,
    maxUses: builtinMaxUses(c),
  };
}

/**
 * Makes sure every built-in code has its row. The configuration is the truth for rule, end and cap (a cap is
 * never set below the uses already held, which the table's CHECK forbids: the code is then simply used up);
 * whether the organiser switched it off, and the use count, are kept.
 */
export async function ensureBuiltinCampaigns(db: Db, now: number, builtins: BuiltinCampaigns): Promise<void> {
  const rows = builtins.campaigns.map(builtinFields);
  if (rows.length === 0) return;
  const [first, ...rest] = rows.map((r) =>
    db
      .insert(campaignCodes)
      .values({ ...r, builtin: true, createdAt: now, createdBy: "säsongskonfigurationen" })
      .onConflictDoUpdate({
        target: campaignCodes.code,
        set: {
          rule: r.rule,
          validUntil: r.validUntil,
          maxUses: r.maxUses === null ? null : sql`max(${r.maxUses}, ${campaignCodes.uses})`,
          builtin: true,
        },
      }),
  );
  await db.batch([first!, ...rest]);
}

function fromRow(row: typeof campaignCodes.$inferSelect): CampaignCode | null {
  if (!isCampaignRule(row.rule)) return null;
  return {
    code: row.code,
    rule: row.rule,
    validUntil: row.validUntil,
    maxUses: row.maxUses,
    uses: row.uses,
    disabled: row.disabled,
    builtin: row.builtin,
    note: row.note,
  };
}

/**
 * The campaign for a code as typed (any case), from D1 and the built-in configuration; null when unknown, or when
 * this Worker never accepts the word (a demo word in production, a built-in row no longer configured).
 */
export async function findCampaign(db: Db, code: string, builtins: BuiltinCampaigns): Promise<CampaignCode | null> {
  const wanted = normalizeCode(code);
  if (wanted === "" || isRefusedWord(builtins, wanted)) return null;
  const builtin = findBuiltin(builtins, wanted);
  const row = await db.select().from(campaignCodes).where(eq(campaignCodes.code, wanted)).get();
  if (row) {
    const stored = fromRow(row);
    if (!stored || (stored.builtin && !builtin)) return null;
    return builtin ? withConfig(stored, builtin) : stored;
  }
  if (!builtin) return null;
  return { ...builtinFields(builtin), uses: 0, disabled: false, builtin: true, note: "" };
}

/** A built-in code's row as the configuration says now (ensureBuiltinCampaigns writes the same on its next run). */
function withConfig(stored: CampaignCode, builtin: BuiltinCampaign): CampaignCode {
  const fields = builtinFields(builtin);
  const maxUses = fields.maxUses === null ? null : Math.max(fields.maxUses, stored.uses);
  return { ...stored, rule: fields.rule, validUntil: fields.validUntil, maxUses, builtin: true };
}

export interface CampaignEvaluation {
  valid: boolean;
  price: number;
  /** The campaign applied, when valid. */
  campaign: CampaignCode | null;
  /** Not valid only because every use is held by other orders (enabled, within its dates). */
  usedUp: boolean;
}

/**
 * Spec: {valid, price}. An unknown, disabled, expired or used-up code is `valid: false` with the list price
 * (a failed campaign is treated as no discount); an empty code is simply the list price.
 *
 * A use is claimed when an order is booked and held while that order is open or paid; an order that ends unpaid
 * gives it back (migrations/0008_campaign_release.sql, per runner since 0010_runner_payments.sql). So a family
 * whose order for these runners is still open holds one of a capped code's uses: for that order (`holder`: the
 * registration and the runners it pays for) the cap does not apply, or booking again would lose the code it holds.
 * A family whose payment failed holds none and claims one again when it retries; if the cap filled meanwhile the
 * code is `usedUp`. A paid order holds its use for its own runners only: a late sibling booked after it needs a
 * use of its own (issue 24).
 */
export async function evaluateCampaign(
  db: Db,
  code: string,
  counts: AgeCounts,
  now: number,
  options: { builtins: BuiltinCampaigns; holder?: CampaignHolder | null; season?: Season },
): Promise<CampaignEvaluation> {
  const season = options.season ?? SEASON;
  const listPrice = listTotal(counts, now, season);
  const campaign = await findCampaign(db, code, options.builtins);
  if (!campaign) return { valid: false, price: listPrice, campaign: null, usedUp: false };
  const full = campaign.maxUses !== null && campaign.uses >= campaign.maxUses;
  const holdsUse =
    full && options.holder != null && (await registrationHoldsCampaign(db, options.holder, campaign.code));
  if (!isCampaignValidAt(holdsUse ? { ...campaign, maxUses: null } : campaign, now)) {
    const usedUp = full && isCampaignValidAt({ ...campaign, maxUses: null }, now);
    return { valid: false, price: listPrice, campaign: null, usedUp };
  }
  return { valid: true, price: campaignTotal(campaign.rule, counts, now, season), campaign, usedUp: false };
}

/** Orders that hold their code's use: an order that ended unpaid gave it back (0010_runner_payments.sql). */
const HOLDING_STATUSES = ["CREATED", "PAID"];

/**
 * The order a use is asked for: a registration's, for the runners it would pay for (the ones not paid yet, which is
 * every runner the first time and a late sibling after a paid order).
 */
export interface CampaignHolder {
  registrationId: string;
  runnerIds: readonly string[];
}

/**
 * SQL true when the registration has an open or paid order with this code for one of the same runners, which holds
 * the use this order would share: booking again while an order is open (or was paid meanwhile) for these runners
 * takes no second use. A use belongs to the runners an order pays for, so a paid order does not cover a later order
 * for other runners (a late sibling, issue 24): that one claims a use of its own. The release trigger
 * (migrations/0010_runner_payments.sql `campaign_release_on_failed_order`) gives a failed order's use back by the
 * same rule.
 */
function holdsUse(code: string, holder: CampaignHolder | null) {
  return holder === null || holder.runnerIds.length === 0
    ? sql`0`
    : sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${holdingOrder(code, holder)})`;
}

/** The condition on `payments` of holdsUse. */
function holdingOrder(code: string, holder: CampaignHolder) {
  return and(
    eq(payments.registrationId, holder.registrationId),
    eq(payments.kampanj, code),
    inArray(payments.status, HOLDING_STATUSES),
    sql`EXISTS (SELECT 1 FROM json_each(${payments.participantIds}) AS covered
      WHERE covered.value IN (SELECT value FROM json_each(${JSON.stringify(holder.runnerIds)})))`,
  )!;
}

/** Enabled and not past its last valid moment (inclusive), as `isCampaignValidAt` says. */
function usableAt(now: number) {
  return and(
    eq(campaignCodes.disabled, false),
    or(isNull(campaignCodes.validUntil), gte(campaignCodes.validUntil, now)),
  )!;
}

/**
 * SQL true when the code can be used by this registration now: it exists, is enabled and valid, and either has a
 * use left or the registration already holds one for these runners (src/worker/payments/payments-db.ts
 * insertOrderPayment guards on it).
 */
export function campaignUsable(code: string, holder: CampaignHolder, now: number) {
  const wanted = normalizeCode(code);
  return sql`EXISTS (SELECT 1 FROM ${campaignCodes} WHERE ${campaignCodes.code} = ${wanted} AND ${usableAt(now)}
    AND (${campaignCodes.maxUses} IS NULL OR ${campaignCodes.uses} < ${campaignCodes.maxUses}
      OR ${holdsUse(wanted, holder)}))`;
}

/**
 * The claim of one use as one statement: it counts only while the code is enabled, valid and under its cap (so
 * two families booking the last use at the same moment cannot both get it, and a code disabled or expired a moment
 * ago is not used), and not for an order whose registration already holds a use for its runners (`holder`; null
 * for a box-office sale, which always claims one). For a D1 batch (insertOrderPayment, the box office).
 */
export function claimCampaignUseStatement(db: Db, code: string, now: number, holder: CampaignHolder | null) {
  const wanted = normalizeCode(code);
  return db
    .update(campaignCodes)
    .set({ uses: sql`${campaignCodes.uses} + 1` })
    .where(
      and(
        eq(campaignCodes.code, wanted),
        usableAt(now),
        or(isNull(campaignCodes.maxUses), lt(campaignCodes.uses, campaignCodes.maxUses)),
        sql`NOT ${holdsUse(wanted, holder)}`,
      ),
    )
    .returning({ uses: campaignCodes.uses });
}

/**
 * Counts one use of a code (claimCampaignUseStatement on its own). False = used up, disabled, expired or unknown.
 * A built-in code gets its row first, so the organiser's settings apply to it.
 */
export async function claimCampaignUse(
  db: Db,
  code: string,
  now: number,
  builtins: BuiltinCampaigns,
): Promise<boolean> {
  if ((await findCampaign(db, code, builtins)) === null) return false;
  await ensureCampaignRow(db, code, now, builtins);
  return (await claimCampaignUseStatement(db, code, now, null).get()) !== undefined;
}

/**
 * A built-in code works from the configuration before its row exists; an order's claim needs the row, and the
 * configuration stays the truth for its rule, end and cap (ensureBuiltinCampaigns).
 */
export async function ensureCampaignRow(db: Db, code: string, now: number, builtins: BuiltinCampaigns): Promise<void> {
  if (findBuiltin(builtins, code)) await ensureBuiltinCampaigns(db, now, builtins);
}

/**
 * Whether this registration has an open or paid order with this code for one of these runners, which holds the use
 * their order shares (as holdsUse).
 */
export async function registrationHoldsCampaign(db: Db, holder: CampaignHolder, code: string): Promise<boolean> {
  if (holder.runnerIds.length === 0) return false;
  const row = await db
    .select({ id: payments.id })
    .from(payments)
    .where(holdingOrder(normalizeCode(code), holder))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * Whether a payment of this registration that carried this code ended unpaid (declined, failed, withdrawn or given
 * up): the family booked with the code, and the use it claimed went back. A paid order does not count: a late
 * sibling refused a code its first payment used up never had a payment fail.
 */
export async function registrationTriedCampaign(db: Db, registrationId: string, code: string): Promise<boolean> {
  const row = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.registrationId, registrationId),
        eq(payments.kampanj, normalizeCode(code)),
        notInArray(payments.status, HOLDING_STATUSES),
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}

export interface CampaignListEntry extends CampaignCode {
  /** Paid orders (any season) that used the code, from the payments. */
  paidOrders: number;
}

/**
 * Built-in codes first, then the organiser's, alphabetically. A built-in row whose word is no longer configured is
 * left out (it is never accepted either).
 */
export async function listCampaigns(db: Db, builtins: BuiltinCampaigns): Promise<CampaignListEntry[]> {
  const [rows, usage] = await Promise.all([
    db.select().from(campaignCodes).all(),
    db
      .select({ kampanj: payments.kampanj, paid: sql<number>`count(*)` })
      .from(payments)
      .where(and(eq(payments.status, "PAID"), sql`${payments.kampanj} IS NOT NULL`))
      .groupBy(payments.kampanj)
      .all(),
  ]);
  const paid = new Map(usage.map((u) => [u.kampanj, Number(u.paid)]));
  return rows
    .map(fromRow)
    .flatMap((c) => {
      if (!c) return [];
      if (!c.builtin) return [c];
      const builtin = isRefusedWord(builtins, c.code) ? null : findBuiltin(builtins, c.code);
      return builtin ? [withConfig(c, builtin)] : [];
    })
    .map((c) => ({ ...c, paidOrders: paid.get(c.code) ?? 0 }))
    .sort((a, b) => Number(b.builtin) - Number(a.builtin) || a.code.localeCompare(b.code));
}

export interface NewCampaign {
  code: string;
  rule: CampaignRule;
  validUntil: number | null;
  maxUses: number | null;
  note: string;
  createdBy: string;
}

/**
 * False when the code already exists (built-in codes count as existing), or is a word this Worker never accepts
 * (a demo word in production).
 */
export async function createCampaign(
  db: Db,
  c: NewCampaign,
  now: number,
  builtins: BuiltinCampaigns,
): Promise<boolean> {
  const code = normalizeCode(c.code);
  if (findBuiltin(builtins, code) || isRefusedWord(builtins, code)) return false;
  const row = await db
    .insert(campaignCodes)
    .values({ ...c, code, builtin: false, createdAt: now })
    .onConflictDoNothing()
    .returning({ code: campaignCodes.code })
    .get();
  return row !== undefined;
}

/** False when there is no such code. */
export async function setCampaignDisabled(db: Db, code: string, disabled: boolean): Promise<boolean> {
  const row = await db
    .update(campaignCodes)
    .set({ disabled })
    .where(eq(campaignCodes.code, normalizeCode(code)))
    .returning({ code: campaignCodes.code })
    .get();
  return row !== undefined;
}

/**
 * Erasure (db/erasure.ts): in the organiser's notes of the codes found naming the person (`notes`, read before the
 * batch), each of the person's texts (address, phone) becomes '[raderad]', whatever its case; a note changed since
 * it was read is left (the guard on the old note). Epassi codes' notes are the Epassi invitations' (epassiErasure).
 */
export function campaignNoteErasure(
  d1: D1Database,
  scope: ErasureScope,
  notes: readonly { code: unknown; note: unknown }[],
): ErasureStatement[] {
  return notes.map((row) => {
    let note = String(row.note);
    for (const text of scope.texts) {
      note = note.replace(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), ERASED_TEXT);
    }
    return {
      count: "campaignCodes",
      statement: d1
        .prepare("UPDATE campaign_codes SET note = ?1 WHERE code = ?2 AND note = ?3")
        .bind(note, row.code, row.note),
    };
  });
}

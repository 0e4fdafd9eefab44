/**
 * Campaign codes: the season's built-in ones (src/shared/season.ts) and the organiser's own, both as rows of
 * `campaign_codes`. A built-in code works from the config even before its row exists; once the row exists
 * (seed, admin list or first use) the organiser can disable it or cap its uses there.
 */
import { and, eq, gte, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { AgeCounts } from "../../shared/age";
import { builtinCampaign, EPASSI_RULE, isCampaignRule, isCampaignValidAt, normalizeCode } from "../../shared/campaign";
import { campaignTotal, listTotal } from "../../shared/pricing";
import { SEASON, type BuiltinCampaign, type CampaignRule, type Season } from "../../shared/season";
import { stockholmDeadlineEnd } from "../../shared/stockholm";
import type { Db } from "../db/client";
import { campaignCodes, payments } from "../db/schema";

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

/** What the season config says about a built-in code; D1's row adds the organiser's settings and the uses. */
function builtinFields(c: BuiltinCampaign) {
  return {
    code: normalizeCode(c.code),
    rule: c.rule,
    validUntil: c.validUntil ? lastValidMoment(c.validUntil) : null,
  };
}

/**
 * Makes sure every built-in code of the season has its row. The config stays the truth for rule and end date;
 * what the organiser set in D1 (disabled, max uses) and the use count are kept.
 */
export async function ensureBuiltinCampaigns(db: Db, now: number, season: Season = SEASON): Promise<void> {
  const rows = season.campaigns.map(builtinFields);
  if (rows.length === 0) return;
  const [first, ...rest] = rows.map((r) =>
    db
      .insert(campaignCodes)
      .values({ ...r, builtin: true, createdAt: now, createdBy: "säsongskonfigurationen" })
      .onConflictDoUpdate({
        target: campaignCodes.code,
        set: { rule: r.rule, validUntil: r.validUntil, builtin: true },
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

/** The campaign for a code as typed (any case), from D1 or else the season config; null when unknown. */
export async function findCampaign(db: Db, code: string, season: Season = SEASON): Promise<CampaignCode | null> {
  const wanted = normalizeCode(code);
  if (wanted === "") return null;
  const row = await db.select().from(campaignCodes).where(eq(campaignCodes.code, wanted)).get();
  if (row) return fromRow(row);
  const builtin = builtinCampaign(wanted, season);
  if (!builtin) return null;
  return {
    ...builtinFields(builtin),
    maxUses: null,
    uses: 0,
    disabled: false,
    builtin: true,
    note: "",
  };
}

export interface CampaignEvaluation {
  valid: boolean;
  price: number;
  /** The campaign applied, when valid. */
  campaign: CampaignCode | null;
}

/**
 * Spec: {valid, price}. An unknown, disabled, expired or used-up code is `valid: false` with the list price
 * (a failed campaign is treated as no discount); an empty code is simply the list price.
 *
 * A use is counted when an order is booked, so a family whose payment failed already holds one of a capped
 * code's uses: for that registration (`registrationId`) the cap does not apply, or the family would lose the
 * code it has already used up. An Epassi code's use is held only by an open or paid order (a failed one gives it
 * back, migrations/0007_epassi.sql).
 */
export async function evaluateCampaign(
  db: Db,
  code: string,
  counts: AgeCounts,
  now: number,
  options: { registrationId?: string | null; season?: Season } = {},
): Promise<CampaignEvaluation> {
  const season = options.season ?? SEASON;
  const listPrice = listTotal(counts, now, season);
  const campaign = await findCampaign(db, code, season);
  if (!campaign) return { valid: false, price: listPrice, campaign: null };
  const holdsUse =
    options.registrationId != null &&
    campaign.maxUses !== null &&
    campaign.uses >= campaign.maxUses &&
    (await registrationUsedCampaign(db, options.registrationId, campaign.code, campaign.rule));
  if (!isCampaignValidAt(holdsUse ? { ...campaign, maxUses: null } : campaign, now)) {
    return { valid: false, price: listPrice, campaign: null };
  }
  return { valid: true, price: campaignTotal(campaign.rule, counts, now, season), campaign };
}

/**
 * The registration already has an unpaid order (open or failed) with this code, so its use is already counted and a
 * new order for the same runners takes none; for an Epassi code only an open order counts (a failed one gave its use
 * back). A paid order used its use up: a later order of the registration (a runner added after paying) needs a use
 * of its own.
 */
function holdsUse(code: string, registrationId: string | null) {
  return registrationId === null
    ? sql`0`
    : sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.registrationId} = ${registrationId}
        AND ${payments.kampanj} = ${code} AND ${payments.status} <> 'PAID'
        AND (${payments.status} = 'CREATED' OR NOT EXISTS (SELECT 1 FROM campaign_codes AS held
          WHERE held.code = ${code} AND held.rule = ${EPASSI_RULE})))`;
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
 * use left or the registration already holds one (db/payments.ts insertOrderPayment guards on it).
 */
export function campaignUsable(code: string, registrationId: string, now: number) {
  const wanted = normalizeCode(code);
  return sql`EXISTS (SELECT 1 FROM ${campaignCodes} WHERE ${campaignCodes.code} = ${wanted} AND ${usableAt(now)}
    AND (${campaignCodes.maxUses} IS NULL OR ${campaignCodes.uses} < ${campaignCodes.maxUses}
      OR ${holdsUse(wanted, registrationId)}))`;
}

/**
 * The claim of one use as one statement: it counts only while the code is enabled, valid and under its cap (so
 * two families booking the last use at the same moment cannot both get it, and a code disabled or expired a moment
 * ago is not used), and not for a registration that already holds a use. For a D1 batch (insertOrderPayment).
 */
export function claimCampaignUseStatement(db: Db, code: string, now: number, registrationId: string | null) {
  const wanted = normalizeCode(code);
  return db
    .update(campaignCodes)
    .set({ uses: sql`${campaignCodes.uses} + 1` })
    .where(
      and(
        eq(campaignCodes.code, wanted),
        usableAt(now),
        or(isNull(campaignCodes.maxUses), lt(campaignCodes.uses, campaignCodes.maxUses)),
        sql`NOT ${holdsUse(wanted, registrationId)}`,
      ),
    )
    .returning({ uses: campaignCodes.uses });
}

/**
 * Counts one use of a code (claimCampaignUseStatement on its own). False = used up, disabled, expired or unknown.
 * A built-in code gets its row first, so the organiser's settings apply to it.
 */
export async function claimCampaignUse(db: Db, code: string, now: number, season: Season = SEASON): Promise<boolean> {
  await ensureCampaignRow(db, code, now, season);
  return (await claimCampaignUseStatement(db, code, now, null).get()) !== undefined;
}

/**
 * A built-in code works from the config before its row exists; an order's claim needs the row, and the config
 * stays the truth for its rule and end date (ensureBuiltinCampaigns).
 */
export async function ensureCampaignRow(db: Db, code: string, now: number, season: Season = SEASON): Promise<void> {
  if (builtinCampaign(normalizeCode(code), season)) await ensureBuiltinCampaigns(db, now, season);
}

/**
 * Whether this registration already has an unpaid order (open or failed) with this code, so its use is already
 * counted; for an Epassi code, an open one (as holdsUse).
 */
export async function registrationUsedCampaign(
  db: Db,
  registrationId: string,
  code: string,
  rule?: CampaignRule,
): Promise<boolean> {
  const row = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.registrationId, registrationId),
        eq(payments.kampanj, normalizeCode(code)),
        rule === EPASSI_RULE ? eq(payments.status, "CREATED") : ne(payments.status, "PAID"),
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

/** Built-in codes first, then the organiser's, alphabetically. */
export async function listCampaigns(db: Db): Promise<CampaignListEntry[]> {
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
    .filter((c): c is CampaignCode => c !== null)
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

/** False when the code already exists (built-in codes of the season count as existing). */
export async function createCampaign(db: Db, c: NewCampaign, now: number, season: Season = SEASON): Promise<boolean> {
  const code = normalizeCode(c.code);
  if (builtinCampaign(code, season)) return false;
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

/**
 * Campaign codes. Spec: the code is upper-cased; three built-in codes (flat 50 per person, free order, early-bird
 * −50 until 1 Oct 2025; "their text is not shown"); other codes are validated by the server. Every code is
 * evaluated by the server alone: the words are secrets and live only in the Worker
 * (src/worker/campaigns/builtin-campaigns.ts), never here, since this folder is part of the browser's bundle.
 * A campaign payment's payid contains 'kampanj'.
 */
import { campaignTotal, listTotal } from "./pricing";
import { CAMPAIGN_RULES, SEASON, type CampaignRule, type Season } from "./season";
import { stockholmDeadlineEnd } from "./stockholm";

/** Spec: "Campaign code: upper-cased." Surrounding spaces from a paste are dropped too. */
export function normalizeCode(s: string): string {
  return s.trim().toUpperCase();
}

export function isCampaignRule(x: unknown): x is CampaignRule {
  return typeof x === "string" && (CAMPAIGN_RULES as readonly string[]).includes(x);
}

export interface CampaignValidity {
  /** Last valid moment, inclusive: epoch ms, or a Stockholm date-time (read at its precision, see stockholm.ts). */
  validUntil?: number | string | null;
  disabled?: boolean;
  maxUses?: number | null;
  uses?: number;
}

/**
 * Whether a campaign can be used at `now`: not disabled, not used up (uses < maxUses), and `now` not after
 * validUntil (inclusive). A validUntil string that does not parse makes the campaign invalid rather than
 * eternal.
 */
export function isCampaignValidAt(campaign: CampaignValidity, now: number): boolean {
  if (campaign.disabled) return false;
  if (campaign.maxUses != null && (campaign.uses ?? 0) >= campaign.maxUses) return false;
  const until = campaign.validUntil;
  if (until == null) return true;
  if (typeof until === "number") return now <= until;
  try {
    return now < stockholmDeadlineEnd(until);
  } catch {
    return false;
  }
}

/** Spec: "A payid containing 'kampanj' marks a campaign payment." */
export function isCampaignPayid(payid: unknown): boolean {
  return typeof payid === "string" && payid.includes("kampanj");
}

/**
 * A free order's payid: `kampanj_<CODE>_<unique>`. Payment ids are unique across all registrations, so two
 * families using the same code need different ids; the code stays the second underscore-separated part, so it
 * keeps only characters that cannot split or break the id.
 */
export function campaignPayid(code: string, unique: string): string {
  return `kampanj_${normalizeCode(code).replace(/[^A-Z0-9ÅÄÖ-]/g, "") || "KOD"}_${unique}`;
}

/** A payid for the Worker's logs: a free order's campaign word (`kampanj_<CODE>_…`) left out, since words are secrets. */
export function payidForLog(payid: string): string {
  return isCampaignPayid(payid) ? payid.replace(/^kampanj_[^_]*_/, "kampanj_…_") : payid;
}

/**
 * Admin spec: "A payid containing an underscore shows its second part as a label when the amount is 0."
 * For `kampanj_<CODE>_<unique>` that is the code; null when there is no label to show.
 */
export function payidLabel(payid: string | null | undefined, amount: number | null | undefined): string | null {
  if (amount !== 0 || typeof payid !== "string") return null;
  const label = payid.split("_")[1];
  return label ? label : null;
}

/** Limits of an organiser-made campaign code (the admin form and the server check the same rules). */
export const CAMPAIGN_CODE_PATTERN = /^[A-Z0-9]{3,20}$/;
export const CAMPAIGN_MAX_USES = 100_000;
export const CAMPAIGN_NOTE_MAX = 200;

/** A new code's text, already normalised with normalizeCode: 3–20 of A–Z and 0–9. */
export function isValidCampaignCode(code: string): boolean {
  return CAMPAIGN_CODE_PATTERN.test(code);
}

/**
 * Issue 43: a word that makes an order free or takes off half or more is worth guessing from many addresses, so it
 * must be at least this long (the create-campaign route and scripts/campaign-codes.mjs refuse a shorter one).
 */
export const STRONG_CODE_MIN_LENGTH = 8;

/**
 * Whether `rule` gives a free or large discount: for some one-runner order (a child or an adult, early or late
 * tier) it makes the order free or takes off half or more of the list price. Read from the season's prices, so a
 * change of price or rule keeps the answer true.
 */
export function isLargeDiscount(rule: CampaignRule, season: Season = SEASON): boolean {
  const moments = [0, stockholmDeadlineEnd(season.earlyPriceUntil)];
  const orders = [
    { barn: 1, vuxna: 0 },
    { barn: 0, vuxna: 1 },
  ];
  return moments.some((now) =>
    orders.some((counts) => campaignTotal(rule, counts, now, season) * 2 <= listTotal(counts, now, season)),
  );
}

/** The Swedish refusal of a word too short for its rule, or null when the word may be used. */
export function shortCodeError(code: string, rule: CampaignRule, season: Season = SEASON): string | null {
  if (code.length >= STRONG_CODE_MIN_LENGTH || !isLargeDiscount(rule, season)) return null;
  return `Kampanjkoden ${code} ger gratis eller minst halva priset i rabatt och ska då vara minst ${STRONG_CODE_MIN_LENGTH} tecken, så att den inte kan gissas.`;
}

/** A use limit: a whole number 1–100000 (absent means unlimited). */
export function isValidMaxUses(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= CAMPAIGN_MAX_USES;
}

/**
 * Epassi (wellness-benefit) invitations, admin spec §5: the organiser sends a person a single-use code of rule
 * 'epassi' (one runner's fee waived). The form and the server check the same rules, with the spec's messages.
 */
export const EPASSI_RULE = "epassi" satisfies CampaignRule;
export const EPASSI_NAME_MAX = 100;
export const EPASSI_EMAIL_MAX = 254;
export const EPASSI_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Namnet får vara högst ${EPASSI_NAME_MAX} tecken.`,
  nameCharacters: "Namnet får inte innehålla radbrytningar eller styrtecken.",
  emailRequired: "E-mail is required",
  emailInvalid: "E-mail must be valid",
  sent: "Invitation sent successfully!",
  failed: "Failed to send invitation",
} as const;

/** One address: no spaces, one '@', a dot in the domain, at most 254 characters. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export interface EpassiInvitationInput {
  name: string;
  email: string;
}

/** The name trimmed and the address trimmed and lower-cased, or the spec's message per field. */
export function checkEpassiInvitation(input: {
  name?: unknown;
  email?: unknown;
}): { ok: true; value: EpassiInvitationInput } | { ok: false; errors: Partial<Record<"name" | "email", string>> } {
  const errors: Partial<Record<"name" | "email", string>> = {};
  const name = typeof input.name === "string" ? input.name.trim() : "";
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  if (name === "") errors.name = EPASSI_MESSAGES.nameRequired;
  else if (name.length > EPASSI_NAME_MAX) errors.name = EPASSI_MESSAGES.nameTooLong;
  else if (/[\u0000-\u001f\u007f]/.test(name)) errors.name = EPASSI_MESSAGES.nameCharacters;
  if (email === "") errors.email = EPASSI_MESSAGES.emailRequired;
  else if (email.length > EPASSI_EMAIL_MAX || !EMAIL_SHAPE.test(email)) errors.email = EPASSI_MESSAGES.emailInvalid;
  if (errors.name || errors.email) return { ok: false, errors };
  return { ok: true, value: { name, email } };
}

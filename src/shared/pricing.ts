/**
 * Fees. Spec: "Fees until 6 Sep 2025 23:59: adult 150, child 100. Afterwards: adult 250, child 150."
 * "Total = children × child price + adults × adult price, unless a campaign applies." The server recomputes every
 * total with these functions from the stored runners (DESIGN.md: prices are the server's).
 *
 * An adult running with a child without competing (shared/companion.ts) is counted apart (`medBarn`) and costs the
 * season's companionPrice, in every tier, online and at the box office alike; a campaign does not change that price
 * (it prices the competing runners only): total = children × child + adults × adult + companions × companionPrice.
 */
import type { AgeCounts } from "./age";
import { isAdult } from "./age";
import { SEASON, type CampaignRule, type PriceTier, type Season } from "./season";
import { stockholmDeadlineEnd } from "./stockholm";

/** The flat price per person of the 'flat50' rule and the discount per runner of 'minus50' (spec). */
export const CAMPAIGN_AMOUNT = 50;

/** Early tier up to and including season.earlyPriceUntil (the whole second 23:59:59), late tier afterwards. */
export function isEarlyPrice(now: number, season: Season = SEASON): boolean {
  return now < stockholmDeadlineEnd(season.earlyPriceUntil);
}

export function priceTier(now: number, season: Season = SEASON): PriceTier {
  return isEarlyPrice(now, season) ? season.earlyPrice : season.latePrice;
}

/** One runner's online fee: adult or child price of the current tier. */
export function runnerPrice(age: number, now: number, season: Season = SEASON): number {
  const tier = priceTier(now, season);
  return isAdult(age, season) ? tier.adult : tier.child;
}

/** Counts are checked by the callers' schemas; a bad one here is a bug, so it throws instead of pricing it. */
function assertCounts({ barn, vuxna, medBarn = 0 }: AgeCounts): void {
  for (const n of [barn, vuxna, medBarn]) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Ogiltigt antal: ${n}`);
  }
}

function tierTotal(tier: PriceTier, counts: AgeCounts): number {
  assertCounts(counts);
  return counts.barn * tier.child + counts.vuxna * tier.adult;
}

/** What the companions of an order cost: the season's companionPrice each, whatever the tier or campaign. */
export function companionsTotal(counts: AgeCounts, season: Season = SEASON): number {
  return (counts.medBarn ?? 0) * season.companionPrice;
}

/** Spec: total = children × child price + adults × adult price, in the tier of `now`; plus the companions. */
export function listTotal(counts: AgeCounts, now: number, season: Season = SEASON): number {
  return tierTotal(priceTier(now, season), counts) + companionsTotal(counts, season);
}

/**
 * The total under a campaign rule (spec, built-in codes):
 * - 'flat50': (adults + children) × 50;
 * - 'free': 0;
 * - 'minus50': each adult and child price lowered by 50 from the current tier (never below 0 per runner);
 * - 'epassi': one runner's fee is waived (paid through Epassi), the most expensive one of the order, so the family
 *   pays the list price minus one adult fee when it has an adult, else minus one child fee.
 */
export function campaignTotal(rule: CampaignRule, counts: AgeCounts, now: number, season: Season = SEASON): number {
  assertCounts(counts);
  return competingCampaignTotal(rule, counts, now, season) + companionsTotal(counts, season);
}

/** campaignTotal for the competing runners alone (the companions' price is not the campaign's). */
function competingCampaignTotal(rule: CampaignRule, counts: AgeCounts, now: number, season: Season): number {
  switch (rule) {
    case "flat50":
      return (counts.barn + counts.vuxna) * CAMPAIGN_AMOUNT;
    case "free":
      return 0;
    case "minus50": {
      const tier = priceTier(now, season);
      const lowered = {
        adult: Math.max(0, tier.adult - CAMPAIGN_AMOUNT),
        child: Math.max(0, tier.child - CAMPAIGN_AMOUNT),
      };
      return tierTotal(lowered, counts);
    }
    case "epassi": {
      const tier = priceTier(now, season);
      const fees = [counts.vuxna > 0 ? tier.adult : 0, counts.barn > 0 ? tier.child : 0];
      return tierTotal(tier, counts) - Math.max(...fees);
    }
  }
}

/** The box office's fee on race day (season.onSitePrice, our choice; the spec gives none). */
export function onSitePrice(age: number, season: Season = SEASON, companion = false): number {
  if (companion) return season.companionPrice;
  return isAdult(age, season) ? season.onSitePrice.adult : season.onSitePrice.child;
}

export function onSiteTotal(counts: AgeCounts, season: Season = SEASON): number {
  return tierTotal(season.onSitePrice, counts) + companionsTotal(counts, season);
}

/**
 * Each runner's share of an order's total (`listTotal`, or `campaignTotal` under `rule`), keyed by runner id, in
 * the tier of `now`: what the family sees each runner was booked at. The shares add up to the total:
 * - no campaign: the runner's adult or child price;
 * - 'flat50': 50 each; 'free': 0 each; 'minus50': the runner's price less 50 (never below 0);
 * - 'epassi': the runner's price, except the one whose fee Epassi covers, 0: the first adult in the order given,
 *   or the first child when there is no adult (campaignTotal waives the most expensive fee).
 * A companion's share is the season's companionPrice under every rule.
 */
export function orderPrices(
  runners: readonly { id: string; age: number; companion?: boolean | null }[],
  rule: CampaignRule | null,
  now: number,
  season: Season = SEASON,
): Record<string, number> {
  const tier = priceTier(now, season);
  const listed = (age: number) => (isAdult(age, season) ? tier.adult : tier.child);
  const competing = runners.filter((r) => r.companion !== true);
  const waived =
    rule === "epassi"
      ? (competing.find((r) => isAdult(r.age, season)) ?? competing.find((r) => !isAdult(r.age, season)))?.id
      : undefined;
  const share = (r: { id: string; age: number; companion?: boolean | null }): number => {
    if (r.companion === true) return season.companionPrice;
    switch (rule) {
      case null:
        return listed(r.age);
      case "flat50":
        return CAMPAIGN_AMOUNT;
      case "free":
        return 0;
      case "minus50":
        return Math.max(0, listed(r.age) - CAMPAIGN_AMOUNT);
      case "epassi":
        return r.id === waived ? 0 : listed(r.age);
    }
  };
  return Object.fromEntries(runners.map((r) => [r.id, share(r)]));
}

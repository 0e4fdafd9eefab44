/**
 * The demo season's built-in campaign codes: development and tests only (DEV_MODE "true"). A production Worker
 * takes its built-in codes from the CAMPAIGN_CODES secret and refuses every word of this list, wherever it comes
 * from (campaigns/builtin-campaigns.ts), so a word that is in the repository never gives a discount there.
 *
 * Worker-only: the browser bundle must never hold a code word (eslint forbids src/web and src/shared importing
 * this; test/e2e/client-bundle.test.ts searches the built client for every word).
 */
import type { CampaignRule, StockholmDateTime } from "../../shared/season";

/**
 * The shape of a built-in campaign (campaigns/builtin-campaigns.ts `BuiltinCampaign`), spelled here so this file
 * imports nothing from campaigns/, which imports it (no import cycle, README "Architecture").
 */
interface DemoCampaign {
  code: string;
  rule: CampaignRule;
  validUntil?: StockholmDateTime;
  maxUses?: number;
}

export const DEMO_CAMPAIGNS: readonly DemoCampaign[] = [
  // Spec §9: a flat 50 per person.
  { code: "VANLOPP50", rule: "flat50" },
  // Spec §9: a free order. No maxUses: the default cap of a free code applies (FREE_CODE_DEFAULT_MAX_USES).
  { code: "FRIBILJETT", rule: "free" },
  // Spec §9: the early-bird code, −50 per runner until 1 Oct 2025.
  { code: "TIDIGFAGEL", rule: "minus50", validUntil: "2025-10-01T23:59:59" },
];

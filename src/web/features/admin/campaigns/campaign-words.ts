/** How the admin screen describes a campaign code in words. */
import type { CampaignRule } from "../../../../shared/season";
import type { Campaign } from "./api/get-campaigns";

export const RULE_WORDS: Record<CampaignRule, string> = {
  flat50: "50 kr per person",
  free: "Gratis",
  minus50: "−50 kr per löpare",
  epassi: "En löpare gratis (Epassi)",
};

export type CampaignStatus = "Aktiv" | "Avstängd" | "Utgången" | "Förbrukad";

/** `today` is Stockholm's date 'YYYY-MM-DD' by the server clock; validUntil is the last valid day. */
export function campaignStatus(c: Campaign, today: string): CampaignStatus {
  if (c.disabled) return "Avstängd";
  if (c.validUntil !== null && c.validUntil < today) return "Utgången";
  if (c.maxUses !== null && c.uses >= c.maxUses) return "Förbrukad";
  return "Aktiv";
}

export function usesText(c: Campaign): string {
  return c.maxUses === null ? `${c.uses} (obegränsat)` : `${c.uses} / ${c.maxUses}`;
}

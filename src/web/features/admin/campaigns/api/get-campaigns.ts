/**
 * GET /admin/api/kampanjkoder: every campaign code, the season's built-in ones first, and what was wrong with the
 * CAMPAIGN_CODES secret if it could not be read (its codes are then missing).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CampaignRule } from "../../../../../shared/season";
import { api } from "../../../../lib/api";

export interface Campaign {
  code: string;
  rule: CampaignRule;
  /** Last valid day, 'YYYY-MM-DD' (Stockholm); null = no end. */
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
  disabled: boolean;
  builtin: boolean;
  note: string;
  paidOrders: number;
}

export interface CampaignList {
  campaigns: Campaign[];
  configErrors: string[];
}

export async function getCampaigns(): Promise<CampaignList> {
  const body = await api<{ kampanjkoder: Campaign[]; configErrors?: string[] }>("/admin/api/kampanjkoder");
  return { campaigns: body.kampanjkoder, configErrors: body.configErrors ?? [] };
}

export const campaignsQueryOptions = () => queryOptions({ queryKey: ["admin", "kampanjkoder"], queryFn: getCampaigns });

export function useCampaigns() {
  return useQuery(campaignsQueryOptions());
}

/**
 * GET /admin/api/kampanjkoder: every campaign code, the season's built-in ones first, and what was wrong with the
 * CAMPAIGN_CODES secret if it could not be read (its codes are then missing).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { Campaign, CampaignList, CampaignsAnswer } from "../../../../../shared/api-answers";
export type { Campaign, CampaignList };

export async function getCampaigns(): Promise<CampaignList> {
  const body = await api<CampaignsAnswer>("/admin/api/kampanjkoder");
  return { campaigns: body.kampanjkoder, configErrors: body.configErrors ?? [] };
}

export const campaignsQueryOptions = () => queryOptions({ queryKey: ["admin", "kampanjkoder"], queryFn: getCampaigns });

export function useCampaigns() {
  return useQuery(campaignsQueryOptions());
}

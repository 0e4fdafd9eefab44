/** GET /admin/api/kampanjkoder: every campaign code, the season's built-in ones first. */
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

export async function getCampaigns(): Promise<Campaign[]> {
  const body = await api<{ kampanjkoder: Campaign[] }>("/admin/api/kampanjkoder");
  return body.kampanjkoder;
}

export const campaignsQueryOptions = () => queryOptions({ queryKey: ["admin", "kampanjkoder"], queryFn: getCampaigns });

export function useCampaigns() {
  return useQuery(campaignsQueryOptions());
}

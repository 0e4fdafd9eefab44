/**
 * POST /validate-kampanj: what a campaign code makes of the current children/adults. A query keyed by the
 * code and the counts, so changing any of them re-validates (spec §4). A failure is logged and treated as no
 * discount (spec §8), so the query never throws.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { CampaignCheck, CampaignResult } from "../../../../shared/api-answers";
export type { CampaignCheck, CampaignResult };

export const campaignQueryKeyRoot = ["validate-kampanj"] as const;

export async function validateKampanj(body: CampaignCheck): Promise<CampaignResult | null> {
  try {
    return await api<CampaignResult>("/validate-kampanj", { method: "POST", json: body });
  } catch (err) {
    console.warn("Kampanjkoden kunde inte prövas", err);
    return null;
  }
}

export const validateKampanjQueryOptions = (body: CampaignCheck) =>
  queryOptions({
    queryKey: [...campaignQueryKeyRoot, body.kampanj, body.barn, body.vuxna, body.medBarn ?? 0],
    queryFn: () => validateKampanj(body),
    enabled: body.kampanj !== "" && body.barn + body.vuxna > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useValidateKampanj(body: CampaignCheck) {
  return useQuery(validateKampanjQueryOptions(body));
}

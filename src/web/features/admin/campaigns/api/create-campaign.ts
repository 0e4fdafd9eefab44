/** POST /admin/api/kampanjkoder: a new code. 400 `{error, errors}` per field; 409 when the code exists. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NewCampaign } from "../../../../../shared/api-answers";
import { api } from "../../../../lib/api";
import { campaignsQueryOptions, type Campaign } from "./get-campaigns";

export function createCampaign(body: NewCampaign): Promise<Campaign> {
  return api<Campaign>("/admin/api/kampanjkoder", { method: "POST", json: body });
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryOptions().queryKey }),
  });
}

/** POST /admin/api/kampanjkoder/{code}/disable and …/enable. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { campaignsQueryOptions, type Campaign } from "./get-campaigns";

export function setCampaignEnabled({ code, enabled }: { code: string; enabled: boolean }): Promise<Campaign> {
  return api<Campaign>(`/admin/api/kampanjkoder/${encodeURIComponent(code)}/${enabled ? "enable" : "disable"}`, {
    method: "POST",
  });
}

export function useSetCampaignEnabled() {
  const queryClient = useQueryClient();
  const { queryKey } = campaignsQueryOptions();
  return useMutation({
    mutationFn: setCampaignEnabled,
    onSuccess: (updated) =>
      queryClient.setQueryData(
        queryKey,
        (list) => list && { ...list, campaigns: list.campaigns.map((c) => (c.code === updated.code ? updated : c)) },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}

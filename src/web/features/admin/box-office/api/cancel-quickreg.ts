/** POST /admin/api/quickreg/{payid}/cancel: withdraws the Swish payment (it may turn out to be paid already). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { QuickRegStatus } from "../../../../../shared/box-office";
import { quickRegQueryOptions } from "./get-quickreg";

export function cancelQuickReg(payid: string): Promise<QuickRegStatus> {
  return api<QuickRegStatus>(`/admin/api/quickreg/${encodeURIComponent(payid)}/cancel`, { method: "POST" });
}

export function useCancelQuickReg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelQuickReg,
    onSuccess: (status) => queryClient.setQueryData(quickRegQueryOptions(status.payid).queryKey, status),
  });
}

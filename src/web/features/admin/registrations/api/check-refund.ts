/** POST /admin/api/refunds/{id}/check: asks Swish again about a refund that is not settled yet. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { RefundAnswer } from "./create-refund";

export function checkRefund(id: string): Promise<RefundAnswer> {
  return api<RefundAnswer>(`/admin/api/refunds/${encodeURIComponent(id)}/check`, { method: "POST" });
}

export function useCheckRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkRefund,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["admin", "registrations"] }),
        queryClient.invalidateQueries({ queryKey: ["admin", "box-office-sales"] }),
      ]),
  });
}

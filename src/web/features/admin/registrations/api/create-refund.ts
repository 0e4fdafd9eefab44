/**
 * POST /admin/api/refunds {payid, amount, idempotencyKey, deregister?, companions?}: 201 refunded, 202 sent to Swish
 * and not yet confirmed, 200 the key's earlier refund; 4xx/502 `{error}` in Swedish. `deregister` names runners to
 * take out once the money is back, `companions` the adults those leave without a child. The overview and the box-office sales are fetched again afterwards either way (a refusal is
 * recorded too).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { RefundAnswer, NewRefund } from "../../../../../shared/api-answers";
export type { RefundAnswer, NewRefund };

export function createRefund(body: NewRefund): Promise<RefundAnswer> {
  return api<RefundAnswer>("/admin/api/refunds", { method: "POST", json: body });
}

export function useCreateRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRefund,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["admin", "registrations"] }),
        queryClient.invalidateQueries({ queryKey: ["admin", "box-office-sales"] }),
      ]),
  });
}

/**
 * POST /admin/api/refunds {payid, amount, idempotencyKey}: 201 refunded, 202 sent to Swish and not yet confirmed,
 * 200 the key's earlier refund; 4xx/502 `{error}` in Swedish. The overview is fetched again afterwards either way
 * (a refusal is recorded too).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundRecord } from "../../../../../shared/registrations-overview";
import { api } from "../../../../lib/api";

export interface RefundAnswer {
  payid: string;
  refund: RefundRecord;
  /** Kronor still refundable of the payment. */
  refundable: number;
  repeated: boolean;
}

export interface NewRefund {
  payid: string;
  amount: number;
  idempotencyKey: string;
}

export function createRefund(body: NewRefund): Promise<RefundAnswer> {
  return api<RefundAnswer>("/admin/api/refunds", { method: "POST", json: body });
}

export function useCreateRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRefund,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["admin", "registrations"] }),
  });
}

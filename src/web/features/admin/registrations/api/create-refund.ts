/**
 * POST /admin/api/refunds {payid, amount, idempotencyKey, deregister?, companions?}: 201 refunded, 202 sent to Swish
 * and not yet confirmed, 200 the key's earlier refund; 4xx/502 `{error}` in Swedish. `deregister` names runners to
 * take out once the money is back, `companions` the adults those leave without a child. The overview and the box-office sales are fetched again afterwards either way (a refusal is
 * recorded too).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundRecord, RefundStatus } from "../../../../../shared/registrations-overview";
import { api } from "../../../../lib/api";

export interface RefundAnswer {
  payid: string;
  refund: RefundRecord;
  /** Kronor still refundable of the payment. */
  refundable: number;
  repeated: boolean;
  /** The runners the refund deregisters once PAID. */
  deregister: string[];
  /** What the deregistration did; null until the refund is PAID (or when it deregisters nobody). */
  deregistration: {
    runners: string[];
    keptInRace: { id: string; part: string; state: string }[];
    /** Companions of other payments, refunded from their own (they leave once that is PAID). */
    companionRefunds?: { id: string; refund: string | null; amount: number; status: RefundStatus; error?: string }[];
  } | null;
}

export interface NewRefund {
  payid: string;
  amount: number;
  idempotencyKey: string;
  deregister?: string[];
  /** Companions the deregistered children leave without a child, to take out too ('Ta också bort …'). */
  companions?: string[];
}

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

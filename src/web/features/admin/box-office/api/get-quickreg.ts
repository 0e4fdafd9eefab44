/**
 * GET /admin/api/quickreg/{payid}: a box-office sign-up's payment and, once paid, the runner as the race has it.
 * While the payment is open the server asks Swish itself, so polling this also settles a payment whose callback
 * never came.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentStatus } from "../../../../../shared/payment-protocol";
import { api } from "../../../../lib/api";
import type { PaymentMethod } from "../quickreg-rules";

export interface QuickRegStatus {
  payid: string;
  method: PaymentMethod;
  status: PaymentStatus;
  amount: number;
  errorCode: string | null;
  errorMessage: string | null;
  runner: { firstname: string; lastname: string; age: number; distance: string; group: string; phone: string | null };
  raceId: string;
  requestedBib: number | null;
  added: boolean;
  bib: number | null;
}

export function getQuickReg(payid: string): Promise<QuickRegStatus> {
  return api<QuickRegStatus>(`/admin/api/quickreg/${encodeURIComponent(payid)}`);
}

export const quickRegQueryOptions = (payid: string) =>
  queryOptions({ queryKey: ["admin", "quickreg", payid], queryFn: () => getQuickReg(payid) });

/** While waiting: every `waitingMs` until paid, then every second until the race has the runner. */
export function useQuickReg(payid: string, waitingMs = 3000) {
  return useQuery({
    ...quickRegQueryOptions(payid),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || data.status === "CREATED") return waitingMs;
      return data.status === "PAID" && !data.added ? 1000 : false;
    },
  });
}

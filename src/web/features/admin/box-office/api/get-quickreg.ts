/**
 * GET /admin/api/quickreg/{payid}: a box-office sign-up's payment and, once paid, the runner as the race has it.
 * While the payment is open the server asks Swish itself, so polling this also settles a payment whose callback
 * never came.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { QuickRegStatus } from "../../../../../shared/box-office";
import { api } from "../../../../lib/api";

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

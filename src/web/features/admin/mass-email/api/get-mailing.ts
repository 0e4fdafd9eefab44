/**
 * GET /admin/api/mailings/{id}: a mailing's progress, polled every second until it is done. When done it holds the
 * spec's result {totalRecipients, sentCount, errors}.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { MailingProgress } from "../../../../../shared/api-answers";
export type { MailingProgress };

export const POLL_MS = 1000;

export const mailingQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ["admin", "mailings", id],
    queryFn: () => api<MailingProgress>(`/admin/api/mailings/${id}`),
    refetchInterval: (query) => (query.state.data?.done ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });

export function useMailing(id: number | null) {
  return useQuery({ ...mailingQueryOptions(id ?? 0), enabled: id !== null });
}

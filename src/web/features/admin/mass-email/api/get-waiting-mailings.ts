/**
 * GET /admin/api/mailings/waiting: the mailings left waiting or failed, each mass mailing on its own line and the
 * results mails one line per race (src/shared/mailings.ts). Polled while anything waits, so a line leaves the list
 * once its mail has gone out.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WaitingMailings } from "../../../../../shared/mailings";
import { api } from "../../../../lib/api";

export const WAITING_POLL_MS = 3000;

export const waitingMailingsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "mailings", "waiting"],
    queryFn: () => api<WaitingMailings>("/admin/api/mailings/waiting"),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && data.mailings.length + data.results.length > 0 ? WAITING_POLL_MS : false;
    },
  });

export function useWaitingMailings() {
  return useQuery(waitingMailingsQueryOptions());
}

/**
 * POST /admin/api/mailings/{id}/resume: queues the recipients still waiting again, and tries the ones the provider
 * refused again (nobody gets a second copy). 409 while another resume of the same mailing runs.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { mailingQueryOptions } from "./get-mailing";
import { waitingMailingsQueryOptions } from "./get-waiting-mailings";
import type { MailingResumed } from "../../../../../shared/api-answers";
export type { MailingResumed };

export function resumeMailing(id: number): Promise<MailingResumed> {
  return api<MailingResumed>(`/admin/api/mailings/${id}/resume`, { method: "POST" });
}

export function useResumeMailing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeMailing,
    onSuccess: (result, id) => queryClient.setQueryData(mailingQueryOptions(id).queryKey, result.progress),
    // Not awaited: the caller's own callbacks run at once, while the line it was on is still listed.
    onSettled: () => void queryClient.invalidateQueries(waitingMailingsQueryOptions()),
  });
}

/** POST /admin/api/mailings/{id}/resume: queues the recipients still waiting again (nobody gets a second copy). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { mailingQueryOptions, type MailingProgress } from "./get-mailing";

export interface MailingResumed {
  requeued: number;
  reported: number;
  progress: MailingProgress;
}

export function resumeMailing(id: number): Promise<MailingResumed> {
  return api<MailingResumed>(`/admin/api/mailings/${id}/resume`, { method: "POST" });
}

export function useResumeMailing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeMailing,
    onSuccess: (result, id) => queryClient.setQueryData(mailingQueryOptions(id).queryKey, result.progress),
  });
}

/**
 * POST /admin/api/mailings/results/{race}/resume: hands every results mail of the race still waiting (or refused
 * by the provider) to the queue again; nobody gets a second copy. 409 while another resume of them runs.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MailingsResumed } from "../../../../../shared/mailings";
import { api } from "../../../../lib/api";
import { waitingMailingsQueryOptions } from "./get-waiting-mailings";

export function resumeResultsMails(race: string): Promise<MailingsResumed> {
  return api<MailingsResumed>(`/admin/api/mailings/results/${encodeURIComponent(race)}/resume`, { method: "POST" });
}

export function useResumeResultsMails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeResultsMails,
    // Not awaited: the caller's own callbacks run at once, while the line it was on is still listed.
    onSettled: () => void queryClient.invalidateQueries(waitingMailingsQueryOptions()),
  });
}

/** POST /admin/api/invite/epassi/{id}/resend: the same code by e-mail again (after a failed send). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { invitationsQueryOptions } from "./get-invitations";
import type { SentInvitation } from "./send-invitation";

export function resendInvitation(id: number): Promise<SentInvitation> {
  return api<SentInvitation>(`/admin/api/invite/epassi/${id}/resend`, { method: "POST" });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey }),
  });
}

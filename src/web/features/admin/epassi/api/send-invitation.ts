/**
 * POST /admin/api/invite/epassi {name, email}: 201 `{message, invitation}`. Errors carry `message` (spec) and
 * `errors` per field; a 502 means the invitation was stored but its e-mail did not leave (the list shows it).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EpassiInvitationInput } from "../../../../../shared/campaign";
import { api } from "../../../../lib/api";
import { invitationsQueryOptions } from "./get-invitations";
import type { SentInvitation } from "../../../../../shared/api-answers";
export type { SentInvitation };

export function sendInvitation(body: EpassiInvitationInput): Promise<SentInvitation> {
  return api<SentInvitation>("/admin/api/invite/epassi", { method: "POST", json: body });
}

export function useSendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInvitation,
    // Also after a failed send: the invitation is then listed as not sent.
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey }),
  });
}

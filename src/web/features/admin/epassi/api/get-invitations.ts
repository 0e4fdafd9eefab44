/** GET /admin/api/invite/epassi: every invitation sent, newest first, with what became of its code. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { CodeState, Invitation, InvitationsAnswer } from "../../../../../shared/api-answers";
export type { CodeState, Invitation };

export async function getInvitations(): Promise<Invitation[]> {
  const body = await api<InvitationsAnswer>("/admin/api/invite/epassi");
  return body.invitations;
}

export const invitationsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "epassi", "invitations"], queryFn: getInvitations });

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}

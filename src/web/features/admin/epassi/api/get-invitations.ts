/** GET /admin/api/invite/epassi: every invitation sent, newest first, with what became of its code. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";

export type CodeState = "unused" | "reserved" | "used" | "disabled";

export interface Invitation {
  id: number;
  name: string;
  email: string;
  code: string;
  /** The admin who sent it. */
  createdBy: string;
  /** ISO times. */
  createdAt: string;
  /** Null while the e-mail has never left ('ej skickad'). */
  sentAt: string | null;
  sendError: string | null;
  state: CodeState;
  /** The order that holds (reserved) or used the code. */
  use: { payid: string; registrationEmail: string | null; origin: string; at: string } | null;
}

export async function getInvitations(): Promise<Invitation[]> {
  const body = await api<{ invitations: Invitation[] }>("/admin/api/invite/epassi");
  return body.invitations;
}

export const invitationsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "epassi", "invitations"], queryFn: getInvitations });

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}

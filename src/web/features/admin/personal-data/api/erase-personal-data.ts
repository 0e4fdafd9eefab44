/** POST /admin/api/personal-data/erase {email, confirm}: erases the address (confirm: the address typed again). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { personalDataQueryOptions } from "./get-personal-data";

export interface ErasedCounts {
  registrations: number;
  runners: number;
  payments: number;
  emails: number;
  loginCodes: number;
  loginFailures: number;
  sessions: number;
  unsubscribes: number;
  mailings: number;
  epassiInvitations: number;
  campaignCodes: number;
  auditRows: number;
  /** Runners anonymised in races not yet ended. */
  raceRunners: number;
}

export function erasePersonalData(body: { email: string; confirm: string }): Promise<{ erased: ErasedCounts }> {
  return api<{ erased: ErasedCounts }>("/admin/api/personal-data/erase", { method: "POST", json: body });
}

export function useErasePersonalData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: erasePersonalData,
    onSuccess: (_, { email }) => queryClient.removeQueries({ queryKey: personalDataQueryOptions(email).queryKey }),
  });
}

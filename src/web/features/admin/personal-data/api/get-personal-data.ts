/** GET /admin/api/personal-data?email=…: what is stored about an address, summed up (404 when nothing is). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";

export interface StoredRunner {
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  race: string | null;
}

export interface PersonalDataCounts {
  registrations: number;
  runners: number;
  payments: number;
  refunds: number;
  emails: number;
  loginCodes: number;
  loginFailures: number;
  sessions: number;
  unsubscribes: number;
  mailings: number;
  epassiInvitations: number;
  campaignCodes: number;
  auditRows: number;
}

export interface PersonalDataSummary {
  email: string;
  registrations: { season: number; payid: string | null; paid: boolean; runners: StoredRunner[] }[];
  counts: PersonalDataCounts;
  /** A Swish payment still waiting: erasure has to wait for it. */
  openPayment: boolean;
  admin: boolean;
}

export const personalDataQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ["admin", "personal-data", email],
    queryFn: () => api<PersonalDataSummary>(`/admin/api/personal-data?email=${encodeURIComponent(email)}`),
    enabled: email !== "",
    retry: false,
    staleTime: 0,
  });

export function usePersonalData(email: string) {
  return useQuery(personalDataQueryOptions(email));
}

/** GET /admin/api/personal-data?email=…: what is stored about an address, summed up (404 when nothing is). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PersonalDataSummary } from "../../../../../shared/personal-data";
import { api } from "../../../../lib/api";

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

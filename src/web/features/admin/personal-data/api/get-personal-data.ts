/**
 * GET /admin/api/personal-data?email=…|phone=…|runner=…: what is stored about a family or box-office runners, summed
 * up (404 when nothing is); GET /admin/api/personal-data/box-office?q=…: box-office runners by phone or name.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  personalDataQuery,
  type BoxOfficeRunnersAnswer,
  type PersonalDataKey,
  type PersonalDataSummary,
} from "../../../../../shared/personal-data";
import { api } from "../../../../lib/api";

export const personalDataQueryOptions = (key: PersonalDataKey | null) =>
  queryOptions({
    queryKey: ["admin", "personal-data", key ? personalDataQuery(key) : ""],
    queryFn: () => api<PersonalDataSummary>(`/admin/api/personal-data?${personalDataQuery(key!)}`),
    enabled: key !== null,
    retry: false,
    staleTime: 0,
  });

export function usePersonalData(key: PersonalDataKey | null) {
  return useQuery(personalDataQueryOptions(key));
}

export function useBoxOfficeSearch(q: string) {
  return useQuery({
    queryKey: ["admin", "personal-data", "box-office", q],
    queryFn: () => api<BoxOfficeRunnersAnswer>(`/admin/api/personal-data/box-office?q=${encodeURIComponent(q)}`),
    enabled: q !== "",
    retry: false,
    staleTime: 0,
  });
}

/**
 * GET /api/family/results: the signed-in family's runners' times and placings. On race day, while one of their
 * races runs, the page asks again every 15 s, only while it is visible (react-query pauses intervals in a hidden
 * tab); the Worker reads each race through its isolate's copy (at most 5 s old), so families refreshing wake a race
 * object about once per copy, not once each.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FamilyResults } from "../../../../shared/family-results";
import { api } from "../../../lib/api";

export const FAMILY_RESULTS_REFRESH_MS = 15_000;

export const familyResultsQueryOptions = () =>
  queryOptions({
    queryKey: ["family", "results"],
    queryFn: () => api<FamilyResults>("/api/family/results"),
    staleTime: 5_000,
  });

export function useFamilyResults(enabled: boolean) {
  return useQuery({
    ...familyResultsQueryOptions(),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.races.some((r) => r.state === "started") ? FAMILY_RESULTS_REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });
}

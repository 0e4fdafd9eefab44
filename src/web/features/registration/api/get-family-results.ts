/**
 * GET /api/family/results: the signed-in family's runners' times and placings. While one of their races runs the
 * page asks again every 15 s, and on race day before their races start every 30 s (so the page notices the start
 * by itself), only while it is visible (react-query pauses intervals in a hidden tab); the Worker reads each race
 * through its isolate's copy (at most 5 s old), so families refreshing wake a race object about once per copy, not
 * once each.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FamilyRace, FamilyResults } from "../../../../shared/family-results";
import { stockholmDate } from "../../../../shared/stockholm";
import { api } from "../../../lib/api";
import { useServerClock } from "../../../lib/config/server-clock";

export const FAMILY_RESULTS_REFRESH_MS = 15_000;
export const FAMILY_RACE_DAY_REFRESH_MS = 30_000;

/** How often the family's page asks again: 15 s while a race runs, 30 s on its day before the start, else never. */
export function familyRefreshInterval(races: readonly FamilyRace[] | undefined, today: string): number | false {
  if (!races) return false;
  if (races.some((r) => r.state === "started")) return FAMILY_RESULTS_REFRESH_MS;
  if (races.some((r) => r.state === "" && r.date === today)) return FAMILY_RACE_DAY_REFRESH_MS;
  return false;
}

export const familyResultsQueryOptions = () =>
  queryOptions({
    queryKey: ["family", "results"],
    queryFn: () => api<FamilyResults>("/api/family/results"),
    staleTime: 5_000,
  });

export function useFamilyResults(enabled: boolean) {
  const clock = useServerClock();
  return useQuery({
    ...familyResultsQueryOptions(),
    enabled,
    refetchInterval: (query) => familyRefreshInterval(query.state.data?.races, stockholmDate(clock.now())),
    refetchIntervalInBackground: false,
  });
}

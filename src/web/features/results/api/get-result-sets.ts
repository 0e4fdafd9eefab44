/** GET /api/results: which years and distances have imported results, newest year first. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { PublicResultSet } from "../../../../shared/page-render";

/** Results change a few times a year; the Worker lets browsers keep them 5 minutes too. */
export const RESULTS_STALE_MS = 5 * 60_000;

export function getResultSets(): Promise<PublicResultSet[]> {
  return api<PublicResultSet[]>("/api/results");
}

export const resultSetsQueryOptions = () =>
  queryOptions({ queryKey: ["public", "results"], queryFn: getResultSets, staleTime: RESULTS_STALE_MS });

export function useResultSets() {
  return useQuery(resultSetsQueryOptions());
}

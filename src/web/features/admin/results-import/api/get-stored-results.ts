/**
 * What is stored now: the public `/api/results` and `/api/records`, asked past the browser's cache (the Worker lets
 * visitors keep them 5 minutes), so the list is current right after an import.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { CourseRecord } from "../../../results/api/get-records";
import type { ResultSet } from "../../../results/result-rows";

export const storedResultsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "stored-results"],
    queryFn: () => api<ResultSet[]>("/api/results", { cache: "no-cache" }),
  });

export const storedRecordsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "stored-records"],
    queryFn: () => api<CourseRecord[]>("/api/records", { cache: "no-cache" }),
  });

export function useStoredResults() {
  return useQuery(storedResultsQueryOptions());
}

export function useStoredRecords() {
  return useQuery(storedRecordsQueryOptions());
}

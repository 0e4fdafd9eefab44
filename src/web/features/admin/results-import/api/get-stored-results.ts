/**
 * What is stored now: the public `/api/results` and `/api/records`, asked past the browser's cache (the Worker lets
 * visitors keep them 5 minutes), so the list is current right after an import.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { PublicCourseRecord, PublicResultSet } from "../../../../../shared/page-render";

export const storedResultsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "stored-results"],
    queryFn: () => api<PublicResultSet[]>("/api/results", { cache: "no-cache" }),
  });

export const storedRecordsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "stored-records"],
    queryFn: () => api<PublicCourseRecord[]>("/api/records", { cache: "no-cache" }),
  });

export function useStoredResults() {
  return useQuery(storedResultsQueryOptions());
}

export function useStoredRecords() {
  return useQuery(storedRecordsQueryOptions());
}

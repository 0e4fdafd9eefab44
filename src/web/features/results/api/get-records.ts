/** GET /api/records: the course record per distance (spec: distance, name, year, time). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicCourseRecord } from "../../../../shared/page-render";
import { api } from "../../../lib/api";
import { RESULTS_STALE_MS } from "./get-result-sets";

export function getRecords(): Promise<PublicCourseRecord[]> {
  return api<PublicCourseRecord[]>("/api/records");
}

export const recordsQueryOptions = () =>
  queryOptions({ queryKey: ["public", "records"], queryFn: getRecords, staleTime: RESULTS_STALE_MS });

export function useRecords() {
  return useQuery(recordsQueryOptions());
}

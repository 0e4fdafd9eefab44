/** GET /api/records: the course record per distance (spec: distance, name, year, time). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DistanceKm } from "../../../../shared/distances";
import { api } from "../../../lib/api";
import { RESULTS_STALE_MS } from "./get-result-sets";

export interface CourseRecord {
  distance: DistanceKm;
  name: string;
  /** mm:ss.fff */
  time: string;
  timeMs: number;
  year: number;
}

export function getRecords(): Promise<CourseRecord[]> {
  return api<CourseRecord[]>("/api/records");
}

export const recordsQueryOptions = () =>
  queryOptions({ queryKey: ["public", "records"], queryFn: getRecords, staleTime: RESULTS_STALE_MS });

export function useRecords() {
  return useQuery(recordsQueryOptions());
}

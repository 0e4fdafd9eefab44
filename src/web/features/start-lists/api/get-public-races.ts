/** GET /api/races: every race of every season (the start lists' headings and tabs, the results' current season). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RaceRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getPublicRaces(): Promise<RaceRecord[]> {
  return api<RaceRecord[]>("/api/races");
}

export const publicRacesQueryOptions = () =>
  queryOptions({ queryKey: ["public", "races"], queryFn: getPublicRaces, staleTime: 30_000 });

export function usePublicRaces() {
  return useQuery(publicRacesQueryOptions());
}

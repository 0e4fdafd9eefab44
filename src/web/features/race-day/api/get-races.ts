/** GET /admin/api/races: every race, sorted by part. The hub socket writes its changes into this cache. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RaceRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getRaces(): Promise<RaceRecord[]> {
  return api<RaceRecord[]>("/admin/api/races");
}

export const racesQueryOptions = () => queryOptions({ queryKey: ["admin", "races"], queryFn: getRaces });

export function useRaces() {
  return useQuery(racesQueryOptions());
}

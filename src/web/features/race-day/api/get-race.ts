/**
 * GET /admin/api/races/get/{raceId}: the race record, then its runners. The race socket keeps this cache
 * current, so the race screen does not fetch it again on focus (a late answer could overwrite newer events).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RaceSnapshot } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getRace(raceId: string): Promise<RaceSnapshot> {
  return api<RaceSnapshot>(`/admin/api/races/get/${encodeURIComponent(raceId)}`);
}

export const raceQueryOptions = (raceId: string) =>
  queryOptions({ queryKey: ["admin", "race", raceId], queryFn: () => getRace(raceId) });

export function useRace(raceId: string, { live = false }: { live?: boolean } = {}) {
  return useQuery({
    ...raceQueryOptions(raceId),
    ...(live ? { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false } : {}),
  });
}

/**
 * GET /api/races/get/{part}: the race record, then its runners as a visitor sees them. While a race runs, an open
 * start list asks again every few seconds, only while the page is visible (react-query pauses intervals in a
 * hidden tab); the Worker answers a crowd from a copy at most a second old (src/worker/race-day/races-routes.ts), so spectators
 * never wake the race's object once each.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicRaceSnapshot } from "../../../../shared/race-protocol";
import { stockholmDate } from "../../../../shared/stockholm";
import { api } from "../../../lib/api";
import { useServerClock } from "../../config/server-clock";
import { refreshInterval } from "../start-list";

export function getPublicRace(part: string): Promise<PublicRaceSnapshot> {
  return api<PublicRaceSnapshot>(`/api/races/get/${encodeURIComponent(part)}`);
}

export const publicRaceQueryOptions = (part: string) =>
  queryOptions({ queryKey: ["public", "race", part], queryFn: () => getPublicRace(part), staleTime: 1_000 });

export function usePublicRace(part: string, { live = true }: { live?: boolean } = {}) {
  const clock = useServerClock();
  return useQuery({
    ...publicRaceQueryOptions(part),
    refetchInterval: live ? (query) => refreshInterval(query.state.data?.[0], stockholmDate(clock.now())) : false,
    refetchIntervalInBackground: false,
  });
}

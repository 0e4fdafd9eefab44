/**
 * GET /admin/api/races/review/{raceId}: the race's open review items ('Att granska'), oldest first. The race
 * socket keeps this cache current (its hello snapshot carries every open item, then each change), so the list
 * is the same on every phone and survives a reload: the server keeps it.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReviewRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getReviews(raceId: string): Promise<ReviewRecord[]> {
  return api<ReviewRecord[]>(`/admin/api/races/review/${encodeURIComponent(raceId)}`);
}

export const reviewsQueryOptions = (raceId: string) =>
  queryOptions({ queryKey: ["admin", "race-review", raceId], queryFn: () => getReviews(raceId) });

export function useReviews(raceId: string) {
  return useQuery({
    ...reviewsQueryOptions(raceId),
    // Kept current by the socket: a refetch could land an older list on top of newer events.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

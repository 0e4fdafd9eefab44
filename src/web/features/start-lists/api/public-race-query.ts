/**
 * GET /api/races/get/{part}: the race record, then its runners as a visitor sees them (shared/public-view.ts), and
 * the query that holds it. The start list's hook (get-public-race.ts) reads it; the spectators' socket
 * (spectate-race.ts) writes every change it brings into the same query's cache.
 */
import { queryOptions } from "@tanstack/react-query";
import type { PublicRaceSnapshot } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getPublicRace(part: string): Promise<PublicRaceSnapshot> {
  return api<PublicRaceSnapshot>(`/api/races/get/${encodeURIComponent(part)}`);
}

export const publicRaceQueryOptions = (part: string) =>
  queryOptions({ queryKey: ["public", "race", part], queryFn: () => getPublicRace(part), staleTime: 1_000 });

/** Writes a call's answer into the cached race, so the device that acted sees it before the socket echoes it. */
import type { QueryClient } from "@tanstack/react-query";
import type { RaceRecord, RunnerRecord } from "../../../shared/race-protocol";
import { removeRunner, replaceRace, upsertRunner } from "./apply-race-events";
import { raceQueryOptions } from "./api/get-race";
import { racesQueryOptions } from "./api/get-races";

export function cacheRunner(queryClient: QueryClient, raceId: string, runner: RunnerRecord): void {
  queryClient.setQueryData(raceQueryOptions(raceId).queryKey, (s) => (s ? upsertRunner(s, runner) : s));
}

export function uncacheRunner(queryClient: QueryClient, raceId: string, sort: string): void {
  queryClient.setQueryData(raceQueryOptions(raceId).queryKey, (s) => (s ? removeRunner(s, sort) : s));
}

export function cacheRace(queryClient: QueryClient, race: RaceRecord): void {
  queryClient.setQueryData(raceQueryOptions(race.part).queryKey, (s) => (s ? replaceRace(s, race) : s));
  queryClient.setQueryData(racesQueryOptions().queryKey, (list) => list?.map((r) => (r.part === race.part ? race : r)));
}

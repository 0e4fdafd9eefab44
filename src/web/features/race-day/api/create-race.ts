/** POST /admin/api/races/create-race/{raceId} {date, distance, openForReg}: 409 when the race exists. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RaceRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import type { NewRace, RaceBody } from "../../../../shared/race-requests";
import { racesQueryOptions } from "./get-races";
import { raceDayUrl } from "./race-day-url";

export function createRace({ raceId, date, distance, openForReg }: NewRace): Promise<RaceRecord> {
  return api<RaceRecord>(raceDayUrl(["create-race", raceId]), {
    method: "POST",
    json: { date, distance, openForReg } satisfies RaceBody,
  });
}

export function useCreateRace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRace,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: racesQueryOptions().queryKey }),
  });
}

/**
 * GET /admin/api/races/reset/{raceId}?confirm=APRAKET: back to not started; start, finishes and DNS marks cleared,
 * bibs kept. The server checks the word too; the dialog sends it only once it has been typed.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RESET_WORD, type RaceRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import { cacheRace } from "../race-cache";
import { raceQueryOptions } from "./get-race";
import { raceDayUrl } from "./race-day-url";

export function resetRace(raceId: string): Promise<{ race: RaceRecord }> {
  return api<{ race: RaceRecord }>(raceDayUrl(["reset", raceId], { confirm: RESET_WORD }));
}

export function useResetRace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetRace,
    onSuccess: ({ race }) => {
      cacheRace(queryClient, race);
      // Every runner changed; the socket sends them too, but a device without one must not keep old finishes.
      return queryClient.invalidateQueries({ queryKey: raceQueryOptions(race.part).queryKey });
    },
  });
}

/**
 * GET /admin/api/races/reset/{raceId}?confirm=APRAKET: back to not started; start, finishes and DNS marks cleared,
 * bibs kept. The server refuses a reset without the word (400), so the word the person typed travels with it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RaceRecordAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRace } from "../race-cache";
import { raceQueryOptions } from "./get-race";
import { raceDayUrl } from "./race-day-url";

export function resetRace({ raceId, confirm }: { raceId: string; confirm: string }): Promise<RaceRecordAnswer> {
  return api<RaceRecordAnswer>(raceDayUrl(["reset", raceId], { confirm }));
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

/** GET /admin/api/races/end/{raceId}: 409 unless the race is started and nobody is still running. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RaceRecordAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRace } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function endRace(raceId: string): Promise<RaceRecordAnswer> {
  return api<RaceRecordAnswer>(raceDayUrl(["end", raceId]));
}

export function useEndRace() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: endRace, onSuccess: ({ race }) => cacheRace(queryClient, race) });
}

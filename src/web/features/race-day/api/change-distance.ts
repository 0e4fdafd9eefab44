/** GET /admin/api/races/change-distance/{targetRaceId}/{part}/{sort}: moves a runner to another race of the day. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MoveResult } from "../../../../shared/race-answers";
import type { ChangeDistance } from "../../../../shared/race-requests";
import { api } from "../../../lib/api";
import { uncacheRunner } from "../race-cache";
import { raceQueryOptions } from "./get-race";
import { raceDayUrl } from "./race-day-url";

export function changeDistance({ targetRaceId, raceId, sort }: ChangeDistance): Promise<MoveResult> {
  return api<MoveResult>(raceDayUrl(["change-distance", targetRaceId, raceId, sort]));
}

export function useChangeDistance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeDistance,
    onSuccess: (_answer, { targetRaceId, raceId, sort }) => {
      uncacheRunner(queryClient, raceId, sort);
      return queryClient.invalidateQueries({ queryKey: raceQueryOptions(targetRaceId).queryKey });
    },
  });
}

/** GET /admin/api/races/change-distance/{targetRaceId}/{part}/{sort}: moves a runner to another race of the day. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MoveResult } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { uncacheRunner } from "../race-cache";
import { raceQueryOptions } from "./get-race";
import { raceDayUrl } from "./race-day-url";

export interface ChangeDistance {
  target: string;
  raceId: string;
  sort: string;
}

export function changeDistance({ target, raceId, sort }: ChangeDistance): Promise<MoveResult> {
  return api<MoveResult>(raceDayUrl(["change-distance", target, raceId, sort]));
}

export function useChangeDistance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeDistance,
    onSuccess: (_answer, { target, raceId, sort }) => {
      uncacheRunner(queryClient, raceId, sort);
      return queryClient.invalidateQueries({ queryKey: raceQueryOptions(target).queryKey });
    },
  });
}

/**
 * POST /admin/api/races/restore-time/{raceId}/{seq} {}: the runner of finish event `seq` (a re-record, or a review
 * item applied over a time) gets the time that event replaced back, audited. 409 when it replaced nothing or the
 * runner is gone.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { auditQueryOptions } from "./get-audit";
import { raceDayUrl } from "./race-day-url";

export function restoreTime({ raceId, seq }: { raceId: string; seq: number }): Promise<RunnerAnswer> {
  return api<RunnerAnswer>(raceDayUrl(["restore-time", raceId, seq]), { method: "POST", json: {} });
}

export function useRestoreTime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreTime,
    onSuccess: ({ runner }, { raceId }) => {
      cacheRunner(queryClient, raceId, runner);
      return queryClient.invalidateQueries({ queryKey: auditQueryOptions(raceId).queryKey });
    },
  });
}

/** GET /admin/api/races/restore/{raceId}/{sort}: undoes a finish (only while the race is started). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function restoreRunner({ raceId, sort }: { raceId: string; sort: string }): Promise<RunnerAnswer> {
  return api<RunnerAnswer>(raceDayUrl(["restore", raceId, sort]));
}

export function useRestoreRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreRunner,
    onSuccess: ({ runner }, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

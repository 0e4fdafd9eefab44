/** GET /admin/api/races/restore/{raceId}/{sort}: undoes a finish (only while the race is started). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function restoreRunner({ raceId, sort }: { raceId: string; sort: string }): Promise<{ runner: RunnerRecord }> {
  return api<{ runner: RunnerRecord }>(raceDayUrl(["restore", raceId, sort]));
}

export function useRestoreRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreRunner,
    onSuccess: ({ runner }, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

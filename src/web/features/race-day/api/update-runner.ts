/** POST /admin/api/races/update-runner/{raceId}/{sort}: the edit form of the runner list; every field optional. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import type { RunnerPatch } from "../../../../shared/race-requests";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function updateRunner({
  raceId,
  sort,
  body,
}: {
  raceId: string;
  sort: string;
  body: RunnerPatch;
}): Promise<RunnerRecord> {
  return api<RunnerRecord>(raceDayUrl(["update-runner", raceId, sort]), { method: "POST", json: body });
}

export function useUpdateRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRunner,
    onSuccess: (runner, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

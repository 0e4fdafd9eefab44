/** POST /admin/api/races/add-runner/{raceId} {firstname, lastname, age, bib, group, company}: 400 'felaktig ålder'. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import type { RunnerBody } from "../../../../shared/race-requests";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function addRunner({ raceId, body }: { raceId: string; body: RunnerBody }): Promise<RunnerRecord> {
  return api<RunnerRecord>(raceDayUrl(["add-runner", raceId]), { method: "POST", json: body });
}

export function useAddRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addRunner,
    onSuccess: (runner, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

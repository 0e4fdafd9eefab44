/**
 * GET /admin/api/races/register-bib/{raceId}/{sort}/{bib}: gives a runner a number, or with `next` the next free
 * one of the race's range. 409 "Startnummer N används redan av …" when it is taken.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function registerBib({
  raceId,
  sort,
  bib,
}: {
  raceId: string;
  sort: string;
  bib: number | "next";
}): Promise<RunnerAnswer> {
  return api<RunnerAnswer>(raceDayUrl(["register-bib", raceId, sort, bib]));
}

export function useRegisterBib() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerBib,
    onSuccess: ({ runner }, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

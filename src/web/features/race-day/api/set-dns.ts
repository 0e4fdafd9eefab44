/** GET /admin/api/races/dns/{raceId}/{sort}/{on|off}: marks or unmarks "did not start", so a race can end without them. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunnerAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function setDns({ raceId, sort, dns }: { raceId: string; sort: string; dns: boolean }): Promise<RunnerAnswer> {
  return api<RunnerAnswer>(raceDayUrl(["dns", raceId, sort, dns ? "on" : "off"]));
}

export function useSetDns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDns,
    onSuccess: ({ runner }, { raceId }) => cacheRunner(queryClient, raceId, runner),
  });
}

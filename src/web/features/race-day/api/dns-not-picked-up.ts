/**
 * GET /admin/api/races/dns-not-picked-up/{raceId}?confirm=DNS: after the start, every runner still waiting who
 * never picked up the bib at the desk is marked DNS in one audited action. The server refuses it without the word.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotPickedUpResult } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import { cacheRunner } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export function markNotPickedUpDns({
  raceId,
  confirm,
}: {
  raceId: string;
  confirm: string;
}): Promise<NotPickedUpResult> {
  return api<NotPickedUpResult>(raceDayUrl(["dns-not-picked-up", raceId], { confirm }));
}

export function useMarkNotPickedUpDns(raceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotPickedUpDns,
    // The socket brings the same records; a phone without one sees the marks at once too.
    onSuccess: ({ marked }) => marked.forEach((r) => cacheRunner(queryClient, raceId, r)),
  });
}

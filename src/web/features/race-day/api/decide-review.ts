/**
 * POST /admin/api/races/review/{raceId}/{itemId}/apply {confirm?}: 'Använd', the item taken as it was meant (a
 * finish at the tap's original moment, a start at its press); 409 with the reason when it cannot be (the item stays
 * open), or with `retimes` when it would give other runners new times (retime.ts: sent again with `confirm`).
 * POST …/discard {confirm?}: 'Kasta'. Both are audited; every phone hears the item leave the list over its socket.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewDecision } from "../../../../shared/race-answers";
import type { DecideReview } from "../../../../shared/race-requests";
import { api } from "../../../lib/api";
import { cacheRace, cacheRunner, uncacheDecidedReview } from "../race-cache";
import { auditQueryOptions } from "./get-audit";
import { raceDayUrl } from "./race-day-url";

export function decideReview({ raceId, itemId, action, confirm, photo }: DecideReview): Promise<ReviewDecision> {
  return api<ReviewDecision>(raceDayUrl(["review", raceId, itemId, action]), {
    method: "POST",
    json: { ...(confirm ? { confirm } : {}), ...(photo ? { photo: true } : {}) },
  });
}

export function useDecideReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideReview,
    onSuccess: ({ review, runner, race }, { raceId }) => {
      if (runner) cacheRunner(queryClient, raceId, runner);
      if (race) cacheRace(queryClient, race);
      uncacheDecidedReview(queryClient, review);
      return queryClient.invalidateQueries({ queryKey: auditQueryOptions(raceId).queryKey });
    },
  });
}

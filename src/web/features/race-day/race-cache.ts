/**
 * Writes a call's answer into the cached race, so the device that acted sees it before the socket echoes it.
 * An answer can arrive after the socket already brought a newer state of the same record (another phone acted in
 * between): the records carry the race's sequence number, and an older answer is not written (apply-race-events).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RaceRecord, ReviewRecord, RunnerRecord, WithSeq } from "../../../shared/race-protocol";
import { applyReview, removeRunner, replaceAnswerRace, upsertAnswerRunner } from "./apply-race-events";
import { raceQueryOptions } from "./api/get-race";
import { racesQueryOptions } from "./api/get-races";
import { reviewsQueryOptions } from "./api/get-reviews";

/** The highest seq the race socket has applied, per race (so an answer can be judged against it). */
const liveSeqs = new WeakMap<QueryClient, Map<string, number>>();

export function noteLiveSeq(queryClient: QueryClient, raceId: string, seq: number): void {
  let seqs = liveSeqs.get(queryClient);
  if (!seqs) liveSeqs.set(queryClient, (seqs = new Map()));
  seqs.set(raceId, seq);
}

export function liveSeq(queryClient: QueryClient, raceId: string): number {
  return liveSeqs.get(queryClient)?.get(raceId) ?? 0;
}

export function cacheRunner(queryClient: QueryClient, raceId: string, runner: WithSeq<RunnerRecord>): void {
  const seq = liveSeq(queryClient, raceId);
  queryClient.setQueryData(raceQueryOptions(raceId).queryKey, (s) => (s ? upsertAnswerRunner(s, runner, seq) : s));
}

export function uncacheRunner(queryClient: QueryClient, raceId: string, sort: string): void {
  queryClient.setQueryData(raceQueryOptions(raceId).queryKey, (s) => (s ? removeRunner(s, sort) : s));
}

export function cacheRace(queryClient: QueryClient, race: WithSeq<RaceRecord>): void {
  const seq = liveSeq(queryClient, race.part);
  queryClient.setQueryData(raceQueryOptions(race.part).queryKey, (s) => (s ? replaceAnswerRace(s, race, seq) : s));
  queryClient.setQueryData(racesQueryOptions().queryKey, (list) => list?.map((r) => (r.part === race.part ? race : r)));
}

/**
 * A decided review item from an answer leaves the list at once (a decided item never reopens). Open items are
 * listed from the socket only: an answer carries no seq for them, so a late one could bring back a decided item.
 */
export function uncacheDecidedReview(queryClient: QueryClient, review: ReviewRecord): void {
  if (review.status === "open") return;
  queryClient.setQueryData(reviewsQueryOptions(review.part).queryKey, (list) =>
    list ? (applyReview(list, review) as ReviewRecord[]) : list,
  );
}

/**
 * The current season's results as the results pages see them (issue 28, race day consistent): the imported
 * files, the race list, and for a race that has started but says nothing yet about its results, its finishers
 * counted from its public view (the same query, and so the same copy, as its tab). Such races exist only on race
 * day; they are asked again every 15 s until one of them has a finisher, so a page left open on the 0.8K's start
 * turns to the season's results when the first child crosses the line.
 */
import { useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import { SEASON } from "../../../shared/season";
import { publicRaceQueryOptions } from "../start-lists/api/public-race-query";
import { usePublicRaces } from "../start-lists/api/get-public-races";
import { useResultSets } from "./api/get-result-sets";
import { finishersOf, racesToCount, type FinisherCounts } from "./result-rows";

const COUNT_AGAIN_MS = 15_000;

export function useSeasonResults() {
  const sets = useResultSets();
  const races = usePublicRaces();
  const listed = races.data;
  const toCount = useMemo(() => racesToCount(listed ?? [], SEASON.year), [listed]);
  const counted = useQueries({
    queries: toCount.map((part) => ({
      ...publicRaceQueryOptions(part),
      refetchInterval: (query: { state: { data?: Parameters<typeof finishersOf>[0] } }) =>
        query.state.data && finishersOf(query.state.data) > 0 ? false : COUNT_AGAIN_MS,
      refetchIntervalInBackground: false,
    })),
  });
  const finisherKey = counted.map((q) => (q.data ? finishersOf(q.data) : -1)).join(",");
  const finishers: FinisherCounts = useMemo(() => {
    const map = new Map<string, number>();
    finisherKey.split(",").forEach((n, i) => {
      if (toCount[i] !== undefined && n !== "-1" && n !== "") map.set(toCount[i], Number(n));
    });
    return map;
  }, [finisherKey, toCount]);
  // Without the race list (an error) the imported results still show; the season's races are a bonus. While a
  // race is being counted the races are not known yet (a count that fails counts as none).
  const racesKnown = listed ?? (races.isError ? [] : undefined);
  const counting = counted.some((q) => q.data === undefined && !q.isError);
  return { sets, races, racesKnown: counting ? undefined : racesKnown, finishers };
}

/**
 * GET /api/races/get/{part}: the race record, then its runners as a visitor sees them (shared/public-view.ts).
 * While a race is followed live, the spectators' socket (spectate-race.ts) writes every change into this query's
 * cache as it happens; only while that socket is not open does an open start list ask again, every few seconds
 * while its race runs and only while the page is visible (react-query pauses intervals in a hidden tab). The
 * Worker answers from the race's cached view (the edge, then its own copy), never from the race object, with an
 * ETag that makes an unchanged answer a 304.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { stockholmDate } from "../../../../shared/stockholm";
import { useServerClock } from "../../../lib/config/server-clock";
import { refreshInterval } from "../start-list";
import { publicRaceQueryOptions } from "./public-race-query";
import { useSpectatorSocket } from "./spectate-race";

/**
 * `live`: true for a start list (follows its race while it runs, and on race day before the start: the socket,
 * or polling when the socket is not open); 'race-day' for a results table (follows its race on the race's day
 * through the socket only, e.g. a correction after the end); false reads once.
 */
export function usePublicRace(part: string, { live = true }: { live?: boolean | "race-day" } = {}) {
  const clock = useServerClock();
  const [socketOpen, setSocketOpen] = useState(false);
  const today = stockholmDate(clock.now());
  const query = useQuery({
    ...publicRaceQueryOptions(part),
    refetchInterval:
      live === true && !socketOpen ? (q) => refreshInterval(q.state.data?.[0], stockholmDate(clock.now())) : false,
    refetchIntervalInBackground: false,
    // The socket's view is newer than a poll's: no refetch on focus while it is open.
    refetchOnWindowFocus: !socketOpen,
  });
  const race = query.data?.[0];
  const follow =
    race !== undefined &&
    (live === true ? refreshInterval(race, today) !== false : live === "race-day" && race.date === today);
  useSpectatorSocket(part, follow, setSocketOpen);
  return query;
}

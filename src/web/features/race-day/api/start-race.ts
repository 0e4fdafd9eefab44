/** GET /admin/api/races/start/{raceId}?tap&at: starts the clock at the moment the button was pressed. 409 when already started. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RaceRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import { cacheRace } from "../race-cache";
import { raceDayUrl } from "./race-day-url";

export interface StartAnswer {
  started: number;
  race: RaceRecord;
}

export function startRace({ raceId, tap, at }: { raceId: string; tap: string; at: number }): Promise<StartAnswer> {
  return api<StartAnswer>(raceDayUrl(["start", raceId], { tap, at }));
}

export function useStartRace() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startRace, onSuccess: ({ race }) => cacheRace(queryClient, race) });
}

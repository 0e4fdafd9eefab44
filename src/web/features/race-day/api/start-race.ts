/**
 * GET /admin/api/races/start/{raceId}?tap&at&device&err: the start at the moment 'Starta' was pressed (sent by
 * the tap queue, so a start pressed offline keeps its moment). Another phone's press for the same gun answers
 * 'same-start' (the first start stands); 202 `{outcome: 'review'}` when a person must decide (a second start far
 * from the first, a start far from the race's day and time, a start for an ended race).
 */
import type { StartAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import type { StartItem } from "../tap-queue";
import { raceDayUrl, SEND_TIMEOUT_MS } from "./race-day-url";

export function startRace(raceId: string, { tap, at, device, err }: StartItem): Promise<StartAnswer> {
  return api<StartAnswer>(raceDayUrl(["start", raceId], { tap, at, err, device }), {
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

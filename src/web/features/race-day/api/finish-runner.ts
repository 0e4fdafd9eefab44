/**
 * GET /admin/api/races/finish/{raceId}/{sort}?tap&at&device&rerecord=1&err: one finish tap. Sent by the tap
 * queue, never awaited by a click. A replayed tap id answers its first answer again ('replayed'). 202 with
 * `{outcome: 'review'}`: the race could not take the tap as it was; it is in the race's review list.
 */
import type { FinishAnswer } from "../../../../shared/race-answers";
import { api } from "../../../lib/api";
import type { FinishItem } from "../tap-queue";
import { raceDayUrl, SEND_TIMEOUT_MS } from "./race-day-url";

export function finishRunner(
  raceId: string,
  { sort, tap, at, rerecord, device, err }: FinishItem,
): Promise<FinishAnswer> {
  return api<FinishAnswer>(
    raceDayUrl(["finish", raceId, sort], { tap, at, rerecord: rerecord ? 1 : undefined, err, device }),
    { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
}

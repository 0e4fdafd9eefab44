/**
 * GET /admin/api/races/finish/{raceId}/{sort}?tap&at&rerecord=1: one finish tap. Sent by the tap queue, never
 * awaited by a click. A replayed tap id answers its first result again ('replayed').
 */
import type { RunnerRecord } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";
import type { PendingTap } from "../tap-queue";
import { raceDayUrl } from "./race-day-url";

export interface FinishAnswer {
  finished: number;
  runner: RunnerRecord;
  outcome: "recorded" | "same-finish" | "rerecorded" | "replayed";
}

export function finishRunner(raceId: string, { sort, tap, at, rerecord }: PendingTap): Promise<FinishAnswer> {
  return api<FinishAnswer>(raceDayUrl(["finish", raceId, sort], { tap, at, rerecord: rerecord ? 1 : undefined }));
}

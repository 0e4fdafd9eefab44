/** One queued press to its call, and the answer to what the queue does with it (tap-queue.ts, `SendResult`). */
import {
  isSentToReview,
  type BibAnswer,
  type FinishAnswer,
  type RapidAnswer,
  type StartAnswer,
} from "../../../shared/race-answers";
import { finishRunner } from "./api/finish-runner";
import { enterBib, rapidTap } from "./api/rapid-timing";
import { startRace } from "./api/start-race";
import { stockholmClockTime } from "./race-view";
import { resultOfError, reviewMessage, type KnownItem, type SendResult } from "./tap-queue";

export function finishResult(answer: FinishAnswer): SendResult {
  if (isSentToReview(answer)) return { kind: "review", review: answer.review, message: reviewMessage(answer.review) };
  return { kind: "sent", outcome: answer.outcome, runner: answer.runner };
}

export function startResult(answer: StartAnswer): SendResult {
  if (isSentToReview(answer)) return { kind: "review", review: answer.review, message: reviewMessage(answer.review) };
  const result: SendResult = { kind: "sent", outcome: answer.outcome, race: answer.race };
  if (answer.outcome === "same-start" && answer.race.started !== null) {
    result.message = `Samma start som en annan telefon: starten ${stockholmClockTime(answer.race.started)} gäller.`;
  }
  return result;
}

export function rapidResult(answer: RapidAnswer): SendResult {
  if (isSentToReview(answer)) return { kind: "review", review: answer.review, message: reviewMessage(answer.review) };
  return { kind: "sent", outcome: answer.outcome, slot: answer.slot };
}

/**
 * The race keeps every typed bib in its place (a bib it cannot pair goes on the review list beside it); one typed
 * before the race's start is a review answer, which takes it out of the queue like any press.
 */
export function bibEntryResult(answer: BibAnswer): SendResult {
  if (isSentToReview(answer)) return { kind: "review", review: answer.review, message: reviewMessage(answer.review) };
  const result: SendResult = { kind: "sent", outcome: answer.outcome, entry: answer.entry };
  if (answer.runner) result.runner = answer.runner;
  return result;
}

export async function sendPress(raceId: string, item: KnownItem): Promise<SendResult> {
  try {
    switch (item.kind) {
      case "finish":
        return finishResult(await finishRunner(raceId, item));
      case "start":
        return startResult(await startRace(raceId, item));
      case "rapid":
        return rapidResult(await rapidTap(raceId, item));
      case "bib-entry":
        return bibEntryResult(await enterBib(raceId, item));
    }
  } catch (err) {
    return resultOfError(err);
  }
}

/**
 * What the race-day calls that decide for the organiser take (src/worker/race-day/routes.ts), declared once: the
 * Worker's schemas are typed against these (middleware/validate.ts wireSchema), the SPA's race-day calls
 * (src/web/features/race-day/api/) send them. Their answers are race-answers.ts's.
 */
import type { RetimeConfirm } from "./race-protocol";

/**
 * The body of a decision that may give other runners new times: POST …/review/{raceId}/{itemId}/apply|discard and
 * …/slots/{raceId}/{tapId}/unassign|discard|restore. Without `confirm` such a decision is a 409 `{error, retimes}`
 * (ErrorAnswer in api-answers.ts); `photo`: decided with the finish photo open (Målfoto; the log says so).
 */
export interface DecisionBody {
  confirm?: RetimeConfirm[];
  photo?: true;
}

/** The path of a review item: /admin/api/races/review/{raceId}/{itemId}/… */
export interface ReviewItemKey {
  raceId: string;
  itemId: string;
}

/** 'Använd' (apply) or 'Kasta' (discard) on one review item. */
export type DecideReview = ReviewItemKey & { action: "apply" | "discard" } & DecisionBody;

/** The body of POST …/slots/{raceId}/{tapId}/assign: this runner, by a typed bib or by the runner's sort. */
export type SlotAssignBody = ({ bib: string } | { sort: string }) & DecisionBody;

/** One slot by hand (`tap`: the slot's tap): a runner, or out as a stray tap (…/discard). */
export type SlotAction = { tap: string } & (SlotAssignBody | ({ discard: true } & DecisionBody));

/** The path of GET /admin/api/races/change-distance/{targetRaceId}/{raceId}/{sort}: moves a runner. */
export interface ChangeDistance {
  targetRaceId: string;
  raceId: string;
  sort: string;
}

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

/**
 * The body of POST /admin/api/races/create-race/{raceId} (spec §5's form): the path's id is the one race-id.ts
 * makes of the date and the distance (metres, whole hundreds), or the call is a 400.
 */
export interface RaceBody {
  date: string;
  distance: number;
  openForReg: boolean;
}

/** A new race as the SPA sends it: the id for the path and the body. */
export type NewRace = RaceBody & { raceId: string };

/**
 * The body of POST …/add-runner/{raceId}: a runner added on the race screen. `bib` null (or 0) is no number; the
 * group is 'Ingen', 'Dam' or 'Herr' (400 'felaktig ålder' and the like per field).
 */
export interface RunnerBody {
  firstname: string;
  lastname: string;
  age: number;
  bib: number | null;
  group: string;
  company: string;
}

/** The body of POST …/update-runner/{raceId}/{sort}: the fields that change. */
export type RunnerPatch = Partial<RunnerBody>;

/**
 * The body of POST …/bibs/{raceId}: a bib typed in finish order, with the entry id the phone made for it (a call
 * sent again changes nothing) and when it was typed (server clock, epoch ms).
 */
export interface BibEntryBody {
  entry: string;
  bib: string;
  at?: number;
}

/** The body of POST …/bibs/{raceId}/{entryId}/change: the typed bib corrected in its place. */
export interface BibChangeBody {
  bib: number;
  confirm?: RetimeConfirm[];
}

/** The body of POST …/main-timer/{raceId}: the device whose time a finish two phones timed takes (null: none). */
export interface MainTimerBody {
  mainTimer: string | null;
}

/** The body of POST …/official/{raceId}: `confirm` past open review items. */
export interface OfficialBody {
  confirm?: boolean;
}

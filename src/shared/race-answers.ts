/**
 * What the race object's commands and reads answer (src/durable/race/commands.ts, race-do.ts), and the race-day
 * calls' answers made of them, declared once: the race object's rules build them, the Worker's race-day routes
 * (src/worker/race-day/routes.ts, photo-routes.ts) answer them with `satisfies`, the SPA's race-day calls
 * (src/web/features/race-day/api/) read them. A change on one side the other does not follow fails to compile.
 * The records inside are race-protocol.ts's; a tap's, a typed bib's and a runner's carry their seq (WithSeq).
 */
import type {
  BibEntryRecord,
  PhotoRecord,
  RaceRecord,
  ReviewKind,
  ReviewRecord,
  RunnerRecord,
  SlotRecord,
  WithSeq,
} from "./race-protocol";

// ——— taps: the start, a finish, 'Mål!' (rules/start.ts, finish.ts, rapid.ts) ———

/** The answer of a tap that went to the review list ('Att granska') instead of being taken as it was. */
export interface SentToReview {
  outcome: "review";
  review: ReviewRecord;
}

/** A tap's answer that put it on the review list ('Att granska') instead of into the race. */
export function isSentToReview(x: unknown): x is SentToReview {
  if (typeof x !== "object" || x === null) return false;
  const a = x as { outcome?: unknown; review?: { reason?: unknown } };
  return a.outcome === "review" && typeof a.review?.reason === "string";
}

export type StartOutcome = "started" | "same-start" | "replayed";

export interface StartResult {
  race: RaceRecord;
  outcome: StartOutcome;
}

/** 'applied': an admin applied a tap from the review list. */
export type FinishOutcome = "recorded" | "same-finish" | "rerecorded" | "conflict" | "replayed" | "applied";

export interface FinishResult {
  finished: number;
  runner: RunnerRecord;
  outcome: FinishOutcome;
}

export interface RapidTapResult {
  outcome: "recorded" | "replayed";
  slot: WithSeq<SlotRecord>;
  /** The merged slot's number ('#12') and key, as the race is now (null: the tap is discarded). */
  number: number | null;
  key: string | null;
}

// ——— runners (rules/checkin.ts, move.ts) ———

export interface NotPickedUpResult {
  /** The runners this call marked DNS. */
  marked: RunnerRecord[];
}

/** 'Byt distans' (GET change-distance/…): the runner as the target race has them. */
export interface MoveResult {
  runner: RunnerRecord;
  /** The bib the runner had, when the target race already uses it (the runner then arrives without one). */
  droppedBib?: number;
}

// ——— 'Att granska' (rules/review.ts) ———

/** An admin applied or discarded an item: the item, and the runner or race the apply changed. */
export interface ReviewDecision {
  review: ReviewRecord;
  runner?: RunnerRecord;
  race?: RaceRecord;
}

// ——— rapid timing and official results (rules/bib-entries.ts, slots.ts, results.ts; room.ts) ———

export interface BibEntryResult {
  outcome: "recorded" | "replayed" | "changed" | "removed" | "restored" | "unchanged";
  entry: WithSeq<BibEntryRecord>;
  /** The slot the bib reaches, as the race is now: its key and number (null: none). */
  slot: string | null;
  number: number | null;
  /** The runner paired by it. */
  runner?: RunnerRecord;
  /** Why it pairs nobody: its review item's kind. */
  problem?: ReviewKind;
}

export interface SlotResult {
  outcome: "assigned" | "unassigned" | "discarded" | "restored" | "kept" | "unchanged";
  /** The tap the call named, as it is now. */
  slot: WithSeq<SlotRecord>;
  /** Its merged slot's key and number now (null: discarded). */
  key: string | null;
  number: number | null;
  /** The runner the slot is now, if any. */
  runner?: RunnerRecord;
}

export interface OfficialResult {
  race: RaceRecord;
  outcome: "official";
  /** Open review items the admin confirmed past. */
  openReviews: number;
}

/** Rapid timing as the race object sees it now: the merged, numbered slots and who each one is. */
export interface RapidTiming {
  /** The device whose time a paired finish takes (null: no taps). */
  reference: string | null;
  /** Each device's shift from the reference's timeline, ms. */
  offsets: Record<string, number>;
  slots: {
    key: string;
    number: number;
    at: number;
    taps: { id: string; device: string; at: number }[];
    single: boolean;
    /** The runner it is, and the claim that made it so (a typed bib's entry id, or 'pin-<tap id>'). */
    runnerId: string | null;
    claim: string | null;
  }[];
}

// ——— Målfoto (rules/photos.ts) ———

export interface PhotoResult {
  outcome: "recorded" | "replayed";
  photo: PhotoRecord & { seq: number };
}

// ——— the race-day calls' answers (/admin/api/races/…: src/worker/race-day/routes.ts, photo-routes.ts) ———

/** GET start/{race}: the start's moment beside the race record; 202 with the item when it went to 'Att granska'. */
export type StartAnswer = (StartResult & { started: number | null }) | SentToReview;

/** GET finish/{race}/{sort}: 202 with the item when it went to 'Att granska'. */
export type FinishAnswer = FinishResult | SentToReview;

/** POST rapid/{race} ('Mål!'): 202 with the item when it went to 'Att granska'. */
export type RapidAnswer = RapidTapResult | SentToReview;

/** POST bibs/{race} (a bib typed in finish order): 202 with the item when it was typed before the race's start. */
export type BibAnswer = BibEntryResult | SentToReview;

/** GET restore/…, register-bib/…, dns/…; POST restore-time/…: the runner as the change left them. */
export interface RunnerAnswer {
  runner: RunnerRecord;
}

/** GET end/{race}, reset/{race}; POST main-timer/{race}: the race record as the change left it. */
export interface RaceRecordAnswer {
  race: RaceRecord;
}

/** POST photos-delete/{race} ('Radera målfoton'): the photos the race dropped, and the R2 objects deleted. */
export interface PhotosDeleted {
  deleted: number;
  objects: number;
}

/**
 * What the race object's commands and reads answer (src/durable/race/commands.ts, race-do.ts): the race object's
 * rules build them and the Worker's race-day routes pass them on. The records inside are race-protocol.ts's.
 */
import type {
  BibEntryRecord,
  PhotoRecord,
  RaceRecord,
  ReviewKind,
  ReviewRecord,
  RunnerRecord,
  SlotRecord,
} from "./race-protocol";

// ——— taps: the start, a finish, 'Mål!' (rules/start.ts, finish.ts, rapid.ts) ———

/** The answer of a tap that went to the review list ('Att granska') instead of being taken as it was. */
export interface SentToReview {
  outcome: "review";
  review: ReviewRecord;
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
  slot: SlotRecord;
  /** The merged slot's number ('#12') and key, as the race is now (null: the tap is discarded). */
  number: number | null;
  key: string | null;
}

// ——— runners (rules/checkin.ts, move.ts) ———

export interface NotPickedUpResult {
  /** The runners this call marked DNS. */
  marked: RunnerRecord[];
}

export interface MoveResult {
  runner: RunnerRecord;
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
  entry: BibEntryRecord;
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
  slot: SlotRecord;
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

/**
 * Every change the race takes from the Worker: one member of one union, each with the answer it gets beside it.
 * A route validates its input, builds the command and sends it with the race object's one write entry point
 * (`RaceDO.run`); the room (room.ts) decides it in one exhaustive switch by calling the command's rule. Adding a
 * command is three edits the compiler checks together: its line here, its case in the room's switch, its route.
 *
 * Operations that span objects keep methods of their own on the object: making the race (`init`, from D1's index),
 * a change of distance (`moveRunner`: this race, then the target's `add-runner`, then this race again) and an
 * erasure (`anonymiseRunner`: every race a person may have been in, without making one).
 */
import type { RaceRecord, RetimeConfirm, RunnerRecord } from "../../shared/race-protocol";
import type {
  BibAnswer,
  BibEntryResult,
  FinishAnswer,
  NotPickedUpResult,
  OfficialResult,
  PhotoResult,
  RapidAnswer,
  ReviewDecision,
  SentToReview,
  SlotResult,
  StartResult,
} from "../../shared/race-answers";
import type { PickupAction, PickupResult } from "./rules/checkin";
import type { FinishTap } from "./rules/finish";
import type { PhotoDeletion } from "./rules/photos";
import type { AssignTarget } from "./rules/slots";
import type { AddRunnerOptions, AddRunnerResult, RunnerInput, RunnerPatch, TapInput } from "./types";

/** A start or 'Mål!' tap: its id and moment, and the device's clock-sync error (ms). */
export type TimedTap = TapInput & { err?: number };

/**
 * An action that may re-time runners it does not name (rules/retime.ts): refused with the list of them until it
 * comes again with `confirm`, the organiser's yes to exactly that list.
 */
type Confirmable = { confirm?: RetimeConfirm[] };

/** Each command's fields (`command`) and what it answers (`answer`), by its type. */
interface CommandTable {
  // ——— runners and bibs (rules/runners.ts, rules/bib.ts) ———
  /** A runner joins the race (a paid registration, the box office, the race screen, a change of distance). */
  "add-runner": { command: { runner: RunnerInput; options?: AddRunnerOptions }; answer: AddRunnerResult };
  "update-runner": { command: { runnerId: string; patch: RunnerPatch }; answer: RunnerRecord };
  /** Null when the runner was not in the race. */
  "remove-runner": { command: { runnerId: string }; answer: RunnerRecord | null };
  /** A typed bib, or the next free number of the race's distance. */
  "register-bib": { command: { runnerId: string; bib: number | "next" }; answer: RunnerRecord };

  // ——— the bib desk (rules/checkin.ts) ———
  /** 'Hämtat' (true) or 'Ångra' (false); a replayed action id changes nothing. */
  "pick-up": { command: { runnerIds: string[]; pickedUp: boolean; action?: PickupAction }; answer: PickupResult };
  "bib-at-pickup": { command: { runnerId: string; bib: number | "next" }; answer: RunnerRecord };
  /** 'Markera ej hämtade som DNS': after the start, every waiting runner who never picked up. */
  "dns-not-picked-up": { command: object; answer: NotPickedUpResult };

  // ——— race day (rules/start.ts, finish.ts, dns.ts, end.ts, reset.ts) ———
  /** 'Starta': the start, the same start from another phone, or a start for the review list. */
  start: { command: { tap: TimedTap }; answer: StartResult | SentToReview };
  /** A finish tile tapped, or (a tap the race cannot take as it is) an item for the review list. */
  finish: { command: { runnerId: string; tap: FinishTap }; answer: FinishAnswer };
  /** A finish undone: the runner waits again. */
  "undo-finish": { command: { runnerId: string }; answer: RunnerRecord };
  /** The time finish event `seq` replaced, back on its runner. */
  "restore-time": { command: { seq: number }; answer: RunnerRecord };
  "set-dns": { command: { runnerId: string; dns: boolean }; answer: RunnerRecord };
  end: { command: object; answer: RaceRecord };
  reset: { command: object; answer: RaceRecord };

  // ——— 'Att granska' (rules/review.ts) ———
  "apply-review": { command: { reviewId: string } & Confirmable; answer: ReviewDecision };
  "discard-review": { command: { reviewId: string } & Confirmable; answer: ReviewDecision };

  // ——— rapid timing and official results (rules/rapid.ts, bib-entries.ts, slots.ts, results.ts) ———
  /** 'Mål!': a slot, or (a tap the race cannot take as it is) an item for the review list. */
  "rapid-tap": { command: { tap: TimedTap }; answer: RapidAnswer };
  /**
   * A bib typed in finish order; `at`: when it was typed (server clock): one typed before the race's current start
   * goes to the review list (typed before a reset and sent after it). Without `at` it counts as typed now.
   */
  "enter-bib": { command: { entryId: string; bib: number; at?: number }; answer: BibAnswer };
  "change-bib-entry": { command: { entryId: string; bib: number } & Confirmable; answer: BibEntryResult };
  "remove-bib-entry": { command: { entryId: string } & Confirmable; answer: BibEntryResult };
  "restore-bib-entry": { command: { entryId: string } & Confirmable; answer: BibEntryResult };
  /** 'Ge tiden': the slot holding tap `tapId` is this runner (by bib or id). */
  "assign-slot": { command: { tapId: string; target: AssignTarget } & Confirmable; answer: SlotResult };
  "unassign-slot": { command: { tapId: string } & Confirmable; answer: SlotResult };
  /** 'Kasta tiden': a stray tap, with every tap of its slot. */
  "discard-slot": { command: { tapId: string } & Confirmable; answer: SlotResult };
  "restore-slot": { command: { tapId: string } & Confirmable; answer: SlotResult };
  /** The device whose time a finish two phones timed takes (null: the earliest tap's). */
  "set-main-timer": { command: { device: string | null }; answer: RaceRecord };
  /** 'Officiella': once, on an ended race; `confirm` past open review items. */
  "mark-official": { command: { confirm: boolean }; answer: OfficialResult };

  // ——— Målfoto (rules/photos.ts) ———
  /**
   * Frame `frame` of tap `tapId`'s photo, `bytes` long, is in R2; `limit`: the race's bound (RACE_PHOTO_BYTES);
   * `uploader`: the admin session sending it, whose uploads are rate-limited (rules/photo-uploads.ts).
   */
  "record-photo": {
    command: { tapId: string; frame: number; bytes: number; limit?: number; uploader?: string };
    answer: PhotoResult;
  };
  /** 'Radera målfoton' (organiser) or the 30-day cron (retention): every photo of the race. */
  "delete-photos": { command: { reason: PhotoDeletion }; answer: { deleted: number; taps: string[] } };
}

export type RaceCommandType = keyof CommandTable;

/** One change the race takes: `{type: 'finish', runnerId, tap}`, `{type: 'set-dns', runnerId, dns}` … */
export type RaceCommand = { [K in RaceCommandType]: { type: K } & CommandTable[K]["command"] }[RaceCommandType];

/** The command of this type. */
export type CommandOf<K extends RaceCommandType> = Extract<RaceCommand, { type: K }>;

/** What a command answers. */
export type AnswerOf<C extends { type: RaceCommandType }> = CommandTable[C["type"]]["answer"];

/**
 * Finishes. A runner has one finish time. Each finish tap is stored by its tap id (made on the device), so a
 * replayed tap answers what it answered the first time and changes nothing; a tap id already used for another
 * runner is refused. A tap from another device within SAME_FINISH_WINDOW_MS of the recorded finish is the same
 * finish (earliest kept; beyond it a `conflict`, the earliest still kept); a deliberate re-record (a tap on a
 * tile the device showed as finished, confirmed there, or the spec's bare call) replaces it, and the time it
 * replaced can be restored from the audit trail (`restoreTime`). Every tap is audited.
 *
 * Nothing tapped is lost: a tap with a tap id that the race cannot take as it is goes to the review list
 * (review.ts) instead of being refused: the race not started or ended, the runner not in the race or marked DNS,
 * a moment out of range, or a finish undone (on any phone) after the tap was made. A tap whose moment lies ahead
 * of the server's clock by less than the device's clock-sync error is clamped to now and recorded.
 *
 * An ended race takes no plain tap (it goes to the review list); a re-record confirmed on the phone, or the spec's
 * bare call (no tap id), is an admin's correction and is recorded (rules/end.ts lists what an ended race takes).
 * Undoing a finish (restore) is offered only while the race runs, and not for a time from rapid timing's slots
 * (that is undone by removing or changing the typed bib: rules/bib-entries.ts). Any other new time of a runner
 * whose time came from a slot ends the slot's hold on them (rules/reconcile.ts then puts the slot's claim on the
 * review list).
 */
import { RaceError, SAME_FINISH_WINDOW_MS, type RunnerRecord } from "../../../shared/race-protocol";
import type { SentToReview, FinishOutcome, FinishResult } from "../../../shared/race-answers";
import { reviewRecord, runnerRecord } from "../records";
import type { MetaRow, RaceStore, RunnerRow } from "../storage";
import type { ChangeAuthor, TapInput } from "../types";
import { checkId, checkTapId, tapMoment } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { sendToReview } from "./review-list";
import { liveRunner } from "./runners";

export interface FinishTap extends TapInput {
  rerecord?: boolean;
  /** The device's clock-sync error, ms. */
  err?: number;
}

/**
 * The one way a finish is recorded (the spec's finish call ends here). `rerecord`: the device showed this runner
 * as finished and tapped it anyway (spec: "Tapping an already finished tile … re-records the finish"). The spec's
 * bare call (no tap id) on a finished runner is such a re-record too.
 */
export function finish(context: RuleContext, id: string, tap: FinishTap): Decision<FinishResult | SentToReview> {
  const { store, now } = context;
  const meta = store.requireMeta();
  const runnerId = checkId(id);
  if (tap.tapId !== undefined) {
    const replay = replayed(store, meta, checkTapId(tap.tapId), runnerId);
    if (replay) return decided(replay);
  }
  let at: number;
  let row: RunnerRow;
  try {
    at = tapMoment(tap.at, now, tap.err);
    row = acceptedRunner(store, meta, runnerId, at, tap.tapId !== undefined, tap.rerecord === true);
  } catch (refusal) {
    if (tap.tapId === undefined || !(refusal instanceof RaceError)) throw refusal;
    // The race cannot take it as it is: a person decides (nothing a volunteer tapped disappears).
    const known = store.runnerRow(runnerId);
    return sendToReview(context, {
      id: tap.tapId,
      kind: "tap",
      reason: refusal.message,
      at: tap.at ?? now,
      runnerId,
      runner: known,
    });
  }

  let outcome: FinishOutcome;
  let finished: number;
  if (row.finished === null) {
    outcome = "recorded";
    finished = at;
  } else if (tap.rerecord || !tap.tapId) {
    outcome = "rerecorded";
    finished = at;
  } else {
    // Two devices tapped the same runner, neither knowing of the other: the earliest moment is the finish.
    outcome = Math.abs(at - row.finished) <= SAME_FINISH_WINDOW_MS ? "same-finish" : "conflict";
    finished = Math.min(at, row.finished);
  }
  const extra = tap.at !== undefined && at !== tap.at ? { clampedFrom: tap.at } : {};
  const changed = recordFinish(store, context.by, now, row, { at, finished, tapId: tap.tapId ?? null, outcome, extra });
  return decided(
    { finished, runner: runnerRecord(store.runnerRow(row.id)!, store.requireMeta()), outcome },
    { runners: changed ? [row.id] : [] },
  );
}

export interface FinishWrite {
  /** The tap's moment (after clamping). */
  at: number;
  /** The runner's finish time after this write. */
  finished: number;
  tapId: string | null;
  outcome: FinishOutcome;
  extra?: Record<string, unknown>;
}

/**
 * Writes a finish: the audit row (with the time it replaced, for `restoreTime`), the runner, and the tap for
 * replays, in one transaction. `alsoInTransaction` runs inside it with the change's seq. True when the runner's
 * record changed.
 */
export function recordFinish(
  store: RaceStore,
  by: ChangeAuthor,
  now: number,
  row: RunnerRow,
  write: FinishWrite,
  alsoInTransaction?: (seq: number) => void,
): boolean {
  const changed = write.finished !== row.finished || row.dns === 1;
  store.write(
    "finish",
    {
      id: row.id,
      bib: row.bib,
      at: write.at,
      tapId: write.tapId,
      receivedAt: now,
      outcome: write.outcome,
      previous: row.finished,
      ...write.extra,
    },
    by,
    (seq) => {
      if (changed) {
        // A time from anywhere but a slot ends the slot's hold on the runner (rules/reconcile.ts).
        store.sql(
          "UPDATE runners SET finished = ?, dns = 0, slot = NULL, claim = NULL, seq = ? WHERE id = ?",
          write.finished,
          seq,
          row.id,
        );
      }
      if (write.tapId !== null && write.outcome !== "applied") {
        store.storeTap(write.tapId, "finish", row.id, write.at, now, by, write.outcome, write.finished);
      }
      alsoInTransaction?.(seq);
    },
  );
  return changed;
}

/** Undo a finish (spec: "offered only while the race is started"): the runner is waiting again. */
export function restore({ store, by }: RuleContext, id: string): Decision<RunnerRecord> {
  const meta = store.requireMeta();
  if (meta.state !== "started") {
    throw new RaceError(409, meta.state === "ended" ? "Loppet är avslutat." : "Loppet har inte startat.");
  }
  const row = liveRunner(store, id);
  if (row.slot !== null) {
    throw new RaceError(
      409,
      "Tiden kommer från snabbtidtagningen. Ta bort eller ändra startnumret i målordningen i stället.",
    );
  }
  if (row.finished !== null) {
    store.write("restore", { id: row.id, bib: row.bib, previous: row.finished }, by, (seq) => {
      store.sql("UPDATE runners SET finished = NULL, seq = ? WHERE id = ?", seq, row.id);
    });
  }
  return decided(runnerRecord(store.runnerRow(row.id)!, meta), { runners: row.finished !== null ? [row.id] : [] });
}

/**
 * The time a finish event replaced, back on its runner (a stray re-record undone from the audit trail): one
 * action, audited as 'time-restored'. Allowed on a started or an ended race (an admin's correction).
 */
export function restoreTime({ store, by }: RuleContext, seq: number): Decision<RunnerRecord> {
  const meta = store.requireMeta();
  const event = Number.isSafeInteger(seq) ? store.events(seq - 1).find((e) => e.seq === seq) : undefined;
  if (!event || event.type !== "finish") throw new RaceError(404, "Det finns ingen sådan målgång i loggen.");
  const payload = JSON.parse(event.payload) as { id?: string; previous?: number | null };
  if (typeof payload.previous !== "number") throw new RaceError(409, "Den målgången ersatte ingen tidigare tid.");
  if (meta.state === "") throw new RaceError(409, "Loppet har inte startat.");
  const row = typeof payload.id === "string" ? store.runnerRow(payload.id) : null;
  if (!row || row.moving_to !== null) throw new RaceError(409, "Löparen finns inte längre i loppet.");
  const previous = payload.previous;
  if (row.finished !== previous) {
    store.write(
      "time-restored",
      { id: row.id, bib: row.bib, at: previous, previous: row.finished, from: seq },
      by,
      (changeSeq) => {
        store.sql(
          "UPDATE runners SET finished = ?, dns = 0, slot = NULL, claim = NULL, seq = ? WHERE id = ?",
          previous,
          changeSeq,
          row.id,
        );
      },
    );
  }
  return decided(runnerRecord(store.runnerRow(row.id)!, store.requireMeta()), {
    runners: row.finished !== previous ? [row.id] : [],
  });
}

/** What a replayed tap answered, or null for a new tap id; a tap id reused for another runner is refused. */
function replayed(
  store: RaceStore,
  meta: MetaRow,
  tapId: string,
  runnerId: string,
): FinishResult | SentToReview | null {
  if (store.rapidTap(tapId)) throw reusedTapId();
  const stored = store.tap(tapId);
  if (stored) {
    if (stored.kind !== "finish" || stored.runner_id !== runnerId) throw reusedTapId();
    const row = store.runnerRow(runnerId);
    if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
    return { finished: stored.result, runner: runnerRecord(row, meta), outcome: "replayed" };
  }
  const item = store.review(tapId);
  if (item) {
    if (item.kind !== "tap" || item.runner_id !== runnerId) throw reusedTapId();
    return { outcome: "review", review: reviewRecord(item, meta) };
  }
  return null;
}

function reusedTapId(): RaceError {
  return new RaceError(409, "Tryck-id:t är redan använt för en annan tryckning.");
}

/**
 * The runner a finish at `at` may be recorded for, or the reason the race cannot take it as it is. A queued tap
 * (`fromQueue`: it has a tap id) is also refused for a runner marked DNS (that mark is someone's decision) and for
 * a runner whose finish was undone after the tap was made.
 */
function acceptedRunner(
  store: RaceStore,
  meta: MetaRow,
  id: string,
  at: number,
  fromQueue: boolean,
  rerecord: boolean,
): RunnerRow {
  if (meta.state === "") throw new RaceError(409, "Loppet har inte startat.");
  // An ended race takes an admin's correction (a re-record confirmed on the phone), not a plain queued tap.
  if (meta.state === "ended" && fromQueue && !rerecord) throw new RaceError(409, "Loppet är avslutat.");
  const row = liveRunner(store, id);
  if (meta.started !== null && at < meta.started) throw new RaceError(422, "Tidpunkten ligger före starten.");
  if (fromQueue && row.dns === 1) throw new RaceError(409, "Löparen är markerad som ej startande (DNS).");
  if (fromQueue && row.finished === null) {
    const undone = store.sql<{ at: number | null }>(
      "SELECT MAX(at) AS at FROM events WHERE type = 'restore' AND json_extract(payload, '$.id') = ?",
      row.id,
    )[0]?.at;
    if (undone != null && undone > at) {
      throw new RaceError(409, "Målgången ångrades efter att tryckningen gjordes.");
    }
  }
  return row;
}

/**
 * Finishes. A runner has one finish time. Each finish tap is stored by its tap id (made on the device), so a
 * replayed tap answers what it answered the first time and changes nothing. A tap from another device within
 * SAME_FINISH_WINDOW_MS of the recorded finish is the same finish (earliest kept; beyond it a `conflict`, the
 * earliest still kept); a deliberate re-record (a tap on a tile the device showed as finished, or the spec's bare
 * call) replaces it. Every tap is audited. Undoing a finish (restore) is offered only while the race runs.
 */
import { RaceError, SAME_FINISH_WINDOW_MS, type RunnerRecord } from "../../../shared/race-protocol";
import { runnerRecord } from "../records";
import type { FinishOutcome, FinishResult, TapInput } from "../types";
import { checkTapId, tapMoment } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { liveRunner } from "./runners";

/**
 * The one way a finish is recorded (the spec's finish call ends here). `rerecord`: the device showed this runner
 * as finished and tapped it anyway (spec: "Tapping an already finished tile … re-records the finish"). The spec's
 * bare call (no tap id) on a finished runner is such a re-record too.
 */
export function finish(
  { store, now, by }: RuleContext,
  id: string,
  tap: TapInput & { rerecord?: boolean },
): Decision<FinishResult> {
  const meta = store.requireMeta();
  const replay = tap.tapId === undefined ? null : store.tap(checkTapId(tap.tapId));
  if (replay) {
    const row = replay.runner_id ? store.runnerRow(replay.runner_id) : null;
    if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
    return decided({ finished: replay.result, runner: runnerRecord(row, meta), outcome: "replayed" });
  }
  if (meta.state !== "started") {
    throw new RaceError(409, meta.state === "ended" ? "Loppet är avslutat." : "Loppet har inte startat.");
  }
  const row = liveRunner(store, id);
  const at = tapMoment(tap.at, now, meta.started);

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
  const changed = finished !== row.finished || row.dns === 1;
  store.write(
    "finish",
    { id: row.id, bib: row.bib, at, tapId: tap.tapId ?? null, receivedAt: now, outcome, previous: row.finished },
    by,
    (seq) => {
      if (changed) store.sql("UPDATE runners SET finished = ?, dns = 0, seq = ? WHERE id = ?", finished, seq, row.id);
      store.storeTap(tap.tapId, "finish", row.id, at, now, by, outcome, finished);
    },
  );
  return decided(
    { finished, runner: runnerRecord(store.runnerRow(row.id)!, meta), outcome },
    { runners: changed ? [row.id] : [] },
  );
}

/** Undo a finish (spec: "offered only while the race is started"): the runner is waiting again. */
export function restore({ store, by }: RuleContext, id: string): Decision<RunnerRecord> {
  const meta = store.requireMeta();
  if (meta.state !== "started") {
    throw new RaceError(409, meta.state === "ended" ? "Loppet är avslutat." : "Loppet har inte startat.");
  }
  const row = liveRunner(store, id);
  if (row.finished !== null) {
    store.write("restore", { id: row.id, bib: row.bib, previous: row.finished }, by, (seq) => {
      store.sql("UPDATE runners SET finished = NULL, seq = ? WHERE id = ?", seq, row.id);
    });
  }
  return decided(runnerRecord(store.runnerRow(row.id)!, meta), { runners: row.finished !== null ? [row.id] : [] });
}

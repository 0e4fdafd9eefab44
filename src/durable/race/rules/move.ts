/**
 * "Byt distans": changing distance never loses or doubles a runner, though there is no transaction across two
 * objects:
 *   1. mark the runner as moving (`moving_to`) here: from then on it is out of this race's lists;
 *   2. add it to the target race (idempotent by id; the shell does this, it is a call to another object);
 *   3. remove it here, leaving a tombstone.
 * The alarm retries 2–3 until done; a target that refuses for good (gone, bad input) cancels the move and the
 * runner is back in this race's lists. A runner who has finished stays (the move would drop the finish).
 */
import { isRaceId } from "../../../shared/race-id";
import { RaceError } from "../../../shared/race-protocol";
import type { MoveResult } from "../../../shared/race-answers";
import type { RunnerRow } from "../storage";
import type { AddRunnerResult } from "../types";
import { checkId } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";

/** What can be refused before the target is looked up in D1. */
export function checkMove({ store }: RuleContext, targetPart: string, id: string): RunnerRow {
  const meta = store.requireMeta();
  const runnerId = checkId(id);
  if (!isRaceId(targetPart)) throw new RaceError(404, "Loppet finns inte");
  if (targetPart === meta.part) throw new RaceError(400, "Löparen är redan anmäld till det loppet.");
  const row = store.runnerRow(runnerId);
  if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
  if (row.moving_to !== null && row.moving_to !== targetPart) {
    throw new RaceError(409, "Löparen håller redan på att flyttas till ett annat lopp.");
  }
  if (row.finished !== null) throw new RaceError(409, "Löparen har gått i mål; ångra målgången först.");
  return row;
}

/**
 * Step 1: the runner leaves this race's lists, on its way to `targetPart`. Checked again here, in the same
 * synchronous step as the write: the caller looked the target up in D1 in between, and a finish tap that landed
 * meanwhile keeps the runner here.
 */
export function beginMove(context: RuleContext, targetPart: string, id: string): Decision<RunnerRow> {
  const { store, by } = context;
  const row = checkMove(context, targetPart, id);
  if (row.moving_to !== null) return decided(row);
  store.write("runner-moving", { id: row.id, to: targetPart }, by, (seq) => {
    store.sql("UPDATE runners SET moving_to = ?, seq = ? WHERE id = ?", targetPart, seq, row.id);
  });
  return decided(store.runnerRow(row.id)!, { runners: [row.id] });
}

/** Step 3: the target has the runner; here it becomes a tombstone. */
export function endMove(
  { store, by }: RuleContext,
  row: RunnerRow,
  targetPart: string,
  added: AddRunnerResult,
): Decision<MoveResult> {
  store.write("runner-moved", { id: row.id, to: targetPart, bib: row.bib, droppedBib: added.droppedBib }, by, (seq) =>
    store.tombstone(row.id, seq),
  );
  const result: MoveResult =
    added.droppedBib === undefined ? { runner: added.runner } : { runner: added.runner, droppedBib: added.droppedBib };
  return decided(result, { runners: [row.id], mirror: [row.id] });
}

/** The target refused for good: the runner is back in this race's lists. */
export function cancelMove({ store, by }: RuleContext, id: string, targetPart: string, reason: string): Decision<null> {
  store.write("runner-move-cancelled", { id, to: targetPart, reason }, by, (seq) => {
    store.sql("UPDATE runners SET moving_to = NULL, seq = ? WHERE id = ?", seq, id);
  });
  return decided(null, { runners: [id] });
}

/** A refusal a retry cannot change: the target race is gone or ended, or it refuses the runner's data. */
export function isPermanentRefusal(err: unknown): boolean {
  const e = err as { name?: unknown; status?: unknown; final?: unknown } | null;
  return e?.name === "RaceError" && (e.status === 400 || e.status === 404 || e.final === true);
}

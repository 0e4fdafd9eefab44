/**
 * Deciding an item of 'Att granska' (review-list.ts): apply it with its original moment, or discard it. Both are
 * audited (a finish with outcome 'applied', 'start-moved', or 'review-discarded'), in the same transaction as
 * the item's new status.
 */
import { RaceError } from "../../../shared/race-protocol";
import { reviewRecord, runnerRecord } from "../records";
import type { ReviewDecision } from "../types";
import { decided, type Decision, type RuleContext } from "./decision";
import { recordFinish } from "./finish";
import { close, openItem } from "./review-list";
import { moveStart } from "./start";

/**
 * Applies an item with its original moment: a tap becomes the runner's finish (replacing one they have: a
 * person decided), a start becomes the race's start. Refused with the reason when the race cannot take it even
 * now (not started, the runner gone, a moment before the start); the item then stays open.
 */
export function applyReview(context: RuleContext, id: string): Decision<ReviewDecision> {
  const { store, by, now } = context;
  const item = openItem(context, id);
  const meta = store.requireMeta();
  if (item.kind === "start") {
    const moved = moveStart(context, item.at, id, (seq) => close(context, id, "applied", seq));
    return decided(
      { review: reviewRecord(store.review(id)!, store.requireMeta()), race: moved.value },
      { ...moved.effects, reviews: [id] },
    );
  }
  if (meta.state === "") throw new RaceError(409, "Loppet har inte startat. Starta loppet först.");
  const row = item.runner_id ? store.runnerRow(item.runner_id) : null;
  if (!row || row.moving_to !== null) throw new RaceError(409, "Löparen finns inte längre i loppet.");
  if (meta.started !== null && item.at < meta.started) throw new RaceError(409, "Tidpunkten ligger före starten.");
  recordFinish(
    store,
    by,
    now,
    row,
    { at: item.at, finished: item.at, tapId: null, outcome: "applied", extra: { review: id } },
    (seq) => close(context, id, "applied", seq),
  );
  const updated = store.requireMeta();
  return decided(
    { review: reviewRecord(store.review(id)!, updated), runner: runnerRecord(store.runnerRow(row.id)!, updated) },
    { runners: [row.id], reviews: [id] },
  );
}

export function discardReview(context: RuleContext, id: string): Decision<ReviewDecision> {
  const { store, by } = context;
  const item = openItem(context, id);
  store.write("review-discarded", { id, kind: item.kind, at: item.at }, by, (seq) =>
    close(context, id, "discarded", seq),
  );
  return decided({ review: reviewRecord(store.review(id)!, store.requireMeta()) }, { reviews: [id] });
}

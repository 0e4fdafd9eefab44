/**
 * Deciding an item of 'Att granska' (review-list.ts): apply it with its original moment, or discard it. Both are
 * audited (a finish with outcome 'applied', 'start-moved', 'rapid-tap', or 'review-discarded'), in the same
 * transaction as the item's new status.
 *
 * Rapid timing's kinds (DERIVED_REVIEW_KINDS) are kept from the race's state: applying or discarding one makes the
 * change that removes its problem (race-protocol.ts says which for each kind), audited as that change, and the
 * item is 'resolved' by it (rules/reconcile.ts). A kind that needs a choice (a bib for a slot, one of several
 * suggestions) is refused with what to do; the phone offers each choice as its own call.
 */
import { pinClaimId } from "../../../shared/bib-matching";
import { DERIVED_REVIEW_KINDS, RaceError } from "../../../shared/race-protocol";
import type { ReviewDecision } from "../../../shared/race-answers";
import { reviewRecord, runnerRecord } from "../records";
import type { ReviewRow } from "../storage";
import { changeBibEntry, insertEntry, removeBibEntry } from "./bib-entries";
import { decided, mergeEffects, type Decision, type Effects, type RuleContext } from "./decision";
import { recordFinish } from "./finish";
import { insertRapidTap } from "./rapid";
import { rapidView, reconcile } from "./reconcile";
import { close, openItem } from "./review-list";
import { discardSlot, keepSlot, unassignSlot, useSlotTime } from "./slots";
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
  if (DERIVED_REVIEW_KINDS.includes(item.kind as never)) return decideDerived(context, item, "apply");
  if (item.kind === "rapid") return applyRapid(context, item);
  if (item.kind === "bib-early") return applyEarlyBib(context, item);
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
  if (DERIVED_REVIEW_KINDS.includes(item.kind as never)) return decideDerived(context, item, "discard");
  store.write("review-discarded", { id, kind: item.kind, at: item.at }, by, (seq) =>
    close(context, id, "discarded", seq),
  );
  return decided({ review: reviewRecord(store.review(id)!, store.requireMeta()) }, { reviews: [id] });
}

/** A rapid tap the race could not take: added as a slot at its moment, by the tapping device (a person decided). */
function applyRapid(context: RuleContext, item: ReviewRow): Decision<ReviewDecision> {
  const { store, now, by } = context;
  const meta = store.requireMeta();
  if (meta.state === "") throw new RaceError(409, "Loppet har inte startat. Starta loppet först.");
  if (meta.started !== null && item.at < meta.started) throw new RaceError(409, "Tidpunkten ligger före starten.");
  if (store.rapidTap(item.id)) throw new RaceError(409, "Måltiden finns redan.");
  store.write("rapid-tap", { tapId: item.id, at: item.at, receivedAt: item.created_at, review: item.id }, by, (seq) => {
    insertRapidTap(
      store,
      {
        tapId: item.id,
        at: item.at,
        received: item.created_at,
        by: { actor: item.actor, device: item.device ?? undefined },
        clampedFrom: null,
      },
      seq,
    );
    close(context, item.id, "applied", seq);
  });
  const reconciled = reconcile({ store, now, by });
  return decided(
    { review: reviewRecord(store.review(item.id)!, store.requireMeta()) },
    mergeEffects({ slots: [item.id], reviews: [item.id] }, reconciled.effects),
  );
}

/** A bib typed before the race's start, taken now: it joins the finish order at its end (a person decided). */
function applyEarlyBib(context: RuleContext, item: ReviewRow): Decision<ReviewDecision> {
  const { store, by } = context;
  if (store.bibEntry(item.id)) throw new RaceError(409, "Startnumret finns redan i målordningen.");
  if (item.bib === null) throw new RaceError(409, "Posten har inget startnummer.");
  const bib = item.bib;
  const typist = { actor: item.actor, device: item.device ?? undefined };
  store.write("bib-entered", { entry: item.id, bib, typedAt: item.at, review: item.id }, by, (seq) => {
    insertEntry(store, { id: item.id, bib, by: typist, at: item.at }, seq);
    close(context, item.id, "applied", seq);
  });
  const reconciled = reconcile(context);
  return decided(
    { review: reviewRecord(store.review(item.id)!, store.requireMeta()) },
    mergeEffects({ entries: [item.id], reviews: [item.id] }, reconciled.effects),
  );
}

/**
 * 'Behåll gamla tiden' on a typed bib whose runner already has a time, and 'Ta bort numret' on a bib nobody in the
 * race has, when the bib reaches a slot: that slot was a real crossing (the runner's own, already timed on a tile;
 * or a runner whose bib was mistyped), so the bib and its slot leave together, in one change, and every later bib
 * keeps its slot. Removing the bib alone would move each later bib one slot back, onto the time of the runner
 * before it. A bib that reaches no slot is only removed. The slot can be taken back ('Ta tillbaka').
 */
function dropClaimWithSlot(context: RuleContext, claimId: string): Decision<unknown> | null {
  const { store, by } = context;
  const view = rapidView(store);
  const claim = view.matching.claims.find((c) => c.id === claimId);
  if (!claim || claim.slot === null) return null;
  const slot = view.alignment.slots.find((s) => s.key === claim.slot)!;
  const taps = slot.taps.map((t) => t.id);
  const entry = claim.kind === "entry" ? claim.id : null;
  store.write(
    "bib-removed-with-slot",
    { entry, pin: claim.tapId ?? null, bib: claim.bib, slot: slot.key, number: slot.number, at: slot.at, taps },
    by,
    (seq) => {
      if (entry) store.sql("UPDATE bib_entries SET removed = 1, seq = ? WHERE id = ?", seq, entry);
      for (const id of taps) {
        store.sql(
          "UPDATE rapid_taps SET discarded = ?, pin = NULL, pin_seq = NULL, seq = ? WHERE tap_id = ?",
          seq,
          seq,
          id,
        );
      }
    },
  );
  const reconciled = reconcile(context);
  return decided(null, mergeEffects({ entries: entry ? [entry] : [], slots: taps }, reconciled.effects));
}

/** Apply or discard one of rapid timing's items: the change that removes its problem (module comment). */
function decideDerived(context: RuleContext, item: ReviewRow, action: "apply" | "discard"): Decision<ReviewDecision> {
  const { store } = context;
  const data = JSON.parse(item.data ?? "{}") as {
    slot?: string;
    entry?: string;
    pin?: string;
    suggestions?: { bib: number }[];
  };
  const claimId = data.entry ?? (data.pin ? pinClaimId(data.pin) : "");
  const removeClaim = (): Decision<unknown> => {
    if (data.entry) return removeBibEntry(context, data.entry);
    if (data.pin) return unassignSlot(context, data.pin);
    throw new RaceError(409, "Det finns inget att ta bort.");
  };
  const onlySuggestion = (): Decision<unknown> => {
    const suggestions = data.suggestions ?? [];
    if (!data.entry || suggestions.length === 0)
      throw new RaceError(409, "Det finns inget förslag. Ta bort startnumret eller skriv rätt nummer.");
    if (suggestions.length > 1) throw new RaceError(409, "Välj ett av förslagen.");
    return changeBibEntry(context, data.entry, suggestions[0]!.bib);
  };
  let done: Decision<unknown>;
  let runnerId: string | null = null;
  switch (item.kind) {
    case "slot-single":
      done = action === "apply" ? keepSlot(context, data.slot!) : discardSlot(context, data.slot!);
      break;
    case "slot-unmatched":
      if (action === "apply") throw new RaceError(409, "Ange vilket startnummer måltiden ska ha.");
      done = discardSlot(context, data.slot!);
      break;
    case "bib-unmatched":
      if (action === "apply") {
        throw new RaceError(409, "Det finns ingen måltid för startnumret. Ta bort det, eller tilldela det en måltid.");
      }
      done = removeClaim();
      break;
    case "bib-unknown":
      done = action === "apply" ? onlySuggestion() : (dropClaimWithSlot(context, claimId) ?? removeClaim());
      break;
    case "bib-twice":
      done = action === "apply" ? onlySuggestion() : removeClaim();
      break;
    case "bib-finished": {
      if (action === "apply") {
        done = useSlotTime(context, claimId);
        runnerId = item.runner_id;
        break;
      }
      // A runner marked DNS has no time to keep: the slot is someone's crossing, and only the bib goes.
      const timed = item.runner_id ? store.runnerRow(item.runner_id)?.finished != null : false;
      done = (timed ? dropClaimWithSlot(context, claimId) : null) ?? removeClaim();
      break;
    }
    default:
      throw new RaceError(409, "Det går inte att avgöra den här posten så.");
  }
  const effects: Effects = mergeEffects(done.effects, { reviews: [item.id] });
  const meta = store.requireMeta();
  const decision: ReviewDecision = { review: reviewRecord(store.review(item.id)!, meta) };
  const runner = runnerId ? store.runnerRow(runnerId) : null;
  if (runner) decision.runner = runnerRecord(runner, meta);
  return decided(decision, effects);
}

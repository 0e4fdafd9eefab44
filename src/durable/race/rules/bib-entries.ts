/**
 * Bibs afterwards (issue 26, item 2): 'Startnummer i målordning'. A volunteer types the bibs as the runners
 * crossed the line; the k-th bib typed is matched with the k-th slot nobody assigned by hand (rules/reconcile.ts,
 * src/shared/bib-matching.ts), and that runner's finish time is the slot's time. Each typed bib is stored by the
 * id its device made (a replay answers what the first answered and changes nothing; the id with another bib is
 * refused), in the order bibs reach the race: two phones typing bibs for one race at once interleave, so one phone
 * types them. A bib that is not in the race, typed twice, or whose runner has a time already is still kept in its
 * place (its slot waits) and goes to the review list with the likely meant runners.
 *
 * Changing a typed bib (a suggestion taken), removing one (a bib typed twice, or the undo of the last one) and
 * taking a removal back are audited changes; every pairing they move is its own audited change (reconcile.ts).
 * A bib sent with the moment it was typed is taken in any state of the race but one typed before its current start,
 * which goes to the review list ('bib-early', enterBib); one without (an older phone's queue) is taken as typed now.
 * Bibs only pair with slots, which need a started race; a reset clears them with the slots. Correcting, removing and
 * restoring a typed bib re-pair the bibs after it: the room refuses that until the organiser confirms who gets which
 * time (rules/retime.ts).
 */
import { isTapId, RaceError } from "../../../shared/race-protocol";
import type { SentToReview, BibEntryResult } from "../../../shared/race-answers";
import { bibEntryRecord, reviewRecord, runnerRecord } from "../records";
import type { BibEntryRow, RaceStore } from "../storage";
import type { ChangeAuthor } from "../types";
import { MAX_BIB } from "./checks";
import { decided, mergeEffects, type Decision, type Effects, type RuleContext } from "./decision";
import { sendToReview } from "./review-list";
import { rapidView, reconcile, type RapidView } from "./reconcile";

export function checkEntryId(id: unknown): string {
  if (!isTapId(id)) throw new RaceError(400, "Ogiltigt id för startnumret.");
  return id;
}

/** A bib typed at the finish: a whole number from 1 to MAX_BIB. */
export function checkTypedBib(bib: unknown): number {
  if (typeof bib !== "number" || !Number.isInteger(bib) || bib < 1 || bib > MAX_BIB) {
    throw new RaceError(400, `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}.`);
  }
  return bib;
}

/**
 * A bib typed in finish order. `at`, when the phone sent it, is when it was typed (server clock): a bib typed
 * before the race's current start (typed before a reset and sent after it, or while the race was not started)
 * would join the new race's finish order and take a slot of it, so it goes to 'Att granska' instead ('bib-early'),
 * as a 'Mål!' tap from before the start does. A bib queued by a phone from before `at` was sent has none: it is
 * taken as typed now.
 */
export function enterBib(
  context: RuleContext,
  input: { entryId: string; bib: number; at?: number },
): Decision<BibEntryResult | SentToReview> {
  const { store } = context;
  const id = checkEntryId(input?.entryId);
  const bib = checkTypedBib(input.bib);
  const existing = store.bibEntry(id);
  if (existing) {
    if (existing.typed !== bib) throw new RaceError(409, "Id:t är redan använt för ett annat startnummer.");
    return decided(answer(store, rapidView(store), existing.id, "replayed"));
  }
  const item = store.review(id);
  if (item) {
    if (item.kind !== "bib-early" || item.bib !== bib) {
      throw new RaceError(409, "Id:t är redan använt för ett annat startnummer.");
    }
    return decided({ outcome: "review", review: reviewRecord(item, store.requireMeta()) });
  }
  if (input.at !== undefined) {
    if (!Number.isSafeInteger(input.at) || input.at <= 0) throw new RaceError(400, "Ogiltig tidpunkt.");
    const meta = store.requireMeta();
    const early =
      meta.state === ""
        ? "Startnumret skrevs in innan loppet startade."
        : meta.started !== null && input.at < meta.started
          ? "Startnumret skrevs in före loppets start (före en återställning)."
          : null;
    if (early) {
      const runner = store.runnerWithBib(bib);
      const known = runner && runner.moving_to === null ? runner : null;
      return sendToReview(context, {
        id,
        kind: "bib-early",
        reason: early,
        at: input.at,
        bib,
        runnerId: known?.id,
        runner: known,
      });
    }
  }
  return typeIn(context, id, bib);
}

/** The bib joins the finish order at its end. */
function typeIn(context: RuleContext, id: string, bib: number): Decision<BibEntryResult> {
  const { store, now, by } = context;
  store.write("bib-entered", { entry: id, bib }, by, (seq) => insertEntry(store, { id, bib, by, at: now }, seq));
  return settle(context, id, "recorded");
}

/** A typed bib's row: its place in finish order is the seq it is written with (the end of the order). */
export function insertEntry(
  store: RaceStore,
  entry: { id: string; bib: number; by: ChangeAuthor; at: number },
  seq: number,
): void {
  store.sql(
    `INSERT INTO bib_entries (id, pos, bib, typed, device, actor, at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    entry.id,
    seq,
    entry.bib,
    entry.bib,
    entry.by.device?.slice(0, 200) ?? null,
    (entry.by.actor ?? "system").slice(0, 200),
    entry.at,
    seq,
  );
}

/** A typed bib corrected (a suggestion from the review list taken): it keeps its place in finish order. */
export function changeBibEntry(context: RuleContext, entryId: string, bib: number): Decision<BibEntryResult> {
  const { store, by } = context;
  const entry = liveEntry(store, entryId);
  const next = checkTypedBib(bib);
  if (entry.bib === next) return decided(answer(store, rapidView(store), entry.id, "unchanged"));
  store.write("bib-changed", { entry: entry.id, bib: next, previous: entry.bib }, by, (seq) => {
    store.sql("UPDATE bib_entries SET bib = ?, seq = ? WHERE id = ?", next, seq, entry.id);
  });
  return settle(context, entry.id, "changed");
}

/** A typed bib taken out of finish order (typed twice, or undone): every later bib moves one slot back. */
export function removeBibEntry(context: RuleContext, entryId: string): Decision<BibEntryResult> {
  const { store, by } = context;
  const entry = knownEntry(store, entryId);
  if (entry.removed) return decided(answer(store, rapidView(store), entry.id, "unchanged"));
  store.write("bib-removed", { entry: entry.id, bib: entry.bib }, by, (seq) => {
    store.sql("UPDATE bib_entries SET removed = 1, seq = ? WHERE id = ?", seq, entry.id);
  });
  return settle(context, entry.id, "removed");
}

/** A removal taken back: the bib is back in its place in finish order. */
export function restoreBibEntry(context: RuleContext, entryId: string): Decision<BibEntryResult> {
  const { store, by } = context;
  const entry = knownEntry(store, entryId);
  if (!entry.removed) return decided(answer(store, rapidView(store), entry.id, "unchanged"));
  store.write("bib-restored", { entry: entry.id, bib: entry.bib }, by, (seq) => {
    store.sql("UPDATE bib_entries SET removed = 0, seq = ? WHERE id = ?", seq, entry.id);
  });
  return settle(context, entry.id, "restored");
}

function settle(context: RuleContext, id: string, outcome: BibEntryResult["outcome"]): Decision<BibEntryResult> {
  const reconciled = reconcile(context);
  const effects: Effects = mergeEffects({ entries: [id] }, reconciled.effects);
  return decided(answer(context.store, reconciled.view ?? rapidView(context.store), id, outcome), effects);
}

function knownEntry(store: RaceStore, entryId: string): BibEntryRow {
  const entry = isTapId(entryId) ? store.bibEntry(entryId) : null;
  if (!entry || entry.cleared) throw new RaceError(404, "Startnumret finns inte i målordningen.");
  return entry;
}

function liveEntry(store: RaceStore, entryId: string): BibEntryRow {
  const entry = knownEntry(store, entryId);
  if (entry.removed) throw new RaceError(409, "Startnumret är borttaget ur målordningen. Ta tillbaka det först.");
  return entry;
}

function answer(store: RaceStore, view: RapidView, id: string, outcome: BibEntryResult["outcome"]): BibEntryResult {
  const meta = store.requireMeta();
  const row = store.bibEntry(id)!;
  const claim = view.matching.claims.find((c) => c.id === id);
  const slot = claim?.slot ?? null;
  const result: BibEntryResult = {
    outcome,
    entry: bibEntryRecord(row, meta),
    slot,
    number: slot === null ? null : (view.alignment.slots.find((s) => s.key === slot)?.number ?? null),
  };
  const pair = view.matching.pairs.find((p) => p.claim === id);
  const runner = pair ? store.runnerRow(pair.runnerId) : null;
  if (runner) result.runner = runnerRecord(runner, meta);
  const problem = view.matching.problems.find((p) => "claim" in p && p.claim.id === id);
  if (problem) result.problem = problem.kind;
  return result;
}

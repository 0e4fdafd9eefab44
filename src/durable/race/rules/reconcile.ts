/**
 * Rapid timing's state, kept true after every change (issue 26). From what is stored (every device's 'Mål!' taps,
 * the bibs typed in finish order, the slots assigned or discarded by hand, the main timer) two pure functions say
 * what the race should be: the merged, numbered slots (src/shared/timer-alignment.ts) and which runner each slot is
 * (src/shared/bib-matching.ts). This rule makes the race so, in the same synchronous step as the change that
 * called it:
 *
 * - each runner whose pairing changed gets the slot's time ('slot-paired') or loses it ('slot-unpaired'): one
 *   audited change per runner, numbered by its own seq, so the log tells every pairing and an undo (removing a
 *   typed bib, discarding a slot) is itself a change;
 * - rapid timing's review items (DERIVED_REVIEW_KINDS) open while their problem exists and are 'resolved' by the
 *   change that removes it; all the items one change touches share one audit row ('review-updated').
 *
 * A runner's time comes from a slot while `runners.slot` is set; any other change of their time (a tile tap, an
 * applied review item, a time restored from the log) clears it, and the slot's claim on them becomes a
 * 'bib-finished' item: nothing overwrites a time silently. Reconciling again without a change writes nothing.
 */
import { matchBibs, type BibMatching, type Claim, type MatchProblem } from "../../../shared/bib-matching";
import type { ReviewKind, ReviewSuggestion } from "../../../shared/race-protocol";
import { formatStockholmClock } from "../../../shared/stockholm";
import { formatResult } from "../../../shared/time-format";
import { alignTimers, type MergedSlot, type TimerAlignment } from "../../../shared/timer-alignment";
import type { ReviewData } from "../records";
import type { BibEntryRow, MetaRow, RaceStore, RapidTapRow, ReviewRow, RunnerRow } from "../storage";
import type { Effects, RuleContext } from "./decision";

export interface RapidView {
  /** Every tap not cleared by a reset, discarded ones too. */
  taps: readonly RapidTapRow[];
  entries: readonly BibEntryRow[];
  runners: readonly RunnerRow[];
  /** The merged slots of the taps not discarded. */
  alignment: TimerAlignment;
  matching: BibMatching;
}

/**
 * What rapid timing's rows say the race should be (no writes). Every change appends an audit row, so the latest seq
 * names the state: a call with no change since (a replay, a read) gets the view already computed. Callers only read
 * it.
 */
export function rapidView(store: RaceStore): RapidView {
  return store.memoised("view", String(store.latestSeq()), () => computeView(store));
}

function computeView(store: RaceStore): RapidView {
  const meta = store.requireMeta();
  const settled = meta.state === "ended";
  const taps = store.rapidTaps();
  const live = taps.filter((t) => !t.discarded);
  // The merged slots change only with the taps (any change of one bumps the version), the main timer or the end.
  const alignment = store.memoised("alignment", `${store.rapidTapsVersion()}:${meta.main_timer ?? ""}:${settled}`, () =>
    alignTimers(
      live.map((t) => ({ id: t.tap_id, device: t.device, at: t.at, pin: t.pin })),
      { main: meta.main_timer, settled },
    ),
  );
  const pins = live
    .filter((t) => t.pin !== null)
    .sort((a, b) => a.pin_seq! - b.pin_seq! || (a.tap_id < b.tap_id ? -1 : 1))
    .map((t) => ({ tapId: t.tap_id, runnerId: t.pin! }));
  const entries = store.liveBibEntries();
  const runners = store.liveRunnersForTiming();
  const matching = matchBibs(
    alignment.slots,
    pins,
    entries.map((e) => ({ id: e.id, bib: e.bib })),
    runners.map((r) => ({
      id: r.id,
      bib: r.bib,
      status: r.dns ? "dns" : r.finished === null ? "waiting" : r.slot !== null ? "slot" : "timed",
    })),
    { settled },
  );
  return { taps, entries, runners, alignment, matching };
}

/** The merged slot holding this tap, if it is not discarded. */
export function slotOfTap(view: RapidView, tapId: string): MergedSlot | undefined {
  return view.alignment.slots.find((s) => s.taps.some((t) => t.id === tapId));
}

export interface Reconciled {
  effects: Effects;
  view: RapidView | null;
}

/** Makes the runners' slot times and rapid timing's review items what the stored rows say (module comment). */
export function reconcile(context: RuleContext): Reconciled {
  const { store, by } = context;
  if (!store.usesRapidTiming()) return { effects: { reconciled: true }, view: null };
  const view = rapidView(store);
  const slotByKey = new Map(view.alignment.slots.map((s) => [s.key, s]));
  const wanted = new Map(view.matching.pairs.map((p) => [p.runnerId, p]));

  const runners: string[] = [];
  for (const row of view.runners) {
    const want = wanted.get(row.id);
    if (want) {
      if (row.slot === want.slot && row.finished === want.at && row.claim === want.claim) continue;
      const slot = slotByKey.get(want.slot)!;
      store.write(
        "slot-paired",
        {
          id: row.id,
          bib: row.bib,
          slot: want.slot,
          number: slot.number,
          at: want.at,
          claim: want.claim,
          devices: slot.taps.map((t) => t.device),
          previous: row.finished,
        },
        by,
        (seq) => {
          store.sql(
            "UPDATE runners SET finished = ?, dns = 0, slot = ?, claim = ?, seq = ? WHERE id = ?",
            want.at,
            want.slot,
            want.claim,
            seq,
            row.id,
          );
        },
      );
      runners.push(row.id);
    } else if (row.slot !== null) {
      store.write(
        "slot-unpaired",
        { id: row.id, bib: row.bib, slot: row.slot, claim: row.claim, previous: row.finished },
        by,
        (seq) => {
          store.sql("UPDATE runners SET finished = NULL, slot = NULL, claim = NULL, seq = ? WHERE id = ?", seq, row.id);
        },
      );
      runners.push(row.id);
    }
  }

  const reviews = keepReviewItems(context, view, runners.length > 0 ? store.liveRunnersForTiming() : view.runners);
  return { effects: { runners, reviews, reconciled: true }, view };
}

interface ItemSpec {
  id: string;
  kind: ReviewKind;
  reason: string;
  at: number;
  runnerId: string | null;
  bib: number | null;
  name: string | null;
  data: string;
}

/** Opens, updates and resolves rapid timing's review items; the ids it touched. */
function keepReviewItems(context: RuleContext, view: RapidView, runners: readonly RunnerRow[]): string[] {
  const { store, now, by } = context;
  const meta = store.requireMeta();
  const desired = new Map(desiredItems(meta, view, runners).map((item) => [item.id, item]));
  const open = new Map(store.openDerivedReviews().map((row) => [row.id, row]));

  const opened: string[] = [];
  const changed: string[] = [];
  const resolved: string[] = [];
  for (const [id, item] of desired) {
    const row = open.get(id);
    if (row) {
      if (differs(row, item)) changed.push(id);
      continue;
    }
    // An id some tap already took (tap ids are made on devices) is never written over.
    const taken = store.review(id);
    if (!taken || taken.data !== null) opened.push(id);
  }
  for (const id of open.keys()) if (!desired.has(id)) resolved.push(id);
  if (opened.length + changed.length + resolved.length === 0) return [];

  const actor = (by.actor ?? "system").slice(0, 200);
  const device = by.device?.slice(0, 200) ?? null;
  store.write("review-updated", { opened, changed, resolved }, by, (seq) => {
    for (const id of [...opened, ...changed]) {
      const item = desired.get(id)!;
      const fields = [item.kind, item.reason, item.at, item.runnerId, item.bib, item.name, item.data] as const;
      if (!open.has(id) && store.review(id) === null) {
        store.sql(
          `INSERT INTO review (id, kind, status, reason, at, runner_id, bib, name, data, actor, device, created_at, seq)
           VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          ...fields,
          actor,
          device,
          now,
          seq,
        );
      } else if (opened.includes(id)) {
        store.sql(
          `UPDATE review SET kind = ?, reason = ?, at = ?, runner_id = ?, bib = ?, name = ?, data = ?, status = 'open',
             actor = ?, device = ?, created_at = ?, decided_by = NULL, decided_at = NULL, seq = ?
           WHERE id = ?`,
          ...fields,
          actor,
          device,
          now,
          seq,
          id,
        );
      } else {
        store.sql(
          `UPDATE review SET kind = ?, reason = ?, at = ?, runner_id = ?, bib = ?, name = ?, data = ?, seq = ?
           WHERE id = ?`,
          ...fields,
          seq,
          id,
        );
      }
    }
    for (const id of resolved) {
      store.sql(
        "UPDATE review SET status = 'resolved', decided_by = ?, decided_at = ?, seq = ? WHERE id = ?",
        actor,
        now,
        seq,
        id,
      );
    }
  });
  return [...opened, ...changed, ...resolved];
}

function differs(row: ReviewRow, item: ItemSpec): boolean {
  return (
    row.kind !== item.kind ||
    row.reason !== item.reason ||
    row.at !== item.at ||
    row.runner_id !== item.runnerId ||
    row.bib !== item.bib ||
    row.name !== item.name ||
    row.data !== item.data
  );
}

/** The review item ids of rapid timing: a prefix per kind, then the slot's key or the claim's id. */
const ID_PREFIX: Record<string, string> = {
  "slot-single": "single",
  "slot-unmatched": "nobib",
  "bib-unmatched": "noslot",
  "bib-twice": "twice",
  "bib-unknown": "unknown",
  "bib-finished": "timed",
};

function desiredItems(meta: MetaRow, view: RapidView, runners: readonly RunnerRow[]): ItemSpec[] {
  const byId = new Map(runners.map((r) => [r.id, r]));
  const byBib = new Map(runners.filter((r) => r.bib !== null).map((r) => [r.bib!, r]));
  const entryAt = new Map(view.entries.map((e) => [e.id, e.at]));
  const tapAt = new Map(view.taps.map((t) => [t.tap_id, t.at]));
  const confirmed = new Set(view.taps.filter((t) => t.confirmed).map((t) => t.tap_id));
  const slotAt = new Map(view.alignment.slots.map((s) => [s.key, s.at]));
  const moment = (at: number) =>
    meta.started !== null && at >= meta.started ? formatResult(at - meta.started) : formatStockholmClock(at);
  const name = (r: RunnerRow) => `${r.firstname} ${r.lastname}`;

  const items: ItemSpec[] = [];
  for (const slot of view.alignment.slots) {
    if (!slot.single || slot.taps.some((t) => confirmed.has(t.id))) continue;
    items.push({
      id: `${ID_PREFIX["slot-single"]}-${slot.key}`,
      kind: "slot-single",
      reason: `Måltiden ${moment(slot.at)} finns bara från en av telefonerna.`,
      at: slot.at,
      runnerId: null,
      bib: null,
      name: null,
      data: json({ slot: slot.key }),
    });
  }
  for (const problem of view.matching.problems) items.push(problemItem(problem));
  return items;

  function problemItem(problem: MatchProblem): ItemSpec {
    if (problem.kind === "slot-unmatched") {
      return {
        id: `${ID_PREFIX[problem.kind]}-${problem.slot.key}`,
        kind: problem.kind,
        reason: `Måltiden ${moment(problem.slot.at)} har inget startnummer.`,
        at: problem.slot.at,
        runnerId: null,
        bib: null,
        name: null,
        data: json({ slot: problem.slot.key }),
      };
    }
    const claim = problem.claim;
    const runner = claim.runnerId === null ? undefined : byId.get(claim.runnerId);
    const data: ReviewData = { ...claimData(claim) };
    if (claim.slot !== null) data.slot = claim.slot;
    if (problem.kind === "bib-twice") data.other = problem.first.id;
    if ("suggestions" in problem && problem.suggestions.length > 0) {
      data.suggestions = problem.suggestions.map((s): ReviewSuggestion => {
        const meant = byBib.get(s.bib)!;
        return { bib: s.bib, runnerId: meant.id, name: name(meant), reason: s.reason };
      });
    }
    const bibText = claim.bib === null ? "" : `Startnummer ${claim.bib}`;
    const who = runner ? `${bibText || "Löparen"} (${name(runner)})` : bibText;
    let reason: string;
    switch (problem.kind) {
      case "bib-unknown":
        reason =
          claim.kind === "pin"
            ? "Löparen som måltiden tilldelades finns inte längre i loppet."
            : `${bibText} finns inte i loppet.`;
        break;
      case "bib-twice":
        reason =
          problem.first.kind === "pin"
            ? `${who} är redan tilldelad en måltid för hand.`
            : `${who} är inskrivet två gånger.`;
        break;
      case "bib-finished":
        reason = runner?.dns
          ? `${who} är markerad som ej startande (DNS).`
          : `${who} har redan en tid, ${runner?.finished != null ? moment(runner.finished) : "–"}.`;
        break;
      case "bib-unmatched":
        reason = `${who} har ingen måltid.`;
        break;
    }
    const at =
      claim.slot !== null
        ? slotAt.get(claim.slot)!
        : claim.kind === "pin"
          ? tapAt.get(claim.tapId!)!
          : entryAt.get(claim.id)!;
    return {
      id: `${ID_PREFIX[problem.kind]}-${claim.id}`,
      kind: problem.kind,
      reason,
      at,
      runnerId: runner?.id ?? null,
      bib: claim.bib,
      name: runner ? name(runner) : null,
      data: json(data),
    };
  }
}

function claimData(claim: Claim): ReviewData {
  return claim.kind === "pin" ? { pin: claim.tapId! } : { entry: claim.id };
}

/** Stable JSON (keys in a fixed order), so an unchanged item compares equal. */
function json(data: ReviewData): string {
  const ordered: ReviewData = {};
  for (const key of ["slot", "entry", "pin", "other", "suggestions"] as const) {
    if (data[key] !== undefined) (ordered as Record<string, unknown>)[key] = data[key];
  }
  return JSON.stringify(ordered);
}

/**
 * An organiser's hand on rapid timing's slots (issue 26): a slot is named by any of its taps' ids (the merged slot
 * holding that tap, rules/reconcile.ts).
 * - assign: this slot is this runner (a tile tapped, or a bib typed), whatever the order of the typed bibs; refused
 *   for a runner who has a time or is marked DNS, and for a slot assigned to someone else;
 * - unassign: that assignment undone;
 * - discard: a stray tap, with the rest of its slot, leaves the merged sequence (every later typed bib moves one
 *   slot forward); restore takes the discard back;
 * - keep: a slot only one device has is a finish all the same (its 'slot-single' item decided);
 * - main timer: the device whose time a finish two phones timed takes;
 * - use the slot's time: a runner timed elsewhere (or marked DNS) gets the slot's time their typed bib reaches
 *   (its 'bib-finished' item decided).
 * Each is one audited change; the pairings it moves are audited by reconcile.ts. A slot that does not exist is a
 * 404, nothing changed.
 */
import { isDeviceId, RaceError, type RunnerRecord } from "../../../shared/race-protocol";
import { formatResult } from "../../../shared/time-format";
import { raceRecord, runnerRecord, slotRecord } from "../records";
import type { RaceStore, RapidTapRow, RunnerRow } from "../storage";
import type { RaceRecord } from "../../../shared/race-protocol";
import type { SlotResult } from "../../../shared/race-answers";
import { checkTypedBib } from "./bib-entries";
import { decided, mergeEffects, type Decision, type RuleContext } from "./decision";
import { rapidView, reconcile, slotOfTap, type RapidView } from "./reconcile";
import { liveRunner } from "./runners";

export interface AssignTarget {
  bib?: number;
  runnerId?: string;
}

export function assignSlot(context: RuleContext, tapId: string, target: AssignTarget): Decision<SlotResult> {
  const { store, by } = context;
  const tap = liveTap(store, tapId);
  if (tap.discarded) throw new RaceError(409, "Måltiden är borttagen. Ta tillbaka den först.");
  const runner = targetRunner(store, target);
  const view = rapidView(store);
  const slot = slotOfTap(view, tap.tap_id)!;
  if (runner.slot === slot.key) return decided(answer(store, view, tap.tap_id, "unchanged"));
  const label = `${runner.firstname} ${runner.lastname}${runner.bib === null ? "" : ` (${runner.bib})`}`;
  if (runner.dns) throw new RaceError(409, `${label} är markerad som ej startande (DNS).`);
  if (runner.finished !== null) {
    const meta = store.requireMeta();
    const time =
      meta.started !== null && runner.finished >= meta.started
        ? `, ${formatResult(runner.finished - meta.started)}`
        : "";
    const hint =
      runner.slot !== null
        ? "Tiden kommer från snabbtidtagningen: ta bort startnumret i målordningen först."
        : "Ångra den först.";
    throw new RaceError(409, `${label} har redan en tid${time}. ${hint}`);
  }
  const pinned = view.taps.find((t) => t.pin !== null && !t.discarded && slot.taps.some((s) => s.id === t.tap_id));
  if (pinned && pinned.pin !== runner.id) {
    const holder = store.runnerRow(pinned.pin!);
    const who = holder ? `${holder.firstname} ${holder.lastname}` : "en annan löpare";
    throw new RaceError(409, `Måltiden är redan tilldelad ${who}. Ta bort den tilldelningen först.`);
  }
  store.write(
    "slot-assigned",
    { tap: tap.tap_id, slot: slot.key, number: slot.number, at: slot.at, id: runner.id, bib: runner.bib },
    by,
    (seq) => {
      store.sql(
        "UPDATE rapid_taps SET pin = ?, pin_seq = ?, seq = ? WHERE tap_id = ?",
        runner.id,
        seq,
        seq,
        tap.tap_id,
      );
    },
  );
  return settle(context, tap.tap_id, [tap.tap_id], "assigned");
}

export function unassignSlot(context: RuleContext, tapId: string): Decision<SlotResult> {
  const { store, by } = context;
  const tap = liveTap(store, tapId);
  const view = rapidView(store);
  const slot = slotOfTap(view, tap.tap_id);
  const members = new Set(slot ? slot.taps.map((t) => t.id) : [tap.tap_id]);
  const pinned = view.taps.filter((t) => t.pin !== null && members.has(t.tap_id));
  if (pinned.length === 0) return decided(answer(store, view, tap.tap_id, "unchanged"));
  const ids = pinned.map((t) => t.tap_id);
  store.write("slot-unassigned", { taps: ids, slot: slot?.key ?? null, id: pinned[0]!.pin }, by, (seq) => {
    for (const id of ids)
      store.sql("UPDATE rapid_taps SET pin = NULL, pin_seq = NULL, seq = ? WHERE tap_id = ?", seq, id);
  });
  return settle(context, tap.tap_id, ids, "unassigned");
}

export function discardSlot(context: RuleContext, tapId: string): Decision<SlotResult> {
  const { store, by } = context;
  const tap = liveTap(store, tapId);
  const view = rapidView(store);
  if (tap.discarded) return decided(answer(store, view, tap.tap_id, "unchanged"));
  const slot = slotOfTap(view, tap.tap_id)!;
  const ids = slot.taps.map((t) => t.id);
  store.write("slot-discarded", { taps: ids, slot: slot.key, number: slot.number, at: slot.at }, by, (seq) => {
    for (const id of ids) store.sql("UPDATE rapid_taps SET discarded = ?, seq = ? WHERE tap_id = ?", seq, seq, id);
  });
  return settle(context, tap.tap_id, ids, "discarded");
}

/** Takes a discard back: every tap that discard took out is back. */
export function restoreSlot(context: RuleContext, tapId: string): Decision<SlotResult> {
  const { store, by } = context;
  const tap = liveTap(store, tapId);
  if (!tap.discarded) return decided(answer(store, rapidView(store), tap.tap_id, "unchanged"));
  const ids = store
    .sql<{ tap_id: string }>("SELECT tap_id FROM rapid_taps WHERE discarded = ? AND cleared = 0", tap.discarded)
    .map((r) => r.tap_id);
  store.write("slot-restored", { taps: ids, discard: tap.discarded }, by, (seq) => {
    for (const id of ids) store.sql("UPDATE rapid_taps SET discarded = 0, seq = ? WHERE tap_id = ?", seq, id);
  });
  return settle(context, tap.tap_id, ids, "restored");
}

/** A slot only one device has is a finish all the same. */
export function keepSlot(context: RuleContext, tapId: string): Decision<SlotResult> {
  const { store, by } = context;
  const tap = liveTap(store, tapId);
  if (tap.discarded) throw new RaceError(409, "Måltiden är borttagen. Ta tillbaka den först.");
  const view = rapidView(store);
  const slot = slotOfTap(view, tap.tap_id)!;
  const ids = slot.taps.map((t) => t.id);
  store.write("slot-kept", { taps: ids, slot: slot.key, number: slot.number, at: slot.at }, by, (seq) => {
    for (const id of ids) store.sql("UPDATE rapid_taps SET confirmed = 1, seq = ? WHERE tap_id = ?", seq, id);
  });
  return settle(context, tap.tap_id, ids, "kept");
}

/** The device whose time a finish two phones timed takes (null: the earliest tap's). */
export function setMainTimer(context: RuleContext, device: string | null): Decision<RaceRecord> {
  const { store, by } = context;
  const meta = store.requireMeta();
  if (device !== null && !isDeviceId(device)) throw new RaceError(400, "Ogiltigt enhets-id.");
  if (device !== null && !store.rapidTaps().some((t) => t.device === device)) {
    throw new RaceError(404, "Den telefonen har inte tagit någon måltid i loppet.");
  }
  if (meta.main_timer === device) return decided(raceRecord(meta));
  store.write("main-timer", { device, previous: meta.main_timer }, by, (seq) => {
    store.sql("UPDATE meta SET main_timer = ?, seq = ? WHERE id = 1", device, seq);
  });
  const reconciled = reconcile(context);
  return decided(raceRecord(store.requireMeta()), mergeEffects({ race: true }, reconciled.effects));
}

/**
 * A runner timed elsewhere (a tile tap) or marked DNS, whose typed bib (or hand assignment) reaches a slot: the
 * slot's time replaces theirs (a person decided). Audited with the time it replaced.
 */
export function useSlotTime(context: RuleContext, claimId: string): Decision<RunnerRecord> {
  const { store, by } = context;
  const view = rapidView(store);
  const problem = view.matching.problems.find((p) => p.kind === "bib-finished" && p.claim.id === claimId);
  if (!problem || problem.kind !== "bib-finished") throw new RaceError(409, "Det finns ingen sådan tid att ändra.");
  const claim = problem.claim;
  if (claim.slot === null) throw new RaceError(409, "Startnumret har ingen måltid ännu.");
  const slot = view.alignment.slots.find((s) => s.key === claim.slot)!;
  const row: RunnerRow = liveRunner(store, claim.runnerId!);
  store.write(
    "slot-time-used",
    {
      id: row.id,
      bib: row.bib,
      slot: slot.key,
      number: slot.number,
      at: slot.at,
      claim: claim.id,
      previous: row.finished,
      dns: row.dns === 1,
    },
    by,
    (seq) => {
      store.sql(
        "UPDATE runners SET finished = ?, dns = 0, slot = ?, claim = ?, seq = ? WHERE id = ?",
        slot.at,
        slot.key,
        claim.id,
        seq,
        row.id,
      );
    },
  );
  const reconciled = reconcile(context);
  return decided(
    runnerRecord(store.runnerRow(row.id)!, store.requireMeta()),
    mergeEffects({ runners: [row.id] }, reconciled.effects),
  );
}

/** A tap of the race (not cleared by a reset), by id; 404 otherwise. */
export function liveTap(store: RaceStore, tapId: string): RapidTapRow {
  const tap = typeof tapId === "string" ? store.rapidTap(tapId) : null;
  if (!tap || tap.cleared) throw new RaceError(404, "Måltiden finns inte.");
  return tap;
}

function targetRunner(store: RaceStore, target: AssignTarget): RunnerRow {
  if (typeof target?.runnerId === "string") return liveRunner(store, target.runnerId);
  const bib = checkTypedBib(target?.bib);
  const row = store.runnerWithBib(bib);
  if (!row || row.moving_to !== null) throw new RaceError(404, `Startnummer ${bib} finns inte i loppet.`);
  return row;
}

function settle(
  context: RuleContext,
  tapId: string,
  taps: string[],
  outcome: SlotResult["outcome"],
): Decision<SlotResult> {
  const reconciled = reconcile(context);
  return decided(
    answer(context.store, reconciled.view ?? rapidView(context.store), tapId, outcome),
    mergeEffects({ slots: taps }, reconciled.effects),
  );
}

function answer(store: RaceStore, view: RapidView, tapId: string, outcome: SlotResult["outcome"]): SlotResult {
  const meta = store.requireMeta();
  const slot = slotOfTap(view, tapId);
  const result: SlotResult = {
    outcome,
    slot: slotRecord(store.rapidTap(tapId)!, meta),
    key: slot?.key ?? null,
    number: slot?.number ?? null,
  };
  const pair = slot ? view.matching.pairs.find((p) => p.slot === slot.key) : undefined;
  const runner = pair ? store.runnerRow(pair.runnerId) : null;
  if (runner) result.runner = runnerRecord(runner, meta);
  return result;
}

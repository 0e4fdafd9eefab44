/**
 * Bib pick-up at the desk ('Nummerlappar', /admin/incheckning). The race object is the one writer of a runner's
 * picked-up state, as of a finish: each change is one audit row (who, which device, when; its seq numbers the
 * change), broadcast to every timing phone and mirrored to D1 (participants.picked_up_at) like a bib.
 *
 * - `pickUp` marks runners as having picked up (or takes it back: 'Ångra'). A runner who has already picked up is
 *   left as is and reported (`already`, with the moment), so a second scan of a family, or two desks pressing at
 *   once, never makes a second pick-up: the first moment stays.
 * - Each desk action carries an id made on the device (the desk queues actions while offline and replays them):
 *   the id is stored with the change, in the same transaction, and an action replayed answers `replayed` with the
 *   runners as they are now and changes nothing, even if the pick-up was undone meanwhile.
 * - `at` is the moment the volunteer pressed (a queued action keeps it), checked as a tap's moment.
 * - `bibAtPickup`: a runner without a number gets the next free one of their distance (or a typed one, unique
 *   within the race, bib.ts). 'Next' for a runner who has a number already changes nothing, so a replay or two
 *   desks at once never hand out two numbers.
 * - `dnsNotPickedUp`: after the start, every runner still waiting who never picked up is marked DNS in one
 *   action (one audit row naming them); each mark is taken back per runner with the ordinary DNS call (dns.ts).
 *
 * A reset keeps the picked-up state (reset.ts clears the race, not the desk), and a change of distance carries it
 * to the new race (move.ts and the shell's completeMove).
 */
import { MAX_CLOCK_ERROR_MS, RaceError, type RunnerRecord } from "../../../shared/race-protocol";
import type { NotPickedUpResult } from "../../../shared/race-answers";
import { runnerRecord } from "../records";
import type { RunnerRow } from "../storage";
import { checkId, checkTapId, MAX_BIB, tapMoment } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { registerBib } from "./bib";
import { rapidView } from "./reconcile";
import { liveRunner } from "./runners";

/** At most this many runners in one desk action (a family, with room to spare). */
export const MAX_PICKUP_RUNNERS = 30;

export interface PickupAction {
  /** Made on the device (as a tap id): a replay of the same id changes nothing. */
  actionId?: string;
  /** When the volunteer pressed, on the server's clock (epoch ms); now when absent. */
  at?: number;
}

export type PickupOutcome = "picked-up" | "undone" | "unchanged" | "replayed";

export interface PickupResult {
  outcome: PickupOutcome;
  /** Every runner of the action as it is now. */
  runners: RunnerRecord[];
  /** Runners this action changed. */
  changed: string[];
  /** Runners who had picked up already (a check-in that found them so: 'Redan hämtat'). */
  already: string[];
}

function checkIds(ids: unknown): string[] {
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_PICKUP_RUNNERS) {
    throw new RaceError(400, "Välj en till 30 löpare.");
  }
  return [...new Set(ids.map(checkId))];
}

/** 'Hämtat' (pickedUp) or 'Ångra' for these runners of this race. */
export function pickUp(
  { store, now, by }: RuleContext,
  ids: unknown,
  pickedUp: boolean,
  action: PickupAction = {},
): Decision<PickupResult> {
  const meta = store.requireMeta();
  const runnerIds = checkIds(ids);
  const actionId = action.actionId === undefined ? undefined : checkTapId(action.actionId);
  if (actionId !== undefined) {
    const done = store.sql<{ kind: string; runner_ids: string }>(
      "SELECT kind, runner_ids FROM desk_actions WHERE action_id = ?",
      actionId,
    )[0];
    if (done) {
      if (done.runner_ids !== JSON.stringify(runnerIds) || done.kind !== (pickedUp ? "pickup" : "undo")) {
        throw new RaceError(409, "Åtgärdens id användes redan för något annat.");
      }
      const rows = runnerIds.map((id) => store.runnerRow(id)).filter((r): r is RunnerRow => r?.moving_to === null);
      return decided({
        outcome: "replayed",
        runners: rows.map((r) => runnerRecord(r, meta)),
        changed: [],
        already: [],
      });
    }
  }
  // A desk has no clock sync of its own beyond the page's server time: allow the largest clock error.
  const at = tapMoment(action.at, now, MAX_CLOCK_ERROR_MS);
  const rows = runnerIds.map((id) => liveRunner(store, id));
  const changing = rows.filter((r) => (pickedUp ? r.picked_up_at === null : r.picked_up_at !== null));
  const already = pickedUp ? rows.filter((r) => r.picked_up_at !== null).map((r) => r.id) : [];

  if (changing.length > 0) {
    const payload = {
      runners: changing.map((r) => ({ id: r.id, bib: r.bib })),
      ...(pickedUp ? { at } : {}),
      ...(actionId ? { actionId } : {}),
    };
    store.write(pickedUp ? "picked-up" : "pickup-undone", payload, by, (seq) => {
      for (const row of changing) {
        store.sql("UPDATE runners SET picked_up_at = ?, seq = ? WHERE id = ?", pickedUp ? at : null, seq, row.id);
        store.owesMirror(row.id);
      }
      if (actionId) recordAction(store, actionId, pickedUp, runnerIds, at, seq);
    });
  } else if (actionId) {
    store.transaction(() => recordAction(store, actionId, pickedUp, runnerIds, at, store.latestSeq()));
  }
  const changed = changing.map((r) => r.id);
  return decided(
    {
      outcome: changed.length === 0 ? "unchanged" : pickedUp ? "picked-up" : "undone",
      runners: runnerIds.map((id) => runnerRecord(store.runnerRow(id)!, meta)),
      changed,
      already,
    },
    { runners: changed, mirror: changed },
  );
}

function recordAction(
  store: RuleContext["store"],
  actionId: string,
  pickedUp: boolean,
  runnerIds: string[],
  at: number,
  seq: number,
): void {
  store.sql(
    "INSERT INTO desk_actions (action_id, kind, runner_ids, at, seq) VALUES (?, ?, ?, ?, ?)",
    actionId,
    pickedUp ? "pickup" : "undo",
    JSON.stringify(runnerIds),
    at,
    seq,
  );
}

/**
 * A bib at pick-up: `next` gives the first free number of the distance's range to a runner without one (one with
 * a number keeps it: a replay, or a second desk, hands out nothing more); a typed number is the race screen's
 * rule (unique within the race, the holder named when taken).
 */
export function bibAtPickup(context: RuleContext, id: string, bib: number | "next"): Decision<RunnerRecord> {
  const meta = context.store.requireMeta();
  const row = liveRunner(context.store, id);
  if (bib === "next" && row.bib !== null) return decided(runnerRecord(row, meta));
  if (bib !== "next" && (!Number.isInteger(bib) || bib < 1 || bib > MAX_BIB)) {
    throw new RaceError(400, `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}.`);
  }
  return registerBib(context, id, bib);
}

/**
 * 'Markera ej hämtade som DNS': after the start, every waiting runner who never picked up, in one action.
 *
 * With rapid timing a runner can have crossed the line and still be waiting: their 'Mål!' slot has no runner until
 * their bib is typed (reconcile.ts). So the action is refused while any slot has no runner paired with it (the
 * runner it belongs to may be one who never picked up), and a runner a typed bib (or a slot assigned by hand) names
 * has crossed the line, so is never marked, whether that claim has reached a slot yet or not.
 */
export function dnsNotPickedUp({ store, by }: RuleContext): Decision<NotPickedUpResult> {
  const meta = store.requireMeta();
  if (meta.state !== "started") throw new RaceError(409, "Loppet har inte startat.");
  const crossed = new Set<string>();
  if (store.usesRapidTiming()) {
    const { alignment, matching } = rapidView(store);
    const paired = new Set(matching.pairs.map((p) => p.slot));
    const open = alignment.slots.filter((s) => !paired.has(s.key)).length;
    if (open > 0) throw new RaceError(409, openSlotsMessage(open));
    for (const claim of matching.claims) if (claim.runnerId !== null) crossed.add(claim.runnerId);
  }
  const rows = store
    .sql<RunnerRow>(
      `SELECT * FROM runners
       WHERE picked_up_at IS NULL AND finished IS NULL AND dns = 0 AND moving_to IS NULL
       ORDER BY bib, lastname, firstname`,
    )
    .filter((r) => !crossed.has(r.id));
  if (rows.length === 0) return decided({ marked: [] });
  const ids = rows.map((r) => r.id);
  store.write("dns-not-picked-up", { runners: rows.map((r) => ({ id: r.id, bib: r.bib })) }, by, (seq) => {
    for (const id of ids) store.sql("UPDATE runners SET dns = 1, seq = ? WHERE id = ?", seq, id);
  });
  return decided({ marked: ids.map((id) => runnerRecord(store.runnerRow(id)!, meta)) }, { runners: ids });
}

/** Why the action waits: the slots without a runner, and what to do first. */
function openSlotsMessage(open: number): string {
  const who =
    open === 1
      ? "1 måltid har ännu ingen löpare: den som gick i mål då kan vara en av dem som inte hämtat nummerlappen."
      : `${open} måltider har ännu ingen löpare: de som gick i mål då kan vara bland dem som inte hämtat nummerlappen.`;
  return `${who} Skriv in de startnummer som saknas i målordningen först (och ta bort måltider som inte är någon löpare).`;
}

/**
 * No runner's time moves unless the action names them, or the organiser has seen it and confirmed (issue 37).
 *
 * Rapid timing pairs the bibs typed in finish order with the slots by position (shared/bib-matching.ts), so an
 * action on one slot or one typed bib can move every later pairing: removing a bib typed twice, discarding a stray
 * slot, giving a slot by hand ('Ge tiden') that a typed bib already reached … each gives the runners after it the
 * time of the runner before or after them. Such an action is guarded: the room runs it inside a transaction,
 * compares every runner's finish before and after, and when a runner the action does not name got another finish
 * (or lost or gained one), rolls it all back and refuses it (409, nothing changed) with the list of those runners
 * (`Retime`: who, the finish before and after), unless the call confirms exactly that list (`confirm`). The phone
 * shows the list (name, old time, new time) and sends the action again with it once the organiser confirms; a list
 * that no longer matches (another phone changed the race in between) is refused again with the new one.
 *
 * Guarded: 'Att granska's apply and discard (but a start applied: a moved start re-times everyone by design, and a
 * late 'Mål!' tap applied, which adds a slot as any tap does), 'Ge tiden' (assign a slot), taking an assignment
 * back, 'Kasta tiden' (discard a slot) and taking it back, and correcting, removing and restoring a typed bib.
 * Not guarded, as they re-time by design: choosing the main timer, a moved start, a reset, a 'Mål!' tap, a bib
 * typed, and the spec's race-day calls (a finish tap, an undo, DNS).
 *
 * What an action names is what the phone showed the organiser when they chose it: the runner paired with the slot
 * acted on and the runner it was assigned to, the runner whose bib the typed bib is and the runner it is corrected
 * to, and a review item's runner, bib and suggestions (and the runner of the other claim of a bib typed twice). A
 * runner who lands on a slot only because the action moved the bibs after it is not named: that is the re-pairing
 * to be confirmed.
 */
import { listText } from "../../../shared/words";
import { MAX_RETIMES, RaceError, type Retime, type RetimeConfirm } from "../../../shared/race-protocol";
import type { RaceStore } from "../storage";
import { rapidView, slotOfTap } from "./reconcile";

/** The actions guarded, with what they act on (commands.ts has each one's fields). */
export type GuardedAction =
  | { type: "apply-review" | "discard-review"; reviewId: string }
  | { type: "assign-slot"; tapId: string; target: { bib?: number; runnerId?: string } }
  | { type: "unassign-slot" | "discard-slot" | "restore-slot"; tapId: string }
  | { type: "change-bib-entry"; entryId: string; bib: number }
  | { type: "remove-bib-entry" | "restore-bib-entry"; entryId: string };

const GUARDED_TYPES: ReadonlySet<string> = new Set([
  "apply-review",
  "discard-review",
  "assign-slot",
  "unassign-slot",
  "discard-slot",
  "restore-slot",
  "change-bib-entry",
  "remove-bib-entry",
  "restore-bib-entry",
]);

/** Review items whose apply re-times by design (a start moved, a late 'Mål!' tap added). */
const UNGUARDED_APPLY = new Set(["start", "rapid"]);

export function isGuarded(store: RaceStore, action: { type: string }): action is GuardedAction {
  if (!GUARDED_TYPES.has(action.type)) return false;
  if (action.type !== "apply-review") return true;
  const reviewId = (action as unknown as { reviewId: unknown }).reviewId;
  const kind = typeof reviewId === "string" ? store.review(reviewId)?.kind : undefined;
  return kind === undefined || !UNGUARDED_APPLY.has(kind);
}

/** Every runner in the race now, with their finish (null: none). */
export function finishes(store: RaceStore): Map<string, number | null> {
  return new Map(store.liveRunnersForTiming().map((row) => [row.id, row.finished]));
}

/** The runners the action names, as the race is before it (module comment). */
export function namedBy(store: RaceStore, action: GuardedAction): Set<string> {
  const named = new Set<string>();
  const add = (id: string | null | undefined) => {
    if (id) named.add(id);
  };
  const view = rapidView(store);
  const bySlot = new Map(view.matching.pairs.map((p) => [p.slot, p.runnerId]));
  const byClaim = new Map(view.matching.pairs.map((p) => [p.claim, p.runnerId]));
  const ofBib = (bib: number | undefined) => (bib === undefined ? null : (store.runnerWithBib(bib)?.id ?? null));
  // Ids come checked by the routes; a malformed one (an RPC caller) names nobody, and the rule refuses it.
  const ofTap = (tapId: unknown) => {
    if (typeof tapId !== "string" || !tapId) return;
    const tap = store.rapidTap(tapId);
    add(tap?.pin);
    const slot = slotOfTap(view, tapId) ?? view.alignment.slots.find((s) => s.key === tapId);
    if (slot) {
      add(bySlot.get(slot.key));
      for (const t of slot.taps) add(store.rapidTap(t.id)?.pin);
    }
  };
  const ofEntry = (entryId: unknown) => {
    if (typeof entryId !== "string" || !entryId) return;
    add(byClaim.get(entryId));
    const entry = store.bibEntry(entryId);
    if (entry) {
      add(ofBib(entry.bib));
      add(ofBib(entry.typed));
    }
  };
  switch (action.type) {
    case "apply-review":
    case "discard-review": {
      const item = typeof action.reviewId === "string" ? store.review(action.reviewId) : null;
      if (!item) break;
      add(item.runner_id);
      const data = JSON.parse(item.data ?? "{}") as {
        slot?: string;
        entry?: string;
        pin?: string;
        other?: string;
        suggestions?: { runnerId: string }[];
      };
      ofTap(data.slot);
      ofTap(data.pin);
      ofEntry(data.entry);
      if (data.other) {
        add(byClaim.get(data.other));
        if (data.other.startsWith("pin-")) ofTap(data.other.slice(4));
        else ofEntry(data.other);
      }
      for (const s of data.suggestions ?? []) add(s.runnerId);
      break;
    }
    case "assign-slot":
      ofTap(action.tapId);
      add(typeof action.target?.runnerId === "string" ? action.target.runnerId : null);
      add(ofBib(typeof action.target?.bib === "number" ? action.target.bib : undefined));
      break;
    case "unassign-slot":
    case "discard-slot":
    case "restore-slot": {
      ofTap(action.tapId);
      // A discard took out every tap of its slot; taking it back brings them all.
      const tap = store.rapidTap(action.tapId);
      if (tap?.discarded) {
        for (const t of store.rapidTaps()) if (t.discarded === tap.discarded) ofTap(t.tap_id);
      }
      break;
    }
    case "change-bib-entry":
      ofEntry(action.entryId);
      add(ofBib(typeof action.bib === "number" ? action.bib : undefined));
      break;
    case "remove-bib-entry":
    case "restore-bib-entry":
      ofEntry(action.entryId);
      break;
    default: {
      const unhandled: never = action;
      throw new Error(`unguarded action ${JSON.stringify(unhandled)}`);
    }
  }
  return named;
}

/**
 * The runners the action re-timed without naming them: a finish before and after that differ. Empty, or each one
 * confirmed with the finish it got: the action stands. Otherwise it is refused (the caller's transaction rolls
 * back) with the list, which the organiser confirms by sending the action again with it.
 */
export function checkRetimes(
  store: RaceStore,
  before: ReadonlyMap<string, number | null>,
  named: ReadonlySet<string>,
  confirm: readonly RetimeConfirm[] | undefined,
): void {
  const after = finishes(store);
  const ids = new Set([...before.keys(), ...after.keys()]);
  const retimed = [...ids].filter((id) => !named.has(id) && (before.get(id) ?? null) !== (after.get(id) ?? null));
  if (retimed.length === 0) return;
  const confirmed = new Map((Array.isArray(confirm) ? confirm : []).map((c) => [c?.runnerId, c?.to]));
  const matches =
    confirmed.size === retimed.length &&
    retimed.every((id) => confirmed.has(id) && confirmed.get(id) === (after.get(id) ?? null));
  if (matches) return;
  const meta = store.requireMeta();
  const retimes: Retime[] = retimed
    .map((id) => {
      const row = store.runnerRow(id);
      return {
        runnerId: id,
        sort: `runner-${id}`,
        bib: row?.bib ?? null,
        name: row ? `${row.firstname} ${row.lastname}` : "",
        from: before.get(id) ?? null,
        to: after.get(id) ?? null,
        started: meta.started,
      };
    })
    // In the order the runners finish after the action (those who lose their time last), then by the time before.
    .sort(
      (a, b) =>
        (a.to ?? Infinity) - (b.to ?? Infinity) ||
        (a.from ?? Infinity) - (b.from ?? Infinity) ||
        (a.bib ?? Infinity) - (b.bib ?? Infinity) ||
        a.runnerId.localeCompare(b.runnerId),
    )
    .slice(0, MAX_RETIMES);
  throw new RaceError(409, retimeMessage(retimes), { retimes });
}

/** "Nr 733, 734 och 735 får nya tider. Bekräfta för att ändra dem." */
export function retimeMessage(retimes: readonly Retime[]): string {
  const withBib = retimes.filter((r) => r.bib !== null).map((r) => String(r.bib));
  const without = retimes.filter((r) => r.bib === null).map((r) => r.name || "en löpare");
  const names = [...(withBib.length ? [`Nr ${withBib[0]}`, ...withBib.slice(1)] : []), ...without];
  const one = retimes.length === 1;
  return `${listText(names)} får ${one ? "en ny tid" : "nya tider"}. Bekräfta för att ändra ${one ? "den" : "dem"}.`;
}

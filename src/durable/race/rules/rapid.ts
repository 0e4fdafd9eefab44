/**
 * Rapid timing (issue 26, item 1): 'Mål!' records an anonymous finish moment, a slot, without choosing a runner.
 * It goes through the same tap rules as a finish tap: the tap id made on the device makes it idempotent (a replay
 * answers what the first answered and changes nothing; a tap id used for another kind of tap is refused), the
 * moment is the device's, on the server's clock, clamped to now when it lies ahead by less than the device's
 * clock-sync error, and a tap the race cannot take as it is goes to the review list instead of being refused: the
 * race not started or ended, a moment too far ahead, too old, or before the start ('rapid' items; applying one
 * adds the slot at its moment). Every tap is audited ('rapid-tap').
 *
 * The slots every device recorded are merged and numbered by rules/reconcile.ts, which also matches them with the
 * bibs typed in finish order (bib-entries.ts).
 */
import { RaceError } from "../../../shared/race-protocol";
import type { SentToReview, RapidTapResult } from "../../../shared/race-answers";
import { reviewRecord, slotRecord } from "../records";
import type { RaceStore } from "../storage";
import type { ChangeAuthor, TapInput } from "../types";
import { checkTapId, tapMoment } from "./checks";
import { decided, mergeEffects, type Decision, type RuleContext } from "./decision";
import { rapidView, reconcile, slotOfTap, type RapidView } from "./reconcile";
import { sendToReview } from "./review-list";

/** The device a tap without a device id is counted under (its taps form one stream). */
export const UNKNOWN_DEVICE = "okänd";

export function rapidTap(
  context: RuleContext,
  tap: TapInput & { err?: number },
): Decision<RapidTapResult | SentToReview> {
  const { store, now, by } = context;
  const meta = store.requireMeta();
  if (tap.tapId === undefined) throw new RaceError(400, "En måltid behöver sitt tryck-id.");
  const tapId = checkTapId(tap.tapId);
  const stored = store.rapidTap(tapId);
  if (stored) return decided(answer(store, rapidView(store), tapId, "replayed"));
  if (store.tap(tapId)) throw reusedTapId();
  const item = store.review(tapId);
  if (item) {
    if (item.kind !== "rapid") throw reusedTapId();
    return decided({ outcome: "review", review: reviewRecord(item, meta) });
  }

  const toReview = (reason: string, at: number) => sendToReview(context, { id: tapId, kind: "rapid", reason, at });
  let at: number;
  try {
    at = tapMoment(tap.at, now, tap.err);
  } catch (refusal) {
    if (!(refusal instanceof RaceError)) throw refusal;
    return toReview(refusal.message, tap.at ?? now);
  }
  if (meta.state === "") return toReview("Loppet har inte startat.", at);
  if (meta.state === "ended") return toReview("Loppet var redan avslutat när måltiden kom fram.", at);
  if (meta.started !== null && at < meta.started) return toReview("Tidpunkten ligger före starten.", at);

  const clampedFrom = tap.at !== undefined && tap.at !== at ? tap.at : null;
  store.write(
    "rapid-tap",
    { tapId, at, receivedAt: now, ...(clampedFrom === null ? {} : { clampedFrom }) },
    by,
    (seq) => insertRapidTap(store, { tapId, at, received: now, by, clampedFrom }, seq),
  );
  const reconciled = reconcile(context);
  return decided(
    answer(store, reconciled.view ?? rapidView(store), tapId, "recorded"),
    mergeEffects({ slots: [tapId] }, reconciled.effects),
  );
}

export function insertRapidTap(
  store: RaceStore,
  tap: { tapId: string; at: number; received: number; by: ChangeAuthor; clampedFrom: number | null },
  seq: number,
): void {
  store.sql(
    `INSERT INTO rapid_taps (tap_id, device, at, received, actor, clamped_from, seq) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    tap.tapId,
    tap.by.device?.slice(0, 200) || UNKNOWN_DEVICE,
    tap.at,
    tap.received,
    (tap.by.actor ?? "system").slice(0, 200),
    tap.clampedFrom,
    seq,
  );
}

function answer(store: RaceStore, view: RapidView, tapId: string, outcome: RapidTapResult["outcome"]): RapidTapResult {
  const slot = slotOfTap(view, tapId);
  return {
    outcome,
    slot: slotRecord(store.rapidTap(tapId)!, store.requireMeta()),
    number: slot?.number ?? null,
    key: slot?.key ?? null,
  };
}

export function reusedTapId(): RaceError {
  return new RaceError(409, "Tryck-id:t är redan använt för en annan tryckning.");
}

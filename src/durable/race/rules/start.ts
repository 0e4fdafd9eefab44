/**
 * The start: not started ('') → started, at the tap's moment (a start pressed offline keeps its moment) or now.
 *
 * - A replayed start tap answers the start it made.
 * - Two phones pressing 'Starta' for the same gun: the first start to reach the race sets it; a later one within
 *   START_SAME_WINDOW_MS of it is the same start ('same-start', audited, the first kept).
 * - A start tap the race cannot take silently goes to the review list (review-list.ts): a second start further
 *   from the first, a start for an ended race, a start far from the race's time (FAR_START_MS: it reached the
 *   race long after it was pressed), or a moment ahead of the server beyond the phone's clock-sync error. An
 *   admin applying it makes its moment the start (`moveStart`): a change of every finisher's time, so each
 *   finisher's record changes with it (its seq), and every view that follows the race by seq (the phones, the
 *   spectators' fan-out, the public pages) gets the new times; after 'Officiella' it is a correction of each of
 *   them (rules/results.ts compares times, not finish moments).
 * - Without a tap id (the spec's bare call) those cases are refused as before.
 */
import { formatStockholmClock } from "../../../shared/stockholm";
import { FAR_START_MS, RaceError, START_SAME_WINDOW_MS, type RaceRecord } from "../../../shared/race-protocol";
import type { SentToReview, StartResult } from "../../../shared/race-answers";
import { raceRecord } from "../records";
import type { TapInput } from "../types";
import { checkTapId, tapMoment } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { sendToReview } from "./review-list";

export function start(context: RuleContext, tap: TapInput & { err?: number }): Decision<StartResult | SentToReview> {
  const { store, now, by } = context;
  const meta = store.requireMeta();
  const tapId = tap.tapId === undefined ? undefined : checkTapId(tap.tapId);
  if (tapId !== undefined) {
    if (store.rapidTap(tapId)) throw new RaceError(409, "Tryck-id:t är redan använt för en annan tryckning.");
    const stored = store.tap(tapId);
    if (stored) {
      if (stored.kind !== "start") throw new RaceError(409, "Tryck-id:t är redan använt för en annan tryckning.");
      return decided({ race: raceRecord(meta), outcome: "replayed" });
    }
    const item = store.review(tapId);
    if (item) {
      if (item.kind !== "start") throw new RaceError(409, "Tryck-id:t är redan använt för en annan tryckning.");
      return sendToReview(context, { id: tapId, kind: "start", reason: item.reason, at: item.at });
    }
  }

  let at: number;
  try {
    at = tapMoment(tap.at, now, tap.err);
  } catch (refusal) {
    if (tapId === undefined || !(refusal instanceof RaceError)) throw refusal;
    return review(context, tapId, tap.at ?? now, refusal.message);
  }

  if (meta.state === "ended") {
    if (tapId === undefined) throw new RaceError(409, "Loppet är avslutat. Återställ det för att starta om.");
    return review(context, tapId, at, "Loppet var redan avslutat när starten kom fram.");
  }
  if (meta.state === "started") {
    if (tapId !== undefined && meta.started !== null && Math.abs(at - meta.started) <= START_SAME_WINDOW_MS) {
      store.write("same-start", { at, tapId, first: meta.started, receivedAt: now }, by, () => {
        store.storeTap(tapId, "start", null, at, now, by, "same-start", meta.started!);
      });
      return decided({ race: raceRecord(store.requireMeta()), outcome: "same-start" });
    }
    if (tapId === undefined) throw new RaceError(409, "Loppet har redan startat.");
    const first = meta.started === null ? "" : ` kl. ${formatStockholmClock(meta.started)}`;
    return review(context, tapId, at, `Loppet startades redan${first} (från en annan telefon).`);
  }
  if (tapId !== undefined && now - at > FAR_START_MS) {
    return review(
      context,
      tapId,
      at,
      `Starten trycktes kl. ${formatStockholmClock(at)} men kom fram först kl. ${formatStockholmClock(now)}.`,
    );
  }

  store.write("start", { at, tapId: tapId ?? null, receivedAt: now }, by, (seq) => {
    store.sql("UPDATE meta SET state = 'started', started = ?, seq = ?, mirror_pending = 1 WHERE id = 1", at, seq);
    store.storeTap(tapId, "start", null, at, now, by, "recorded", at);
  });
  return decided({ race: raceRecord(store.requireMeta()), outcome: "started" }, { race: true, mirrorRace: true });
}

function review(context: RuleContext, tapId: string, at: number, reason: string): Decision<SentToReview> {
  return sendToReview(context, { id: tapId, kind: "start", reason, at, started: context.store.requireMeta().started });
}

/**
 * An admin's choice from the review list: `at` becomes the start. A race not started starts; a started or ended
 * race keeps its state with the new start (every result is measured from it, so every finisher's record is
 * written with the change's seq: a reader that asks for what changed after a seq gets them all). Audited as
 * 'start-moved'.
 */
export function moveStart(
  { store, now, by }: RuleContext,
  at: number,
  reviewId: string,
  alsoInTransaction: (seq: number) => void,
): Decision<RaceRecord> {
  const meta = store.requireMeta();
  const earliestFinish = store.sql<{ f: number | null }>("SELECT MIN(finished) AS f FROM runners")[0]?.f ?? null;
  if (earliestFinish !== null && at > earliestFinish) {
    throw new RaceError(409, "Starten kan inte ligga efter en registrerad målgång.");
  }
  // Every finisher's time is measured from the start: their records change with it.
  const finishers = store
    .sql<{ id: string }>("SELECT id FROM runners WHERE finished IS NOT NULL AND moving_to IS NULL")
    .map((r) => r.id);
  store.write(
    "start-moved",
    { at, previous: meta.started, state: meta.state, review: reviewId, receivedAt: now },
    by,
    (seq) => {
      store.sql(
        `UPDATE meta SET state = CASE state WHEN '' THEN 'started' ELSE state END, started = ?, seq = ?,
           mirror_pending = 1 WHERE id = 1`,
        at,
        seq,
      );
      store.sql("UPDATE runners SET seq = ? WHERE finished IS NOT NULL AND moving_to IS NULL", seq);
      alsoInTransaction(seq);
    },
  );
  return decided(raceRecord(store.requireMeta()), { race: true, runners: finishers, mirrorRace: true });
}

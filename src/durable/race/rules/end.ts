/**
 * The end: started → ended, only when nobody is waiting (everyone has finished or is marked DNS).
 *
 * An ended race stays ended (only a reset changes its state). What it takes and what it refuses:
 * - it takes an admin's corrections: a re-record confirmed on a phone (finish.ts), a time restored from the
 *   audit trail (finish.ts restoreTime), DNS and bib changes (dns.ts, bib.ts, runners.ts updateRunner), and the
 *   decisions on its review list (review.ts);
 * - it takes a reset (reset.ts), and a runner leaving: a refund that deregisters (runners.ts removeRunner) or an
 *   erasure, which anonymises an ended race's runners as any other's (erase.ts anonymiseRunner);
 * - a runner arrives in it only marked DNS, with `lateForEndedRace` in the audit line: a late payment, an admin's
 *   add (runners.ts addRunner);
 * - it refuses a start (start.ts: a start tap goes to the review list) and a change of distance into it (move.ts,
 *   runners.ts addRunner with `move`); undoing a finish (finish.ts restore) is offered only while the race runs;
 * - a queued tap arriving after the end goes to the review list (finish.ts), and so does a rapid 'Mål!' tap
 *   (rapid.ts);
 * - rapid timing's corrections are an admin's corrections and are taken: bibs typed in finish order, changed or
 *   removed (bib-entries.ts), slots assigned, discarded, kept, a main timer (slots.ts), and the decisions on their
 *   review items; once ended, every slot without a bib and every slot only one device has is on the review list
 *   (reconcile.ts);
 * - the results can be marked official only once the race has ended (results.ts); a correction after that is
 *   taken and shows as corrected.
 */
import { RaceError, type RaceRecord } from "../../../shared/race-protocol";
import { raceRecord } from "../records";
import { decided, type Decision, type RuleContext } from "./decision";

export function end({ store, by }: RuleContext): Decision<RaceRecord> {
  const meta = store.requireMeta();
  if (meta.state === "ended") return decided(raceRecord(meta));
  if (meta.state !== "started") throw new RaceError(409, "Loppet har inte startat.");
  const waiting = store.sql<{ n: number }>(
    "SELECT COUNT(*) AS n FROM runners WHERE finished IS NULL AND dns = 0 AND moving_to IS NULL",
  )[0]!.n;
  if (waiting > 0) {
    throw new RaceError(409, `${waiting} löpare är kvar i loppet. Registrera målgång eller markera DNS först.`);
  }
  store.write("end", {}, by, (seq) => {
    store.sql("UPDATE meta SET state = 'ended', seq = ?, mirror_pending = 1 WHERE id = 1", seq);
  });
  return decided(raceRecord(store.requireMeta()), { race: true, mirrorRace: true });
}

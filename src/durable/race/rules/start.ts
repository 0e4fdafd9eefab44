/**
 * The start: not started ('') → started, at the tap's moment (a start pressed offline keeps its moment) or now.
 * A replayed start tap answers the start it made.
 */
import { RaceError, type RaceRecord } from "../../../shared/race-protocol";
import { raceRecord } from "../records";
import type { TapInput } from "../types";
import { checkTapId, tapMoment } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";

export function start({ store, now, by }: RuleContext, tap: TapInput): Decision<RaceRecord> {
  const meta = store.requireMeta();
  if (tap.tapId !== undefined && store.tap(checkTapId(tap.tapId))) return decided(raceRecord(meta));
  if (meta.state === "started") throw new RaceError(409, "Loppet har redan startat.");
  if (meta.state === "ended") throw new RaceError(409, "Loppet är avslutat. Återställ det för att starta om.");
  const at = tapMoment(tap.at, now, null);
  store.write("start", { at, tapId: tap.tapId ?? null, receivedAt: now }, by, (seq) => {
    store.sql("UPDATE meta SET state = 'started', started = ?, seq = ?, mirror_pending = 1 WHERE id = 1", at, seq);
    store.storeTap(tap.tapId, "start", null, at, now, by, "recorded", at);
  });
  return decided(raceRecord(store.requireMeta()), { race: true, mirrorRace: true });
}

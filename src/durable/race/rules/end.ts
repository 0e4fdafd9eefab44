/** The end: started → ended, only when nobody is waiting (everyone has finished or is marked DNS). */
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

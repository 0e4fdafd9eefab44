/**
 * Reset: any state back to not started; start, finishes and DNS cleared, runners and bibs kept. The epoch moves
 * on, so taps made before stay spent (a replay of one answers what it answered then).
 */
import type { RaceRecord } from "../../../shared/race-protocol";
import { raceRecord } from "../records";
import { decided, type Decision, type RuleContext } from "./decision";

export function reset({ store, by }: RuleContext): Decision<RaceRecord> {
  const meta = store.requireMeta();
  const finishes = store.sql<{ id: string; finished: number | null; dns: number }>(
    "SELECT id, finished, dns FROM runners WHERE finished IS NOT NULL OR dns = 1",
  );
  store.write(
    "reset",
    { previous: { state: meta.state, started: meta.started }, finishes: finishes.map((r) => [r.id, r.finished]) },
    by,
    (seq) => {
      store.sql(
        "UPDATE meta SET state = '', started = NULL, seq = ?, epoch = epoch + 1, mirror_pending = 1 WHERE id = 1",
        seq,
      );
      store.sql("UPDATE runners SET finished = NULL, dns = 0, seq = ? WHERE finished IS NOT NULL OR dns = 1", seq);
    },
  );
  return decided(raceRecord(store.requireMeta()), {
    race: true,
    runners: finishes.map((r) => r.id),
    mirrorRace: true,
  });
}

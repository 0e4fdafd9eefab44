/**
 * DNS: a runner marked as not started no longer holds back the end; the mark can be taken back. An ended race takes
 * DNS changes too (an admin's correction: rules/end.ts); taking the mark back there leaves the runner waiting in
 * an ended race until a finish is applied or the mark is set again.
 */
import { RaceError, type RunnerRecord } from "../../../shared/race-protocol";
import { runnerRecord } from "../records";
import { decided, type Decision, type RuleContext } from "./decision";
import { liveRunner } from "./runners";

export function setDns({ store, by }: RuleContext, id: string, dns: boolean): Decision<RunnerRecord> {
  const meta = store.requireMeta();
  const row = liveRunner(store, id);
  if (dns && row.finished !== null) throw new RaceError(409, "Löparen har redan gått i mål.");
  const changed = Boolean(row.dns) !== dns;
  if (changed) {
    store.write(dns ? "dns" : "dns-removed", { id: row.id, bib: row.bib }, by, (seq) => {
      store.sql("UPDATE runners SET dns = ?, seq = ? WHERE id = ?", dns ? 1 : 0, seq, row.id);
    });
  }
  return decided(runnerRecord(store.runnerRow(row.id)!, meta), { runners: changed ? [row.id] : [] });
}

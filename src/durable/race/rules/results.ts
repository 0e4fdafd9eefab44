/**
 * Preliminary → official (issue 26, item 5). A race's results are 'preliminary' from the first finish; an admin
 * marks them 'official', which only an ended race takes, and which is refused while the review list has open
 * items unless the admin confirms. A second 'Officiella' is refused. That moment is one event: the RPC answer
 * `{outcome: 'official'}` (given once), the audit row 'results-official', and D1's `races.results_status`
 * ('official') with `results_official_at` (d1.ts), so the Worker can act on it (mail the families). Two admins
 * pressing 'Officiella' at once: the rule decides and writes in one synchronous step, so the first is the event and
 * the second is refused as a second 'Officiella'.
 *
 * The results as they were marked official are kept (`official_results`). A later change that alters one of
 * them (a time, a DNS mark, a bib; a finisher removed; a time given to someone who had none) is allowed and
 * audited by its own rule; here the race becomes 'corrected' and each such runner `corrected`, in one audited
 * change ('results-corrected'). A reset clears all of it (reset.ts).
 */
import { RaceError, type RaceRecord } from "../../../shared/race-protocol";
import { raceRecord } from "../records";
import { decided, type Decision, type Effects, type RuleContext } from "./decision";

export interface OfficialResult {
  race: RaceRecord;
  outcome: "official";
  /** Open review items the admin confirmed past. */
  openReviews: number;
}

export function markOfficial({ store, now, by }: RuleContext, confirm: boolean): Decision<OfficialResult> {
  const meta = store.requireMeta();
  if (meta.results === "official" || meta.results === "corrected") {
    throw new RaceError(409, "Resultaten är redan officiella.");
  }
  if (meta.state !== "ended") {
    throw new RaceError(409, "Resultaten kan bli officiella först när loppet är avslutat.");
  }
  const open = store.openReviews().length;
  if (open > 0 && !confirm) {
    throw new RaceError(
      409,
      open === 1
        ? "1 sak under Att granska är inte avgjord. Avgör den först, eller bekräfta att resultaten ändå ska bli officiella."
        : `${open} saker under Att granska är inte avgjorda. Avgör dem först, eller bekräfta att resultaten ändå ska bli officiella.`,
    );
  }
  const counts = store.sql<{ runners: number; finished: number }>(
    `SELECT COUNT(*) AS runners, COUNT(finished) AS finished FROM runners WHERE moving_to IS NULL`,
  )[0]!;
  store.write(
    "results-official",
    { openReviews: open, runners: counts.runners, finished: counts.finished },
    by,
    (seq) => {
      store.sql(
        "UPDATE meta SET results = 'official', official_at = ?, seq = ?, mirror_pending = 1 WHERE id = 1",
        now,
        seq,
      );
      store.sql("DELETE FROM official_results");
      store.sql(
        `INSERT INTO official_results (id, bib, finished, dns)
       SELECT id, bib, finished, dns FROM runners WHERE moving_to IS NULL`,
      );
    },
  );
  return decided(
    { race: raceRecord(store.requireMeta()), outcome: "official", openReviews: open },
    { race: true, mirrorRace: true },
  );
}

/**
 * After any change (the room's change step calls this with the change's effects, room.ts): the first finish makes
 * the results preliminary; after they are official, a change to one of them marks the race and the runner
 * corrected.
 */
export function keepResultsStatus({ store, by }: RuleContext, effects: Effects): Effects {
  const ids = effects.runners ?? [];
  if (ids.length === 0) return {};
  const meta = store.requireMeta();
  if (meta.results === "") {
    if (meta.state === "") return {};
    const finished = store.sql<{ n: number }>(
      "SELECT EXISTS (SELECT 1 FROM runners WHERE finished IS NOT NULL AND moving_to IS NULL) AS n",
    )[0]!.n;
    if (!finished) return {};
    store.write("results-preliminary", {}, by, (seq) => {
      store.sql("UPDATE meta SET results = 'preliminary', seq = ?, mirror_pending = 1 WHERE id = 1", seq);
    });
    return { race: true, mirrorRace: true };
  }
  if (meta.results !== "official" && meta.results !== "corrected") return {};

  const changes: { id: string; was: Result | null; now: Result | null }[] = [];
  const newly: string[] = [];
  for (const id of new Set(ids)) {
    const row = store.runnerRow(id);
    const nowResult = row && row.moving_to === null ? { bib: row.bib, finished: row.finished, dns: row.dns } : null;
    const snap = store.officialResult(id);
    const was = snap ? { bib: snap.bib, finished: snap.finished, dns: snap.dns } : null;
    if (!altered(was, nowResult)) continue;
    changes.push({ id, was, now: nowResult });
    if (row && nowResult && !row.corrected) newly.push(id);
  }
  const becomesCorrected = meta.results === "official" && changes.length > 0;
  if (!becomesCorrected && newly.length === 0) return {};
  store.write("results-corrected", { changes }, by, (seq) => {
    for (const id of newly) store.sql("UPDATE runners SET corrected = 1, seq = ? WHERE id = ?", seq, id);
    if (becomesCorrected) {
      store.sql("UPDATE meta SET results = 'corrected', seq = ?, mirror_pending = 1 WHERE id = 1", seq);
    }
  });
  return { race: becomesCorrected, mirrorRace: becomesCorrected, runners: newly };
}

type Result = { bib: number | null; finished: number | null; dns: number };

function altered(was: Result | null, now: Result | null): boolean {
  if (was === null) return now !== null && now.finished !== null;
  if (now === null) return was.finished !== null;
  return was.bib !== now.bib || was.finished !== now.finished || was.dns !== now.dns;
}

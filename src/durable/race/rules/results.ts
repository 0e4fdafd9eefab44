/**
 * Preliminary → official (issue 26, item 5). A race's results are 'preliminary' from the first finish; an admin
 * marks them 'official', which only an ended race takes, and which is refused while the review list has open
 * items unless the admin confirms. A second 'Officiella' is refused. That moment is one event: the RPC answer
 * `{outcome: 'official'}` (given once), the audit row 'results-official', and D1's `races.results_status`
 * ('official') with `results_official_at` (d1.ts), so the Worker can act on it (mail the families). Two admins
 * pressing 'Officiella' at once: the rule decides and writes in one synchronous step, so the first is the event and
 * the second is refused as a second 'Officiella'.
 *
 * The results as they were marked official are kept (`official_results`): each runner's bib, DNS mark and time
 * (ms from the start: a result is a time, not a finish moment, so a moved start changes every finisher's result).
 * A later change that alters one of them (a time, a DNS mark, a bib; a finisher removed; a time given to someone
 * who had none; the start moved) is allowed and audited by its own rule; here the runner becomes `corrected` and
 * the race 'corrected', in one audited change ('results-corrected'). A change that brings a result back to its
 * official value (a time restored, a bib swapped back) takes the runner's mark away, and once no result differs
 * from the official ones the race is 'official' again ('results-restored'): what the public sees is then exactly
 * what was made official, with no '(korrigerad)' anywhere, as if the detour never happened; the audit trail keeps
 * both steps, and the families' mail compares with what each family was last told (results-mail.ts). A reset
 * clears all of it (reset.ts).
 */
import { RaceError } from "../../../shared/race-protocol";
import type { OfficialResult } from "../../../shared/race-answers";
import { resultMs } from "../../../shared/time-format";
import { raceRecord } from "../records";
import type { OfficialResultRow, RaceStore, RunnerRow } from "../storage";
import { decided, type Decision, type Effects, type RuleContext } from "./decision";

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
        `INSERT INTO official_results (id, bib, finished, dns, time)
       SELECT id, bib, finished, dns, finished - ? FROM runners WHERE moving_to IS NULL`,
        meta.started,
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
 * corrected, and a change that brings results back to their official values takes the marks away (module comment).
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

  const changes: { id: string; was: Logged | null; now: Logged | null }[] = [];
  const marked: string[] = [];
  const restored: string[] = [];
  for (const id of new Set(ids)) {
    const row = store.runnerRow(id);
    const now = row && row.moving_to === null ? resultOf(row, meta.started) : null;
    const official = store.officialResult(id);
    const was = official ? officialResult(official) : null;
    if (altered(was, now)) {
      changes.push({ id, was: logged(was), now: logged(now) });
      if (row && now && !row.corrected) marked.push(id);
    } else if (row?.corrected) {
      restored.push(id);
    }
  }
  // 'corrected' while any result differs from the official ones: this change's, or one an earlier change left.
  const results =
    changes.length > 0 || (meta.results === "corrected" && anyAltered(store, meta.started)) ? "corrected" : "official";
  const statusChanged = results !== meta.results;
  if (!statusChanged && marked.length === 0 && restored.length === 0) return {};
  // 'results-corrected' names what this change altered (and any mark it took away); 'results-restored' the marks
  // taken away, and the status the race is left with.
  const [type, payload] =
    changes.length > 0
      ? ["results-corrected", { changes, ...(restored.length > 0 ? { restored } : {}) }]
      : ["results-restored", { restored, results }];
  store.write(type, payload, by, (seq) => {
    for (const id of marked) store.sql("UPDATE runners SET corrected = 1, seq = ? WHERE id = ?", seq, id);
    for (const id of restored) store.sql("UPDATE runners SET corrected = 0, seq = ? WHERE id = ?", seq, id);
    if (statusChanged) {
      store.sql("UPDATE meta SET results = ?, seq = ?, mirror_pending = 1 WHERE id = 1", results, seq);
    }
  });
  return { race: statusChanged, mirrorRace: statusChanged, runners: [...marked, ...restored] };
}

/** What a result is compared on: the bib, the DNS mark and the time from the start (`finished` is for the log). */
type Result = { bib: number | null; finished: number | null; time: number | null; dns: number };

/** A result as the audit trail names it. */
type Logged = Omit<Result, "time">;

function logged(result: Result | null): Logged | null {
  return result && { bib: result.bib, finished: result.finished, dns: result.dns };
}

function resultOf(row: RunnerRow, started: number | null): Result {
  return { bib: row.bib, finished: row.finished, time: resultMs(started, row.finished), dns: row.dns };
}

function officialResult(row: OfficialResultRow): Result {
  return { bib: row.bib, finished: row.finished, time: row.time, dns: row.dns };
}

function altered(was: Result | null, now: Result | null): boolean {
  if (was === null) return now !== null && now.finished !== null;
  if (now === null) return was.finished !== null;
  return was.bib !== now.bib || was.time !== now.time || was.dns !== now.dns;
}

/** Whether any result of the race differs from its official one (a runner in the race now, or one that left). */
function anyAltered(store: RaceStore, started: number | null): boolean {
  const official = new Map(
    store.sql<OfficialResultRow>("SELECT * FROM official_results").map((row) => [row.id, officialResult(row)]),
  );
  for (const row of store.liveRunnerRows()) {
    if (altered(official.get(row.id) ?? null, resultOf(row, started))) return true;
    official.delete(row.id);
  }
  for (const was of official.values()) if (altered(was, null)) return true;
  return false;
}

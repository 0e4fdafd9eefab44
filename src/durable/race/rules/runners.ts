/**
 * The race's runners: add (idempotent by participant id), change details or bib, remove (erasure: erase.ts).
 * A runner is in the race's lists unless it is on its way to another race (`moving_to`, see move.ts).
 */
import { metersToKm, RaceError, type RunnerRecord } from "../../../shared/race-protocol";
import { runnerRecord } from "../records";
import type { RaceStore, RunnerRow } from "../storage";
import type { AddRunnerOptions, AddRunnerResult, RunnerInput, RunnerPatch } from "../types";
import {
  bibTaken,
  checkAge,
  checkBib,
  checkCompany,
  checkGroup,
  checkId,
  checkName,
  checkOwner,
  checkPickedUpAt,
} from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";

/** A runner of this race, not on its way elsewhere; 404 otherwise. */
export function liveRunner(store: RaceStore, id: string): RunnerRow {
  const row = store.runnerRow(checkId(id));
  if (!row || row.moving_to !== null) throw new RaceError(404, "Löparen finns inte i loppet.");
  return row;
}

/**
 * Adds a runner. Idempotent by id: adding the same participant again changes nothing (and mirrors it again).
 * An ended race takes no runner by a change of distance; any other arrival (a payment settled after the end, an
 * admin's add) comes in marked DNS, with `lateForEndedRace` in the audit line, so the race stays ended and its
 * results stay what they were, and the organiser sees the runner in the start list as DNS.
 */
export function addRunner(
  { store, now, by }: RuleContext,
  input: RunnerInput,
  options: AddRunnerOptions = {},
): Decision<AddRunnerResult> {
  const meta = store.requireMeta();
  const id = checkId(input?.id);
  const existing = store.runnerRow(id);
  if (existing) return decided({ runner: runnerRecord(existing, meta), added: false }, { mirror: [id] });
  const ended = meta.state === "ended";
  if (ended && options.move) {
    throw new RaceError(409, "Loppet är avslutat och tar inte emot fler löpare. Löparen ligger kvar i sitt lopp.", {
      final: true,
    });
  }

  const raceKm = metersToKm(meta.distance);
  if (input.distance !== undefined && input.distance !== null && String(input.distance) !== raceKm) {
    throw new RaceError(400, `Fel distans för loppet: ${input.distance} km (loppet är ${raceKm} km).`);
  }
  const fields = {
    firstname: checkName(input.firstname),
    lastname: checkName(input.lastname),
    age: checkAge(input.age),
    company: checkCompany(input.company ?? ""),
    group: checkGroup(input.group),
  };
  let bib = checkBib(input.bib ?? null);
  let droppedBib: number | undefined;
  const holder = bib === null ? null : store.runnerWithBib(bib);
  if (holder && bib !== null) {
    if (!options.dropTakenBib) throw bibTaken(bib, holder);
    droppedBib = bib;
    bib = null;
  }

  const pickedUpAt = checkPickedUpAt(input.pickedUpAt) ?? (options.onSite && meta.state === "started" ? now : null);
  const pickup = pickedUpAt === null ? {} : { pickedUpAt };
  const audit = ended
    ? { id, ...fields, bib, droppedBib, ...pickup, dns: true, lateForEndedRace: true }
    : { id, ...fields, bib, droppedBib, ...pickup };
  store.write("runner-added", audit, by, (seq) => {
    store.sql(
      `INSERT INTO runners
         (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at, updated_at,
          seq, dns, picked_up_at, owner)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
      id,
      id,
      bib,
      fields.firstname,
      fields.lastname,
      fields.age,
      fields.company,
      fields.group,
      raceKm,
      now,
      now,
      seq,
      ended ? 1 : 0,
      pickedUpAt,
      checkOwner(input.owner),
    );
    store.sql("DELETE FROM removed WHERE id = ?", id);
    store.owesMirror(id);
  });
  const runner = runnerRecord(store.runnerRow(id)!, meta);
  const result: AddRunnerResult =
    droppedBib === undefined ? { runner, added: true } : { runner, added: true, droppedBib };
  return decided(result, { runners: [id], mirror: [id] });
}

/** Changes a runner's bib or details. A bib must be a positive whole number not used by another runner. */
export function updateRunner({ store, now, by }: RuleContext, id: string, patch: RunnerPatch): Decision<RunnerRecord> {
  const meta = store.requireMeta();
  const row = liveRunner(store, id);
  if (typeof patch !== "object" || patch === null) throw new RaceError(400, "Ogiltig ändring.");

  const next = { ...row };
  if ("firstname" in patch) next.firstname = checkName(patch.firstname);
  if ("lastname" in patch) next.lastname = checkName(patch.lastname);
  if ("age" in patch) next.age = checkAge(patch.age);
  if ("company" in patch) next.company = checkCompany(patch.company);
  if ("group" in patch) next.grp = checkGroup(patch.group);
  if ("bib" in patch) {
    next.bib = checkBib(patch.bib ?? null);
    const holder = next.bib === null ? null : store.runnerWithBib(next.bib);
    if (holder && holder.id !== row.id && next.bib !== null) throw bibTaken(next.bib, holder);
  }

  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of ["bib", "firstname", "lastname", "age", "company", "grp"] as const) {
    if (next[key] !== row[key]) changes[key === "grp" ? "group" : key] = [row[key], next[key]];
  }
  const changed = Object.keys(changes).length > 0;
  if (changed) {
    store.write("runner-updated", { id: row.id, changes }, by, (seq) => {
      store.sql(
        `UPDATE runners SET bib = ?, firstname = ?, lastname = ?, age = ?, company = ?, grp = ?, updated_at = ?,
           seq = ?
         WHERE id = ?`,
        next.bib,
        next.firstname,
        next.lastname,
        next.age,
        next.company,
        next.grp,
        now,
        seq,
        row.id,
      );
      if ("bib" in changes) store.owesMirror(row.id);
    });
  }
  return decided(runnerRecord(store.runnerRow(row.id)!, meta), {
    runners: changed ? [row.id] : [],
    mirror: [row.id],
  });
}

/** Takes a runner out of the race; the removed record, or null when the runner was not in it. */
export function removeRunner({ store, by }: RuleContext, id: string): Decision<RunnerRecord | null> {
  const meta = store.requireMeta();
  const runnerId = checkId(id);
  const row = store.runnerRow(runnerId);
  if (row) {
    store.write("runner-removed", { id: runnerId, bib: row.bib }, by, (seq) => store.tombstone(runnerId, seq));
  }
  return decided(row ? runnerRecord(row, meta) : null, { runners: row ? [runnerId] : [], mirror: [runnerId] });
}

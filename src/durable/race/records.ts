/**
 * Rows to the wire records (shared/race-protocol.ts): what the RPC methods answer and the sockets carry.
 */
import {
  isRaceState,
  runnerSort,
  runnerTime,
  type RaceEvent,
  type RaceRecord,
  type RaceState,
  type RemovedRunnerRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import type { MetaRow, RaceStore, RunnerRow } from "./storage";

export function raceRecord(meta: MetaRow): RaceRecord {
  return {
    type: "race",
    part: meta.part,
    sort: "race",
    state: isRaceState(meta.state) ? meta.state : ("" satisfies RaceState),
    started: meta.started,
    date: meta.date,
    distance: meta.distance,
    openForReg: Boolean(meta.open_for_reg),
  };
}

export function runnerRecord(row: RunnerRow, meta: MetaRow): RunnerRecord {
  const record: RunnerRecord = {
    type: "runner",
    part: meta.part,
    sort: runnerSort(row.id),
    id: row.id,
    bib: row.bib,
    firstname: row.firstname,
    lastname: row.lastname,
    age: row.age,
    company: row.company,
    group: row.grp,
    finished: row.finished,
    distance: row.distance,
  };
  const time = runnerTime(meta.started, row.finished);
  if (time !== undefined) record.time = time;
  if (row.dns) record.dns = true;
  return record;
}

export function raceEvent(meta: MetaRow): RaceEvent {
  return { ...raceRecord(meta), seq: meta.seq };
}

/** The events for these runners as they are now: the record, or a removal for one that left or is moving. */
export function runnerEvents(store: RaceStore, ids: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  const events: RaceEvent[] = [];
  for (const id of new Set(ids)) {
    const row = store.runnerRow(id);
    if (row && row.moving_to === null) {
      events.push({ ...runnerRecord(row, meta), seq: row.seq });
      continue;
    }
    const seq = row?.seq ?? store.removedSeq(id);
    if (seq === undefined) continue;
    const removed: RemovedRunnerRecord = { type: "runner", part: meta.part, sort: runnerSort(id), removed: true };
    events.push({ ...removed, seq });
  }
  return events.sort((a, b) => a.seq - b.seq);
}

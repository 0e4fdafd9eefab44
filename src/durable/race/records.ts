/**
 * Rows to the wire records (shared/race-protocol.ts): what the RPC methods answer and the sockets carry.
 */
import {
  isRaceState,
  REVIEW_KINDS,
  reviewSort,
  runnerSort,
  runnerTime,
  type RaceEvent,
  type RaceRecord,
  type RaceState,
  type RemovedRunnerRecord,
  type ReviewKind,
  type ReviewRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import type { MetaRow, RaceStore, ReviewRow, RunnerRow } from "./storage";

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
  if (row.picked_up_at !== null) record.pickedUpAt = row.picked_up_at;
  record.seq = row.seq;
  return record;
}

export function reviewRecord(row: ReviewRow, meta: MetaRow): ReviewRecord & { seq: number } {
  const record: ReviewRecord & { seq: number } = {
    type: "review",
    part: meta.part,
    sort: reviewSort(row.id),
    id: row.id,
    kind: (REVIEW_KINDS as readonly string[]).includes(row.kind) ? (row.kind as ReviewKind) : "tap",
    status: row.status === "applied" || row.status === "discarded" ? row.status : "open",
    reason: row.reason,
    at: row.at,
    actor: row.actor,
    device: row.device,
    createdAt: row.created_at,
    seq: row.seq,
  };
  if (row.runner_id !== null) {
    record.runnerId = row.runner_id;
    record.bib = row.bib;
    record.name = row.name ?? "";
  }
  if (row.kind === "start") record.started = row.started;
  if (row.decided_by !== null) record.decidedBy = row.decided_by;
  if (row.decided_at !== null) record.decidedAt = row.decided_at;
  return record;
}

/** The events for these review items as they are now. */
export function reviewEvents(store: RaceStore, ids: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  return [...new Set(ids)]
    .map((id) => store.review(id))
    .filter((row): row is ReviewRow => row !== null)
    .map((row) => reviewRecord(row, meta))
    .sort((a, b) => a.seq - b.seq);
}

export function raceEvent(meta: MetaRow): RaceEvent {
  return { ...raceRecord(meta), seq: meta.seq };
}

/** A runner's record as an event (with the seq of its last change). */
export function runnerEvent(row: RunnerRow, meta: MetaRow): RunnerRecord & { seq: number } {
  return { ...runnerRecord(row, meta), seq: row.seq };
}

/** The events for these runners as they are now: the record, or a removal for one that left or is moving. */
export function runnerEvents(store: RaceStore, ids: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  const events: RaceEvent[] = [];
  for (const id of new Set(ids)) {
    const row = store.runnerRow(id);
    if (row && row.moving_to === null) {
      events.push(runnerRecord(row, meta) as RunnerRecord & { seq: number });
      continue;
    }
    const seq = row?.seq ?? store.removedSeq(id);
    if (seq === undefined) continue;
    const removed: RemovedRunnerRecord = { type: "runner", part: meta.part, sort: runnerSort(id), removed: true };
    events.push({ ...removed, seq });
  }
  return events.sort((a, b) => a.seq - b.seq);
}

/**
 * Rows to the wire records (shared/race-protocol.ts): what the RPC methods answer and the sockets carry.
 */
import {
  bibEntrySort,
  isRaceState,
  photoSort,
  REVIEW_KINDS,
  reviewSort,
  runnerSort,
  runnerTime,
  slotSort,
  type BibEntryRecord,
  type PhotoRecord,
  type RaceEvent,
  type RaceRecord,
  type RaceState,
  type RemovedRunnerRecord,
  type ResultsStatus,
  type ReviewKind,
  type ReviewRecord,
  type ReviewStatus,
  type ReviewSuggestion,
  type RunnerRecord,
  type SlotRecord,
} from "../../shared/race-protocol";
import type { BibEntryRow, MetaRow, PhotoRow, RaceStore, RapidTapRow, ReviewRow, RunnerRow } from "./storage";

const RESULTS_STATUSES: readonly string[] = ["preliminary", "official", "corrected"] satisfies ResultsStatus[];
const REVIEW_STATUSES: readonly string[] = ["open", "applied", "discarded", "resolved"] satisfies ReviewStatus[];

export function raceRecord(meta: MetaRow): RaceRecord {
  const record: RaceRecord = {
    type: "race",
    part: meta.part,
    sort: "race",
    state: isRaceState(meta.state) ? meta.state : ("" satisfies RaceState),
    started: meta.started,
    date: meta.date,
    distance: meta.distance,
    openForReg: Boolean(meta.open_for_reg),
  };
  if (RESULTS_STATUSES.includes(meta.results)) record.results = meta.results as ResultsStatus;
  if (meta.official_at !== null) record.officialAt = meta.official_at;
  if (meta.main_timer !== null) record.mainTimer = meta.main_timer;
  return record;
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
  if (row.slot !== null) record.slot = row.slot;
  if (row.corrected) record.corrected = true;
  return record;
}

export function reviewRecord(row: ReviewRow, meta: MetaRow): ReviewRecord & { seq: number } {
  const record: ReviewRecord & { seq: number } = {
    type: "review",
    part: meta.part,
    sort: reviewSort(row.id),
    id: row.id,
    kind: (REVIEW_KINDS as readonly string[]).includes(row.kind) ? (row.kind as ReviewKind) : "tap",
    status: REVIEW_STATUSES.includes(row.status) ? (row.status as ReviewStatus) : "open",
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
  } else if (row.bib !== null) {
    // A typed bib nobody has (rapid timing's 'bib-unknown'): the list names the number.
    record.bib = row.bib;
  }
  if (row.kind === "start") record.started = row.started;
  if (row.data !== null) Object.assign(record, reviewData(row.data));
  if (row.decided_by !== null) record.decidedBy = row.decided_by;
  if (row.decided_at !== null) record.decidedAt = row.decided_at;
  return record;
}

/** Rapid timing's review details, as the review row keeps them (JSON). */
export interface ReviewData {
  slot?: string;
  entry?: string;
  pin?: string;
  other?: string;
  suggestions?: ReviewSuggestion[];
}

function reviewData(json: string): ReviewData {
  const data = JSON.parse(json) as ReviewData;
  const out: ReviewData = {};
  for (const key of ["slot", "entry", "pin", "other"] as const) if (typeof data[key] === "string") out[key] = data[key];
  if (Array.isArray(data.suggestions)) out.suggestions = data.suggestions;
  return out;
}

export function slotRecord(row: RapidTapRow, meta: MetaRow): SlotRecord & { seq: number } {
  const record: SlotRecord & { seq: number } = {
    type: "slot",
    part: meta.part,
    sort: slotSort(row.tap_id),
    id: row.tap_id,
    device: row.device,
    at: row.at,
    actor: row.actor,
    createdAt: row.received,
    seq: row.seq,
  };
  if (row.clamped_from !== null) record.clampedFrom = row.clamped_from;
  if (row.discarded) record.discarded = true;
  if (row.confirmed) record.confirmed = true;
  if (row.pin !== null) record.pin = row.pin;
  if (row.cleared) record.removed = true;
  return record;
}

export function bibEntryRecord(row: BibEntryRow, meta: MetaRow): BibEntryRecord & { seq: number } {
  const record: BibEntryRecord & { seq: number } = {
    type: "bib",
    part: meta.part,
    sort: bibEntrySort(row.id),
    id: row.id,
    bib: row.bib,
    position: row.pos,
    device: row.device,
    actor: row.actor,
    at: row.at,
    seq: row.seq,
  };
  if (row.typed !== row.bib) record.typed = row.typed;
  if (row.removed || row.cleared) record.removed = true;
  return record;
}

/** The events for these rapid taps as they are now. */
export function slotEvents(store: RaceStore, ids: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  return [...new Set(ids)]
    .map((id) => store.rapidTap(id))
    .filter((row): row is RapidTapRow => row !== null)
    .map((row) => slotRecord(row, meta));
}

/** The events for these typed bibs as they are now. */
export function bibEntryEvents(store: RaceStore, ids: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  return [...new Set(ids)]
    .map((id) => store.bibEntry(id))
    .filter((row): row is BibEntryRow => row !== null)
    .map((row) => bibEntryRecord(row, meta));
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

/** A tap's photo record from its frame rows (removed when none is kept); null for no rows. */
export function photoRecord(rows: readonly PhotoRow[], meta: MetaRow): (PhotoRecord & { seq: number }) | null {
  const first = rows[0];
  if (!first) return null;
  const live = rows.filter((r) => !r.removed);
  const record: PhotoRecord & { seq: number } = {
    type: "photo",
    part: meta.part,
    sort: photoSort(first.tap_id),
    id: first.tap_id,
    frames: live.map((r) => r.frame),
    at: first.tap_at,
    device: first.device,
    seq: Math.max(...rows.map((r) => r.seq)),
  };
  if (live.length === 0) record.removed = true;
  return record;
}

/** The events for these taps' photos as they are now. */
export function photoEvents(store: RaceStore, tapIds: readonly string[]): RaceEvent[] {
  const meta = store.requireMeta();
  return [...new Set(tapIds)]
    .map((id) => photoRecord(store.sql<PhotoRow>("SELECT * FROM photos WHERE tap_id = ? ORDER BY frame", id), meta))
    .filter((record): record is PhotoRecord & { seq: number } => record !== null);
}

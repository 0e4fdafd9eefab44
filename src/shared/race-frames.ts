/**
 * What a race socket may send, checked field by field before anything reaches the cache: a frame that does not
 * have the shape of the protocol is dropped whole, an event inside an array that does not is dropped alone, so a
 * server bug or a proxy's garbage can never put an impossible record on the timing screen.
 */
import {
  isRaceState,
  REVIEW_KINDS,
  type BibEntryRecord,
  type PhotoRecord,
  type RaceControlFrame,
  type RaceEvent,
  type RaceRecord,
  type RemovedRunnerRecord,
  type ResultsStatus,
  type ReviewRecord,
  type ReviewSuggestion,
  type RunnerRecord,
  type SlotRecord,
} from "./race-protocol";

export type ParsedFrame = { kind: "events"; events: RaceEvent[] } | { kind: "control"; frame: RaceControlFrame };

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const isSeq = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isTime = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const isTimeOrNull = (x: unknown): x is number | null => x === null || isTime(x);
const isRunnerSort = (x: unknown): x is `runner-${string}` =>
  typeof x === "string" && x.startsWith("runner-") && x.length > "runner-".length;

export function toRaceRecord(x: unknown): RaceRecord | null {
  if (!isObj(x) || x.sort !== "race" || typeof x.part !== "string" || !isRaceState(x.state)) return null;
  if (!isTimeOrNull(x.started) || typeof x.date !== "string" || !isTime(x.distance)) return null;
  return {
    type: "race",
    part: x.part,
    sort: "race",
    state: x.state,
    started: x.started,
    date: x.date,
    distance: x.distance,
    openForReg: x.openForReg === true,
    ...(isResultsStatus(x.results) ? { results: x.results } : {}),
    ...(isTime(x.officialAt) ? { officialAt: x.officialAt } : {}),
    ...(typeof x.mainTimer === "string" ? { mainTimer: x.mainTimer } : {}),
  };
}

const isResultsStatus = (x: unknown): x is ResultsStatus =>
  x === "preliminary" || x === "official" || x === "corrected";

/** The fields a tile and the results need are required; the rest fall back to what the server leaves out. */
export function toRunnerRecord(x: unknown): RunnerRecord | null {
  if (!isObj(x) || !isRunnerSort(x.sort) || typeof x.part !== "string") return null;
  if (typeof x.firstname !== "string" || typeof x.lastname !== "string") return null;
  if (!isTimeOrNull(x.finished)) return null;
  const bib = x.bib === null || x.bib === undefined || x.bib === 0 ? null : x.bib;
  if (bib !== null && !(Number.isSafeInteger(bib) && (bib as number) > 0)) return null;
  const runner: RunnerRecord = {
    type: "runner",
    part: x.part,
    sort: x.sort,
    id: typeof x.id === "string" ? x.id : x.sort.slice("runner-".length),
    bib: bib as number | null,
    firstname: x.firstname,
    lastname: x.lastname,
    age: isTime(x.age) ? x.age : 0,
    company: typeof x.company === "string" ? x.company : "",
    group: typeof x.group === "string" ? x.group : "Ingen",
    finished: x.finished,
    distance: typeof x.distance === "string" ? x.distance : "",
  };
  if (typeof x.time === "string") runner.time = x.time;
  if (x.dns === true) runner.dns = true;
  // Picked up at the bib desk (admins' sockets only): the race screen marks the runners without it 'ej hämtad'.
  if (isTime(x.pickedUpAt)) runner.pickedUpAt = x.pickedUpAt;
  if (typeof x.slot === "string") runner.slot = x.slot;
  if (x.corrected === true) runner.corrected = true;
  return runner;
}

function toRemovedRunner(x: Obj): RemovedRunnerRecord | null {
  if (x.removed !== true || !isRunnerSort(x.sort) || typeof x.part !== "string") return null;
  return { type: "runner", part: x.part, sort: x.sort, removed: true };
}

const isReviewSort = (x: unknown): x is `review-${string}` =>
  typeof x === "string" && x.startsWith("review-") && x.length > "review-".length;
const REVIEW_STATUSES: readonly unknown[] = ["open", "applied", "discarded", "resolved"];
const optional = <T>(x: unknown, ok: (v: unknown) => v is T): x is T | undefined => x === undefined || ok(x);
const isString = (x: unknown): x is string => typeof x === "string";
const isBib = (x: unknown): x is number | null => x === null || (Number.isSafeInteger(x) && (x as number) > 0);

/** An item of the race's review list ('Att granska'), or null when it is not one. */
export function toReviewRecord(x: unknown): ReviewRecord | null {
  if (!isObj(x) || !isReviewSort(x.sort) || typeof x.part !== "string" || typeof x.id !== "string") return null;
  if (!(REVIEW_KINDS as readonly unknown[]).includes(x.kind) || !REVIEW_STATUSES.includes(x.status)) return null;
  if (typeof x.reason !== "string" || !isTime(x.at) || typeof x.actor !== "string" || !isTime(x.createdAt)) {
    return null;
  }
  if (!(x.device === null || x.device === undefined || typeof x.device === "string")) return null;
  if (!optional(x.runnerId, isString) || !optional(x.name, isString) || !optional(x.bib, isBib)) return null;
  if (!optional(x.started, isTimeOrNull) || !optional(x.decidedBy, isString) || !optional(x.decidedAt, isTime)) {
    return null;
  }
  const review: ReviewRecord = {
    type: "review",
    part: x.part,
    sort: x.sort,
    id: x.id,
    kind: x.kind as ReviewRecord["kind"],
    status: x.status as ReviewRecord["status"],
    reason: x.reason,
    at: x.at,
    actor: x.actor,
    device: typeof x.device === "string" ? x.device : null,
    createdAt: x.createdAt,
  };
  if (x.runnerId !== undefined) review.runnerId = x.runnerId;
  if (x.bib !== undefined) review.bib = x.bib;
  if (x.name !== undefined) review.name = x.name;
  if (x.started !== undefined) review.started = x.started;
  if (x.decidedBy !== undefined) review.decidedBy = x.decidedBy;
  if (x.decidedAt !== undefined) review.decidedAt = x.decidedAt;
  // Rapid timing's items (issue 26): what they are about, and the runners a mistyped bib likely meant.
  for (const key of ["slot", "entry", "pin", "other"] as const) if (isString(x[key])) review[key] = x[key];
  if (Array.isArray(x.suggestions)) review.suggestions = x.suggestions.filter(isSuggestion);
  return review;
}

function isSuggestion(x: unknown): x is ReviewSuggestion {
  return isObj(x) && Number.isSafeInteger(x.bib) && isString(x.runnerId) && isString(x.name) && isString(x.reason);
}

const hasPrefix = (x: unknown, prefix: string) =>
  typeof x === "string" && x.startsWith(prefix) && x.length > prefix.length;

/** Rapid timing: one device's 'Mål!' tap, or null when it is not one. */
export function toSlotRecord(x: unknown): SlotRecord | null {
  if (!isObj(x) || !hasPrefix(x.sort, "slot-") || typeof x.part !== "string" || !isString(x.id)) return null;
  if (!isString(x.device) || !isTime(x.at) || !isString(x.actor) || !isTime(x.createdAt)) return null;
  const slot: SlotRecord = {
    type: "slot",
    part: x.part,
    sort: x.sort as SlotRecord["sort"],
    id: x.id,
    device: x.device,
    at: x.at,
    actor: x.actor,
    createdAt: x.createdAt,
  };
  if (isTime(x.clampedFrom)) slot.clampedFrom = x.clampedFrom;
  if (x.discarded === true) slot.discarded = true;
  if (x.confirmed === true) slot.confirmed = true;
  if (isString(x.pin)) slot.pin = x.pin;
  if (x.removed === true) slot.removed = true;
  return slot;
}

/** Rapid timing: a bib typed in finish order, or null when it is not one. */
export function toBibEntryRecord(x: unknown): BibEntryRecord | null {
  if (!isObj(x) || !hasPrefix(x.sort, "bib-") || typeof x.part !== "string" || !isString(x.id)) return null;
  if (!Number.isSafeInteger(x.bib) || !isTime(x.position) || !isString(x.actor) || !isTime(x.at)) return null;
  if (!(x.device === null || x.device === undefined || isString(x.device))) return null;
  const entry: BibEntryRecord = {
    type: "bib",
    part: x.part,
    sort: x.sort as BibEntryRecord["sort"],
    id: x.id,
    bib: x.bib as number,
    position: x.position,
    device: isString(x.device) ? x.device : null,
    actor: x.actor,
    at: x.at,
  };
  if (Number.isSafeInteger(x.typed)) entry.typed = x.typed as number;
  if (x.removed === true) entry.removed = true;
  return entry;
}

/** Målfoto: a tap's photo record, or null when it is not one. */
export function toPhotoRecord(x: unknown): PhotoRecord | null {
  if (!isObj(x) || !hasPrefix(x.sort, "photo-") || typeof x.part !== "string" || !isString(x.id)) return null;
  if (!Array.isArray(x.frames) || !isTime(x.at)) return null;
  const photo: PhotoRecord = {
    type: "photo",
    part: x.part,
    sort: x.sort as PhotoRecord["sort"],
    id: x.id,
    frames: x.frames.filter((f): f is number => Number.isInteger(f) && (f as number) >= 0 && (f as number) < 3),
    at: x.at,
    device: isString(x.device) ? x.device : null,
  };
  if (x.removed === true) photo.removed = true;
  return photo;
}

/** One event of an array frame, or null when it is not one. */
export function toRaceEvent(x: unknown): RaceEvent | null {
  if (!isObj(x) || !isSeq(x.seq)) return null;
  const record =
    x.sort === "race"
      ? toRaceRecord(x)
      : isReviewSort(x.sort)
        ? toReviewRecord(x)
        : hasPrefix(x.sort, "slot-")
          ? toSlotRecord(x)
          : hasPrefix(x.sort, "bib-")
            ? toBibEntryRecord(x)
            : hasPrefix(x.sort, "photo-")
              ? toPhotoRecord(x)
              : x.removed === true
                ? toRemovedRunner(x)
                : toRunnerRecord(x);
  return record ? { ...record, seq: x.seq } : null;
}

function toControlFrame(x: Obj): RaceControlFrame | null {
  switch (x.type) {
    case "hello":
      return typeof x.part === "string" && isSeq(x.seq) && typeof x.snapshot === "boolean"
        ? { type: "hello", part: x.part, seq: x.seq, snapshot: x.snapshot }
        : null;
    case "sync":
      return isTime(x.id) && isTime(x.t0) && isTime(x.t1) ? { type: "sync", id: x.id, t0: x.t0, t1: x.t1 } : null;
    case "error":
      return typeof x.error === "string" ? { type: "error", error: x.error } : null;
    default:
      return null;
  }
}

/** A text frame from the socket; null for anything that is not the protocol (the 'pong' answer included). */
export function parseServerFrame(text: string): ParsedFrame | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (Array.isArray(data)) {
    return { kind: "events", events: data.map(toRaceEvent).filter((e): e is RaceEvent => e !== null) };
  }
  if (!isObj(data)) return null;
  const frame = toControlFrame(data);
  return frame ? { kind: "control", frame } : null;
}

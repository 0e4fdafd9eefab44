/**
 * The race as a screen holds it (the `[race, ...runners]` snapshot of GET /admin/api/races/get/{id}, and the open
 * items of its review list 'Att granska') and how the socket's events change it. Pure: the socket hook keeps the
 * last applied `seq` next to the cached snapshot.
 *
 * Protocol (race-protocol.ts): after `subscribe-to-race` the server answers `hello` and then one array of events,
 * a whole snapshot (replace everything) or what changed after our `since`; later arrays are live changes. An
 * event whose seq we have already applied is a replay and changes nothing. Records keep their `seq` in the cache,
 * so an HTTP answer that arrives late (its record older than what the socket brought) is not written over them.
 */
import {
  isBibEntryEvent,
  isPhotoEvent,
  isReviewEvent,
  isSlotEvent,
  type BibEntryRecord,
  type PhotoRecord,
  type RaceControlFrame,
  type RaceEvent,
  type RaceRecord,
  type RaceSnapshot,
  type ReviewRecord,
  type RunnerRecord,
  type SlotRecord,
  type WithSeq,
} from "../../../shared/race-protocol";

/**
 * Rapid timing's records (issue 26): every device's 'Mål!' taps and the bibs typed in finish order, as the socket
 * brought them (a cleared tap or a removed bib is kept with `removed`; the screen leaves those out).
 */
export interface RapidRecords {
  slots: readonly WithSeq<SlotRecord>[];
  bibs: readonly WithSeq<BibEntryRecord>[];
  /** Målfoto: which taps have finish photos (a copy saved before photos existed has none). */
  photos?: readonly WithSeq<PhotoRecord>[];
}

export const EMPTY_RAPID: RapidRecords = { slots: [], bibs: [] };

export interface LiveRace {
  snapshot: RaceSnapshot | undefined;
  /** The highest seq applied (0: none yet). */
  seq: number;
  /** The open review items, oldest first (undefined: not known yet). */
  reviews?: readonly ReviewRecord[] | undefined;
  /** Rapid timing's taps and typed bibs (undefined: not known yet). */
  rapid?: RapidRecords | undefined;
}

export const seqOf = (record: object | undefined): number | undefined => {
  const seq = (record as { seq?: unknown } | undefined)?.seq;
  return typeof seq === "number" ? seq : undefined;
};

/**
 * An answer to a call is older than what this device shows when the cache already has a newer seq for that record,
 * or when the socket has brought every change up to a seq at or past the answer's (the record then is as the socket
 * said, or gone). An answer without a seq (an older server) is written as it is.
 */
export function isStaleAnswer(cachedSeq: number | undefined, answerSeq: number | undefined, liveSeq: number): boolean {
  if (answerSeq === undefined) return false;
  return answerSeq <= liveSeq || (cachedSeq !== undefined && cachedSeq >= answerSeq);
}

/** A runner from a call's answer, unless the cache knows a newer state of it. */
export function upsertAnswerRunner(
  snapshot: RaceSnapshot,
  runner: WithSeq<RunnerRecord>,
  liveSeq: number,
): RaceSnapshot {
  const cached = snapshot.slice(1).find((r) => r.sort === runner.sort);
  if (isStaleAnswer(seqOf(cached), seqOf(runner), liveSeq)) return snapshot;
  return upsertRunner(snapshot, runner);
}

/** The race record from a call's answer, unless the cache knows a newer one. */
export function replaceAnswerRace(snapshot: RaceSnapshot, race: WithSeq<RaceRecord>, liveSeq: number): RaceSnapshot {
  if (isStaleAnswer(seqOf(snapshot[0]), seqOf(race), liveSeq)) return snapshot;
  return replaceRace(snapshot, race);
}

/** Review items in the list's order: oldest first. */
export function sortReviews(reviews: readonly ReviewRecord[]): ReviewRecord[] {
  return [...reviews].sort(
    (a, b) => a.createdAt - b.createdAt || a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** A review record as it is now: an open one is in the list, an applied or discarded one leaves it. */
export function applyReview(reviews: readonly ReviewRecord[], review: ReviewRecord): readonly ReviewRecord[] {
  const rest = reviews.filter((r) => r.id !== review.id);
  if (review.status !== "open") return rest.length === reviews.length ? reviews : rest;
  return sortReviews([...rest, review]);
}

/** A tap or typed bib as it is now, in place of the one with the same sort. */
function upsertBySort<T extends { sort: string }>(list: readonly T[], record: T): T[] {
  const at = list.findIndex((r) => r.sort === record.sort);
  if (at === -1) return [...list, record];
  const next = [...list];
  next[at] = record;
  return next;
}

export function applyRapid(rapid: RapidRecords, event: RaceEvent): RapidRecords {
  if (isSlotEvent(event)) return { ...rapid, slots: upsertBySort(rapid.slots, event) };
  if (isBibEntryEvent(event)) return { ...rapid, bibs: upsertBySort(rapid.bibs, event) };
  if (isPhotoEvent(event)) return { ...rapid, photos: upsertBySort(rapid.photos ?? [], event) };
  return rapid;
}

/** What the `hello` before this array said. */
export type HelloInfo = Pick<Extract<RaceControlFrame, { type: "hello" }>, "seq" | "snapshot">;

/** The record as it is now, in place of the one with the same sort (or added at the end). */
export function upsertRunner(snapshot: RaceSnapshot, runner: RunnerRecord): RaceSnapshot {
  const [race, ...runners] = snapshot;
  const at = runners.findIndex((r) => r.sort === runner.sort);
  if (at === -1) return [race, ...runners, runner];
  const next = [...runners];
  next[at] = runner;
  return [race, ...next];
}

export function removeRunner(snapshot: RaceSnapshot, sort: string): RaceSnapshot {
  const [race, ...runners] = snapshot;
  return runners.some((r) => r.sort === sort) ? [race, ...runners.filter((r) => r.sort !== sort)] : snapshot;
}

export function replaceRace(snapshot: RaceSnapshot, race: RaceRecord): RaceSnapshot {
  const [, ...runners] = snapshot;
  return [race, ...runners];
}

/**
 * Applies one array frame for race `part`. `hello` is given for the array that answers a subscribe: with
 * `snapshot: true` the events replace everything (the server could not tell us only what we missed).
 * Events of another race are ignored.
 */
export function applyRaceEvents(
  part: string,
  current: LiveRace,
  events: readonly RaceEvent[],
  hello?: HelloInfo,
): LiveRace {
  const ours = events.filter((e) => e.part === part);
  if (hello?.snapshot) {
    const raceEvent = ours.find((e) => e.sort === "race");
    const race = raceEvent ? (raceEvent as RaceRecord) : current.snapshot?.[0];
    const runners = ours.filter(
      (e): e is RunnerRecord & { seq: number } => isRunnerSort(e.sort) && !("removed" in e && e.removed),
    );
    const reviews = sortReviews(ours.filter(isReviewEvent).filter((r) => r.status === "open"));
    const rapid = ours.reduce(applyRapid, EMPTY_RAPID);
    // A server whose sequence started over (its storage was reset) is believed: its seq, not our higher one.
    const seq = Math.max(hello.seq, ...ours.map((e) => e.seq));
    return { snapshot: race ? [race, ...runners] : undefined, seq, reviews, rapid };
  }

  let { snapshot, seq, reviews, rapid } = current;
  for (const event of ours) {
    if (event.seq <= current.seq) continue;
    seq = Math.max(seq, event.seq);
    if (event.sort === "race") {
      const race = event as RaceRecord;
      snapshot = snapshot ? replaceRace(snapshot, race) : [race];
    } else if (isReviewEvent(event)) {
      reviews = applyReview(reviews ?? [], event);
    } else if (isSlotEvent(event) || isBibEntryEvent(event) || isPhotoEvent(event)) {
      rapid = applyRapid(rapid ?? EMPTY_RAPID, event);
    } else if (!isRunnerSort(event.sort)) {
      // A record of a kind newer code sends: not a runner.
      continue;
    } else if ("removed" in event && event.removed) {
      if (snapshot) snapshot = removeRunner(snapshot, event.sort);
    } else if (snapshot) {
      snapshot = upsertRunner(snapshot, event as RunnerRecord);
    }
  }
  if (hello) seq = Math.max(seq, hello.seq);
  return { snapshot, seq, reviews, rapid };
}

const isRunnerSort = (sort: string) => sort.startsWith("runner-");

export interface LiveRaces {
  races: RaceRecord[] | undefined;
  seq: number;
}

/**
 * The hub (`/races`): every event is a race record, keyed by part. Races are never deleted, so even a full
 * snapshot is merged into what GET /admin/api/races gave rather than replacing it: a hub that knows fewer
 * races than the list must not hide any.
 */
export function applyHubEvents(current: LiveRaces, events: readonly RaceEvent[], hello?: HelloInfo): LiveRaces {
  const fresh = hello?.snapshot === true;
  let races = current.races ?? [];
  let seq = fresh ? 0 : current.seq;
  let changed = false;
  for (const event of events) {
    if (event.sort !== "race" || (!fresh && event.seq <= current.seq)) continue;
    seq = Math.max(seq, event.seq);
    const { seq: _seq, ...race } = event as RaceRecord & { seq: number };
    const at = races.findIndex((r) => r.part === race.part);
    races = at === -1 ? [...races, race] : races.map((r, i) => (i === at ? race : r));
    changed = true;
  }
  if (hello) seq = Math.max(seq, hello.seq);
  if (!changed) return { races: current.races, seq };
  return { races: [...races].sort((a, b) => (a.part < b.part ? -1 : a.part > b.part ? 1 : 0)), seq };
}

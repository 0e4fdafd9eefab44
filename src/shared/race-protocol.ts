/**
 * The race wire shapes (admin spec, "Race" and "Runner"): what `GET /api/races`, `GET /api/races/get/{part}`
 * and the race Durable Object's RPC answer, and what the live sockets carry. The spec's clients dispatch
 * every record by the prefix of its `sort` field ('race' / 'runner'), so that is the one discriminator here.
 *
 * Live sockets (`{wsUrl}/race/{raceId}`, `{wsUrl}/races`), browser and Durable Object share these frames:
 * - client → server: `subscribe-to-race` (with the last `seq` it has, to get only what it missed), `sync` (one
 *   NTP-style clock sample). Every change goes through the HTTP calls, never the socket: one way in.
 * - server → client: an array of events (records of the race, its runners, its review items, and rapid timing's
 *   taps and typed bibs, each with the `seq` of its last change; a removed runner comes as `{sort, removed: true}`,
 *   a cleared tap or removed bib as its record with `removed: true`), or one control object (`hello`, `sync`,
 *   `error`). Dispatch by the prefix of `sort`: 'race', 'runner-', 'review-', 'slot-', 'bib-'.
 */
import type { DistanceKm } from "./season";
import { formatResult, resultMs } from "./time-format";

/** '' = not started (spec: "no state or start time"), then 'started', then 'ended'. */
export type RaceState = "" | "started" | "ended";

export const RACE_STATES: readonly RaceState[] = ["", "started", "ended"];

export function isRaceState(x: unknown): x is RaceState {
  return typeof x === "string" && (RACE_STATES as readonly string[]).includes(x);
}

export interface RaceRecord {
  type: "race";
  /** race-YYMMDD-NN */
  part: string;
  sort: "race";
  state: RaceState;
  /** Start time, epoch ms; null until started. */
  started: number | null;
  /** 'YYYY-MM-DD' (Stockholm) */
  date: string;
  /** Metres. */
  distance: number;
  openForReg: boolean;
  /** The results' status (absent until the first finish): see ResultsStatus. */
  results?: ResultsStatus;
  /** When an admin marked the results official, epoch ms. */
  officialAt?: number;
  /**
   * Rapid timing: the device whose time a finish two phones timed takes (src/shared/timer-alignment.ts); absent
   * when the organiser named none (the earliest tap's is taken). Admin only: the public start list drops it.
   */
  mainTimer?: string;
}

/**
 * 'preliminary' from the first finish until an admin marks the results official ('official', only on an ended
 * race); 'corrected' while a result differs from its official one (each such runner has `corrected: true`;
 * back to 'official' when none does: durable/race/rules/results.ts).
 */
export type ResultsStatus = "preliminary" | "official" | "corrected";

/** How the status reads on the site. */
export const RESULTS_STATUS_TEXT: Record<ResultsStatus, string> = {
  preliminary: "Preliminära",
  official: "Officiella",
  corrected: "Officiella, korrigerade",
};

/**
 * A runner's distance in km as the spec writes it ('0.8' … '5.6'). A race an organiser creates by hand may have
 * another length (any multiple of 100 m), which is written the same way ('10').
 */
export type RunnerDistance = DistanceKm | (string & {});

export interface RunnerRecord {
  type: "runner";
  part: string;
  /** 'runner-<id>': the spec's calls address a runner by its sort. */
  sort: `runner-${string}`;
  /** The participant id (D1 participants.id). */
  id: string;
  /** Null = no number (the spec also reads 0 as none). */
  bib: number | null;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  /** 'Ingen', 'Dam' or 'Herr'. */
  group: string;
  /** Finish time, epoch ms; null while waiting. */
  finished: number | null;
  distance: RunnerDistance;
  /** 'mm:ss.fff', only when both the race's start and the runner's finish are known. */
  time?: string;
  /** Marked 'did not start' by an admin (so the race can end without them); absent when false. */
  dns?: boolean;
  /**
   * When the runner picked up the bib at the desk (epoch ms); absent until then. Admins only: the public start
   * list never carries it (toPublicRunner).
   */
  pickedUpAt?: number;
  /**
   * The seq of the runner's last change, in the race object's answers and events: a phone never lets an older
   * answer overwrite a newer record it already has.
   */
  seq?: number;
  /** Rapid timing: the key of the merged slot the finish time came from (its reference tap's id). */
  slot?: string;
  /** The result (time, bib, DNS) differs from the one the race's results were marked official with. */
  corrected?: true;
}

/**
 * The start list a visitor sees: no age, no participant id (admin spec's start-list columns). Made by
 * shared/public-view.ts, the one place that decides what the public sees.
 */
export type PublicRunnerRecord = Pick<
  RunnerRecord,
  | "type"
  | "part"
  | "sort"
  | "bib"
  | "firstname"
  | "lastname"
  | "group"
  | "company"
  | "finished"
  | "time"
  | "dns"
  | "corrected"
> & {
  /**
   * Finished, but the time, the finish moment and a placing are not published (child-safe publishing: the season
   * setting withholds them for runners 11 and under; public-view.ts). Such a record has `finished: null` and no
   * `time`.
   */
  resultWithheld?: true;
};

/** `GET /api/races/get/{part}`: the race record, then its runner records. */
export type RaceSnapshot = [RaceRecord, ...RunnerRecord[]];
export type PublicRaceSnapshot = [RaceRecord, ...PublicRunnerRecord[]];

export function runnerSort(id: string): `runner-${string}` {
  return `runner-${id}`;
}

/** 800 → '0.8', 10000 → '10': km with a point, no trailing zeros. */
export function metersToKm(meters: number): RunnerDistance {
  return String(meters / 1000);
}

/** A runner's result as the spec shows it, or undefined while it has none. */
export function runnerTime(started: number | null, finished: number | null): string | undefined {
  const ms = resultMs(started, finished);
  return ms === null ? undefined : formatResult(ms);
}

/**
 * Admin spec: "Waiting runners are sorted by bib with unset bibs first"; finished runners follow in finish
 * order. Ties keep a stable order by name, then id.
 */
export function compareRunners(
  a: Pick<RunnerRecord, "finished" | "bib" | "firstname" | "lastname" | "id">,
  b: Pick<RunnerRecord, "finished" | "bib" | "firstname" | "lastname" | "id">,
): number {
  if ((a.finished === null) !== (b.finished === null)) return a.finished === null ? -1 : 1;
  if (a.finished !== null && b.finished !== null && a.finished !== b.finished) return a.finished - b.finished;
  if ((a.bib === null) !== (b.bib === null)) return a.bib === null ? -1 : 1;
  if (a.bib !== null && b.bib !== null && a.bib !== b.bib) return a.bib - b.bib;
  return (
    a.lastname.localeCompare(b.lastname, "sv") ||
    a.firstname.localeCompare(b.firstname, "sv") ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** One row of a race's append-only audit trail: what changed, who did it, from which device, when (epoch ms). */
export type RaceAuditEvent = {
  seq: number;
  type: string;
  /** JSON text: kept as text so RPC's type mapping need not walk a recursive JSON type. */
  payload: string;
  actor: string;
  device: string | null;
  at: number;
};

/**
 * What the race Durable Object throws for input it refuses. Errors cross RPC with their name, message and own
 * properties (not their class), so the Worker recognises one by name and maps `status` to its HTTP answer.
 */
export const RACE_ERROR_NAME = "RaceError";
export type RaceErrorStatus = 400 | 404 | 409 | 422 | 429;

export class RaceError extends Error {
  readonly status: RaceErrorStatus;
  /** A refusal no retry can change (a distance move into an ended race): the move is cancelled, not retried. */
  readonly final?: true;
  /** An action that would re-time runners it does not name: who, and which time each would get. */
  readonly retimes?: Retime[];
  /** A 429: the seconds until the call is taken again (the answer's `Retry-After`). */
  readonly retryAfter?: number;
  constructor(
    status: RaceErrorStatus,
    message: string,
    options: { final?: boolean; retimes?: Retime[]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = RACE_ERROR_NAME;
    this.status = status;
    if (options.final) this.final = true;
    if (options.retimes) this.retimes = options.retimes;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

/**
 * A runner whose time an action on rapid timing or the review list would change without naming them (issue 37):
 * a typed bib removed, a stray slot discarded, a slot given by hand … re-pair the bibs typed after it. The race
 * refuses such an action (409 with the list, nothing changed) until the phone has shown who gets which time and
 * the organiser has confirmed: the action sent again with `confirm`, one RetimeConfirm per runner listed.
 */
export interface Retime {
  runnerId: string;
  sort: string;
  bib: number | null;
  name: string;
  /** The finish before and after (epoch ms; null: no time), and the race's start the times count from. */
  from: number | null;
  to: number | null;
  started: number | null;
}

/** What the organiser confirmed for one runner: the finish it gets. */
export interface RetimeConfirm {
  runnerId: string;
  to: number | null;
}

/** At most this many runners in one confirmation (a field of a few hundred runners, with room to spare). */
export const MAX_RETIMES = 1_000;

export function isRaceError(err: unknown): err is { name: string; message: string; status: RaceErrorStatus } {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { name?: unknown; message?: unknown; status?: unknown };
  return (
    e.name === RACE_ERROR_NAME &&
    typeof e.message === "string" &&
    (e.status === 400 || e.status === 404 || e.status === 409 || e.status === 422)
  );
}

// ——— race day: limits shared by the Durable Object, the Worker and the timing screens ———

/** Spec: "Live reconnect delay: 5 s". */
export const RECONNECT_DELAY_MS = 5_000;
/** Spec: "Clock tick: 500 ms". */
export const CLOCK_TICK_MS = 500;
/** Spec: reset is confirmed by typing this word. */
export const RESET_WORD = "APRAKET";
/** 'Markera ej hämtade som DNS' (every runner who never picked up the bib) is confirmed by typing this. */
export const DNS_NOT_PICKED_UP_WORD = "DNS";
/** Spec: a distance change is confirmed by typing this. */
export const CHANGE_DISTANCE_WORD = "OK";
/**
 * Two devices tapping one runner within this many ms (neither knowing of the other's tap) are one finish: the
 * earliest moment is kept. A tap on a tile the device already showed as finished is a deliberate re-record.
 */
export const SAME_FINISH_WINDOW_MS = 5_000;
/**
 * A tap's moment may run ahead of the server's clock by this much, or by the device's own clock-sync error when
 * that is larger (up to MAX_CLOCK_ERROR_MS): such a tap is clamped to the server's now and recorded. Further
 * ahead, the phone's clock is wrong and the tap goes to the review list.
 */
export const FUTURE_TAP_TOLERANCE_MS = 2_000;
/** The largest clock-sync error a device may claim (a sync worse than this is no sync). */
export const MAX_CLOCK_ERROR_MS = 30_000;
/**
 * A start that reaches the race object more than this long after it was pressed (queued offline) is far from
 * the race's time: it goes to the review list instead of starting the race silently. A start pressed live is
 * never far, whatever the day (a test race, a changed date).
 */
export const FAR_START_MS = 30 * 60_000;
/** A tap queued offline is accepted up to this long after it was made (a race is well under six hours). */
export const MAX_TAP_AGE_MS = 6 * 3_600_000;
/** Largest socket frame a client may send; larger ones are refused (the socket stays open). */
export const MAX_CLIENT_FRAME_BYTES = 1_024;
/** A tap id made on the device: 8–64 characters of [A-Za-z0-9_-]. */
export const TAP_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
/** A device id made on the device (kept in its storage): 1–64 characters of [A-Za-z0-9_.:-]. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export function isTapId(x: unknown): x is string {
  return typeof x === "string" && TAP_ID_PATTERN.test(x);
}

export function isDeviceId(x: unknown): x is string {
  return typeof x === "string" && DEVICE_ID_PATTERN.test(x);
}

/** `sort` → participant id ('runner-abc' → 'abc'); null for anything that is not a runner's sort. */
export function runnerIdFromSort(sort: unknown): string | null {
  if (typeof sort !== "string" || !sort.startsWith("runner-")) return null;
  const id = sort.slice("runner-".length);
  return id.length > 0 && id.length <= 100 ? id : null;
}

/** The socket paths under `/api/config`'s wsUrl (DESIGN.md "Live connections"). */
export function raceSocketPath(raceId: string): string {
  return `/race/${encodeURIComponent(raceId)}`;
}
export const RACES_SOCKET_PATH = "/races";

/** A runner that left the race (moved to another distance, or removed). */
export interface RemovedRunnerRecord {
  type: "runner";
  part: string;
  sort: `runner-${string}`;
  removed: true;
}

/**
 * 'Att granska': something the race could not take as it was, kept by the race object until a person decides;
 * every decision is audited. Nothing tapped disappears without a person deciding. Each item has a kind, so a new
 * kind is one case more:
 * - 'tap': a finish tap refused by the race's rules (race not started or ended, runner moved or marked DNS, a
 *   moment out of range, a finish undone on another phone after the tap was made). Applying records the
 *   runner's finish at the tap's moment.
 * - 'start': a start tap that needs a person: far from the race's day and time, a second start more than
 *   START_SAME_WINDOW_MS from the first, or a start for an ended race. Applying makes its moment the start.
 * - 'rapid': a rapid finish tap ('Mål!') for a race not started or ended, or with a moment out of range. Applying
 *   adds it as a finish slot at its moment.
 * - 'bib-early': a bib typed in finish order before the race's current start (typed before a reset and sent after
 *   it, or while the race was not started). Applying adds it at the end of the finish order; discarding drops it.
 *
 * Rapid timing's kinds (issue 26) are kept by the race object from its own state (DERIVED_REVIEW_KINDS): one opens
 * when the problem appears and is 'resolved' when a change (the one-tap resolution, or any other) removes it.
 * - 'slot-single': a finish slot only one of several timing phones has. Apply: keep it; discard: a stray tap.
 * - 'slot-unmatched': a slot without a bib (before a slot that has one, or once the race has ended). Discard: a
 *   stray tap; or assign it a bib.
 * - 'bib-unmatched': a bib typed in finish order with no slot left for it. Discard: remove the bib.
 * - 'bib-twice': a bib typed twice (or typed, and assigned to a slot by hand). Discard: remove this one; or take
 *   one of its suggestions (a typo of a waiting runner's bib), or remove the other (`other`).
 * - 'bib-unknown': a bib not in the race, with the likely meant runners among those still waiting
 *   (`suggestions`). Apply: the only suggestion; discard: remove the bib.
 * - 'bib-finished': a bib whose runner already has a time from elsewhere (a tile tap) or is marked DNS. Apply:
 *   the slot's time replaces it; discard: remove the bib.
 */
export const REVIEW_KINDS = [
  "tap",
  "start",
  "rapid",
  "slot-single",
  "slot-unmatched",
  "bib-unmatched",
  "bib-twice",
  "bib-unknown",
  "bib-finished",
  "bib-early",
] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];
/** The kinds the race object opens and resolves from its own state (rapid timing). */
export const DERIVED_REVIEW_KINDS: readonly ReviewKind[] = [
  "slot-single",
  "slot-unmatched",
  "bib-unmatched",
  "bib-twice",
  "bib-unknown",
  "bib-finished",
];
/** 'resolved': a derived item whose problem a change removed. */
export type ReviewStatus = "open" | "applied" | "discarded" | "resolved";

/** A runner a mistyped bib likely meant (src/shared/bib-suggestions.ts). */
export interface ReviewSuggestion {
  bib: number;
  runnerId: string;
  name: string;
  /** 'swapped', 'one-digit', 'missing' or 'doubled'. */
  reason: string;
}

export interface ReviewRecord {
  type: "review";
  part: string;
  /** 'review-<id>' (the tap's id for a tap or a start; '<kind prefix>-<slot or bib id>' for rapid timing's). */
  sort: `review-${string}`;
  id: string;
  kind: ReviewKind;
  status: ReviewStatus;
  /** Why the race could not take it as it was: a Swedish sentence for the list. */
  reason: string;
  /** The tap's moment on the server's clock (a bib's item: its slot's moment, or when it was typed), epoch ms. */
  at: number;
  /** A finish tap's runner, as the race knew them when the item was made (a bib's item: the runner it names). */
  runnerId?: string;
  bib?: number | null;
  name?: string;
  /** A start item: the race's start time when the item was made (null: not started). */
  started?: number | null;
  /** Rapid timing: the slot (its key tap's id) the item is about, or the bib's slot. */
  slot?: string;
  /** Rapid timing: the bib typed in finish order the item is about (its entry id). */
  entry?: string;
  /** Rapid timing: the hand-made assignment the item is about (the tap it was made on). */
  pin?: string;
  /** 'bib-twice': the claim that has the runner (an entry id, or 'pin-<tap id>'). */
  other?: string;
  /** 'bib-unknown', 'bib-twice', 'bib-finished': the likely meant runners, most likely first. */
  suggestions?: ReviewSuggestion[];
  /** Who tapped, on which device, and when the tap reached the server (a derived item: when it opened). */
  actor: string;
  device: string | null;
  createdAt: number;
  /** Who applied, discarded or resolved it, and when. */
  decidedBy?: string;
  decidedAt?: number;
}

/** A review item's id: a tap id, or rapid timing's '<prefix>-<id>' (up to 80 characters of [A-Za-z0-9_-]). */
export const REVIEW_ID_PATTERN = /^[A-Za-z0-9_-]{8,80}$/;

export function isReviewId(x: unknown): x is string {
  return typeof x === "string" && REVIEW_ID_PATTERN.test(x);
}

/**
 * Rapid timing (issue 26): one 'Mål!' tap of one device, a finish without a runner. The merged, numbered finish
 * slots are computed from every device's taps (src/shared/timer-alignment.ts), on the server and on each phone.
 */
export interface SlotRecord {
  type: "slot";
  part: string;
  /** 'slot-<tap id>'. */
  sort: `slot-${string}`;
  /** The tap id made on the device. */
  id: string;
  device: string;
  /** The tap's moment on the server's clock (clamped to the server's now when it was ahead), epoch ms. */
  at: number;
  /** Its moment as sent, when it was clamped. */
  clampedFrom?: number;
  actor: string;
  /** When it reached the server. */
  createdAt: number;
  /** Discarded as a stray tap (with the others of its slot); can be taken back. */
  discarded?: true;
  /** Kept: a slot only this device has is a finish all the same (its 'slot-single' item decided). */
  confirmed?: true;
  /** The runner an organiser assigned this tap's slot to by hand. */
  pin?: string;
  /** Cleared by a reset. */
  removed?: true;
}

/** Rapid timing: a bib typed in finish order ('Startnummer i målordning'). */
export interface BibEntryRecord {
  type: "bib";
  part: string;
  /** 'bib-<entry id>'. */
  sort: `bib-${string}`;
  /** The entry id made on the device. */
  id: string;
  bib: number;
  /** The bib as first typed, when it was corrected since. */
  typed?: number;
  /** Its place in finish order: entries are matched with the slots in this order (ascending). */
  position: number;
  device: string | null;
  actor: string;
  /** When it reached the server, epoch ms. */
  at: number;
  /** Removed (undone), or cleared by a reset. */
  removed?: true;
}

/**
 * Målfoto (issue 44, src/shared/finish-photos.ts): the race has photos of this tap ('Mål!' or a finish tile), frames
 * 0 before, 1 nearest, 2 after the press. Admin sockets only: never in a public view.
 */
export interface PhotoRecord {
  type: "photo";
  part: string;
  /** 'photo-<tap id>'. */
  sort: `photo-${string}`;
  /** The tap id. */
  id: string;
  /** The frames the race has, ascending. */
  frames: number[];
  /** The tap's moment (server clock), epoch ms. */
  at: number;
  device: string | null;
  /** Deleted ('Radera målfoton', the 30-day cron, a reset, an erasure). */
  removed?: true;
}

export function photoSort(tapId: string): `photo-${string}` {
  return `photo-${tapId}`;
}

export function isPhotoEvent(e: RaceEvent): e is PhotoRecord & { seq: number } {
  return e.sort.startsWith("photo-");
}

export function slotSort(tapId: string): `slot-${string}` {
  return `slot-${tapId}`;
}

export function bibEntrySort(id: string): `bib-${string}` {
  return `bib-${id}`;
}

export function reviewSort(id: string): `review-${string}` {
  return `review-${id}`;
}

/** Two start taps from different phones within this many ms are the same gun (audited, the first kept). */
export const START_SAME_WINDOW_MS = 2_000;

/** One event on a socket: a record as it is now, and the sequence number of its last change. */
export type RaceEvent = (
  RaceRecord | RunnerRecord | RemovedRunnerRecord | ReviewRecord | SlotRecord | BibEntryRecord | PhotoRecord
) & { seq: number };

/**
 * A record as a call's answer (or a phone's cache) holds it: with the seq of its last change when the race said (an
 * event always has one), so a phone never lets an older answer overwrite a newer record it already has.
 */
export type WithSeq<T> = T & { seq?: number };

/** Server → client data frame: the records that changed, in `seq` order. */
export type RaceEventsFrame = RaceEvent[];

/**
 * Server → client control frames.
 * - hello: answers subscribe: `seq` is the race's latest sequence number; `snapshot` says the events that follow
 *   (in the same frame order) replace everything the client had, rather than updating it.
 * - sync: one clock sample: the client's `t0` echoed with the server's time `t1` (epoch ms).
 * - error: a frame the server refused; the socket stays open and nothing changed.
 */
export type RaceControlFrame =
  | { type: "hello"; part: string; seq: number; snapshot: boolean }
  | { type: "sync"; id: number; t0: number; t1: number }
  | { type: "error"; error: string };

export type RaceServerFrame = RaceEventsFrame | RaceControlFrame;

/** Client → server. `since`: the last seq this client applied (0 or absent: send everything). */
export type RaceClientFrame =
  { action: "subscribe-to-race"; since?: number } | { action: "sync"; id: number; t0: number };

/** The spec's dispatch: by the prefix of `sort`. */
export function isRaceEvent(e: RaceEvent): e is RaceRecord & { seq: number } {
  return e.sort === "race";
}

export function isRemovedRunner(e: RaceEvent): e is RemovedRunnerRecord & { seq: number } {
  return e.sort.startsWith("runner-") && "removed" in e && e.removed === true;
}

export function isRunnerEvent(e: RaceEvent): e is (RunnerRecord | RemovedRunnerRecord) & { seq: number } {
  return e.sort.startsWith("runner-");
}

export function isSlotEvent(e: RaceEvent): e is SlotRecord & { seq: number } {
  return e.sort.startsWith("slot-");
}

export function isBibEntryEvent(e: RaceEvent): e is BibEntryRecord & { seq: number } {
  return e.sort.startsWith("bib-");
}

export function isReviewEvent(e: RaceEvent): e is ReviewRecord & { seq: number } {
  return e.sort.startsWith("review-");
}

/**
 * What this device pressed on race day that has not reached the server yet: finish taps, 'Starta', rapid
 * timing's 'Mål!' (a finish without a runner, issue 26) and the bibs typed on its 'Startnummer i målordning'
 * keypad. A finish
 * line has patchy coverage, so a press is recorded on the device at once (its moment on the server's clock, an id
 * made here, this device's id, the clock's uncertainty), shown, and sent when the network lets it. The id makes a
 * resend harmless: the server answers a replayed id with its first answer and changes nothing.
 *
 * The queue never deletes a press on its own. An item leaves it only when the server has it (recorded, or put in
 * the race's review list 'Att granska', where a person decides) or when a person takes it out (an undo before it
 * was sent, a refused item discarded behind a confirmation). A refusal keeps the item, with the server's words.
 *
 * Pure: the stored form, how two tabs' copies merge, and the send loop. `queue-store.ts` binds it to storage.
 *
 * Stored form (one key per race): `{v: 2, items: [...], done: [{tap, t}]}`. Each item has a `kind`; this code
 * knows 'finish', 'start', 'rapid' and 'bib-entry'. Anything else (a kind added by newer code, an item it cannot read, a whole document
 * of another version) is kept as it was and written back untouched, never sent and never dropped, so a phone that
 * runs older or newer code than the one that queued an item does not lose it. Today's v1 form (a bare array of
 * finish taps) is read too. A new kind is one case more in `parseItem`, `serializeItem` and the sender.
 */
import {
  type BibEntryRecord,
  isDeviceId,
  isTapId,
  runnerIdFromSort,
  type RaceRecord,
  type ReviewRecord,
  type RunnerRecord,
  type SlotRecord,
} from "../../../shared/race-protocol";

export const QUEUE_VERSION = 2;

/** The server's considered no to an item (kept on the item, shown until the item is sent or discarded). */
export interface Refusal {
  status: number;
  message: string;
  /** When it was refused, epoch ms on this device. */
  at: number;
}

interface PressBase {
  /** The press's id, made on the device (TAP_ID_PATTERN). */
  tap: string;
  /** The press's moment on the server's clock, epoch ms. */
  at: number;
  /** The device that pressed (absent on items queued by v1 code: sent with this device's id). */
  device?: string;
  /** The clock offset's uncertainty when pressed, ms: the server tolerates a moment that far in its future. */
  err?: number;
  refused?: Refusal;
}

export interface FinishItem extends PressBase {
  kind: "finish";
  sort: `runner-${string}`;
  /** The tile showed this runner as finished and the volunteer confirmed a new time. */
  rerecord: boolean;
}

export interface StartItem extends PressBase {
  kind: "start";
}

/** Rapid timing's 'Mål!': a finish moment without a runner (a numbered slot on every phone). */
export interface RapidItem extends PressBase {
  kind: "rapid";
}

/**
 * A bib typed in finish order ('Startnummer i målordning'). `tap` is the entry's id (the server's `entry`): a
 * resend of it is the same entry. `at` is the moment of the 'OK', so the bib is sent after the 'Mål!' taps this
 * phone made before it. The race numbers bibs in the order they reach it, so bibs are sent in the order typed and
 * a bib the server refused holds the bibs typed after it (see `flushQueue`).
 */
export interface BibEntryItem extends PressBase {
  kind: "bib-entry";
  bib: number;
}

export type KnownItem = FinishItem | StartItem | RapidItem | BibEntryItem;

/** Something this code cannot read or send: kept and written back exactly as it was. */
export interface ForeignItem {
  kind: null;
  /** Identity for merging two tabs' copies: its `tap` when it has one, else its JSON text. */
  key: string;
  raw: unknown;
}

export type QueueItem = KnownItem | ForeignItem;

/** A press that left the queue (sent, or taken out by a person), remembered so another tab's copy drops it too. */
export interface DoneMark {
  tap: string;
  /** When it left, epoch ms on this device. */
  t: number;
}

export interface TapQueue {
  items: readonly QueueItem[];
  done: readonly DoneMark[];
}

export const EMPTY_QUEUE: TapQueue = { items: [], done: [] };

/** Done marks outlive any tab that could still hold the press (a tap is accepted for 6 hours). */
export const DONE_KEEP_MS = 12 * 3_600_000;
export const DONE_MAX = 1_000;

/** 32 hex digits: a v4 UUID without its dashes fits TAP_ID_PATTERN. */
export function makeTapId(randomUUID: () => string = () => crypto.randomUUID()): string {
  return randomUUID().replaceAll("-", "");
}

export const isKnown = (item: QueueItem): item is KnownItem => item.kind !== null;
export const isFinishItem = (item: QueueItem): item is FinishItem => item.kind === "finish";
export const isStartItem = (item: QueueItem): item is StartItem => item.kind === "start";
export const isRapidItem = (item: QueueItem): item is RapidItem => item.kind === "rapid";
export const isBibEntryItem = (item: QueueItem): item is BibEntryItem => item.kind === "bib-entry";

/** A bib as the keypad takes it: a whole number from 1 to 99 999 (the server's rule), else null. */
export function typedBibNumber(digits: string): number | null {
  if (!/^\d{1,5}$/.test(digits)) return null;
  const bib = Number(digits);
  return bib >= 1 ? bib : null;
}

export function itemKey(item: QueueItem): string {
  return item.kind === null ? item.key : `tap:${item.tap}`;
}

/**
 * The moment a new typed bib is queued with: now, but after every bib already queued. The clock's offset may
 * move back between two 'OK's (a new sample from the socket), and bibs are sent by moment: the order typed must
 * stay the order sent.
 */
export function bibEntryAt(queue: TapQueue, now: number): number {
  const last = Math.max(-Infinity, ...queue.items.filter(isBibEntryItem).map((i) => i.at));
  return Math.max(now, last + 1);
}

// ——— reading and writing the stored form ———

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);

function foreign(raw: unknown): ForeignItem {
  const tap = isObj(raw) && typeof raw.tap === "string" ? raw.tap : null;
  return { kind: null, key: tap !== null ? `tap:${tap}` : `json:${JSON.stringify(raw)}`, raw };
}

function parseRefusal(x: unknown): Refusal | undefined | null {
  if (x === undefined) return undefined;
  if (!isObj(x) || !Number.isSafeInteger(x.status) || typeof x.message !== "string" || !Number.isFinite(x.at)) {
    return null;
  }
  return { status: x.status as number, message: x.message, at: x.at as number };
}

/** The fields every press has; null when one of them is not what this code wrote. */
function parseBase(x: Obj): PressBase | null {
  if (!isTapId(x.tap) || !Number.isSafeInteger(x.at)) return null;
  if (x.device !== undefined && !isDeviceId(x.device)) return null;
  if (x.err !== undefined && !(Number.isSafeInteger(x.err) && (x.err as number) >= 0)) return null;
  const refused = parseRefusal(x.refused);
  if (refused === null) return null;
  const base: PressBase = { tap: x.tap, at: x.at as number };
  if (x.device !== undefined) base.device = x.device as string;
  if (x.err !== undefined) base.err = x.err as number;
  if (refused) base.refused = refused;
  return base;
}

/** One stored item of the v2 form. */
export function parseItem(x: unknown): QueueItem {
  if (!isObj(x)) return foreign(x);
  const base = parseBase(x);
  // Fields this code does not know mean newer code wrote the item: keep it whole rather than lose them.
  const known = (fields: readonly string[]) => Object.keys(x).every((k) => fields.includes(k));
  switch (x.kind) {
    case "finish":
      if (base && runnerIdFromSort(x.sort) !== null && typeof x.rerecord === "boolean" && known(FINISH_FIELDS)) {
        return { kind: "finish", ...base, sort: x.sort as `runner-${string}`, rerecord: x.rerecord };
      }
      return foreign(x);
    case "start":
      if (base && known(START_FIELDS)) return { kind: "start", ...base };
      return foreign(x);
    case "rapid":
      if (base && known(START_FIELDS)) return { kind: "rapid", ...base };
      return foreign(x);
    case "bib-entry":
      if (base && typeof x.bib === "number" && typedBibNumber(String(x.bib)) === x.bib && known(BIB_FIELDS)) {
        return { kind: "bib-entry", ...base, bib: x.bib };
      }
      return foreign(x);
    default:
      return foreign(x);
  }
}

const BASE_FIELDS = ["kind", "tap", "at", "device", "err", "refused"] as const;
const FINISH_FIELDS = [...BASE_FIELDS, "sort", "rerecord"];
const START_FIELDS = [...BASE_FIELDS];
const BIB_FIELDS = [...BASE_FIELDS, "bib"];

/** v1 (a bare array): `{tap, sort, at, rerecord}` finish taps. */
function parseV1Item(x: unknown): QueueItem {
  if (!isObj(x) || x.kind !== undefined) return foreign(x);
  const item = parseItem({ ...x, kind: "finish" });
  return item.kind === "finish" ? item : foreign(x);
}

function parseDone(x: unknown): DoneMark[] {
  if (!Array.isArray(x)) return [];
  return x.filter((d): d is DoneMark => isObj(d) && typeof d.tap === "string" && Number.isFinite(d.t));
}

/** The stored text of one race's queue. Nothing in it is dropped: what cannot be read is kept as foreign items. */
export function parseQueue(text: string | null): TapQueue {
  if (text === null || text === "") return EMPTY_QUEUE;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON (a hand edit, a half write): kept as text, written back as it was.
    return { items: [foreign(text)], done: [] };
  }
  if (Array.isArray(data)) return { items: data.map(parseV1Item), done: [] };
  if (isObj(data) && data.v === QUEUE_VERSION && Array.isArray(data.items)) {
    return { items: data.items.map(parseItem), done: parseDone(data.done) };
  }
  // Another version (or nothing we recognise): the whole document is one item kept untouched.
  if (data === null) return EMPTY_QUEUE;
  return { items: [foreign(data)], done: [] };
}

export function serializeItem(item: QueueItem): unknown {
  if (item.kind === null) return item.raw;
  const base: Obj = { kind: item.kind, tap: item.tap, at: item.at };
  if (item.device !== undefined) base.device = item.device;
  if (item.err !== undefined) base.err = item.err;
  if (item.refused) base.refused = item.refused;
  switch (item.kind) {
    case "finish":
      return { ...base, sort: item.sort, rerecord: item.rerecord };
    case "start":
    case "rapid":
      return base;
    case "bib-entry":
      return { ...base, bib: item.bib };
  }
}

/** The text to store; null when there is nothing to keep (the key is removed). */
export function serializeQueue(queue: TapQueue): string | null {
  if (queue.items.length === 0 && queue.done.length === 0) return null;
  return JSON.stringify({ v: QUEUE_VERSION, items: queue.items.map(serializeItem), done: queue.done });
}

// ——— changes ———

/**
 * Two copies of one race's queue (this tab's and what another tab stored) as one: every item either holds, less
 * those either copy marks done. Order: `base`'s, then what only `other` has. Deterministic and idempotent, so
 * merging a copy into one that already has everything gives back the same text (two tabs never ping-pong).
 */
export function mergeQueues(base: TapQueue, other: TapQueue, now: number): TapQueue {
  const done = new Map<string, number>();
  for (const d of [...base.done, ...other.done]) done.set(d.tap, Math.max(done.get(d.tap) ?? -Infinity, d.t));
  const doneMarks = [...done.entries()]
    .map(([tap, t]) => ({ tap, t }))
    .filter((d) => now - d.t < DONE_KEEP_MS)
    .sort((a, b) => a.t - b.t || (a.tap < b.tap ? -1 : a.tap > b.tap ? 1 : 0))
    .slice(-DONE_MAX);
  const isDone = (item: QueueItem) => {
    const key = itemKey(item);
    return key.startsWith("tap:") && done.has(key.slice("tap:".length));
  };

  const theirs = new Map(other.items.map((i) => [itemKey(i), i]));
  const seen = new Set<string>();
  const items: QueueItem[] = [];
  for (const item of [...base.items, ...other.items]) {
    const key = itemKey(item);
    if (seen.has(key) || isDone(item)) continue;
    seen.add(key);
    items.push(newer(item, theirs.get(key)));
  }
  return { items, done: doneMarks };
}

/** Of two copies of one item, the one that knows of the later refusal (the rest of an item never changes). */
function newer(a: QueueItem, b: QueueItem | undefined): QueueItem {
  if (!b || a.kind === null || b.kind === null) return a;
  return (b.refused?.at ?? -Infinity) > (a.refused?.at ?? -Infinity) ? b : a;
}

export function enqueue(queue: TapQueue, item: KnownItem, now: number): TapQueue {
  return mergeQueues(queue, { items: [item], done: [] }, now);
}

/** The press left the queue: the server has it, or a person took it out. */
export function complete(queue: TapQueue, tap: string, now: number): TapQueue {
  return mergeQueues(queue, { items: [], done: [{ tap, t: now }] }, now);
}

export function markRefused(queue: TapQueue, tap: string, refusal: Refusal): TapQueue {
  return {
    ...queue,
    items: queue.items.map((i) => (i.kind !== null && i.tap === tap ? { ...i, refused: refusal } : i)),
  };
}

/** An undo before the server had them: the runner's finish taps leave the queue. */
export function withoutRunner(queue: TapQueue, sort: string, now: number): TapQueue {
  const taps = queue.items.filter((i) => i.kind === "finish" && i.sort === sort).map((i) => (i as FinishItem).tap);
  return mergeQueues(queue, { items: [], done: taps.map((tap) => ({ tap, t: now })) }, now);
}

export const knownItems = (queue: TapQueue): KnownItem[] => queue.items.filter(isKnown);
export const foreignCount = (queue: TapQueue) => queue.items.filter((i) => i.kind === null).length;

// ——— sending ———

export type SendResult =
  /** The server has it. `runner`/`race`: the record as the answer gave it (with its seq), for the cache. */
  | {
      kind: "sent";
      outcome: string;
      runner?: RunnerRecord;
      race?: RaceRecord;
      slot?: SlotRecord;
      entry?: BibEntryRecord;
      message?: string;
    }
  /** The race could not take it as it was: it is in the race's review list now, out of the queue. */
  | { kind: "review"; review: ReviewRecord; message: string }
  /** Not now (no network, server trouble, signed out): keep it and try later. */
  | { kind: "retry"; message: string }
  /** The server said no: keep it, show why; a person may discard it. */
  | { kind: "refused"; status: number; message: string };

/**
 * A failed call. No answer or a 5xx: try again. A 401/403 (the session ran out on the finish line), 408 and 429
 * are passing too. Any other 4xx is a considered no, which keeps the item (refused) with the server's words.
 */
export function resultOfError(err: unknown): SendResult {
  const status = isObj(err) && typeof err.status === "number" ? err.status : null;
  const message = err instanceof Error && err.message ? err.message : "Något gick fel. Försöker igen.";
  if (status === null || status === 0 || status >= 500 || [401, 403, 408, 429].includes(status)) {
    return { kind: "retry", message };
  }
  return { kind: "refused", status, message };
}

export function reviewMessage(review: Pick<ReviewRecord, "reason">): string {
  return `Till granskning: ${review.reason}`;
}

/** The order items are sent in: by moment (a start before the finishes timed from it), then as queued. */
export function sendOrder(queue: TapQueue): KnownItem[] {
  return knownItems(queue)
    .map((item, i) => ({ item, i }))
    .sort((a, b) => a.item.at - b.item.at || a.i - b.i)
    .map(({ item }) => item);
}

/**
 * The next item to send: the first in send order not tried in this round, and not refused unless
 * `includeRefused`. Typed bibs keep their order: a bib behind a refused bib still in the queue (skipped, or
 * refused again in this round) waits too, until the refused one is sent or taken out by a person; finish, start
 * and 'Mål!' items are never held by a bib.
 */
export function nextToSend(queue: TapQueue, tried: ReadonlySet<string>, includeRefused: boolean): KnownItem | null {
  let bibsHeld = false;
  for (const item of sendOrder(queue)) {
    const skipped = tried.has(item.tap) || (item.refused !== undefined && !includeRefused);
    if (item.kind === "bib-entry") {
      if (skipped && item.refused) bibsHeld = true;
      if (skipped || bibsHeld) continue;
      return item;
    }
    if (!skipped) return item;
  }
  return null;
}

/**
 * Sends the queue one item at a time, reading the live queue before each send (presses made meanwhile are picked
 * up, items another tab sent are skipped). A refused item is skipped unless `includeRefused` (it is tried again
 * on a new page and by hand, not every few seconds). Stops at the first item that must wait; `settle` hears every
 * outcome. 'done' when nothing is left to try, 'paused' when an item waits for a better moment.
 */
export async function flushQueue(
  queue: () => TapQueue,
  send: (item: KnownItem) => Promise<SendResult>,
  settle: (item: KnownItem, result: SendResult) => void,
  { includeRefused = false }: { includeRefused?: boolean } = {},
): Promise<"done" | "paused"> {
  const tried = new Set<string>();
  for (;;) {
    const item = nextToSend(queue(), tried, includeRefused);
    if (!item) return "done";
    tried.add(item.tap);
    const result = await send(item);
    settle(item, result);
    if (result.kind === "retry") return "paused";
  }
}

/** A queue worth a send: a known item not refused (refused ones wait for a page load or a person). */
export const hasSendable = (queue: TapQueue) => nextToSend(queue, new Set(), false) !== null;

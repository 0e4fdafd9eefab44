/**
 * Two (or more) timers at one finish, reconciled (issue 26, item 4). Each phone in rapid mode ('Mål!') records a
 * stream of anonymous finish moments, already on the server's clock (each phone adds its own measured clock
 * offset, src/shared/clock-sync.ts). Two phones timing the same finish still disagree a little: what is left of
 * their clock-sync error, and each volunteer's reaction. So their streams are aligned before they are merged:
 *
 * 1. The shift between two devices' streams is the one that pairs the most taps within PAIR_TOLERANCE_MS, searched
 *    up to MAX_TIMER_SHIFT_MS either way (the devices should agree within their clock-sync error; a shift beyond
 *    that is no shift). Ties go to the smaller total difference, then the smaller shift.
 * 2. With the shift applied, taps are paired in order: a pairing never crosses another (the k-th finisher of one
 *    device is never paired with a later finisher of the other than the (k+1)-th is), it pairs as many taps as
 *    any order-keeping pairing can, and among those the one with the smallest total difference.
 * 3. A paired finish takes the organiser's main timer's tap when it has one, else the earliest of its taps (the
 *    rule of finish taps: the earliest tap counts), so one more tap never moves a finish two devices timed. The
 *    merge runs on the timeline of the reference (the main timer, else the device whose taps come first by the
 *    shifts found); a finish only one device has is put on that timeline (its moment minus the device's shift, in
 *    steps of SHIFT_STEP_MS), so it is not moved by that device's lag.
 * 4. A slot only one device has while another device timed past it (that device has a tap more than the tolerance
 *    later, so its tap for this finish is not merely still on its way) is `single`; once `settled` (the race has
 *    ended) every slot only one of several devices has is, nothing being on its way any more. Either way a device
 *    counts only from its first tap: a slot more than the tolerance before it is no sign that the device missed it
 *    (a second phone that joins late did not time the finishes before it).
 *
 * Taps pinned to different runners (an organiser assigned them) are never paired with each other.
 *
 * Pure and deterministic: the same taps give the same slots on the server and on every phone, whatever order they
 * arrived in.
 */

/** Two devices' taps this close (after the shift between the devices) are one finish. */
export const PAIR_TOLERANCE_MS = 500;
/** The largest shift searched between two devices' streams (their clock-sync errors plus reaction). */
export const MAX_TIMER_SHIFT_MS = 3_000;
/**
 * Shifts are applied in steps of this many ms, so one more tap moves a single's time only when the measured shift
 * crosses a step, not by a millisecond on every tap.
 */
export const SHIFT_STEP_MS = 10;

export interface TimerTap {
  id: string;
  device: string;
  /** The tap's moment on the server's clock, epoch ms. */
  at: number;
  /** The runner an organiser assigned this tap to, if any. */
  pin?: string | null;
}

export interface SlotTap {
  id: string;
  device: string;
  /** The tap's own moment. */
  at: number;
}

export interface MergedSlot {
  /** The id of the tap whose time the slot takes. */
  key: string;
  /** 1-based position in the merged sequence. */
  number: number;
  /** The finish moment: the main timer's or the earliest tap, or one device's moment put on the reference's timeline. */
  at: number;
  /** The slot's taps, the one it takes its time from first. */
  taps: SlotTap[];
  /** Only one device has it, while another device, timing since before it, timed past it (or the race has ended). */
  single: boolean;
}

export interface TimerAlignment {
  slots: MergedSlot[];
  /** Each device's shift from the reference device's timeline, ms (the reference's is 0; later devices positive). */
  offsets: Record<string, number>;
  /** The device whose timeline the slots are on: the main timer, else the earliest device (null without taps). */
  reference: string | null;
}

export interface AlignOptions {
  /** The organiser's main timer: a paired finish takes its time. */
  main?: string | null;
  toleranceMs?: number;
  maxShiftMs?: number;
  /** The race has ended: every slot only one of several devices has is single. */
  settled?: boolean;
}

/** The slots of the merged sequence, numbered in finish order (see the module's comment). */
export function alignTimers(taps: readonly TimerTap[], options: AlignOptions = {}): TimerAlignment {
  const tolerance = options.toleranceMs ?? PAIR_TOLERANCE_MS;
  const maxShift = options.maxShiftMs ?? MAX_TIMER_SHIFT_MS;
  const streams = deviceStreams(taps);
  if (streams.length === 0) return { slots: [], offsets: {}, reference: null };

  // Shifts are measured against the device with the most taps (the firmest ground), or the main timer.
  const mainStream = options.main ? streams.find((s) => s.device === options.main) : undefined;
  const anchor = mainStream ?? streams[0]!;
  const shifts = new Map<string, number>([[anchor.device, 0]]);
  for (const stream of streams) {
    if (stream === anchor) continue;
    shifts.set(stream.device, bestShift(times(anchor.taps), times(stream.taps), tolerance, maxShift).shift);
  }
  let reference = anchor;
  if (!mainStream) {
    for (const stream of streams) if (shifts.get(stream.device)! < shifts.get(reference.device)!) reference = stream;
  }
  const base = shifts.get(reference.device)!;
  const offsets: Record<string, number> = {};
  for (const stream of streams) {
    const offset = shifts.get(stream.device)! - base;
    offsets[stream.device] = stream === reference ? 0 : Math.round(offset / SHIFT_STEP_MS) * SHIFT_STEP_MS;
  }

  // Merged on the reference's timeline: every other device's taps, shifted, paired in order with the slots so far.
  type Building = { at: number; taps: TimerTap[] };
  let slots: Building[] = reference.taps.map((tap) => ({ at: tap.at, taps: [tap] }));
  for (const stream of streams) {
    if (stream === reference) continue;
    const shift = offsets[stream.device]!;
    const pairs = pairInOrder(
      slots.map((s) => s.at),
      stream.taps.map((t) => t.at - shift),
      0,
      tolerance,
      (i, j) => canPair(slots[i]!.taps, stream.taps[j]!),
    );
    const paired = new Set<number>();
    for (const [i, j] of pairs) {
      slots[i]!.taps.push(stream.taps[j]!);
      paired.add(j);
    }
    stream.taps.forEach((tap, j) => {
      if (!paired.has(j)) slots.push({ at: tap.at - shift, taps: [tap] });
    });
    slots = slots.sort((a, b) => a.at - b.at || compareIds(a.taps[0]!.id, b.taps[0]!.id));
  }

  // Each slot's time: the main timer's tap; else, timed by several, the earliest tap (as for finish taps); else the
  // one tap, on the reference's timeline. The tap it takes its time from comes first.
  slots = slots
    .map((slot) => {
      if (slot.taps.length === 1) return slot;
      const taken =
        slot.taps.find((t) => t.device === options.main) ??
        slot.taps.reduce((x, y) => (y.at < x.at || (y.at === x.at && compareIds(y.id, x.id) < 0) ? y : x));
      return { at: taken.at, taps: [taken, ...slot.taps.filter((t) => t !== taken)] };
    })
    .sort((a, b) => a.at - b.at || compareIds(a.taps[0]!.id, b.taps[0]!.id));

  // The span (on the reference's timeline) each device timed, from its first tap to its last: a device that timed
  // past a slot it lacks missed it, unless the slot lies before the device's first tap (it may have joined late).
  const spans = new Map(
    streams.map((s) => [
      s.device,
      { first: s.taps[0]!.at - offsets[s.device]!, last: s.taps.at(-1)!.at - offsets[s.device]! },
    ]),
  );
  const missedBy = (device: string, at: number) => {
    const span = spans.get(device)!;
    return span.first - tolerance <= at && (options.settled === true || span.last > at + tolerance);
  };
  const several = streams.length > 1;
  const merged = slots.map((slot, index): MergedSlot => {
    const own = slot.taps[0]!.device;
    const single =
      several && slot.taps.length === 1 && streams.some((s) => s.device !== own && missedBy(s.device, slot.at));
    return {
      key: slot.taps[0]!.id,
      number: index + 1,
      at: slot.at,
      taps: slot.taps.map(({ id, device, at }) => ({ id, device, at })),
      single,
    };
  });
  return { slots: merged, offsets, reference: reference.device };
}

interface Stream {
  device: string;
  taps: TimerTap[];
}

/** One stream per device, each in time order; the device with the most taps first (then by its first tap). */
function deviceStreams(taps: readonly TimerTap[]): Stream[] {
  const byDevice = new Map<string, TimerTap[]>();
  for (const tap of taps) {
    const list = byDevice.get(tap.device);
    if (list) list.push(tap);
    else byDevice.set(tap.device, [tap]);
  }
  const streams = [...byDevice].map(([device, list]) => ({
    device,
    taps: list.sort((a, b) => a.at - b.at || compareIds(a.id, b.id)),
  }));
  return streams.sort(
    (a, b) => b.taps.length - a.taps.length || a.taps[0]!.at - b.taps[0]!.at || compareIds(a.device, b.device),
  );
}

function canPair(slotTaps: readonly TimerTap[], tap: TimerTap): boolean {
  if (!tap.pin) return true;
  return slotTaps.every((t) => !t.pin || t.pin === tap.pin);
}

function times(taps: readonly TimerTap[]): number[] {
  return taps.map((t) => t.at);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How many windows of candidate shifts are tried exactly. */
const SHIFT_CANDIDATES = 6;
/** Candidate shifts are counted in buckets this wide. */
const BUCKET_MS = 10;

export interface ShiftFound {
  /** `b` runs this many ms behind `a` (0 when no pair is found). */
  shift: number;
  /** Taps paired at that shift. */
  pairs: number;
  /** Their total difference after the shift, ms. */
  cost: number;
}

/**
 * The shift of stream `b` against stream `a` (both in time order) that pairs the most taps in order within
 * `tolerance`, searched within ±`maxShift`. The differences b[j] − a[i] within range are counted in BUCKET_MS
 * buckets; the densest windows of them (2 × tolerance wide, each a local peak) are each tried at their median by a
 * quick in-order walk, and the best is paired exactly and refined to the median of its own pairs' differences when
 * that pairs no fewer. Linear in the number of differences, with two exact pairings.
 */
export function bestShift(a: readonly number[], b: readonly number[], tolerance: number, maxShift: number): ShiftFound {
  const buckets = Math.floor((2 * maxShift) / BUCKET_MS) + 1;
  const counts = new Int32Array(buckets);
  let total = 0;
  let lo = 0;
  for (const x of a) {
    while (lo < b.length && b[lo]! < x - maxShift) lo += 1;
    for (let j = lo; j < b.length && b[j]! <= x + maxShift; j += 1) {
      counts[Math.min(buckets - 1, Math.floor((b[j]! - x + maxShift) / BUCKET_MS))]! += 1;
      total += 1;
    }
  }
  if (total === 0) return { shift: 0, pairs: 0, cost: 0 };

  // How many differences each window of `width` buckets starting at k holds, and which windows are local peaks.
  const width = Math.max(1, Math.min(buckets, Math.round((2 * tolerance) / BUCKET_MS)));
  const starts = buckets - width + 1;
  const sums = new Int32Array(starts);
  let running = 0;
  for (let k = 0; k < width; k += 1) running += counts[k]!;
  sums[0] = running;
  for (let k = 1; k < starts; k += 1) {
    running += counts[k + width - 1]! - counts[k - 1]!;
    sums[k] = running;
  }
  const peaks: number[] = [];
  for (let k = 0; k < starts; k += 1) {
    if (sums[k] === 0) continue;
    if (k > 0 && sums[k - 1]! > sums[k]!) continue;
    if (k + 1 < starts && sums[k + 1]! >= sums[k]!) continue;
    peaks.push(k);
  }
  const medianOf = (k: number) => {
    let seen = 0;
    for (let i = k; i < k + width; i += 1) {
      seen += counts[i]!;
      if (2 * seen >= sums[k]!) return -maxShift + i * BUCKET_MS + BUCKET_MS / 2;
    }
    return -maxShift + (k + width / 2) * BUCKET_MS;
  };
  const candidates = peaks
    .map((k) => ({ count: sums[k]!, shift: Math.round(medianOf(k)) }))
    .sort((x, y) => y.count - x.count || Math.abs(x.shift) - Math.abs(y.shift) || x.shift - y.shift);

  // The candidates are ranked by a quick in-order walk; the best is then paired exactly and refined.
  let quick: ShiftFound | null = null;
  for (const candidate of candidates.slice(0, SHIFT_CANDIDATES)) {
    const found = walk(a, b, candidate.shift, tolerance);
    if (!quick || better(found, quick)) quick = found;
  }
  if (!quick || quick.pairs === 0) return { shift: 0, pairs: 0, cost: 0 };
  const first = pairInOrder(a, b, quick.shift, tolerance);
  const own = first.map(([i, j]) => b[j]! - a[i]!).sort((x, y) => x - y);
  let best = measure(a, b, first, quick.shift);
  const median = own[Math.floor((own.length - 1) / 2)]!;
  if (median !== quick.shift) {
    const refined = measure(a, b, pairInOrder(a, b, median, tolerance), median);
    if (better(refined, best)) best = refined;
  }
  return best.pairs === 0 ? { shift: 0, pairs: 0, cost: 0 } : best;
}

/** Pairs and total difference of a greedy in-order walk at `shift` (a quick lower bound of pairInOrder's). */
function walk(a: readonly number[], b: readonly number[], shift: number, tolerance: number): ShiftFound {
  let i = 0;
  let j = 0;
  let pairs = 0;
  let cost = 0;
  while (i < a.length && j < b.length) {
    const d = b[j]! - shift - a[i]!;
    if (d >= -tolerance && d <= tolerance) {
      pairs += 1;
      cost += Math.abs(d);
      i += 1;
      j += 1;
    } else if (d < 0) j += 1;
    else i += 1;
  }
  return { shift, pairs, cost };
}

function measure(
  a: readonly number[],
  b: readonly number[],
  pairs: Array<[number, number]>,
  shift: number,
): ShiftFound {
  let cost = 0;
  for (const [i, j] of pairs) cost += Math.abs(b[j]! - shift - a[i]!);
  return { shift, pairs: pairs.length, cost };
}

function better(x: ShiftFound, y: ShiftFound): boolean {
  if (x.pairs !== y.pairs) return x.pairs > y.pairs;
  if (x.cost !== y.cost) return x.cost < y.cost;
  return Math.abs(x.shift) < Math.abs(y.shift) || (Math.abs(x.shift) === Math.abs(y.shift) && x.shift < y.shift);
}

/** A pair counts this much more than any total difference: the most pairs first, then the closest. */
const PAIR_WEIGHT = 1e9;

/**
 * Pairs `a[i]` with `b[j] − shift` (both in time order) within `tolerance`, keeping order (i and j both increase),
 * as many pairs as possible and among those the smallest total difference. A weighted longest increasing
 * subsequence over the candidate pairs (a Fenwick tree of the best chain ending before each j): O(P log m) for P
 * candidate pairs. `allowed` may forbid a pair.
 */
export function pairInOrder(
  a: readonly number[],
  b: readonly number[],
  shift: number,
  tolerance: number,
  allowed?: (i: number, j: number) => boolean,
): Array<[number, number]> {
  const m = b.length;
  if (a.length === 0 || m === 0) return [];
  const candI: number[] = [];
  const candJ: number[] = [];
  const value: number[] = [];
  const previous: number[] = [];
  // Fenwick tree over j (1-based) of [best chain value, candidate index] ending at some j' ≤ index.
  const treeValue = new Float64Array(m + 1);
  const treeIndex = new Int32Array(m + 1).fill(-1);
  const query = (j: number): [number, number] => {
    let bestValue = 0;
    let bestIndex = -1;
    for (let k = j; k > 0; k -= k & -k) {
      if (treeValue[k]! > bestValue) {
        bestValue = treeValue[k]!;
        bestIndex = treeIndex[k]!;
      }
    }
    return [bestValue, bestIndex];
  };
  const update = (j: number, v: number, index: number) => {
    for (let k = j; k <= m; k += k & -k) {
      if (v > treeValue[k]!) {
        treeValue[k] = v;
        treeIndex[k] = index;
      }
    }
  };

  let lo = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    while (lo < m && b[lo]! - shift < x - tolerance) lo += 1;
    const group: number[] = [];
    for (let j = lo; j < m && b[j]! - shift <= x + tolerance; j += 1) {
      if (allowed && !allowed(i, j)) continue;
      const [before, from] = query(j); // chains ending at j' < j (Fenwick index j covers 1..j = j' ≤ j − 1)
      const index = candI.length;
      candI.push(i);
      candJ.push(j);
      value.push(before + PAIR_WEIGHT - Math.abs(b[j]! - shift - x));
      previous.push(from);
      group.push(index);
    }
    // Inserted after the whole group is scored: two pairs with the same i never chain.
    for (const index of group) update(candJ[index]! + 1, value[index]!, index);
  }
  const [, last] = query(m);
  const pairs: Array<[number, number]> = [];
  for (let index = last; index !== -1; index = previous[index]!) pairs.push([candI[index]!, candJ[index]!]);
  return pairs.reverse();
}

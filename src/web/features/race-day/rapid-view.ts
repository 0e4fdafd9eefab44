/**
 * Rapid timing as a phone shows it (issue 26): every device's 'Mål!' taps merged into numbered slots by the same
 * pure function the race object uses (src/shared/timer-alignment.ts), so each phone numbers them as the server
 * does, and this phone's taps not yet sent count at once. Who each slot is comes from the runners: a runner whose
 * time came from a slot carries that slot's key (`RunnerRecord.slot`). Which typed bib reaches each slot (paired or
 * not: a bib nobody has holds its slot too) is the same pure matching the race object runs
 * (src/shared/bib-matching.ts), so the slot dialog can offer to correct that bib rather than push the later ones.
 */
import type { BibEntryRecord, RaceRecord, RunnerRecord, SlotRecord } from "../../../shared/race-protocol";
import { matchBibs, type MatchRunner } from "../../../shared/bib-matching";
import { alignTimers, type TimerTap } from "../../../shared/timer-alignment";
import type { RapidRecords } from "./apply-race-events";
import { isBibEntryItem, sendOrder, type BibEntryItem, type QueueItem } from "./tap-queue";

export interface SlotRow {
  /** The merged slot's key: the id of the tap whose time it takes. */
  key: string;
  number: number;
  at: number;
  /** The devices whose taps make this slot, the one whose time it takes first. */
  devices: string[];
  /** The ids of the taps that make this slot (Målfoto: each may have a photo). */
  taps: string[];
  /** Only one of several timing phones has it. */
  single: boolean;
  /** A tap of this phone the server does not have yet. */
  pending: boolean;
  /** The runner the slot's time went to, if any. */
  runner: RunnerRecord | null;
  /** The bib typed in finish order that reaches this slot, if any (its entry id and number). */
  entry: { id: string; bib: number } | null;
}

/** The taps that count: the server's (neither discarded nor cleared by a reset) and this phone's unsent ones. */
export function liveTaps(rapid: RapidRecords, queue: readonly QueueItem[], thisDevice: string): TimerTap[] {
  const taps = new Map<string, TimerTap>();
  for (const s of rapid.slots) {
    if (s.discarded || s.removed) continue;
    taps.set(s.id, { id: s.id, device: s.device, at: s.at, pin: s.pin ?? null });
  }
  for (const item of queue) {
    if (item.kind !== "rapid" || taps.has(item.tap)) continue;
    taps.set(item.tap, { id: item.tap, device: item.device ?? thisDevice, at: item.at, pin: null });
  }
  return [...taps.values()];
}

/** The numbered slots, first finisher first. */
export function slotRows(
  race: Pick<RaceRecord, "state" | "mainTimer">,
  rapid: RapidRecords,
  runners: readonly RunnerRecord[],
  queue: readonly QueueItem[],
  thisDevice: string,
): SlotRow[] {
  const sent = new Set(rapid.slots.map((s) => s.id));
  const alignment = alignTimers(liveTaps(rapid, queue, thisDevice), {
    main: race.mainTimer ?? null,
    settled: race.state === "ended",
  });
  const bySlot = new Map<string, RunnerRecord>();
  for (const r of runners) if (r.slot) bySlot.set(r.slot, r);
  const entryBySlot = typedBibsOnSlots(alignment.slots, rapid, runners, race.state === "ended");
  return alignment.slots.map((slot) => ({
    key: slot.key,
    number: slot.number,
    at: slot.at,
    devices: [...new Set(slot.taps.map((t) => t.device))],
    taps: slot.taps.map((t) => t.id),
    single: slot.single,
    pending: slot.taps.some((t) => !sent.has(t.id)),
    runner: bySlot.get(slot.key) ?? null,
    entry: entryBySlot.get(slot.key) ?? null,
  }));
}

/** The typed bib that reaches each slot, by slot key, as the race object matches them (module comment). */
function typedBibsOnSlots(
  slots: Parameters<typeof matchBibs>[0],
  rapid: RapidRecords,
  runners: readonly RunnerRecord[],
  settled: boolean,
): Map<string, { id: string; bib: number }> {
  const pins = rapid.slots
    .filter((s) => s.pin && !s.discarded && !s.removed)
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
    .map((s) => ({ tapId: s.id, runnerId: s.pin! }));
  const entries = liveBibs(rapid).map((e) => ({ id: e.id, bib: e.bib }));
  const status = (r: RunnerRecord): MatchRunner["status"] =>
    r.dns ? "dns" : r.finished === null ? "waiting" : r.slot ? "slot" : "timed";
  const matching = matchBibs(
    slots,
    pins,
    entries,
    runners.map((r) => ({ id: r.id, bib: r.bib, status: status(r) })),
    {
      settled,
    },
  );
  const out = new Map<string, { id: string; bib: number }>();
  for (const claim of matching.claims) {
    if (claim.kind === "entry" && claim.slot !== null && claim.bib !== null)
      out.set(claim.slot, { id: claim.id, bib: claim.bib });
  }
  return out;
}

/** The bibs typed in finish order, as they stand (removed ones left out), in that order. */
export function liveBibs(rapid: RapidRecords): BibEntryRecord[] {
  return rapid.bibs
    .filter((b) => !b.removed)
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * This phone's typed bibs the server does not have yet, in the order they will be sent (the order typed). One the
 * server already lists (its answer reached the cache before the item left the queue) is shown once, as the
 * server's.
 */
export function unsentBibs(rapid: RapidRecords, queue: readonly QueueItem[]): BibEntryItem[] {
  const sent = new Set(rapid.bibs.map((b) => b.id));
  return sendOrder({ items: queue, done: [] }).filter((i): i is BibEntryItem => isBibEntryItem(i) && !sent.has(i.tap));
}

/**
 * A slot's moment as the list shows it: time since the start, 'mm:ss.t' (tenths, rounded down as a stopwatch
 * does); before the start is known, the time of day.
 */
export function slotTime(at: number, started: number | null): string {
  if (started === null) return new Date(at).toLocaleTimeString("sv-SE", { timeZone: "Europe/Stockholm" });
  const tenths = Math.max(0, Math.floor((at - started) / 100));
  const t = tenths % 10;
  const s = Math.floor(tenths / 10) % 60;
  const m = Math.floor(tenths / 600);
  return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${t}`;
}

/** '#1 12:03.4 – ?' or '#1 12:03.4 – 12 Ella Berg'. */
export function slotText(row: SlotRow, started: number | null): string {
  const who = row.runner ? `${row.runner.bib ?? "?"} ${row.runner.firstname} ${row.runner.lastname}`.trim() : "?";
  return `#${row.number} ${slotTime(row.at, started)} – ${who}`;
}

/** The devices that timed any slot (for the main-timer choice), in the order they first timed. */
export function timingDevices(rapid: RapidRecords): string[] {
  const first = new Map<string, number>();
  for (const s of rapid.slots as readonly SlotRecord[]) {
    if (s.removed) continue;
    first.set(s.device, Math.min(first.get(s.device) ?? Infinity, s.at));
  }
  return [...first.entries()].sort((a, b) => a[1] - b[1]).map(([d]) => d);
}

/**
 * What the race screen shows, derived from the snapshot and the taps not yet sent: the tiles in the spec's
 * order, the results with their difference to the winner, and the counts the controls depend on.
 */
import { compareRunners, type RaceState, type RunnerRecord } from "../../../shared/race-protocol";
import { stockholmParts } from "../../../shared/stockholm";
import { formatDiff, formatResult, resultMs } from "../../../shared/time-format";
import type { PendingTap } from "./tap-queue";

export interface RunnerView extends RunnerRecord {
  /** Shown finished by a tap this device has not got confirmed yet. */
  pending: boolean;
}

export const STATE_LABEL: Record<RaceState, string> = {
  "": "Ej startat",
  started: "Startat",
  ended: "Avslutat",
};

/** The runners as this device knows them: a queued tap is a finish at its moment (the latest tap wins). */
export function runnersWithTaps(runners: readonly RunnerRecord[], queue: readonly PendingTap[]): RunnerView[] {
  const lastTap = new Map<string, PendingTap>();
  for (const tap of queue) lastTap.set(tap.sort, tap);
  return runners.map((r) => {
    const tap = lastTap.get(r.sort);
    if (!tap) return { ...r, pending: false };
    // A tap says the runner ran, whatever an earlier 'did not start' said.
    const { dns: _dns, ...rest } = r;
    return { ...rest, finished: tap.at, pending: true };
  });
}

export const isFinished = (r: Pick<RunnerRecord, "finished" | "dns">) => r.finished !== null && !r.dns;
export const isWaiting = (r: Pick<RunnerRecord, "finished" | "dns">) => r.finished === null && !r.dns;

export type TileGroup = "waiting" | "dns" | "finished";

export function tileGroup(r: Pick<RunnerRecord, "finished" | "dns">): TileGroup {
  return r.dns ? "dns" : r.finished === null ? "waiting" : "finished";
}

const GROUP_ORDER: Record<TileGroup, number> = { waiting: 0, dns: 1, finished: 2 };

/** Spec: waiting runners by bib with unset bibs first; then those who did not start; then finishers in order. */
export function tileOrder<T extends RunnerRecord>(runners: readonly T[]): T[] {
  return [...runners].sort((a, b) => {
    const ga = GROUP_ORDER[tileGroup(a)];
    const gb = GROUP_ORDER[tileGroup(b)];
    if (ga !== gb) return ga - gb;
    // compareRunners orders waiting runners by bib and finishers by time; DNS runners have no time, so by bib.
    return ga === GROUP_ORDER.dns
      ? compareRunners({ ...a, finished: null }, { ...b, finished: null })
      : compareRunners(a, b);
  });
}

export interface ResultRow {
  runner: RunnerView;
  bib: string;
  /** mm:ss.fff, or '–' when the start is unknown here. */
  result: string;
  /** Behind the first finisher, '+mm:ss.fff'. */
  diff: string;
}

/** The results table: finishers by finish time, each with the spec's ± against the first finisher. */
export function resultRows(started: number | null, runners: readonly RunnerView[]): ResultRow[] {
  const finished = runners.filter(isFinished).sort(compareRunners);
  const first = finished[0]?.finished ?? null;
  return finished.map((runner) => {
    const ms = resultMs(started, runner.finished);
    return {
      runner,
      bib: bibText(runner.bib),
      result: ms === null ? "–" : formatResult(ms),
      diff: first === null || runner.finished === null ? "" : formatDiff(runner.finished - first),
    };
  });
}

export function bibText(bib: number | null): string {
  return bib === null ? "?" : String(bib);
}

export const fullName = (r: Pick<RunnerRecord, "firstname" | "lastname">) => `${r.firstname} ${r.lastname}`.trim();

/** 'HH:MM:SS' in Stockholm. */
export function stockholmClockTime(ms: number): string {
  const p = stockholmParts(ms);
  return [p.hour, p.minute, p.second].map((n) => String(n).padStart(2, "0")).join(":");
}

const PAYLOAD_SHOWN = 80;
/** Machine ids and receipt times say nothing to the person reading the log; the rest is kept. */
const PAYLOAD_HIDDEN = new Set(["id", "tapId", "receivedAt"]);
const isEpochMs = (v: unknown): v is number => typeof v === "number" && v > 1e12 && v < 1e13;

/** The payload's fields as 'key: value, …' (moments as Stockholm times), cut short; raw text if not an object. */
export function payloadSummary(payload: string): string {
  let text = payload;
  try {
    const data: unknown = JSON.parse(payload);
    if (typeof data === "object" && data !== null && !Array.isArray(data)) {
      text = Object.entries(data)
        .filter(([k]) => !PAYLOAD_HIDDEN.has(k))
        .map(([k, v]) => {
          const value = isEpochMs(v) ? stockholmClockTime(v) : typeof v === "string" ? v : JSON.stringify(v);
          return `${k}: ${value}`;
        })
        .join(", ");
    }
  } catch {
    // Not JSON: shown as it is.
  }
  return text.length > PAYLOAD_SHOWN ? `${text.slice(0, PAYLOAD_SHOWN - 1)}…` : text;
}

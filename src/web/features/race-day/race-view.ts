/**
 * What the race screen shows, derived from the snapshot and the presses not yet sent: the race as this phone
 * knows it (a 'Starta' pressed here counts at once), the tiles in the spec's order, what a tap on a tile does, the
 * results with their difference to the winner, and the counts the controls depend on.
 */
import { compareRunners, type RaceRecord, type RaceState, type RunnerRecord } from "../../../shared/race-protocol";
import { stockholmParts } from "../../../shared/stockholm";
import { formatDiff, formatResult, resultMs } from "../../../shared/time-format";
import type { QueueItem, StartItem } from "./tap-queue";

export interface RunnerView extends RunnerRecord {
  /** Shown finished by a tap this device has not got confirmed yet. */
  pending: boolean;
  /** The server refused that tap: its words (the tap stays queued until sent or discarded by a person). */
  refused?: string;
}

export interface RaceView extends RaceRecord {
  /** Shown started by a 'Starta' this device has not got confirmed yet. */
  pendingStart: boolean;
}

export const STATE_LABEL: Record<RaceState, string> = {
  "": "Ej startat",
  started: "Startat",
  ended: "Avslutat",
};

/**
 * The race as this device knows it: not started here but a 'Starta' waits in the queue, so it runs from that
 * press's moment (the earliest, should there be two). The server's start, once known, stands.
 */
export function raceWithQueue(race: RaceRecord, items: readonly QueueItem[]): RaceView {
  if (race.state !== "") return { ...race, pendingStart: false };
  const starts = items.filter((i): i is StartItem => i.kind === "start");
  if (starts.length === 0) return { ...race, pendingStart: false };
  const at = Math.min(...starts.map((s) => s.at));
  return { ...race, state: "started", started: at, pendingStart: true };
}

/**
 * The runners as this device knows them: a queued tap is a finish at its moment (the latest tap wins); a runner
 * whose undo waits in the undo bar (`undoing`) shows as waiting.
 */
export function runnersWithTaps(
  runners: readonly RunnerRecord[],
  queue: readonly QueueItem[],
  undoing: ReadonlySet<string> = new Set(),
): RunnerView[] {
  const lastTap = new Map<string, Extract<QueueItem, { kind: "finish" }>>();
  for (const item of queue) if (item.kind === "finish") lastTap.set(item.sort, item);
  return runners.map((r) => {
    if (undoing.has(r.sort)) return { ...r, finished: null, pending: false };
    const tap = lastTap.get(r.sort);
    if (!tap) return { ...r, pending: false };
    // A tap says the runner ran, whatever an earlier 'did not start' said.
    const { dns: _dns, ...rest } = r;
    const view: RunnerView = { ...rest, finished: tap.at, pending: true };
    if (tap.refused) view.refused = tap.refused.message;
    return view;
  });
}

export type TileAction = "bib" | "finish" | "confirm-rerecord" | "none";

/**
 * What a tap on a tile does. Not started: the bib prompt, except on a phone that is offline (it may have missed
 * the start): then a finish, queued against the start it will learn of. Started: a finish; on a finished tile a
 * new time, but only after a confirmation showing both times (a stray tap must not move a good time). Ended:
 * nothing.
 */
export function tileAction(
  race: Pick<RaceRecord, "state">,
  runner: Pick<RunnerRecord, "finished" | "dns">,
  offline: boolean,
): TileAction {
  if (race.state === "ended") return "none";
  if (race.state === "" && !offline) return "bib";
  return isFinished(runner) ? "confirm-rerecord" : "finish";
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
  /** The bib, or the runner's name where there is none. */
  bib: string;
  /** `bib` is the name. */
  byName: boolean;
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
      bib: runner.bib === null ? fullName(runner) || "?" : String(runner.bib),
      byName: runner.bib === null,
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

/** A finish as the re-record confirmation shows it: the result and the clock time ('12:34.567, i mål 10:58:02'). */
export function finishText(started: number | null, finished: number): string {
  const ms = resultMs(started, finished);
  const clock = `i mål ${stockholmClockTime(finished)}`;
  return ms === null ? clock : `${formatResult(ms)}, ${clock}`;
}

/** 'Ella Berg (200)', or the name alone when there is no bib. */
export function runnerLabel(r: Pick<RunnerRecord, "firstname" | "lastname" | "bib">): string {
  const name = fullName(r);
  return r.bib === null ? name : `${name} (${r.bib})`;
}

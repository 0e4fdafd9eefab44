/**
 * The race as a screen holds it (the `[race, ...runners]` snapshot of GET /admin/api/races/get/{id}) and how the
 * socket's events change it. Pure: the socket hook keeps the last applied `seq` next to the cached snapshot.
 *
 * Protocol (race-protocol.ts): after `subscribe-to-race` the server answers `hello` and then one array of events,
 * a whole snapshot (replace everything) or what changed after our `since`; later arrays are live changes. An
 * event whose seq we have already applied is a replay and changes nothing.
 */
import type { RaceEvent, RaceRecord, RaceSnapshot, RunnerRecord } from "../../../shared/race-protocol";

export interface LiveRace {
  snapshot: RaceSnapshot | undefined;
  /** The highest seq applied (0: none yet). */
  seq: number;
}

/** What the `hello` before this array said. */
export interface HelloInfo {
  seq: number;
  snapshot: boolean;
}

function withoutSeq<T extends { seq: number }>(event: T): Omit<T, "seq"> {
  const { seq: _seq, ...record } = event;
  return record;
}

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
    const race = raceEvent ? (withoutSeq(raceEvent) as RaceRecord) : current.snapshot?.[0];
    const runners = ours.filter(
      (e): e is RunnerRecord & { seq: number } => e.sort !== "race" && !("removed" in e && e.removed),
    );
    // A server whose sequence started over (its storage was reset) is believed: its seq, not our higher one.
    const seq = Math.max(hello.seq, ...ours.map((e) => e.seq));
    return { snapshot: race ? [race, ...runners.map((r) => withoutSeq(r))] : undefined, seq };
  }

  let { snapshot, seq } = current;
  for (const event of ours) {
    if (event.seq <= current.seq) continue;
    seq = Math.max(seq, event.seq);
    if (event.sort === "race") {
      const race = withoutSeq(event) as RaceRecord;
      snapshot = snapshot ? replaceRace(snapshot, race) : [race];
    } else if ("removed" in event && event.removed) {
      if (snapshot) snapshot = removeRunner(snapshot, event.sort);
    } else if (snapshot) {
      snapshot = upsertRunner(snapshot, withoutSeq(event) as RunnerRecord);
    }
  }
  if (hello) seq = Math.max(seq, hello.seq);
  return { snapshot, seq };
}

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
    const race = withoutSeq(event) as RaceRecord;
    const at = races.findIndex((r) => r.part === race.part);
    races = at === -1 ? [...races, race] : races.map((r, i) => (i === at ? race : r));
    changed = true;
  }
  if (hello) seq = Math.max(seq, hello.seq);
  if (!changed) return { races: current.races, seq };
  return { races: [...races].sort((a, b) => (a.part < b.part ? -1 : a.part > b.part ? 1 : 0)), seq };
}

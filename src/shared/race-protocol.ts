/**
 * The race wire shapes (admin spec, "Race" and "Runner"): what `GET /api/races`, `GET /api/races/get/{part}`
 * and the race Durable Object's RPC answer, and what the live sockets will carry. The spec's clients dispatch
 * every record by the prefix of its `sort` field ('race' / 'runner'), so that is the one discriminator here.
 *
 * The race-day issue adds the timing frames (start, finish, restore, reset, end, clock sync) to this module,
 * next to these records, so browser and Durable Object share one typed message union.
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
}

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
}

/** The start list a visitor sees: no age, no participant id (admin spec's start-list columns). */
export type PublicRunnerRecord = Pick<
  RunnerRecord,
  "type" | "part" | "sort" | "bib" | "firstname" | "lastname" | "group" | "company" | "finished" | "time"
>;

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

export function toPublicRunner(r: RunnerRecord): PublicRunnerRecord {
  const pub: PublicRunnerRecord = {
    type: r.type,
    part: r.part,
    sort: r.sort,
    bib: r.bib,
    firstname: r.firstname,
    lastname: r.lastname,
    group: r.group,
    company: r.company,
    finished: r.finished,
  };
  if (r.time !== undefined) pub.time = r.time;
  return pub;
}

/**
 * Admin spec: "Waiting runners are sorted by bib with unset bibs first"; finished runners follow in finish
 * order. Ties keep a stable order by name, then id.
 */
export function compareRunners(a: RunnerRecord, b: RunnerRecord): number {
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
export type RaceErrorStatus = 400 | 404 | 409;

export class RaceError extends Error {
  readonly status: RaceErrorStatus;
  constructor(status: RaceErrorStatus, message: string) {
    super(message);
    this.name = RACE_ERROR_NAME;
    this.status = status;
  }
}

export function isRaceError(err: unknown): err is { name: string; message: string; status: RaceErrorStatus } {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { name?: unknown; message?: unknown; status?: unknown };
  return (
    e.name === RACE_ERROR_NAME &&
    typeof e.message === "string" &&
    (e.status === 400 || e.status === 404 || e.status === 409)
  );
}

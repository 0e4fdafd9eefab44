/**
 * One race (DESIGN.md): the single writer of race-day state, one object per race id (`env.RACE.getByName(part)`).
 *
 * States: not started ('') → started (start sets `started`) → ended (only when started and nobody is waiting:
 * every runner has finished or is marked DNS); reset returns any state to not started (start, finishes and DNS
 * cleared; runners and bibs kept).
 *
 * Invariants
 * - Every change is one SQLite transaction that also appends a row to `events` (the audit trail: what, who,
 *   which device, when). That row's `seq` is the change's sequence number; the race row and each runner row
 *   keep the seq of their last change, and a removed runner leaves a tombstone with its seq. So a socket that
 *   reconnects with the last seq it applied gets exactly the records that changed since (replay), or a snapshot.
 * - A runner has one finish time. Each finish tap is stored by its tap id (made on the device) in `taps`, so a
 *   replayed tap answers what it answered the first time and changes nothing. A tap from another device within
 *   SAME_FINISH_WINDOW_MS of the recorded finish is the same finish (earliest kept); a deliberate re-record (a
 *   tap on a tile the device showed as finished, or the spec's bare call) replaces it. Every tap is audited.
 * - Bibs are unique within the race (a UNIQUE column), any positive integer an admin types; "next" takes the
 *   next free number of the season's range for the race's distance.
 * - Changing distance never loses or doubles a runner, though there is no transaction across two objects:
 *   1. mark the runner as moving (`moving_to`) here: from then on it is out of this race's lists;
 *   2. add it to the target race (idempotent by id);
 *   3. remove it here, leaving a tombstone.
 *   The alarm retries 2–3 until done; a target that refuses for good (gone, bad input) cancels the move and the
 *   runner is back in this race's lists.
 * - D1 is an index: participants' race, bib and distance and the race's state/start are mirrored after the
 *   write here has committed. A failed mirror is retried by the alarm; every later write re-sends it too.
 *
 * Sockets hibernate (`acceptWebSocket`): identity (who) and whether the socket subscribed live in the
 * attachment, so an idle race costs nothing and an evicted object wakes knowing its sockets. Memory holds
 * nothing but a cache of the race row. Frames are parsed with zod; a bad frame gets `{type:'error'}` and the
 * socket stays open.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "../client-frames";
import { clockFromSettings, type Clock } from "../../shared/clock";
import { distanceFromMeters, toGroup } from "../../shared/distances";
import { MAX_AGE } from "../../shared/age";
import { isRaceId, raceIdMatches } from "../../shared/race-id";
import {
  compareRunners,
  FUTURE_TAP_TOLERANCE_MS,
  isRaceState,
  isTapId,
  MAX_TAP_AGE_MS,
  metersToKm,
  RaceError,
  runnerSort,
  runnerTime,
  SAME_FINISH_WINDOW_MS,
  type RaceAuditEvent,
  type RaceEvent,
  type RaceRecord,
  type RaceSnapshot,
  type RaceState,
  type RemovedRunnerRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import { SEASON } from "../../shared/season";

/** Who made a change (the admin's e-mail, 'betalning', 'kassa' …) and from which device; kept in the audit trail. */
export interface ChangeAuthor {
  actor?: string;
  device?: string;
}

export interface RaceInit {
  part: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** Metres. */
  distance: number;
  openForReg?: boolean;
}

export interface RunnerInput {
  /** The participant id (D1 participants.id). */
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  company?: string;
  group?: string;
  /** km ('5.6'); when given it must be this race's distance. */
  distance?: string;
  /** Null, 0 or missing: no number yet. */
  bib?: number | null;
}

export type RunnerPatch = Partial<{
  bib: number | null;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  group: string;
}>;

export interface AddRunnerOptions {
  /**
   * A paid runner must get into the race even when the bib they asked for was taken meanwhile: add them without
   * a number (and report it) instead of refusing.
   */
  dropTakenBib?: boolean;
}

export interface AddRunnerResult {
  runner: RunnerRecord;
  /** False when the runner was already in the race (the call changed nothing). */
  added: boolean;
  /** The bib asked for, when it was taken and dropped (AddRunnerOptions.dropTakenBib). */
  droppedBib?: number;
}

/** A start or finish tap. `at` is the tap's moment on the server's clock; without it the server's now is used. */
export interface TapInput {
  tapId?: string;
  at?: number;
}

export type FinishOutcome = "recorded" | "same-finish" | "rerecorded" | "conflict" | "replayed";

export interface FinishResult {
  finished: number;
  runner: RunnerRecord;
  outcome: FinishOutcome;
}

export interface MoveResult {
  runner: RunnerRecord;
  droppedBib?: number;
}

type MetaRow = {
  part: string;
  date: string;
  distance: number;
  open_for_reg: number;
  state: string;
  started: number | null;
  seq: number;
  epoch: number;
  mirror_pending: number;
};

type RunnerRow = {
  id: string;
  participant_id: string;
  bib: number | null;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  grp: string;
  distance: string;
  finished: number | null;
  added_at: number;
  updated_at: number;
  dns: number;
  seq: number;
  moving_to: string | null;
};

type TapRow = {
  tap_id: string;
  kind: string;
  runner_id: string | null;
  at: number;
  outcome: string;
  result: number;
};

/** Ordered, append-only: a released version is never edited, only followed by a new one. */
const SCHEMA_MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     part TEXT NOT NULL,
     date TEXT NOT NULL,
     distance INTEGER NOT NULL,
     open_for_reg INTEGER NOT NULL DEFAULT 0,
     state TEXT NOT NULL DEFAULT '',
     started INTEGER
   );
   CREATE TABLE runners (
     id TEXT PRIMARY KEY,
     participant_id TEXT NOT NULL,
     bib INTEGER UNIQUE CHECK (bib IS NULL OR bib > 0),
     firstname TEXT NOT NULL,
     lastname TEXT NOT NULL,
     age INTEGER NOT NULL,
     company TEXT NOT NULL DEFAULT '',
     grp TEXT NOT NULL DEFAULT 'Ingen',
     distance TEXT NOT NULL,
     finished INTEGER,
     added_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     actor TEXT NOT NULL,
     device TEXT,
     at INTEGER NOT NULL
   );`,
  // Race day: sequence numbers for replay, DNS, distance moves, idempotent taps, reset epochs.
  `ALTER TABLE meta ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE meta ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE meta ADD COLUMN mirror_pending INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runners ADD COLUMN dns INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runners ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runners ADD COLUMN moving_to TEXT;
   CREATE INDEX runners_seq ON runners (seq);
   CREATE TABLE removed (id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
   CREATE TABLE taps (
     tap_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     runner_id TEXT,
     at INTEGER NOT NULL,
     received INTEGER NOT NULL,
     device TEXT,
     actor TEXT NOT NULL,
     epoch INTEGER NOT NULL,
     outcome TEXT NOT NULL,
     result INTEGER NOT NULL
   );`,
];

const MAX_ID_LENGTH = 100;
const MAX_TEXT_LENGTH = 100;
const MAX_BIB = 99_999;
const RACE_TAG = "race";
/** How soon the alarm retries an unfinished distance move or D1 mirror. */
const RETRY_MS = 5_000;

interface SocketState {
  actor: string;
  subscribed: boolean;
}

export class RaceDO extends DurableObject<Env> {
  private readonly clock: Clock;
  /** The race row as last read; every write to `meta` must reset it to undefined. */
  private metaCache: MetaRow | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    void ctx.blockConcurrencyWhile(async () => this.migrate());
    // Keep-alive pings from phones are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Makes this object the race `race.part`. Idempotent; the Worker calls it before first use. */
  async init(race: RaceInit, by: ChangeAuthor = {}): Promise<RaceRecord> {
    if (!isRaceId(race?.part) || !raceIdMatches(race.part, race.date, race.distance)) {
      throw new RaceError(400, "Ogiltigt lopp.");
    }
    const openForReg = race.openForReg === true;
    const existing = this.meta();
    if (existing) {
      if (existing.part !== race.part) throw new RaceError(409, "Det här loppet har redan ett annat id.");
      if (Boolean(existing.open_for_reg) !== openForReg && race.openForReg !== undefined) {
        this.write("race-updated", { openForReg }, by, (seq) => {
          this.sql("UPDATE meta SET open_for_reg = ?, seq = ? WHERE id = 1", openForReg ? 1 : 0, seq);
        });
      }
      return this.raceRecord(this.meta()!);
    }

    // Runners that reached D1 before this object existed (e.g. seeded data) join the race with it.
    const known = await this.env.DB.prepare(
      `SELECT id, firstname, lastname, age, company, "group" AS grp, bib FROM participants WHERE race_id = ?`,
    )
      .bind(race.part)
      .all<{
        id: string;
        firstname: string;
        lastname: string;
        age: number;
        company: string;
        grp: string;
        bib: number | null;
      }>();

    const droppedBibs: string[] = [];
    if (!this.meta()) {
      const now = this.clock.now();
      const km = metersToKm(race.distance);
      this.ctx.storage.transactionSync(() => {
        this.sql(
          "INSERT INTO meta (id, part, date, distance, open_for_reg, state, started) VALUES (1, ?, ?, ?, ?, '', NULL)",
          race.part,
          race.date,
          race.distance,
          openForReg ? 1 : 0,
        );
        const seq = this.appendEvent(
          "race-created",
          { part: race.part, date: race.date, distance: race.distance, openForReg },
          by,
        );
        this.sql("UPDATE meta SET seq = ? WHERE id = 1", seq);
        for (const p of known.results) {
          const bib = p.bib && p.bib > 0 && p.bib <= MAX_BIB && !this.runnerWithBib(p.bib) ? p.bib : null;
          if (p.bib && bib === null) droppedBibs.push(p.id);
          const added = this.appendEvent("runner-added", { id: p.id, bib, from: "d1" }, by);
          this.sql(
            `INSERT OR IGNORE INTO runners
               (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at,
                updated_at, seq)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
            p.id,
            p.id,
            bib,
            p.firstname,
            p.lastname,
            p.age,
            p.company ?? "",
            p.grp ?? "Ingen",
            km,
            now,
            now,
            added,
          );
        }
      });
      this.metaCache = undefined;
    }
    for (const id of droppedBibs) await this.mirror(id);
    const meta = this.meta()!;
    if (meta.part !== race.part) throw new RaceError(409, "Det här loppet har redan ett annat id.");
    return this.raceRecord(meta);
  }

  /** The race record, or null before init. */
  async getRace(): Promise<RaceRecord | null> {
    const meta = this.meta();
    return meta ? this.raceRecord(meta) : null;
  }

  /** The race's runners (not those on their way to another race), waiting first by bib, then by finish. */
  async listRunners(): Promise<RunnerRecord[]> {
    const meta = this.requireMeta();
    return this.runnersNow(meta);
  }

  async getRunner(id: string): Promise<RunnerRecord | null> {
    const meta = this.requireMeta();
    const row = this.runnerRow(checkId(id));
    return row && row.moving_to === null ? this.runnerRecord(row, meta) : null;
  }

  /** `GET /api/races/get/{part}`: the race record, then the runners; null before init. */
  async snapshot(): Promise<RaceSnapshot | null> {
    const meta = this.meta();
    if (!meta) return null;
    return [this.raceRecord(meta), ...this.runnersNow(meta)];
  }

  /** Adds a runner. Idempotent by id: adding the same participant again changes nothing. */
  async addRunner(input: RunnerInput, by: ChangeAuthor = {}, options: AddRunnerOptions = {}): Promise<AddRunnerResult> {
    const meta = this.requireMeta();
    const id = checkId(input?.id);
    const existing = this.runnerRow(id);
    if (existing) {
      await this.mirror(existing.id);
      return { runner: this.runnerRecord(existing, meta), added: false };
    }

    const raceKm = metersToKm(meta.distance);
    if (input.distance !== undefined && input.distance !== null && String(input.distance) !== raceKm) {
      throw new RaceError(400, `Fel distans för loppet: ${input.distance} km (loppet är ${raceKm} km).`);
    }
    const fields = {
      firstname: checkName(input.firstname),
      lastname: checkName(input.lastname),
      age: checkAge(input.age),
      company: checkCompany(input.company ?? ""),
      group: checkGroup(input.group),
    };
    let bib = checkBib(input.bib ?? null);
    let droppedBib: number | undefined;
    const holder = bib === null ? null : this.runnerWithBib(bib);
    if (holder && bib !== null) {
      if (!options.dropTakenBib) throw bibTaken(bib, holder);
      droppedBib = bib;
      bib = null;
    }

    const now = this.clock.now();
    this.write("runner-added", { id, ...fields, bib, droppedBib }, by, (seq) => {
      this.sql(
        `INSERT INTO runners
           (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at, updated_at,
            seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        id,
        id,
        bib,
        fields.firstname,
        fields.lastname,
        fields.age,
        fields.company,
        fields.group,
        raceKm,
        now,
        now,
        seq,
      );
      this.sql("DELETE FROM removed WHERE id = ?", id);
    });
    const runner = this.runnerRecord(this.runnerRow(id)!, meta);
    this.broadcastRunners([id]);
    await this.mirror(id);
    return droppedBib === undefined ? { runner, added: true } : { runner, added: true, droppedBib };
  }

  /** Changes a runner's bib or details. A bib must be a positive whole number not used by another runner. */
  async updateRunner(id: string, patch: RunnerPatch, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    const row = this.liveRunner(id);
    if (typeof patch !== "object" || patch === null) throw new RaceError(400, "Ogiltig ändring.");

    const next = { ...row };
    if ("firstname" in patch) next.firstname = checkName(patch.firstname);
    if ("lastname" in patch) next.lastname = checkName(patch.lastname);
    if ("age" in patch) next.age = checkAge(patch.age);
    if ("company" in patch) next.company = checkCompany(patch.company);
    if ("group" in patch) next.grp = checkGroup(patch.group);
    if ("bib" in patch) {
      next.bib = checkBib(patch.bib ?? null);
      const holder = next.bib === null ? null : this.runnerWithBib(next.bib);
      if (holder && holder.id !== row.id && next.bib !== null) throw bibTaken(next.bib, holder);
    }

    const changes: Record<string, [unknown, unknown]> = {};
    for (const key of ["bib", "firstname", "lastname", "age", "company", "grp"] as const) {
      if (next[key] !== row[key]) changes[key === "grp" ? "group" : key] = [row[key], next[key]];
    }
    if (Object.keys(changes).length > 0) {
      const now = this.clock.now();
      this.write("runner-updated", { id: row.id, changes }, by, (seq) => {
        this.sql(
          `UPDATE runners SET bib = ?, firstname = ?, lastname = ?, age = ?, company = ?, grp = ?, updated_at = ?,
             seq = ?
           WHERE id = ?`,
          next.bib,
          next.firstname,
          next.lastname,
          next.age,
          next.company,
          next.grp,
          now,
          seq,
          row.id,
        );
      });
      this.broadcastRunners([row.id]);
    }
    await this.mirror(row.id);
    return this.runnerRecord(this.runnerRow(row.id)!, meta);
  }

  /**
   * Erasure on request (admin personal data): the runner's name and club become `replacement`, and so do they in
   * every earlier event of the audit trail that names the runner (an edit records old and new values, an add the
   * whole runner), so the race keeps no trace of who ran. The change itself is logged without any name. Times,
   * bib, age and group stay: the race's results still need them.
   */
  async anonymiseRunner(
    id: string,
    replacement: { firstname: string; lastname: string },
    by: ChangeAuthor = {},
  ): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    const row = this.liveRunner(id);
    const firstname = checkName(replacement.firstname);
    const lastname = checkName(replacement.lastname);
    const swap = new Map<string, string>();
    for (const [old, now] of [
      [row.firstname, firstname],
      [row.lastname, lastname],
      [row.company, ""],
    ] as const) {
      if (old) swap.set(old, now);
    }
    const scrub = (value: unknown): unknown => {
      if (typeof value === "string") return swap.get(value) ?? value;
      if (Array.isArray(value)) return value.map(scrub);
      if (value && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
      }
      return value;
    };
    const now = this.clock.now();
    this.write("runner-anonymised", { id: row.id }, by, (seq) => {
      const mentions = this.sql<{ seq: number; payload: string }>(
        "SELECT seq, payload FROM events WHERE instr(payload, ?) > 0",
        JSON.stringify(row.id),
      );
      for (const event of mentions) {
        const payload = JSON.stringify(scrub(JSON.parse(event.payload)));
        if (payload !== event.payload) this.sql("UPDATE events SET payload = ? WHERE seq = ?", payload, event.seq);
      }
      this.sql(
        "UPDATE runners SET firstname = ?, lastname = ?, company = '', updated_at = ?, seq = ? WHERE id = ?",
        firstname,
        lastname,
        now,
        seq,
        row.id,
      );
    });
    this.broadcastRunners([row.id]);
    await this.mirror(row.id);
    return this.runnerRecord(this.runnerRow(row.id)!, meta);
  }

  /**
   * Spec "register-bib": a positive integer, unique within the race, or "next": the first free number of the
   * season's range for this distance (from 1 for a distance the season does not run).
   */
  async registerBib(id: string, bib: number | "next", by: ChangeAuthor = {}): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    const number = bib === "next" ? this.nextFreeBib(meta) : bib;
    return this.updateRunner(id, { bib: number }, by);
  }

  /** Takes a runner out of the race; the removed record, or null when the runner was not in it. */
  async removeRunner(id: string, by: ChangeAuthor = {}): Promise<RunnerRecord | null> {
    const meta = this.requireMeta();
    const runnerId = checkId(id);
    const row = this.runnerRow(runnerId);
    if (row) {
      this.write("runner-removed", { id: runnerId, bib: row.bib }, by, (seq) => this.tombstone(runnerId, seq));
      this.broadcastRunners([runnerId]);
    }
    await this.mirror(runnerId);
    return row ? this.runnerRecord(row, meta) : null;
  }

  // ——— race day ———

  /** Starts the race at the tap's moment (or now). A replayed start tap answers the start it made. */
  async start(tap: TapInput = {}, by: ChangeAuthor = {}): Promise<RaceRecord> {
    const meta = this.requireMeta();
    const replay = this.replayedTap(tap.tapId);
    if (replay) return this.raceRecord(meta);
    if (meta.state === "started") throw new RaceError(409, "Loppet har redan startat.");
    if (meta.state === "ended") throw new RaceError(409, "Loppet är avslutat. Återställ det för att starta om.");
    const now = this.clock.now();
    const at = this.tapMoment(tap.at, now, null);
    this.write("start", { at, tapId: tap.tapId ?? null, receivedAt: now }, by, (seq) => {
      this.sql("UPDATE meta SET state = 'started', started = ?, seq = ?, mirror_pending = 1 WHERE id = 1", at, seq);
      this.storeTap(tap.tapId, "start", null, at, now, by, "recorded", at);
    });
    this.broadcastRace();
    await this.mirrorRace();
    return this.raceRecord(this.meta()!);
  }

  /**
   * The one way a finish is recorded (the spec's finish call ends here). `rerecord`: the device showed this
   * runner as finished and tapped it anyway (spec: "Tapping an already finished tile … re-records the finish").
   * The spec's bare call (no tap id) on a finished runner is such a re-record too.
   */
  async finish(id: string, tap: TapInput & { rerecord?: boolean } = {}, by: ChangeAuthor = {}): Promise<FinishResult> {
    const meta = this.requireMeta();
    const replay = this.replayedTap(tap.tapId);
    if (replay) {
      const row = replay.runner_id ? this.runnerRow(replay.runner_id) : null;
      if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
      return { finished: replay.result, runner: this.runnerRecord(row, meta), outcome: "replayed" };
    }
    if (meta.state !== "started") {
      throw new RaceError(409, meta.state === "ended" ? "Loppet är avslutat." : "Loppet har inte startat.");
    }
    const row = this.liveRunner(id);
    const now = this.clock.now();
    const at = this.tapMoment(tap.at, now, meta.started);

    let outcome: FinishOutcome;
    let finished: number;
    if (row.finished === null) {
      outcome = "recorded";
      finished = at;
    } else if (tap.rerecord || !tap.tapId) {
      outcome = "rerecorded";
      finished = at;
    } else {
      // Two devices tapped the same runner, neither knowing of the other: the earliest moment is the finish.
      outcome = Math.abs(at - row.finished) <= SAME_FINISH_WINDOW_MS ? "same-finish" : "conflict";
      finished = Math.min(at, row.finished);
    }
    const changed = finished !== row.finished || row.dns === 1;
    this.write(
      "finish",
      { id: row.id, bib: row.bib, at, tapId: tap.tapId ?? null, receivedAt: now, outcome, previous: row.finished },
      by,
      (seq) => {
        if (changed) this.sql("UPDATE runners SET finished = ?, dns = 0, seq = ? WHERE id = ?", finished, seq, row.id);
        this.storeTap(tap.tapId, "finish", row.id, at, now, by, outcome, finished);
      },
    );
    if (changed) this.broadcastRunners([row.id]);
    return { finished, runner: this.runnerRecord(this.runnerRow(row.id)!, meta), outcome };
  }

  /** Undo a finish (spec: "offered only while the race is started"): the runner is waiting again. */
  async restore(id: string, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    if (meta.state !== "started") {
      throw new RaceError(409, meta.state === "ended" ? "Loppet är avslutat." : "Loppet har inte startat.");
    }
    const row = this.liveRunner(id);
    if (row.finished !== null) {
      this.write("restore", { id: row.id, bib: row.bib, previous: row.finished }, by, (seq) => {
        this.sql("UPDATE runners SET finished = NULL, seq = ? WHERE id = ?", seq, row.id);
      });
      this.broadcastRunners([row.id]);
    }
    return this.runnerRecord(this.runnerRow(row.id)!, meta);
  }

  /** Marks a runner as not started (DNS), or takes the mark back, so a race can end without them. */
  async setDns(id: string, dns: boolean, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    if (meta.state === "ended") throw new RaceError(409, "Loppet är avslutat.");
    const row = this.liveRunner(id);
    if (dns && row.finished !== null) throw new RaceError(409, "Löparen har redan gått i mål.");
    if (Boolean(row.dns) !== dns) {
      this.write(dns ? "dns" : "dns-removed", { id: row.id, bib: row.bib }, by, (seq) => {
        this.sql("UPDATE runners SET dns = ?, seq = ? WHERE id = ?", dns ? 1 : 0, seq, row.id);
      });
      this.broadcastRunners([row.id]);
    }
    return this.runnerRecord(this.runnerRow(row.id)!, meta);
  }

  /** Spec: 'end' only when started and no runners remain (DNS runners do not remain). */
  async end(by: ChangeAuthor = {}): Promise<RaceRecord> {
    const meta = this.requireMeta();
    if (meta.state === "ended") return this.raceRecord(meta);
    if (meta.state !== "started") throw new RaceError(409, "Loppet har inte startat.");
    const waiting = this.sql<{ n: number }>(
      "SELECT COUNT(*) AS n FROM runners WHERE finished IS NULL AND dns = 0 AND moving_to IS NULL",
    )[0]!.n;
    if (waiting > 0) {
      throw new RaceError(409, `${waiting} löpare är kvar i loppet. Registrera målgång eller markera DNS först.`);
    }
    this.write("end", {}, by, (seq) => {
      this.sql("UPDATE meta SET state = 'ended', seq = ?, mirror_pending = 1 WHERE id = 1", seq);
    });
    this.broadcastRace();
    await this.mirrorRace();
    return this.raceRecord(this.meta()!);
  }

  /** Back to not started: start, finishes and DNS cleared; runners and bibs kept. Taps made before stay spent. */
  async reset(by: ChangeAuthor = {}): Promise<RaceRecord> {
    const meta = this.requireMeta();
    const finishes = this.sql<{ id: string; finished: number | null; dns: number }>(
      "SELECT id, finished, dns FROM runners WHERE finished IS NOT NULL OR dns = 1",
    );
    this.write(
      "reset",
      { previous: { state: meta.state, started: meta.started }, finishes: finishes.map((r) => [r.id, r.finished]) },
      by,
      (seq) => {
        this.sql(
          "UPDATE meta SET state = '', started = NULL, seq = ?, epoch = epoch + 1, mirror_pending = 1 WHERE id = 1",
          seq,
        );
        this.sql("UPDATE runners SET finished = NULL, dns = 0, seq = ? WHERE finished IS NOT NULL OR dns = 1", seq);
      },
    );
    this.broadcast([this.raceEvent(this.meta()!), ...this.runnerEvents(finishes.map((r) => r.id))]);
    await this.mirrorRace();
    return this.raceRecord(this.meta()!);
  }

  /**
   * "Byt distans": moves the runner to `targetPart` (see the module comment for the three steps). The target must
   * be a race in D1's index; a runner who has finished stays (the move would drop the finish).
   */
  async moveRunner(targetPart: string, id: string, by: ChangeAuthor = {}): Promise<MoveResult> {
    const meta = this.requireMeta();
    const runnerId = checkId(id);
    if (!isRaceId(targetPart)) throw new RaceError(404, "Loppet finns inte");
    if (targetPart === meta.part) throw new RaceError(400, "Löparen är redan anmäld till det loppet.");
    const row = this.runnerRow(runnerId);
    if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
    if (row.moving_to !== null && row.moving_to !== targetPart) {
      throw new RaceError(409, "Löparen håller redan på att flyttas till ett annat lopp.");
    }
    if (row.finished !== null) throw new RaceError(409, "Löparen har gått i mål; ångra målgången först.");
    if (!(await this.indexedRace(targetPart))) throw new RaceError(404, "Loppet finns inte");

    if (row.moving_to === null) {
      this.write("runner-moving", { id: runnerId, to: targetPart }, by, (seq) => {
        this.sql("UPDATE runners SET moving_to = ?, seq = ? WHERE id = ?", targetPart, seq, runnerId);
      });
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
      this.broadcastRunners([runnerId]);
    }
    const result = await this.completeMove(runnerId, by);
    if (!result) throw new RaceError(404, "Loppet finns inte");
    return result;
  }

  /** The audit trail, oldest first (for the race-day screens and for tests). */
  async events(sinceSeq = 0): Promise<RaceAuditEvent[]> {
    return this.sql<RaceAuditEvent>(
      "SELECT seq, type, payload, actor, device, at FROM events WHERE seq > ? ORDER BY seq",
      sinceSeq,
    );
  }

  /** The newest `limit` audit rows, newest first (the race screen's log). */
  async recentEvents(limit = 500): Promise<RaceAuditEvent[]> {
    return this.sql<RaceAuditEvent>(
      "SELECT seq, type, payload, actor, device, at FROM events ORDER BY seq DESC LIMIT ?",
      Math.max(1, Math.min(limit, 5_000)),
    );
  }

  // ——— sockets ———

  /** Only socket upgrades come here; the Worker has checked the admin and the origin and names the actor. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    if (!this.meta()) return Response.json({ error: "Loppet finns inte" }, { status: 404 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [RACE_TAG]);
    const actor = (request.headers.get(RACE_ACTOR_HEADER) ?? "").slice(0, 200) || "okänd";
    server.serializeAttachment({ actor, subscribed: false } satisfies SocketState);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseClientFrame(message);
    if ("error" in parsed) {
      sendFrame(ws, { type: "error", error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    switch (frame.action) {
      case "subscribe-to-race":
        this.subscribe(ws, frame.since ?? 0);
        return;
      case "sync":
        sendFrame(ws, { type: "sync", id: frame.id, t0: frame.t0, t1: this.clock.now() });
        return;
      default: {
        const unhandled: never = frame;
        throw new Error(`unhandled frame ${JSON.stringify(unhandled)}`);
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code, reason);
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("race socket error", error);
  }

  /** Retries what a failed call left unfinished: distance moves and D1 mirrors. */
  override async alarm(): Promise<void> {
    const meta = this.meta();
    if (!meta) return;
    let unfinished = false;
    for (const { id } of this.sql<{ id: string }>("SELECT id FROM runners WHERE moving_to IS NOT NULL")) {
      try {
        await this.completeMove(id, { actor: "system" });
      } catch (err) {
        console.error("distance move still unfinished", meta.part, id, err);
        unfinished = true;
      }
    }
    try {
      if (this.meta()?.mirror_pending) await this.mirrorRace();
    } catch (err) {
      console.error("race mirror to D1 failed", meta.part, err);
      unfinished = true;
    }
    if (unfinished || this.meta()?.mirror_pending) await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
  }

  private subscribe(ws: WebSocket, since: number): void {
    const socket = socketState(ws);
    if (!socket) return;
    ws.serializeAttachment({ ...socket, subscribed: true } satisfies SocketState);
    const meta = this.requireMeta();
    const latest = this.latestSeq();
    // A client ahead of us (the object was reset by hand, or a bad number) or new gets the whole race.
    if (since <= 0 || since > latest) {
      sendFrame(ws, { type: "hello", part: meta.part, seq: latest, snapshot: true });
      const runners = this.liveRunnerRows().map((row): RaceEvent & RunnerRecord => ({
        ...this.runnerRecord(row, meta),
        seq: row.seq,
      }));
      sendFrame(ws, [this.raceEvent(meta), ...runners.sort(compareRunners)]);
      return;
    }
    const events: RaceEvent[] = [];
    if (meta.seq > since) events.push(this.raceEvent(meta));
    const changed = this.sql<{ id: string }>("SELECT id FROM runners WHERE seq > ?", since).map((r) => r.id);
    const gone = this.sql<{ id: string }>("SELECT id FROM removed WHERE seq > ?", since).map((r) => r.id);
    events.push(...this.runnerEvents([...changed, ...gone]));
    events.sort((a, b) => a.seq - b.seq);
    sendFrame(ws, { type: "hello", part: meta.part, seq: latest, snapshot: false });
    sendFrame(ws, events);
  }

  private broadcastRace(): void {
    this.broadcast([this.raceEvent(this.meta()!)]);
  }

  private broadcastRunners(ids: readonly string[]): void {
    this.broadcast(this.runnerEvents(ids));
  }

  private broadcast(events: RaceEvent[]): void {
    if (events.length === 0) return;
    const text = JSON.stringify(events);
    for (const ws of this.ctx.getWebSockets(RACE_TAG)) {
      if (!socketState(ws)?.subscribed) continue;
      try {
        ws.send(text);
      } catch {
        // A socket closing under us: the phone reconnects and gets what it missed by seq.
      }
    }
  }

  /** The events for these runners as they are now: the record, or a removal for one that left or is moving. */
  private runnerEvents(ids: readonly string[]): RaceEvent[] {
    const meta = this.requireMeta();
    const events: RaceEvent[] = [];
    for (const id of new Set(ids)) {
      const row = this.runnerRow(id);
      if (row && row.moving_to === null) {
        events.push({ ...this.runnerRecord(row, meta), seq: row.seq });
        continue;
      }
      const seq = row?.seq ?? this.sql<{ seq: number }>("SELECT seq FROM removed WHERE id = ?", id)[0]?.seq;
      if (seq === undefined) continue;
      const removed: RemovedRunnerRecord = { type: "runner", part: meta.part, sort: runnerSort(id), removed: true };
      events.push({ ...removed, seq });
    }
    return events.sort((a, b) => a.seq - b.seq);
  }

  private raceEvent(meta: MetaRow): RaceEvent {
    return { ...this.raceRecord(meta), seq: meta.seq };
  }

  private latestSeq(): number {
    return this.sql<{ s: number | null }>("SELECT MAX(seq) AS s FROM events")[0]?.s ?? 0;
  }

  // ——— taps ———

  /** A stored tap with this id (a replay), or null for a new or absent id. */
  private replayedTap(tapId: string | undefined): TapRow | null {
    if (tapId === undefined) return null;
    checkTapId(tapId);
    return this.sql<TapRow>("SELECT * FROM taps WHERE tap_id = ?", tapId)[0] ?? null;
  }

  /**
   * The moment of a tap on the server's clock: refused when it lies in the future beyond the clock-offset
   * tolerance, before the start, or longer ago than any race lasts.
   */
  private tapMoment(at: number | undefined, now: number, started: number | null): number {
    if (at === undefined) return now;
    if (!Number.isSafeInteger(at)) throw new RaceError(400, "Ogiltig tidpunkt.");
    if (at > now + FUTURE_TAP_TOLERANCE_MS) {
      throw new RaceError(422, "Tidpunkten ligger i framtiden. Kontrollera telefonens klocka och försök igen.");
    }
    if (started !== null && at < started) throw new RaceError(422, "Tidpunkten ligger före starten.");
    if (at < now - MAX_TAP_AGE_MS) throw new RaceError(422, "Tidpunkten är för gammal.");
    return at;
  }

  private storeTap(
    tapId: string | undefined,
    kind: "start" | "finish",
    runnerId: string | null,
    at: number,
    received: number,
    by: ChangeAuthor,
    outcome: FinishOutcome,
    result: number,
  ): void {
    if (tapId === undefined) return;
    this.sql(
      `INSERT INTO taps (tap_id, kind, runner_id, at, received, device, actor, epoch, outcome, result)
       VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT epoch FROM meta WHERE id = 1), ?, ?)`,
      tapId,
      kind,
      runnerId,
      at,
      received,
      deviceOf(by),
      actorOf(by),
      outcome,
      result,
    );
  }

  // ——— moves ———

  /**
   * Steps 2 and 3 of a move: add to the target (idempotent), then remove here. Null when the target refused for
   * good, after which the move is cancelled and the runner is back here. Throws on a failure worth retrying.
   */
  private async completeMove(id: string, by: ChangeAuthor): Promise<MoveResult | null> {
    const row = this.runnerRow(id);
    if (!row || row.moving_to === null) return null;
    const targetPart = row.moving_to;
    const target = await this.indexedRace(targetPart);
    let added: AddRunnerResult;
    try {
      if (!target) throw new RaceError(404, "Loppet finns inte");
      const stub = this.env.RACE.getByName(targetPart);
      await stub.init(target);
      added = await stub.addRunner(
        {
          id: row.id,
          firstname: row.firstname,
          lastname: row.lastname,
          age: row.age,
          company: row.company,
          group: row.grp,
          bib: row.bib,
        },
        by,
        { dropTakenBib: true },
      );
    } catch (err) {
      if (!isPermanentRefusal(err)) throw err;
      this.write("runner-move-cancelled", { id, to: targetPart, reason: errorMessage(err) }, by, (seq) => {
        this.sql("UPDATE runners SET moving_to = NULL, seq = ? WHERE id = ?", seq, id);
      });
      this.broadcastRunners([id]);
      return null;
    }
    this.write("runner-moved", { id, to: targetPart, bib: row.bib, droppedBib: added.droppedBib }, by, (seq) =>
      this.tombstone(id, seq),
    );
    this.broadcastRunners([id]);
    await this.mirror(id);
    return added.droppedBib === undefined
      ? { runner: added.runner }
      : { runner: added.runner, droppedBib: added.droppedBib };
  }

  /** A race of D1's index, as init wants it; null when there is none. */
  private async indexedRace(part: string): Promise<RaceInit | null> {
    const row = await this.env.DB.prepare(
      "SELECT part, date, distance, open_for_reg AS openForReg FROM races WHERE part = ?",
    )
      .bind(part)
      .first<{ part: string; date: string; distance: number; openForReg: number }>();
    return row ? { part: row.part, date: row.date, distance: row.distance, openForReg: Boolean(row.openForReg) } : null;
  }

  private tombstone(id: string, seq: number): void {
    this.sql("DELETE FROM runners WHERE id = ?", id);
    this.sql("INSERT INTO removed (id, seq) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq", id, seq);
  }

  private nextFreeBib(meta: MetaRow): number {
    const km = distanceFromMeters(meta.distance);
    const [low, high] = SEASON.races.find((r) => r.distance === km)?.bibRange ?? [1, MAX_BIB];
    const taken = new Set(
      this.sql<{ bib: number }>("SELECT bib FROM runners WHERE bib BETWEEN ? AND ?", low, high).map((r) => r.bib),
    );
    for (let bib = low; bib <= high; bib += 1) if (!taken.has(bib)) return bib;
    throw new RaceError(409, `Alla startnummer ${low}–${high} är upptagna.`);
  }

  // ——— storage ———

  private migrate(): void {
    this.sql(
      "CREATE TABLE IF NOT EXISTS _sql_schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    );
    const applied = this.sql<{ v: number | null }>("SELECT MAX(version) AS v FROM _sql_schema_migrations")[0]?.v ?? 0;
    SCHEMA_MIGRATIONS.forEach((statements, index) => {
      const version = index + 1;
      if (version <= applied) return;
      this.ctx.storage.transactionSync(() => {
        this.ctx.storage.sql.exec(statements);
        this.sql("INSERT INTO _sql_schema_migrations (version, applied_at) VALUES (?, ?)", version, this.clock.now());
      });
    });
  }

  private sql<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    return this.ctx.storage.sql.exec<T>(query, ...bindings).toArray();
  }

  /** One change: the audit row (whose seq numbers the change) and the writes, in one transaction. */
  private write(type: string, payload: unknown, by: ChangeAuthor, apply: (seq: number) => void): number {
    const seq = this.ctx.storage.transactionSync(() => {
      const seq = this.appendEvent(type, payload, by);
      apply(seq);
      return seq;
    });
    this.metaCache = undefined;
    return seq;
  }

  private meta(): MetaRow | null {
    if (this.metaCache === undefined) this.metaCache = this.sql<MetaRow>("SELECT * FROM meta WHERE id = 1")[0] ?? null;
    return this.metaCache;
  }

  private requireMeta(): MetaRow {
    const meta = this.meta();
    if (!meta) throw new RaceError(404, "Loppet finns inte");
    return meta;
  }

  private runnerRow(id: string): RunnerRow | null {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE id = ?", id)[0] ?? null;
  }

  /** A runner of this race, not on its way elsewhere; 404 otherwise. */
  private liveRunner(id: string): RunnerRow {
    const row = this.runnerRow(checkId(id));
    if (!row || row.moving_to !== null) throw new RaceError(404, "Löparen finns inte i loppet.");
    return row;
  }

  private runnerWithBib(bib: number): RunnerRow | null {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE bib = ?", bib)[0] ?? null;
  }

  private runnersNow(meta: MetaRow): RunnerRecord[] {
    return this.liveRunnerRows()
      .map((row) => this.runnerRecord(row, meta))
      .sort(compareRunners);
  }

  /** The runners in this race now (not those on their way to another). */
  private liveRunnerRows(): RunnerRow[] {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE moving_to IS NULL");
  }

  private appendEvent(type: string, payload: unknown, by: ChangeAuthor): number {
    return this.sql<{ seq: number }>(
      "INSERT INTO events (type, payload, actor, device, at) VALUES (?, ?, ?, ?, ?) RETURNING seq",
      type,
      JSON.stringify(payload),
      actorOf(by),
      deviceOf(by),
      this.clock.now(),
    )[0]!.seq;
  }

  /**
   * D1's participants row follows this object: race, bib, and the distance (only the four distances exist there).
   * A runner no longer here is unlinked only if D1 still points at this race, so a move to another race (which
   * adds there first) is never undone.
   */
  private async mirror(id: string): Promise<void> {
    const meta = this.requireMeta();
    const row = this.runnerRow(id);
    if (row && row.moving_to === null) {
      const km = distanceFromMeters(meta.distance);
      await this.env.DB.prepare(
        `UPDATE participants SET race_id = ?1, bib = ?2, distance = COALESCE(?3, distance) WHERE id = ?4`,
      )
        .bind(meta.part, row.bib, km, id)
        .run();
    } else if (!row) {
      await this.env.DB.prepare(`UPDATE participants SET race_id = NULL, bib = NULL WHERE id = ?1 AND race_id = ?2`)
        .bind(id, meta.part)
        .run();
    }
  }

  /** The race index (lists, hub) follows state and start; the hub's sockets hear of it. A failure is retried. */
  private async mirrorRace(): Promise<void> {
    const meta = this.requireMeta();
    try {
      await this.env.DB.prepare("UPDATE races SET state = ?1, started = ?2 WHERE part = ?3")
        .bind(meta.state, meta.started, meta.part)
        .run();
      this.sql("UPDATE meta SET mirror_pending = 0 WHERE id = 1");
      this.metaCache = undefined;
    } catch (err) {
      console.error("race mirror to D1 failed; the alarm retries", meta.part, err);
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
      return;
    }
    try {
      await this.env.RACE_HUB.getByName(RACE_HUB_NAME).raceChanged(this.raceRecord(this.meta()!));
    } catch (err) {
      // The hub's pages reload the list from D1 when they reconnect; a missed nudge costs nothing lasting.
      console.warn("race hub notification failed", meta.part, err);
    }
  }

  private raceRecord(meta: MetaRow): RaceRecord {
    return {
      type: "race",
      part: meta.part,
      sort: "race",
      state: isRaceState(meta.state) ? meta.state : ("" satisfies RaceState),
      started: meta.started,
      date: meta.date,
      distance: meta.distance,
      openForReg: Boolean(meta.open_for_reg),
    };
  }

  private runnerRecord(row: RunnerRow, meta: MetaRow): RunnerRecord {
    const record: RunnerRecord = {
      type: "runner",
      part: meta.part,
      sort: runnerSort(row.id),
      id: row.id,
      bib: row.bib,
      firstname: row.firstname,
      lastname: row.lastname,
      age: row.age,
      company: row.company,
      group: row.grp,
      finished: row.finished,
      distance: row.distance,
    };
    const time = runnerTime(meta.started, row.finished);
    if (time !== undefined) record.time = time;
    if (row.dns) record.dns = true;
    return record;
  }
}

/** The header through which the Worker tells the race object who opened a socket (the admin's e-mail). */
export const RACE_ACTOR_HEADER = "x-race-actor";
/** The one hub object's name in the RACE_HUB namespace. */
export const RACE_HUB_NAME = "hub";

function socketState(ws: WebSocket): SocketState | null {
  return (ws.deserializeAttachment() as SocketState | null) ?? null;
}

function actorOf(by: ChangeAuthor | undefined): string {
  return typeof by?.actor === "string" && by.actor ? by.actor.slice(0, 200) : "system";
}

function deviceOf(by: ChangeAuthor | undefined): string | null {
  return typeof by?.device === "string" && by.device ? by.device.slice(0, 200) : null;
}

/** A refusal a retry cannot change: the target race is gone, or it refuses the runner's data. */
function isPermanentRefusal(err: unknown): boolean {
  const e = err as { name?: unknown; status?: unknown } | null;
  return e?.name === "RaceError" && (e.status === 400 || e.status === 404);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ——— input checks: the Worker validates first; these keep the writer of record safe from any caller ———

function checkId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new RaceError(400, "Ogiltigt deltagar-id.");
  }
  return id;
}

function checkTapId(tapId: unknown): string {
  if (!isTapId(tapId)) throw new RaceError(400, "Ogiltigt tryck-id.");
  return tapId;
}

function checkName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) throw new RaceError(400, "Ange namn");
  if (trimmed.length > MAX_TEXT_LENGTH) throw new RaceError(400, "Namnet är för långt.");
  return trimmed;
}

function checkAge(age: unknown): number {
  if (typeof age !== "number" || !Number.isInteger(age) || age < 0 || age > MAX_AGE) {
    throw new RaceError(400, "felaktig ålder");
  }
  return age;
}

function checkCompany(company: unknown): string {
  if (typeof company !== "string") throw new RaceError(400, "Ogiltig förening.");
  const trimmed = company.trim();
  if (trimmed.length > MAX_TEXT_LENGTH) throw new RaceError(400, "Föreningens namn är för långt.");
  return trimmed;
}

function checkGroup(group: unknown): string {
  const g = toGroup(group);
  if (!g) throw new RaceError(400, "Ogiltig grupp (Ingen, Dam eller Herr).");
  return g;
}

/** Spec: "0 or missing means no number". */
function checkBib(bib: unknown): number | null {
  if (bib === null || bib === 0) return null;
  if (typeof bib !== "number" || !Number.isInteger(bib) || bib < 1 || bib > MAX_BIB) {
    throw new RaceError(400, `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}.`);
  }
  return bib;
}

function bibTaken(bib: number, holder: RunnerRow): RaceError {
  return new RaceError(409, `Startnummer ${bib} används redan av ${holder.firstname} ${holder.lastname}.`);
}

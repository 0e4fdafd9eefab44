/**
 * One race (DESIGN.md): the single writer for race-day state. Its SQLite storage holds the race (start time,
 * state), its runners with their bibs and finish times, and an append-only audit trail of every change.
 * D1 is the index: bib, race and distance changes made here are mirrored to `participants` after the write here
 * has committed, and every write re-sends its mirror, so a retry after a failed D1 call heals the index.
 *
 * Memory holds nothing but a cache of the race row: the object may be evicted between any two calls.
 * The race-day issue adds the timing calls (start, finish, restore, end, reset) and the hibernating sockets.
 */
import { DurableObject } from "cloudflare:workers";
import { clockFromSettings, type Clock } from "../shared/clock";
import { distanceFromMeters, toGroup } from "../shared/distances";
import { MAX_AGE } from "../shared/age";
import { isRaceId, raceIdMatches } from "../shared/race-id";
import {
  compareRunners,
  isRaceState,
  metersToKm,
  RaceError,
  runnerSort,
  runnerTime,
  type RaceAuditEvent,
  type RaceRecord,
  type RaceSnapshot,
  type RaceState,
  type RunnerRecord,
} from "../shared/race-protocol";

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

type MetaRow = {
  part: string;
  date: string;
  distance: number;
  open_for_reg: number;
  state: string;
  started: number | null;
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
];

const MAX_ID_LENGTH = 100;
const MAX_TEXT_LENGTH = 100;
const MAX_BIB = 99_999;

export class RaceDO extends DurableObject<Env> {
  private readonly clock: Clock;
  /** The race row as last read; every write to `meta` must reset it to undefined. */
  private metaCache: MetaRow | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    void ctx.blockConcurrencyWhile(async () => this.migrate());
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
        this.ctx.storage.transactionSync(() => {
          this.sql("UPDATE meta SET open_for_reg = ? WHERE id = 1", openForReg ? 1 : 0);
          this.appendEvent("race-updated", { openForReg }, by);
        });
        this.metaCache = undefined;
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
        this.appendEvent("race-created", { part: race.part, date: race.date, distance: race.distance, openForReg }, by);
        for (const p of known.results) {
          const bib = p.bib && p.bib > 0 && p.bib <= MAX_BIB && !this.runnerWithBib(p.bib) ? p.bib : null;
          if (p.bib && bib === null) droppedBibs.push(p.id);
          this.sql(
            `INSERT OR IGNORE INTO runners
               (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
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
          );
          this.appendEvent("runner-added", { id: p.id, bib, from: "d1" }, by);
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

  async listRunners(): Promise<RunnerRecord[]> {
    const meta = this.requireMeta();
    return this.sql<RunnerRow>("SELECT * FROM runners")
      .map((row) => this.runnerRecord(row, meta))
      .sort(compareRunners);
  }

  async getRunner(id: string): Promise<RunnerRecord | null> {
    const meta = this.requireMeta();
    const row = this.runnerRow(id);
    return row ? this.runnerRecord(row, meta) : null;
  }

  /** `GET /api/races/get/{part}`: the race record, then the runners; null before init. */
  async snapshot(): Promise<RaceSnapshot | null> {
    const meta = this.meta();
    if (!meta) return null;
    return [this.raceRecord(meta), ...(await this.listRunners())];
  }

  /** Adds a paid runner. Idempotent by id: adding the same participant again changes nothing. */
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
    this.ctx.storage.transactionSync(() => {
      this.sql(
        `INSERT INTO runners
           (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
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
      );
      this.appendEvent("runner-added", { id, ...fields, bib, droppedBib }, by);
    });
    await this.mirror(id);
    const runner = this.runnerRecord(this.runnerRow(id)!, meta);
    return droppedBib === undefined ? { runner, added: true } : { runner, added: true, droppedBib };
  }

  /** Changes a runner's bib or details. A bib must be a positive whole number not used by another runner. */
  async updateRunner(id: string, patch: RunnerPatch, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    const meta = this.requireMeta();
    const row = this.runnerRow(checkId(id));
    if (!row) throw new RaceError(404, "Löparen finns inte i loppet.");
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
      this.ctx.storage.transactionSync(() => {
        this.sql(
          `UPDATE runners SET bib = ?, firstname = ?, lastname = ?, age = ?, company = ?, grp = ?, updated_at = ?
           WHERE id = ?`,
          next.bib,
          next.firstname,
          next.lastname,
          next.age,
          next.company,
          next.grp,
          now,
          row.id,
        );
        this.appendEvent("runner-updated", { id: row.id, changes }, by);
      });
    }
    await this.mirror(row.id);
    return this.runnerRecord(this.runnerRow(row.id)!, meta);
  }

  /** Takes a runner out of the race; the removed record, or null when the runner was not in it. */
  async removeRunner(id: string, by: ChangeAuthor = {}): Promise<RunnerRecord | null> {
    const meta = this.requireMeta();
    const runnerId = checkId(id);
    const row = this.runnerRow(runnerId);
    if (row) {
      this.ctx.storage.transactionSync(() => {
        this.sql("DELETE FROM runners WHERE id = ?", runnerId);
        this.appendEvent("runner-removed", { id: runnerId, bib: row.bib }, by);
      });
    }
    await this.mirror(runnerId);
    return row ? this.runnerRecord(row, meta) : null;
  }

  /** The audit trail, oldest first (for the race-day screens and for tests). */
  async events(sinceSeq = 0): Promise<RaceAuditEvent[]> {
    return this.sql<RaceAuditEvent>("SELECT * FROM events WHERE seq > ? ORDER BY seq", sinceSeq);
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

  private runnerWithBib(bib: number): RunnerRow | null {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE bib = ?", bib)[0] ?? null;
  }

  private appendEvent(type: string, payload: unknown, by: ChangeAuthor): void {
    this.sql(
      "INSERT INTO events (type, payload, actor, device, at) VALUES (?, ?, ?, ?, ?)",
      type,
      JSON.stringify(payload),
      typeof by?.actor === "string" && by.actor ? by.actor.slice(0, 200) : "system",
      typeof by?.device === "string" && by.device ? by.device.slice(0, 200) : null,
      this.clock.now(),
    );
  }

  /**
   * D1's participants row follows this object: race, bib, and the distance (only the four distances exist there).
   * A runner no longer here is unlinked only if D1 still points at this race, so a move to another race (which
   * adds there first) is never undone.
   */
  private async mirror(id: string): Promise<void> {
    const meta = this.requireMeta();
    const row = this.runnerRow(id);
    if (row) {
      const km = distanceFromMeters(meta.distance);
      await this.env.DB.prepare(
        `UPDATE participants SET race_id = ?1, bib = ?2, distance = COALESCE(?3, distance) WHERE id = ?4`,
      )
        .bind(meta.part, row.bib, km, id)
        .run();
    } else {
      await this.env.DB.prepare(`UPDATE participants SET race_id = NULL, bib = NULL WHERE id = ?1 AND race_id = ?2`)
        .bind(id, meta.part)
        .run();
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
    return record;
  }
}

// ——— input checks: the Worker validates first; these keep the writer of record safe from any caller ———

function checkId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new RaceError(400, "Ogiltigt deltagar-id.");
  }
  return id;
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

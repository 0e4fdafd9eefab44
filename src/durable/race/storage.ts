/**
 * The race object's storage: its SQLite schema and migrations, the row shapes, and the one way a change is
 * written (`write`: the audit row whose seq numbers the change, and the change itself, in one transaction).
 *
 * Every change appends a row to `events` (what, who, which device, when); that row's `seq` is the change's
 * sequence number. The race row and each runner row keep the seq of their last change, and a removed runner
 * leaves a tombstone with its seq (`removed`), so a socket that reconnects with the last seq it applied gets
 * exactly the records changed since. Each tap is stored by its tap id (`taps`), so a replay can answer what the
 * first one answered.
 *
 * Memory holds only caches of what SQLite has: the race row (dropped on every write), the rows rapid timing reads
 * on every change (read again only where their seq says they changed), the latest seq, and rapid timing's last
 * view and merged slots; a rolled-back write drops them all. The room has one store, the one writer of its rows.
 * It reaches SQLite only through the SQL port (ports.ts): the Durable Object's storage, or Node's in the tests.
 */
import type { Clock } from "../../shared/clock";
import { RaceError, type RaceAuditEvent } from "../../shared/race-protocol";
import type { FinishOutcome, StartOutcome } from "../../shared/race-answers";
import type { SqlPort, SqlValue } from "./ports";
import type { ChangeAuthor } from "./types";

export type MetaRow = {
  part: string;
  date: string;
  distance: number;
  open_for_reg: number;
  state: string;
  started: number | null;
  seq: number;
  epoch: number;
  mirror_pending: number;
  main_timer: string | null;
  /** '' (no finish yet), 'preliminary', 'official', 'corrected'. */
  results: string;
  official_at: number | null;
  /** Målfoto: when the race's photos were last deleted (rules/photos.ts); null: never. */
  photos_cleared_at: number | null;
};

export type RunnerRow = {
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
  mirror_pending: number;
  /** When the runner's bib was picked up at the desk (rules/checkin.ts); null until then. */
  picked_up_at: number | null;
  /** Rapid timing: the key of the slot the finish time came from (null: not from a slot). */
  slot: string | null;
  /** Rapid timing: the claim (a typed bib's entry id, or 'pin-<tap id>') that paired the runner with it. */
  claim: string | null;
  /** The result differs from its official one (rules/results.ts: set by a correction, cleared when it is undone). */
  corrected: number;
  /**
   * Whose runner it is: 'registration:<id>' (a family's), 'box-office' (sold at the table) or 'race' (added on the
   * race screen); null for a runner added before owners were kept (d1.ts: what the D1 mirror may write).
   */
  owner: string | null;
};

export type ReviewRow = {
  id: string;
  kind: string;
  status: string;
  reason: string;
  at: number;
  runner_id: string | null;
  bib: number | null;
  name: string | null;
  started: number | null;
  actor: string;
  device: string | null;
  created_at: number;
  decided_by: string | null;
  decided_at: number | null;
  seq: number;
  /** Rapid timing's items: their details as JSON (ReviewData). */
  data: string | null;
};

/** Rapid timing: one 'Mål!' tap. Every write to the row sets its `seq` to the change's (replays and the cache). */
export type RapidTapRow = {
  tap_id: string;
  device: string;
  at: number;
  received: number;
  actor: string;
  clamped_from: number | null;
  /** 0, or the seq of the discard that took it (and the rest of its slot) out. */
  discarded: number;
  confirmed: number;
  /** The runner its slot was assigned to by hand, and the seq of that assignment. */
  pin: string | null;
  pin_seq: number | null;
  /** Cleared by a reset. */
  cleared: number;
  seq: number;
};

/** Rapid timing: a bib typed in finish order. */
export type BibEntryRow = {
  id: string;
  /** Its place in finish order (the seq it was typed with). */
  pos: number;
  bib: number;
  typed: number;
  device: string | null;
  actor: string;
  at: number;
  removed: number;
  cleared: number;
  seq: number;
};

/** A result as 'Officiella' kept it: `time` is ms from the start then (null without a finish). */
export type OfficialResultRow = {
  id: string;
  bib: number | null;
  finished: number | null;
  dns: number;
  time: number | null;
};

/** Målfoto: one frame of a tap's photo (rules/photos.ts). */
export type PhotoRow = {
  tap_id: string;
  frame: number;
  bytes: number;
  tap_at: number;
  device: string | null;
  actor: string;
  received: number;
  removed: number;
  seq: number;
};

export type TapRow = {
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
  // The review list ('Att granska'), and D1 mirrors owed per runner (a removed runner's too), retried by the alarm.
  `CREATE TABLE review (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'open',
     reason TEXT NOT NULL,
     at INTEGER NOT NULL,
     runner_id TEXT,
     bib INTEGER,
     name TEXT,
     started INTEGER,
     actor TEXT NOT NULL,
     device TEXT,
     created_at INTEGER NOT NULL,
     decided_by TEXT,
     decided_at INTEGER,
     seq INTEGER NOT NULL
   );
   CREATE INDEX review_seq ON review (seq);
   CREATE INDEX review_open ON review (status, created_at);
   ALTER TABLE runners ADD COLUMN mirror_pending INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE removed ADD COLUMN mirror_pending INTEGER NOT NULL DEFAULT 0;`,
  // Times first, bibs later (rapid timing), and preliminary → official results.
  `CREATE TABLE rapid_taps (
     tap_id TEXT PRIMARY KEY,
     device TEXT NOT NULL,
     at INTEGER NOT NULL,
     received INTEGER NOT NULL,
     actor TEXT NOT NULL,
     clamped_from INTEGER,
     discarded INTEGER NOT NULL DEFAULT 0,
     confirmed INTEGER NOT NULL DEFAULT 0,
     pin TEXT,
     pin_seq INTEGER,
     cleared INTEGER NOT NULL DEFAULT 0,
     seq INTEGER NOT NULL
   );
   CREATE INDEX rapid_taps_seq ON rapid_taps (seq);
   CREATE TABLE bib_entries (
     id TEXT PRIMARY KEY,
     pos INTEGER NOT NULL,
     bib INTEGER NOT NULL,
     typed INTEGER NOT NULL,
     device TEXT,
     actor TEXT NOT NULL,
     at INTEGER NOT NULL,
     removed INTEGER NOT NULL DEFAULT 0,
     cleared INTEGER NOT NULL DEFAULT 0,
     seq INTEGER NOT NULL
   );
   CREATE INDEX bib_entries_seq ON bib_entries (seq);
   CREATE TABLE official_results (
     id TEXT PRIMARY KEY,
     bib INTEGER,
     finished INTEGER,
     dns INTEGER NOT NULL
   );
   ALTER TABLE meta ADD COLUMN main_timer TEXT;
   ALTER TABLE meta ADD COLUMN results TEXT NOT NULL DEFAULT '';
   ALTER TABLE meta ADD COLUMN official_at INTEGER;
   ALTER TABLE runners ADD COLUMN slot TEXT;
   ALTER TABLE runners ADD COLUMN claim TEXT;
   ALTER TABLE runners ADD COLUMN corrected INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE review ADD COLUMN data TEXT;`,
  // Bib pick-up at the desk (rules/checkin.ts): when a runner picked up, and the desk's actions by their id, so a
  // queued action replayed answers what it answered the first time.
  `ALTER TABLE runners ADD COLUMN picked_up_at INTEGER;
   CREATE TABLE desk_actions (
     action_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     runner_ids TEXT NOT NULL,
     at INTEGER NOT NULL,
     seq INTEGER NOT NULL
   );`,
  // 'Officiella' keeps each result's time from the start, not only its finish moment: a moved start changes every
  // finisher's time, and rules/results.ts compares times. A race made official before this: the start it has now.
  `ALTER TABLE official_results ADD COLUMN time INTEGER;
   UPDATE official_results SET time = finished - (SELECT started FROM meta WHERE id = 1) WHERE finished IS NOT NULL;`,
  // Whose runner it is (d1.ts mirrors only into the participants row of that owner): 'registration:<id>', 'box-office'
  // or 'race' (added on the race screen: no participants row). Null for a runner added before this was kept.
  `ALTER TABLE runners ADD COLUMN owner TEXT;`,
  // Målfoto (rules/photos.ts): the frames of each tap the race has a photo of (the JPEGs are in R2), and the moment
  // the organiser (or the cron, or a reset) last deleted them: a photo of a tap made before it is refused.
  `CREATE TABLE photos (
     tap_id TEXT NOT NULL,
     frame INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     tap_at INTEGER NOT NULL,
     device TEXT,
     actor TEXT NOT NULL,
     received INTEGER NOT NULL,
     removed INTEGER NOT NULL DEFAULT 0,
     seq INTEGER NOT NULL,
     PRIMARY KEY (tap_id, frame)
   );
   CREATE INDEX photos_seq ON photos (seq);
   ALTER TABLE meta ADD COLUMN photos_cleared_at INTEGER;`,
];

/**
 * Rows kept in memory and read again only where their seq says they changed (`RaceStore.incremental`): `version` is
 * the latest seq when they were read, `writes` the count of writes to their tables then (`RaceStore.writesTo`).
 */
type Incremental<T> = { version: number; writes: number; changed: number; rows: Map<string, T>; list: T[] | null };

/** The rows of an `Incremental` as one list (in `order`), made again only when they change; callers only read it. */
function listOf<T>(rows: Map<string, T>, order?: (a: T, b: T) => number): T[] {
  const list = [...rows.values()];
  return order ? list.sort(order) : list;
}

/** The table each write statement changes, by its text (statements are constants: each is parsed once). */
const writtenTables = new Map<string, string | null>();
/** A statement this module cannot name the one table of is taken to change every table. */
const ANY_TABLE = "*";
const WRITE = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+(\w+)[\s(]/i;

/** The table `query` writes, ANY_TABLE when it may write and names no one table, null for a read. */
function tableWritten(query: string): string | null {
  let table = writtenTables.get(query);
  if (table !== undefined) return table;
  const write = WRITE.exec(query);
  if (write && !query.includes(";")) table = write[1]!.toLowerCase();
  else table = /^\s*SELECT\s/i.test(query) && !query.includes(";") ? null : ANY_TABLE;
  if (writtenTables.size < 1_000) writtenTables.set(query, table);
  return table;
}

export class RaceStore {
  /** The race row as last read; a write to `meta` resets it to undefined (`sql` does). */
  private metaCache: MetaRow | null | undefined;
  /** Rows rapid timing reads on every change, kept in memory and read again only where they changed (`incremental`). */
  private cached = new Map<string, Incremental<unknown>>();
  /** The latest audit row's seq, kept in step by `appendEvent` (the one writer of `events`); undefined: read it. */
  private latest: number | undefined;
  /** Computed values by name, each kept with the key it was computed for (rules/reconcile.ts: the view, the slots). */
  private memos = new Map<string, { key: string; value: unknown }>();
  /**
   * Writes so far per table (ANY_TABLE: statements that may write any), counted by `sql`, the one way this store
   * writes: rows kept in memory are read again only after a write to their tables (`incremental`).
   */
  private writes = new Map<string, number>();

  constructor(
    private readonly port: SqlPort,
    readonly clock: Clock,
  ) {}

  migrate(): void {
    this.sql(
      "CREATE TABLE IF NOT EXISTS _sql_schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    );
    const applied = this.sql<{ v: number | null }>("SELECT MAX(version) AS v FROM _sql_schema_migrations")[0]?.v ?? 0;
    SCHEMA_MIGRATIONS.forEach((statements, index) => {
      const version = index + 1;
      if (version <= applied) return;
      this.port.transaction(() => {
        this.port.exec(statements);
        this.sql("INSERT INTO _sql_schema_migrations (version, applied_at) VALUES (?, ?)", version, this.clock.now());
      });
    });
  }

  /**
   * Every statement of the race's storage. A write is counted against its table before it runs (so a failed one
   * counts too, which only costs a read): a write to `meta` drops the race row cache.
   */
  sql<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): T[] {
    const table = tableWritten(query);
    if (table !== null) {
      this.writes.set(table, (this.writes.get(table) ?? 0) + 1);
      if (table === "meta" || table === ANY_TABLE) this.metaCache = undefined;
    }
    return this.port.exec<T>(query, ...bindings);
  }

  /** Several writes as one transaction. */
  transaction<T>(apply: () => T): T {
    try {
      return this.port.transaction(apply);
    } catch (err) {
      // A rolled-back write may have handed out a seq that the next one gets again, and undone rows read since:
      // nothing read is kept.
      this.cached.clear();
      this.memos.clear();
      this.latest = undefined;
      this.metaCache = undefined;
      throw err;
    }
  }

  /** One change: the audit row (whose seq numbers the change) and the writes, in one transaction. */
  write(type: string, payload: unknown, by: ChangeAuthor, apply: (seq: number) => void): number {
    return this.transaction(() => {
      const seq = this.appendEvent(type, payload, by);
      apply(seq);
      return seq;
    });
  }

  /** An audit row inside a transaction the caller holds; its seq. */
  appendEvent(type: string, payload: unknown, by: ChangeAuthor): number {
    const seq = this.sql<{ seq: number }>(
      "INSERT INTO events (type, payload, actor, device, at) VALUES (?, ?, ?, ?, ?) RETURNING seq",
      type,
      // Målfoto: a decision the organiser made looking at a finish photo says so in its audit row (the log shows it).
      JSON.stringify(
        by.fromPhoto === true && payload && typeof payload === "object" ? { ...payload, fromPhoto: true } : payload,
      ),
      actorOf(by),
      deviceOf(by),
      this.clock.now(),
    )[0]!.seq;
    this.latest = seq;
    return seq;
  }

  /** The race row, kept in memory until a write to `meta`. Callers only read it. */
  meta(): MetaRow | null {
    if (this.metaCache === undefined) this.metaCache = this.sql<MetaRow>("SELECT * FROM meta WHERE id = 1")[0] ?? null;
    return this.metaCache;
  }

  requireMeta(): MetaRow {
    const meta = this.meta();
    if (!meta) throw new RaceError(404, "Loppet finns inte");
    return meta;
  }

  /** The seq of the latest change: every change appends one audit row, so it names the race's state. */
  latestSeq(): number {
    this.latest ??= this.sql<{ s: number | null }>("SELECT MAX(seq) AS s FROM events")[0]?.s ?? 0;
    return this.latest;
  }

  runnerRow(id: string): RunnerRow | null {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE id = ?", id)[0] ?? null;
  }

  runnerWithBib(bib: number): RunnerRow | null {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE bib = ?", bib)[0] ?? null;
  }

  /** The runners in this race now (not those on their way to another). */
  liveRunnerRows(): RunnerRow[] {
    return this.sql<RunnerRow>("SELECT * FROM runners WHERE moving_to IS NULL");
  }

  /** The seq of a removed runner's tombstone, or undefined. */
  removedSeq(id: string): number | undefined {
    return this.sql<{ seq: number }>("SELECT seq FROM removed WHERE id = ?", id)[0]?.seq;
  }

  /** Ids of runners changed (or removed) after `since`. */
  changedSince(since: number): string[] {
    const changed = this.sql<{ id: string }>("SELECT id FROM runners WHERE seq > ?", since).map((r) => r.id);
    const gone = this.sql<{ id: string }>("SELECT id FROM removed WHERE seq > ?", since).map((r) => r.id);
    return [...changed, ...gone];
  }

  /** A removed runner leaves a tombstone (its seq, for replays) and owes D1 an unlink (the alarm retries it). */
  tombstone(id: string, seq: number): void {
    this.sql("DELETE FROM runners WHERE id = ?", id);
    this.sql(
      `INSERT INTO removed (id, seq, mirror_pending) VALUES (?, ?, 1)
       ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, mirror_pending = 1`,
      id,
      seq,
    );
  }

  /** The runner (or its tombstone) owes D1 a mirror of its race, bib and distance. */
  owesMirror(id: string): void {
    this.sql("UPDATE runners SET mirror_pending = 1 WHERE id = ?", id);
    this.sql("UPDATE removed SET mirror_pending = 1 WHERE id = ?", id);
  }

  /** The mirror of `id` as it was at `seq` reached D1: clear the debt unless a later change owes another. */
  mirrored(id: string, seq: number): void {
    this.sql("UPDATE runners SET mirror_pending = 0 WHERE id = ? AND seq = ?", id, seq);
    this.sql("UPDATE removed SET mirror_pending = 0 WHERE id = ? AND seq = ?", id, seq);
  }

  /** Runners (and tombstones) whose D1 mirror is still owed. */
  pendingMirrors(): string[] {
    return [
      ...this.sql<{ id: string }>("SELECT id FROM runners WHERE mirror_pending = 1"),
      ...this.sql<{ id: string }>("SELECT id FROM removed WHERE mirror_pending = 1"),
    ].map((r) => r.id);
  }

  review(id: string): ReviewRow | null {
    return this.sql<ReviewRow>("SELECT * FROM review WHERE id = ?", id)[0] ?? null;
  }

  openReviews(): ReviewRow[] {
    return this.sql<ReviewRow>("SELECT * FROM review WHERE status = 'open' ORDER BY created_at, id");
  }

  /** Ids of review items changed after `since`. */
  reviewsChangedSince(since: number): string[] {
    return this.sql<{ id: string }>("SELECT id FROM review WHERE seq > ?", since).map((r) => r.id);
  }

  // ——— rapid timing ———

  /** A rapid tap, cleared by a reset or not: from the rows kept in memory (`rapidTaps`), else read. */
  rapidTap(tapId: string): RapidTapRow | null {
    this.rapidTaps();
    const kept = (this.cached.get("taps") as Incremental<RapidTapRow>).rows.get(tapId);
    if (kept) return kept;
    return this.sql<RapidTapRow>("SELECT * FROM rapid_taps WHERE tap_id = ?", tapId)[0] ?? null;
  }

  /** The race's rapid taps (not cleared by a reset), discarded ones too, in no particular order. */
  rapidTaps(): readonly RapidTapRow[] {
    return this.incremental(
      "taps",
      ["rapid_taps"],
      (since) => this.sql<RapidTapRow>("SELECT * FROM rapid_taps WHERE seq >= ?", since),
      (row) => row.tap_id,
      (row) => row.cleared === 1,
    );
  }

  /** The bibs typed in finish order (not removed, not cleared by a reset), in that order. */
  liveBibEntries(): readonly BibEntryRow[] {
    return this.incremental(
      "entries",
      ["bib_entries"],
      (since) => this.sql<BibEntryRow>("SELECT * FROM bib_entries WHERE seq >= ?", since),
      (row) => row.id,
      (row) => row.removed === 1 || row.cleared === 1,
      undefined,
      (a, b) => a.pos - b.pos || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }

  /**
   * The runners in this race now, as rapid timing reads them on every change: read again only where they changed
   * (every change of a runner sets its seq; a removed one leaves a tombstone with its seq). Every column is current
   * but `mirror_pending`.
   */
  liveRunnersForTiming(): readonly RunnerRow[] {
    return this.incremental(
      "runners",
      ["runners", "removed"],
      (since) => this.sql<RunnerRow>("SELECT * FROM runners WHERE seq >= ?", since),
      (row) => row.id,
      (row) => row.moving_to !== null,
      (since) => this.sql<{ id: string }>("SELECT id FROM removed WHERE seq >= ?", since).map((r) => r.id),
    );
  }

  /**
   * Rows kept in memory under `name`, read from `tables`. With no write to those tables since they were read, they
   * are as they were. After one, only the rows whose seq is at least the latest seq when they were last read
   * (`version`) are read again: every write to these tables sets the row's seq to its change's, and a change's seq
   * is the latest from its audit row on (`latestSeq`), so a row written since has a seq no lower (rows of that
   * very seq are read again, as a change may write more of them after a read). A row for which `drop` holds (or
   * whose key `deleted` names) leaves the set; `changed` is the highest seq of a row read so far, the version of
   * the table alone. A rolled-back write drops every set (`transaction`).
   */
  private incremental<T extends { seq: number }>(
    name: string,
    tables: readonly string[],
    since: (seq: number) => T[],
    key: (row: T) => string,
    drop: (row: T) => boolean,
    deleted?: (seq: number) => string[],
    order?: (a: T, b: T) => number,
  ): readonly T[] {
    const writes = this.writesTo(tables);
    let entry = this.cached.get(name) as Incremental<T> | undefined;
    if (entry?.writes === writes) return (entry.list ??= listOf(entry.rows, order));
    const version = this.latestSeq();
    if (!entry || version < entry.version) {
      entry = { version: -1, writes, changed: 0, rows: new Map(), list: null };
      this.cached.set(name, entry);
    }
    // Deletions first: a row deleted and added again since is in `since` and must stay.
    if (entry.version >= 0) for (const id of deleted?.(entry.version) ?? []) entry.rows.delete(id);
    for (const row of since(entry.version)) {
      entry.changed = Math.max(entry.changed, row.seq);
      if (drop(row)) entry.rows.delete(key(row));
      else entry.rows.set(key(row), row);
    }
    entry.version = version;
    entry.writes = writes;
    entry.list = listOf(entry.rows, order);
    return entry.list;
  }

  /** The writes counted so far to these tables and to any table: it rises with every write to one of them. */
  private writesTo(tables: readonly string[]): number {
    let count = this.writes.get(ANY_TABLE) ?? 0;
    for (const table of tables) count += this.writes.get(table) ?? 0;
    return count;
  }

  /** The version of the rapid taps: it rises with any change of any of them (a discard, a pin, a reset too). */
  rapidTapsVersion(): number {
    this.rapidTaps();
    return (this.cached.get("taps") as Incremental<RapidTapRow>).changed;
  }

  /** `compute()` for `key`, or the value kept under `name` from the last call with the same key. */
  memoised<T>(name: string, key: string, compute: () => T): T {
    const kept = this.memos.get(name);
    if (kept?.key === key) return kept.value as T;
    const value = compute();
    this.memos.set(name, { key, value });
    return value;
  }

  rapidTapsChangedSince(since: number): string[] {
    return this.sql<{ tap_id: string }>("SELECT tap_id FROM rapid_taps WHERE seq > ?", since).map((r) => r.tap_id);
  }

  bibEntry(id: string): BibEntryRow | null {
    return this.sql<BibEntryRow>("SELECT * FROM bib_entries WHERE id = ?", id)[0] ?? null;
  }

  bibEntriesChangedSince(since: number): string[] {
    return this.sql<{ id: string }>("SELECT id FROM bib_entries WHERE seq > ?", since).map((r) => r.id);
  }

  /**
   * Whether rapid timing has anything to reconcile: taps, typed bibs, runners in the race with a slot time, or its
   * open review items (from the rows kept in memory; removed bibs and runners on their way out reconcile to
   * nothing).
   */
  usesRapidTiming(): boolean {
    return (
      this.rapidTaps().length > 0 ||
      this.liveBibEntries().length > 0 ||
      this.openDerivedReviews().length > 0 ||
      this.liveRunnersForTiming().some((row) => row.slot !== null)
    );
  }

  /**
   * Rapid timing's open review items (kept from the race's state), read on every change: read again only where they
   * changed (every write to an item sets its seq to the change's).
   */
  openDerivedReviews(): readonly ReviewRow[] {
    return this.incremental(
      "reviews",
      ["review"],
      (since) => this.sql<ReviewRow>("SELECT * FROM review WHERE seq >= ?", since),
      (row) => row.id,
      (row) => row.status !== "open" || row.data === null,
    );
  }

  officialResult(id: string): OfficialResultRow | null {
    return this.sql<OfficialResultRow>("SELECT * FROM official_results WHERE id = ?", id)[0] ?? null;
  }

  tap(tapId: string): TapRow | null {
    return this.sql<TapRow>("SELECT * FROM taps WHERE tap_id = ?", tapId)[0] ?? null;
  }

  storeTap(
    tapId: string | undefined,
    kind: "start" | "finish",
    runnerId: string | null,
    at: number,
    received: number,
    by: ChangeAuthor,
    outcome: FinishOutcome | StartOutcome,
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

  /** The audit trail after `sinceSeq`, oldest first. */
  events(sinceSeq = 0): RaceAuditEvent[] {
    return this.sql<RaceAuditEvent>(
      "SELECT seq, type, payload, actor, device, at FROM events WHERE seq > ? ORDER BY seq",
      sinceSeq,
    );
  }

  /** The newest `limit` audit rows, newest first. */
  recentEvents(limit = 500): RaceAuditEvent[] {
    return this.sql<RaceAuditEvent>(
      "SELECT seq, type, payload, actor, device, at FROM events ORDER BY seq DESC LIMIT ?",
      Math.max(1, Math.min(limit, 5_000)),
    );
  }
}

function actorOf(by: ChangeAuthor | undefined): string {
  return typeof by?.actor === "string" && by.actor ? by.actor.slice(0, 200) : "system";
}

function deviceOf(by: ChangeAuthor | undefined): string | null {
  return typeof by?.device === "string" && by.device ? by.device.slice(0, 200) : null;
}

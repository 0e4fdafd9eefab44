/**
 * A race's spectators: one fan-out object per race (`env.SPECTATORS.getByName(raceId)`), so that no crowd ever
 * reaches the race object (src/durable/race/), which stays with the timing phones.
 *
 * - It keeps the race's public view (shared/public-view.ts: public records only) in its own SQLite storage, so an
 *   eviction loses nothing: one row per runner with the version at which it last changed (a runner that left keeps
 *   a row without a record), and the race record.
 * - The race object tells it of every change, fire-and-forget (`publish`, src/durable/race/public-feed.ts). A
 *   notice that does not follow on from what it has (one was lost), or a copy older than REVALIDATE_MS when
 *   someone asks, makes it read the race object itself (`publicSince`): the only way a spectator's request can
 *   reach the race object, counted in `raceReads`.
 * - Its own `version` numbers every change the public sees, and nothing else: a notice whose records are all as
 *   its copy has them (an admin's change, a review item, a withheld child's finish) moves only its `race_seq` on,
 *   with no new version, no frame, no replay entry. The sockets carry the version as seq; the Worker's public JSON
 *   its ETag, with the version of the last whole copy (`base_version`), never the race's seq, which counts every
 *   change the race makes, the public's or not (the race's seq may also start over when a race's storage is made
 *   anew; the version never does).
 * - Public sockets (`{wsUrl}/spectate/{raceId}`, no sign-in) hibernate, so an idle crowd costs nothing: on open a
 *   snapshot (or the changes after the `since` the page gives, when it still knows them), then a delta per change.
 *   A socket that sends anything gets one error frame (the first time) and changes nothing. One client (IP) holds
 *   at most SPECTATOR_SOCKETS_PER_CLIENT of a race's sockets; past that the upgrade is a Swedish 429
 *   (socket-clients.ts, issue 43).
 * - Child-safe publishing (shared/public-view.ts, issue 38 item 3): until the race has ended a withheld child's
 *   record is the one they had before finishing, so their finish, or a new time, reaches no socket, no `since`
 *   replay, no view and no ETag; the change that ends the race makes every withheld finisher 'Fullföljt' at once,
 *   in one version. Records in a delta and in a replay are listed by `sort`, never in the order they changed (at
 *   the end, that would be the children's finish order), and `corrected` is never on a withheld child's record.
 *
 * Counters (`stats`): kept in memory and written with the next write (a publish or a read of the race object),
 * except `raceReads` and `connects`, which are written when they happen: an object whose only work is a crowd's
 * hibernating sockets is evicted between their events, and what memory held goes with it.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket } from "./client-frames";
import { clientAtCap, clientTag, tooManySockets } from "./socket-clients";
import { clockFromSettings, type Clock } from "../shared/clock";
import {
  assembleView,
  isRemoved,
  type PublicRaceRecord,
  type PublicRaceView,
  type PublicRunnerChange,
} from "../shared/public-view";
import type { PublicRunnerRecord } from "../shared/race-protocol";
import {
  applyUpdate,
  SPECTATOR_NO_MESSAGES,
  type PublicUpdate,
  type SpectatorFrame,
} from "../shared/spectator-protocol";

const TAG = "spectator";
/** Sockets of one race per client: a venue's shared Wi-Fi holds many spectators, a sprayer no more than this. */
export const SPECTATOR_SOCKETS_PER_CLIENT = 50;
/** A copy older than this (no notice from the race object meanwhile) is checked with the race object when read. */
export const REVALIDATE_MS = 30_000;

/**
 * What the Worker's public read gets: the view, its version, and the version of the copy's last whole replacement
 * (the ETag is made of both: new for every change the public sees, and for nothing else).
 */
export interface SpectatorView {
  version: number;
  baseVersion: number;
  view: PublicRaceView;
}

export interface SpectatorStats {
  part: string;
  version: number;
  raceSeq: number;
  sockets: number;
  /** Public reads of the view (the Worker's, after its own copy and the edge cache). */
  reads: number;
  /** Reads of the race object made for spectators (a missing, old or broken copy). */
  raceReads: number;
  /** Notices from the race object, and those that did not follow on (a read of the race object followed). */
  notices: number;
  gaps: number;
  /** Sockets opened, and error frames sent to sockets that sent something. */
  connects: number;
  errorFrames: number;
}

type MetaRow = {
  version: number;
  race_seq: number;
  base_version: number;
  race: string;
  checked_at: number;
};

/** A runner's `sort` ('runner-<id>'), the key of its row. */
type RunnerSort = PublicRunnerRecord["sort"];

type Counter = "reads" | "notices" | "gaps" | "errorFrames";

export class SpectatorsDO extends DurableObject<Env> {
  private readonly clock: Clock;
  /**
   * The view at a version (memory, rebuilt from storage after waking), kept current by each change, and its
   * snapshot frame as text, made once per version when a socket opens (thousands of sockets get one string).
   */
  private cached: { version: number; view: PublicRaceView; frame: string | null } | null = null;
  /** A read of the race object in progress (in a Durable Object every request shares one I/O context). */
  private refreshing: Promise<void> | null = null;
  private readonly unsaved: Record<Counter, number> = { reads: 0, notices: 0, gaps: 0, errorFrames: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS meta (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         version INTEGER NOT NULL,
         race_seq INTEGER NOT NULL,
         base_version INTEGER NOT NULL,
         race TEXT NOT NULL,
         checked_at INTEGER NOT NULL
       );
       CREATE TABLE IF NOT EXISTS runners (sort TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT);
       CREATE INDEX IF NOT EXISTS runners_version ON runners (version);
       CREATE TABLE IF NOT EXISTS stats (name TEXT PRIMARY KEY, n INTEGER NOT NULL);`,
    );
  }

  // ——— the race object ———

  /** A change, from the race object (fire-and-forget on its side). */
  async publish(update: PublicUpdate): Promise<void> {
    this.count("notices");
    const meta = this.meta();
    if (update.since === 0) {
      this.replace(update);
      return;
    }
    if (!meta || update.since > meta.race_seq) {
      // A notice was lost (or this object is new): read what is missing from the race object.
      this.count("gaps");
      await this.refresh();
      return;
    }
    if (update.seq <= meta.race_seq) return; // Already has it (a notice that arrived after a read).
    this.applyChanges(meta, update);
  }

  // ——— the Worker ———

  /** The public view for the Worker's public read; null for a race the race object does not know. */
  async view(): Promise<SpectatorView | null> {
    this.count("reads");
    await this.fresh();
    const meta = this.meta();
    if (!meta) return null;
    return { version: meta.version, baseVersion: meta.base_version, view: this.currentView(meta).view };
  }

  async stats(): Promise<SpectatorStats> {
    this.saveCounters();
    const meta = this.meta();
    const n = (name: string) =>
      this.ctx.storage.sql.exec<{ n: number }>("SELECT n FROM stats WHERE name = ?", name).toArray()[0]?.n ?? 0;
    return {
      part: this.ctx.id.name ?? "",
      version: meta?.version ?? 0,
      raceSeq: meta?.race_seq ?? 0,
      sockets: this.ctx.getWebSockets(TAG).length,
      reads: n("reads"),
      raceReads: n("raceReads"),
      notices: n("notices"),
      gaps: n("gaps"),
      connects: n("connects"),
      errorFrames: n("errorFrames"),
    };
  }

  // ——— sockets ———

  /** Only socket upgrades come here; the Worker has checked the race id, the race and the origin. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    const since = Number(new URL(request.url).searchParams.get("since") ?? "0");
    await this.fresh();
    const meta = this.meta();
    if (!meta) return Response.json({ error: "Loppet finns inte" }, { status: 404 });
    // Issue 43: a client (one IP) holds at most SPECTATOR_SOCKETS_PER_CLIENT sockets of this race.
    const clientSockets = clientTag(request);
    if (clientAtCap(this.ctx, clientSockets, SPECTATOR_SOCKETS_PER_CLIENT)) return tooManySockets();
    this.countNow("connects");
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [TAG, clientSockets]);
    server.serializeAttachment({ warned: false });
    send(server, this.opening(meta, Number.isSafeInteger(since) ? since : 0));
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket): Promise<void> {
    const state = ws.deserializeAttachment() as { warned?: boolean } | null;
    if (state?.warned) return;
    ws.serializeAttachment({ warned: true });
    this.count("errorFrames");
    send(ws, JSON.stringify({ type: "error", error: SPECTATOR_NO_MESSAGES } satisfies SpectatorFrame));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code, reason);
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("spectator socket error", error);
  }

  // ——— the view ———

  private meta(): MetaRow | null {
    return this.ctx.storage.sql.exec<MetaRow>("SELECT * FROM meta WHERE id = 1").toArray()[0] ?? null;
  }

  /** Reads the race object when there is no copy, or when the copy has not been confirmed for REVALIDATE_MS. */
  private async fresh(): Promise<void> {
    const meta = this.meta();
    if (meta && this.clock.now() - meta.checked_at < REVALIDATE_MS) return;
    try {
      await this.refresh();
    } catch (err) {
      // An old copy is still the best answer a spectator can get; without one there is nothing to answer.
      if (!meta) throw err;
      console.warn("spectators: race object not reachable, answering the copy", meta.race_seq, err);
    }
  }

  /** One read of the race object at a time: the changes after what this object has (everything when it has none). */
  private refresh(): Promise<void> {
    this.refreshing ??= this.readRaceObject().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readRaceObject(): Promise<void> {
    const part = this.ctx.id.name;
    if (!part) throw new Error("spectators object without a race name");
    this.countNow("raceReads");
    const answer = await this.env.RACE.getByName(part).publicSince(this.meta()?.race_seq ?? 0);
    if (!answer.ok) throw new Error(`race object refused: ${answer.status} ${answer.error}`);
    const update = answer.value as PublicUpdate | null;
    if (update === null) return; // No such race: nothing is stored, the caller answers 404.
    if (update.since === 0) {
      this.replace(update);
      return;
    }
    const meta = this.meta();
    // The answer follows on from what this object had when it asked; a notice may have moved it on meanwhile.
    if (!meta || update.since > meta.race_seq) throw new Error("race object answered out of order");
    if (update.seq > meta.race_seq) this.applyChanges(meta, update);
    else this.confirm();
  }

  /** The copy is confirmed as current (nothing changed since the last notice). */
  private confirm(): void {
    this.ctx.storage.sql.exec("UPDATE meta SET checked_at = ? WHERE id = 1", this.clock.now());
    this.saveCounters();
  }

  /**
   * Changes after what this object has: the records that differ from its copy are stored under a new version and
   * sent to every socket as one delta. A notice in which nothing the public sees differs only moves `race_seq` on.
   */
  private applyChanges(meta: MetaRow, update: PublicUpdate): void {
    const race = update.race ?? readRace(meta);
    const runners = this.differing(update.runners);
    if (runners.length === 0 && JSON.stringify(race) === meta.race) {
      this.ctx.storage.sql.exec(
        "UPDATE meta SET race_seq = ?, checked_at = ? WHERE id = 1",
        update.seq,
        this.clock.now(),
      );
      this.saveCounters();
      return;
    }
    const version = meta.version + 1;
    this.ctx.storage.transactionSync(() => {
      for (const change of runners) this.storeRunner(change, version);
      this.storeMeta(version, update.seq, meta.base_version, race);
    });
    const delta: PublicUpdate = { since: meta.version, seq: version, race, runners };
    this.advanceCache(meta.version, version, delta);
    this.broadcast({ type: "delta", ...delta });
  }

  /** The changes whose record differs from this object's copy (a removal of a runner it has), by sort. */
  private differing(changes: readonly PublicRunnerChange[]): PublicRunnerChange[] {
    return changes
      .filter((change) => {
        const stored = this.ctx.storage.sql
          .exec<{ record: string | null }>("SELECT record FROM runners WHERE sort = ?", change.sort)
          .toArray()[0];
        return isRemoved(change) ? stored?.record != null : stored?.record !== JSON.stringify(change);
      })
      .sort(bySort);
  }

  /**
   * The whole view from the race object (its first notice after waking, or a first read). What differs from the
   * copy goes out as a delta. A race whose seq went back (its storage was made anew) replaces the copy: every
   * socket gets a snapshot.
   */
  private replace(update: PublicUpdate): void {
    const meta = this.meta();
    if (!update.race) throw new Error("a whole view without its race record");
    const race = update.race;
    const next = new Map<RunnerSort, string>(
      update.runners.filter((r) => !isRemoved(r)).map((r) => [r.sort, JSON.stringify(r)]),
    );
    if (meta && update.seq < meta.race_seq) {
      const version = meta.version + 1;
      this.ctx.storage.transactionSync(() => {
        this.ctx.storage.sql.exec("DELETE FROM runners");
        for (const [sort, record] of next) this.storeRow(sort, version, record);
        this.storeMeta(version, update.seq, version, race);
      });
      const current = this.currentView(this.meta()!);
      this.broadcast(current.frame);
      return;
    }
    const known = new Map(
      this.ctx.storage.sql
        .exec<{ sort: RunnerSort; record: string | null }>("SELECT sort, record FROM runners")
        .toArray()
        .map((row) => [row.sort, row.record]),
    );
    const changed: PublicRunnerChange[] = [];
    for (const [sort, record] of next) {
      if (known.get(sort) !== record) changed.push(JSON.parse(record) as PublicRunnerRecord);
    }
    for (const [sort, record] of known) {
      if (record !== null && !next.has(sort)) changed.push({ type: "runner", part: race.part, sort, removed: true });
    }
    changed.sort(bySort);
    const raceChanged = !meta || JSON.stringify(race) !== meta.race;
    if (meta && changed.length === 0 && !raceChanged) {
      this.ctx.storage.sql.exec(
        "UPDATE meta SET race_seq = ?, checked_at = ? WHERE id = 1",
        update.seq,
        this.clock.now(),
      );
      this.saveCounters();
      return;
    }
    const version = (meta?.version ?? 0) + 1;
    this.ctx.storage.transactionSync(() => {
      for (const change of changed) this.storeRunner(change, version);
      this.storeMeta(version, update.seq, meta?.base_version ?? version, race);
    });
    if (!meta) return;
    const delta: PublicUpdate = { since: meta.version, seq: version, race, runners: changed };
    this.advanceCache(meta.version, version, delta);
    this.broadcast({ type: "delta", ...delta });
  }

  private storeRunner(change: PublicRunnerChange, version: number): void {
    this.storeRow(change.sort, version, isRemoved(change) ? null : JSON.stringify(change));
  }

  private storeRow(sort: string, version: number, record: string | null): void {
    this.ctx.storage.sql.exec(
      `INSERT INTO runners (sort, version, record) VALUES (?, ?, ?)
       ON CONFLICT (sort) DO UPDATE SET version = excluded.version, record = excluded.record`,
      sort,
      version,
      record,
    );
  }

  private storeMeta(version: number, raceSeq: number, baseVersion: number, race: PublicRaceRecord): void {
    this.ctx.storage.sql.exec(
      `INSERT INTO meta (id, version, race_seq, base_version, race, checked_at) VALUES (1, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, race_seq = excluded.race_seq,
         base_version = excluded.base_version, race = excluded.race, checked_at = excluded.checked_at`,
      version,
      raceSeq,
      baseVersion,
      JSON.stringify(race),
      this.clock.now(),
    );
    this.saveCounters();
  }

  /** The view at the stored version, and its snapshot frame as text. */
  private currentView(meta: MetaRow): { view: PublicRaceView; frame: string } {
    let cached = this.cached;
    if (cached?.version !== meta.version) {
      const runners = this.ctx.storage.sql
        .exec<{ record: string }>("SELECT record FROM runners WHERE record IS NOT NULL")
        .toArray()
        .map((row) => JSON.parse(row.record) as PublicRunnerRecord);
      cached = { version: meta.version, view: assembleView(readRace(meta), runners), frame: null };
      this.cached = cached;
    }
    cached.frame ??= JSON.stringify({
      type: "snapshot",
      seq: cached.version,
      view: cached.view,
    } satisfies SpectatorFrame);
    return { view: cached.view, frame: cached.frame };
  }

  /** The memory copy follows a change without reading every row again (when it was at the version changed). */
  private advanceCache(from: number, to: number, update: PublicUpdate): void {
    this.cached =
      this.cached?.version === from ? { version: to, view: applyUpdate(this.cached.view, update), frame: null } : null;
  }

  /**
   * What a socket gets first: the changes after `since` when the page has a version this copy still knows how to
   * bring up to date (not before its last snapshot), otherwise the whole view. By sort: the order rows changed in
   * is no one's business (module comment).
   */
  private opening(meta: MetaRow, since: number): string {
    if (since <= 0 || since > meta.version || since < meta.base_version) return this.currentView(meta).frame;
    const rows = this.ctx.storage.sql
      .exec<{
        sort: RunnerSort;
        record: string | null;
      }>("SELECT sort, record FROM runners WHERE version > ? ORDER BY sort", since)
      .toArray();
    const race = readRace(meta);
    const runners = rows.map((row): PublicRunnerChange =>
      row.record === null
        ? { type: "runner", part: race.part, sort: row.sort, removed: true }
        : (JSON.parse(row.record) as PublicRunnerRecord),
    );
    return JSON.stringify({ type: "delta", since, seq: meta.version, race, runners } satisfies SpectatorFrame);
  }

  private broadcast(frame: SpectatorFrame | string): void {
    const text = typeof frame === "string" ? frame : JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets(TAG)) send(ws, text);
  }

  private count(name: Counter): void {
    this.unsaved[name] += 1;
  }

  /** A counter an eviction must not lose, written at once. */
  private countNow(name: "connects" | "raceReads"): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO stats (name, n) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET n = n + 1",
      name,
    );
  }

  private saveCounters(): void {
    for (const name of Object.keys(this.unsaved) as Counter[]) {
      const n = this.unsaved[name];
      if (n === 0) continue;
      this.ctx.storage.sql.exec(
        "INSERT INTO stats (name, n) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET n = n + excluded.n",
        name,
        n,
      );
      this.unsaved[name] = 0;
    }
  }
}

function bySort(a: { sort: string }, b: { sort: string }): number {
  return a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0;
}

function readRace(meta: MetaRow): PublicRaceRecord {
  return JSON.parse(meta.race) as PublicRaceRecord;
}

function send(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // A socket closing under us: the page reconnects with the seq it has.
  }
}

/**
 * One race (DESIGN.md): the single writer of race-day state, one object per race id (`env.RACE.getByName(part)`).
 * This file is the object's thin shell over the race room (room.ts), which holds the rules and decides every change
 * in one synchronous step. The shell keeps what only a Durable Object can do:
 * - the entry points: `run(command)`, the one write entry point for every command (commands.ts); the reads; and
 *   the operations that span objects (`init` from D1's index, `moveRunner`, `anonymiseRunner`);
 * - carrying out what a change owes (`carry`): the broadcast to the admin sockets (sockets.ts) in the change's own
 *   synchronous step, before any await, so every socket gets a race's changes in seq order; then the notice to the
 *   spectators' fan-out (public-feed.ts), the D1 mirror (d1.ts), the alarm for the results mail;
 * - the WebSocket upgrade and frames, and the alarm, which retries what a failed call left undone: distance moves,
 *   D1 mirrors, and the families' results mail (sent through the Worker: src/worker/objects/object-services.ts).
 *
 * Sockets hibernate (`acceptWebSocket`): identity lives in the attachment, memory holds nothing but caches; a bad
 * frame gets `{type:'error'}` and the socket stays open. Only the admins' sockets are held here; spectators are the
 * race's fan-out object's (src/durable/spectators.ts), which reads `publicSince` only when it lacks something.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "../client-frames";
import { clockFromSettings, type Clock } from "../../shared/clock";
import { applyDevSeason } from "../../shared/dev-season";
import { RACE_ACTOR_HEADER } from "../../shared/object-calls";
import { isRaceId } from "../../shared/race-id";
import {
  RaceError,
  type RaceAuditEvent,
  type RaceRecord,
  type RaceSnapshot,
  type ReviewRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import type { MoveResult, RapidTiming } from "../../shared/race-answers";
import type { PublicUpdate } from "../../shared/spectator-protocol";
import { SessionRecheck, socketSessionFrom } from "../socket-sessions";
import type { AnswerOf, RaceCommand } from "./commands";
import { indexedRace, mirrorRace, mirrorRunner, participantsInRace, RETRY_MS } from "./d1";
import { answer, durablePorts } from "./platform";
import { SpectatorFeed } from "./public-feed";
import { RaceRoom, type Applied } from "./room";
import { isPermanentRefusal } from "./rules/move";
import type { Replacement, RunnerHistory } from "./rules/erase";
import { acceptRaceSocket, broadcast, closeSessions, raceSessionSockets, subscribe } from "./sockets";
import type { ChangeAuthor, RaceAnswer, RaceInit } from "./types";

export class RaceDO extends DurableObject<Env> {
  private readonly clock: Clock;
  private readonly room: RaceRoom;
  /** The sockets' sessions checked against D1 before a snapshot and after a broadcast (socket-sessions.ts). */
  private readonly sessionRecheck: SessionRecheck;
  /** Tells the race's spectator fan-out of each public change, never waiting for it (public-feed.ts). */
  private readonly spectators: SpectatorFeed;
  /** A results mail run is on its way (memory only: a value, never its promise). */
  private mailing = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Development's season switch (CHILD_SAFE_PUBLISHING) for the spectators' feed; nothing outside development.
    applyDevSeason(env);
    this.clock = clockFromSettings(env);
    const { sql, kv } = durablePorts(ctx.storage);
    this.room = new RaceRoom(sql, kv, this.clock);
    this.sessionRecheck = new SessionRecheck(ctx.storage, env, raceSessionSockets(ctx));
    this.spectators = new SpectatorFeed((update) => {
      const part = this.room.part();
      return part ? env.SPECTATORS.getByName(part).publish(update) : Promise.resolve();
    });
    void ctx.blockConcurrencyWhile(async () => this.room.migrate());
    // Keep-alive pings from phones are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** The one write entry point: the command decided by the room, then what the change owes carried out. */
  async run<C extends RaceCommand>(command: C, by: ChangeAuthor = {}): Promise<RaceAnswer<AnswerOf<C>>> {
    return answer(async () => {
      await this.ready();
      return this.carry(this.room.apply(command, by));
    });
  }

  /**
   * Makes this object the race `race.part` (the create-race call), or updates whether registration is open.
   * Idempotent. Other calls need no init: an object without storage makes itself from D1 (`ready`).
   */
  async init(race: RaceInit, by: ChangeAuthor = {}): Promise<RaceAnswer<RaceRecord>> {
    return answer(async () => {
      const updated = this.room.updateRace(race, by);
      if (updated) return this.carry(updated);
      // Runners that reached D1 before this object existed (e.g. seeded data) join the race with it.
      const part = race.part;
      const [indexed, known] = await Promise.all([indexedRace(this.env, part), participantsInRace(this.env, part)]);
      const mirrored = indexed ? { state: indexed.state, started: indexed.started } : {};
      return this.carry(this.room.create({ ...race, ...mirrored }, known, by));
    });
  }

  // ——— reads ———

  /** The race record; null for a race D1's index does not have. */
  async getRace(): Promise<RaceAnswer<RaceRecord | null>> {
    return answer(async () => ((await this.exists()) ? this.room.race() : null));
  }

  /** The admin's `GET /admin/api/races/get/{part}`: the race record, then the runners; null for a race D1 lacks. */
  async snapshot(): Promise<RaceAnswer<RaceSnapshot | null>> {
    return answer(async () => ((await this.exists()) ? this.room.snapshot() : null));
  }

  /** The race's runners (not those on their way to another race), waiting first by bib, then by finish. */
  async listRunners(): Promise<RaceAnswer<RunnerRecord[]>> {
    return this.read(() => this.room.runners());
  }

  async getRunner(id: string): Promise<RaceAnswer<RunnerRecord | null>> {
    return this.read(() => this.room.runner(id));
  }

  /** These runners as the race has them now (those not in it are left out): the bib desk's view of a family. */
  async runnersById(ids: string[]): Promise<RaceAnswer<RunnerRecord[]>> {
    return this.read(() => this.room.runnersById(ids));
  }

  /** 'Att granska': the open items, oldest first. */
  async reviews(): Promise<RaceAnswer<ReviewRecord[]>> {
    return this.read(() => this.room.reviews());
  }

  /** Rapid timing now: the merged, numbered slots and who each one is. */
  async rapidTiming(): Promise<RaceAnswer<RapidTiming>> {
    return this.read(() => this.room.rapidTiming());
  }

  /** Målfoto: whether the race keeps this frame of a tap's photo now (src/worker/race-day/finish-photos.ts). */
  async hasPhoto(tapId: string, frame: number): Promise<RaceAnswer<boolean>> {
    return this.read(() => this.room.hasPhoto(tapId, frame));
  }

  /** The audit trail, oldest first (for the race-day screens and for tests). */
  async events(sinceSeq = 0): Promise<RaceAnswer<RaceAuditEvent[]>> {
    return this.read(() => this.room.events(sinceSeq));
  }

  /** The newest `limit` audit rows, newest first (the race screen's log). */
  async recentEvents(limit = 500): Promise<RaceAnswer<RaceAuditEvent[]>> {
    return this.read(() => this.room.recentEvents(limit));
  }

  /**
   * The spectator fan-out's read (src/durable/spectators.ts), the only way spectators reach this object: the
   * public records changed after `since` (all of them for 0); null for a race D1 does not have.
   */
  async publicSince(since: number): Promise<RaceAnswer<PublicUpdate | null>> {
    return answer(async () => ((await this.exists()) ? this.room.publicSince(since) : null));
  }

  /** What the race has about one runner (its record, log lines, review items), for a person's export; or null. */
  async runnerHistory(id: string): Promise<RaceAnswer<RunnerHistory | null>> {
    return answer(async () => (this.room.exists() ? this.room.history(id) : null));
  }

  // ——— operations that span objects ———

  /**
   * Erasure (rules/erase.ts): the runner's row, race-day log and review items keep no name, whether it runs here,
   * left (a tombstone), or the race has ended. An object without storage has nothing about anyone: it answers null
   * without making itself from D1, and so does a race that never had the runner.
   */
  async anonymiseRunner(
    id: string,
    replacement: Replacement,
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<{ runner: RunnerRecord | null; photos?: string[]; photoObjects?: string[] } | null>> {
    return answer(async () => {
      const applied = this.room.anonymise(id, replacement, by);
      return applied ? this.carry(applied) : null;
    });
  }

  /**
   * "Byt distans" (rules/move.ts): marked here, added to the target (which must be a race of D1's index that has
   * not ended), removed here; the alarm finishes a move a failure left half-way.
   */
  async moveRunner(targetPart: string, id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<MoveResult>> {
    return answer(async () => {
      await this.ready();
      this.room.checkMove(targetPart, id);
      const target = await indexedRace(this.env, targetPart);
      if (!target) throw new RaceError(404, "Loppet finns inte");
      if (target.state === "ended") {
        throw new RaceError(409, "Loppet är avslutat och tar inte emot fler löpare. Löparen ligger kvar i sitt lopp.");
      }
      const moving = this.room.beginMove(targetPart, id, by);
      // `carry` broadcasts before its first await (seq order); the alarm, set alongside, finishes the move should
      // this call fail half-way.
      const [row] = await Promise.all([
        this.carry(moving),
        moving.owed.events.length > 0 ? this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS) : undefined,
      ]);
      return this.completeMove(row.id, by);
    });
  }

  /**
   * The owed results mail falls due now, the race's quiet not waited out (development's `POST /dev/races/{race}/
   * results-mail`, for browser tests). False when no mail is owed.
   */
  async sendResultsMailNow(): Promise<RaceAnswer<boolean>> {
    return answer(async () => {
      const now = this.clock.now();
      if (!this.room.resultsMailDueNow(now)) return false;
      await this.ctx.storage.setAlarm(now);
      return true;
    });
  }

  /** The admin's logout: every socket of that session is closed at once. How many were. */
  async closeSessionSockets(session: string): Promise<RaceAnswer<number>> {
    return answer(async () => closeSessions(this.ctx, new Set([session])));
  }

  // ——— sockets ———

  /** Only socket upgrades come here; the Worker has checked the admin and the origin and names the actor. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    if (!(await this.exists())) return Response.json({ error: "Loppet finns inte" }, { status: 404 });
    const actor = request.headers.get(RACE_ACTOR_HEADER) ?? "";
    return acceptRaceSocket(this.ctx, actor, socketSessionFrom(request, actor));
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
        await subscribe(this.room, this.sessionRecheck, ws, frame.since ?? 0, this.clock.now());
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

  /**
   * Retries what a failed call left unfinished (distance moves, D1 mirrors) and sends the results mail a change left
   * owed once it is due (results-mail.ts: after the race has been still for RESULTS_MAIL_QUIET_MS).
   */
  override async alarm(): Promise<void> {
    const part = this.room.part();
    if (!part) return;
    let unfinished = false;
    for (const id of this.room.movingRunners()) {
      try {
        await this.completeMove(id, { actor: "system" });
      } catch (err) {
        // A target that refused for good cancelled the move (the runner is back); anything else is retried.
        if (this.room.movingRunner(id) === null) continue;
        console.error("distance move still unfinished", part, id, err);
        unfinished = true;
      }
    }
    for (const id of this.room.pendingMirrors()) {
      try {
        await mirrorRunner(this.env, this.room, id);
      } catch (err) {
        console.error("runner mirror to D1 still failing", part, id, err);
        unfinished = true;
      }
    }
    if (this.room.raceMirror()?.pending && !(await this.mirrorRace())) unfinished = true;
    const mailAt = this.room.resultsMailAt();
    if (mailAt !== null && mailAt <= this.clock.now()) {
      try {
        if (!(await this.sendResultsMail())) unfinished = true;
      } catch (err) {
        console.error("results mail still owed", part, err);
        unfinished = true;
      }
    }
    // Next: a retry, or the mail owed for later (not due yet, or a change came in while it was sent).
    const now = this.clock.now();
    const mail = this.room.resultsMailAt() ?? Infinity;
    const next = Math.min(
      unfinished || this.room.raceMirror()?.pending ? now + RETRY_MS : Infinity,
      mail > now ? mail : Infinity,
    );
    if (next !== Infinity) await this.ctx.storage.setAlarm(next);
  }

  // ——— the race itself ———

  /** A read of a race that exists (made from D1 when the object has no storage yet); 404 for one D1 lacks. */
  private read<T>(read: () => T): Promise<RaceAnswer<T>> {
    return answer(async () => {
      await this.ready();
      return read();
    });
  }

  private async ready(): Promise<void> {
    if (!(await this.exists())) throw new RaceError(404, "Loppet finns inte");
  }

  /**
   * The object is its race: one with storage knows it; one without makes itself once from its row in D1's index
   * (named by the object's own name), with the state D1 mirrors. Only a race D1 does not have is missing.
   */
  private async exists(): Promise<boolean> {
    if (this.room.exists()) return true;
    const part = this.ctx.id.name;
    if (!part || !isRaceId(part)) return false;
    const [indexed, known] = await Promise.all([indexedRace(this.env, part), participantsInRace(this.env, part)]);
    if (!indexed) return false;
    // Two calls may both have read D1 by now: the first to get here makes the race, the second finds it made.
    await this.carry(this.room.create(indexed, known, { actor: "system" }));
    return true;
  }

  // ——— carrying out what a change owes ———

  /**
   * The room has decided and written the change (and reconciled everything it causes) before this runs, and this
   * runs in the same synchronous step: the events go to the admin sockets before anything here awaits, so every
   * socket gets a race's changes in seq order (module comment), then the notice to the spectators' fan-out. Then,
   * awaiting: the sessions' re-check, the D1 mirrors, the alarm for an owed results mail; answers the command's
   * value. A mirror that fails is left owed (the room marked it) and the alarm retries it: the change itself has
   * committed and stands.
   */
  private async carry<T>({ value, owed }: Applied<T>): Promise<T> {
    if (owed.events.length > 0) {
      // An expired session's socket is closed here, from its attachment, without I/O (sockets.ts).
      broadcast(this.ctx, owed.events, this.clock.now());
      // After the admin sockets have it, and without waiting: the crowd never slows a tap.
      if (owed.spectators) this.spectators.changed((since) => this.room.publicSince(since));
      // After the broadcast, at most every SESSION_RECHECK_MS: a D1 query before it would let a later change be
      // sent first. Sockets of a revoked session, or an address off the allowlist, get no change after this one.
      await this.sessionRecheck.ifDue(this.clock.now());
    }
    for (const id of owed.mirror) await this.mirrorRunner(id);
    if (owed.mirrorRace) await this.mirrorRace();
    if (owed.resultsMail) await this.armResultsMail();
    return value;
  }

  /**
   * The alarm at the owed results mail's moment (results-mail.ts: each change pushes it on). An alarm due sooner
   * for a retry (a mirror or a move still owed) is kept: it sets the mail's moment again when it has run.
   */
  private async armResultsMail(): Promise<void> {
    const at = this.room.resultsMailAt();
    if (at === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current !== null && current < at && this.room.owesRetry()) return;
    await this.ctx.storage.setAlarm(at);
  }

  /**
   * The owed results mail (results-mail.ts), one run at a time: while one is on its way (awaiting the Worker),
   * another alarm leaves it owed for the next. False when it is still due (a run on its way); a change that came in
   * meanwhile leaves it owed for later, which is not due yet. Throws when the Worker's mail fails.
   */
  private async sendResultsMail(): Promise<boolean> {
    const run = this.room.resultsMailDue();
    if (!run) return true;
    if (this.mailing) return false;
    this.mailing = true;
    try {
      if (run.mail) {
        await this.ctx.exports.ObjectServices.mailResults(run.mail.race, run.mail.gone, this.clock.now());
      }
      this.room.resultsMailDone(run);
    } finally {
      this.mailing = false;
    }
    const at = this.room.resultsMailAt();
    return at === null || at > this.clock.now();
  }

  private async mirrorRunner(id: string): Promise<void> {
    try {
      await mirrorRunner(this.env, this.room, id);
    } catch (err) {
      console.error("runner mirror to D1 failed; the alarm retries", this.room.part(), id, err);
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
    }
  }

  /** The race to D1's index and the hub; false (logged, the alarm set) when D1 failed. */
  private async mirrorRace(): Promise<boolean> {
    try {
      await mirrorRace(this.env, this.room);
      return true;
    } catch (err) {
      console.error("race mirror to D1 failed; the alarm retries", this.room.part(), err);
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
      return false;
    }
  }

  /**
   * Steps 2 and 3 of a move (rules/move.ts): add to the target (idempotent), then remove here. When the target
   * refuses for good the move is cancelled, the runner is back here, and the refusal is thrown. Any other failure
   * is thrown too and is worth retrying (the alarm tries again).
   */
  private async completeMove(id: string, by: ChangeAuthor): Promise<MoveResult> {
    const moving = this.room.movingRunner(id);
    if (!moving) throw new RaceError(404, "Löparen finns inte i loppet.");
    const { targetPart, runner } = moving;
    // The target object makes itself from D1 when it has no storage yet; a race D1 lacks answers 404. A failure
    // to reach it is thrown on (the alarm retries); a refusal is an answer.
    const answer = await this.env.RACE.getByName(targetPart).run(
      { type: "add-runner", runner, options: { dropTakenBib: true, move: true } },
      by,
    );
    if (!answer.ok) {
      const refusal = new RaceError(answer.status, answer.error, { final: answer.final === true });
      // A refusal that a retry could change (a 409 of a busy race) leaves the move for the alarm.
      if (!isPermanentRefusal(refusal)) throw refusal;
      await this.carry(this.room.cancelMove(id, targetPart, answer.error, by));
      throw answer.status === 409 ? refusal : new RaceError(404, "Loppet finns inte");
    }
    return this.carry(this.room.endMove(id, targetPart, answer.value as AnswerOf<{ type: "add-runner" }>, by));
  }
}

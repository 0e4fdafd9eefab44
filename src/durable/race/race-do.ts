/**
 * One race (DESIGN.md): the single writer of race-day state, one object per race id (`env.RACE.getByName(part)`).
 * This file is the object's shell: the RPC entry points the Worker calls, the WebSocket upgrade and frames, and
 * the alarm. What a call may do is decided by the race's rules (`rules/`, one file per concern, each deciding
 * and writing in one synchronous step); the shell then carries out the rule's effects: the changed records to the
 * sockets (`sockets.ts`), the mirror to D1 (`d1.ts`). Storage and the audit trail: `storage.ts`.
 *
 * States: not started ('') → started (start sets `started`) → ended (only when started and nobody is waiting:
 * every runner has finished or is marked DNS); reset returns any state to not started (start, finishes and DNS
 * cleared; runners and bibs kept). The invariants sit with the rules that keep them: the sequence numbers and the
 * audit trail in storage.ts, finishes and taps in rules/finish.ts, bibs in rules/bib.ts, distance moves in
 * rules/move.ts, D1 as an index in d1.ts.
 *
 * Sockets hibernate (`acceptWebSocket`): identity lives in the attachment, memory holds nothing but a cache of the
 * race row. Frames are parsed with zod; a bad frame gets `{type:'error'}` and the socket stays open.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "../client-frames";
import { clockFromSettings, type Clock } from "../../shared/clock";
import {
  compareRunners,
  RaceError,
  type RaceAuditEvent,
  type RaceRecord,
  type RaceSnapshot,
  type RunnerRecord,
} from "../../shared/race-protocol";
import { indexedRace, mirrorRace, mirrorRunner, participantsInRace, RETRY_MS } from "./d1";
import { raceEvent, raceRecord, runnerEvents, runnerRecord } from "./records";
import { acceptRaceSocket, broadcast, subscribe } from "./sockets";
import { RaceStore } from "./storage";
import {
  RACE_ACTOR_HEADER,
  type AddRunnerOptions,
  type AddRunnerResult,
  type ChangeAuthor,
  type FinishResult,
  type MoveResult,
  type RaceInit,
  type RunnerInput,
  type RunnerPatch,
  type TapInput,
} from "./types";
import { registerBib } from "./rules/bib";
import { checkId } from "./rules/checks";
import { checkRaceInit, createRace, updateExistingRace } from "./rules/create";
import type { Decision, Effects, RuleContext } from "./rules/decision";
import { setDns } from "./rules/dns";
import { end } from "./rules/end";
import { finish, restore } from "./rules/finish";
import { beginMove, cancelMove, checkMove, endMove, isPermanentRefusal } from "./rules/move";
import { reset } from "./rules/reset";
import { addRunner, anonymiseRunner, removeRunner, updateRunner } from "./rules/runners";
import { start } from "./rules/start";

export class RaceDO extends DurableObject<Env> {
  private readonly clock: Clock;
  private readonly store: RaceStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFromSettings(env);
    this.store = new RaceStore(ctx.storage, this.clock);
    void ctx.blockConcurrencyWhile(async () => this.store.migrate());
    // Keep-alive pings from phones are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Makes this object the race `race.part`. Idempotent; the Worker calls it before first use. */
  async init(race: RaceInit, by: ChangeAuthor = {}): Promise<RaceRecord> {
    checkRaceInit(race);
    const existing = updateExistingRace(this.context(by), race);
    if (existing) return this.commit(existing);
    // Runners that reached D1 before this object existed (e.g. seeded data) join the race with it.
    const known = await participantsInRace(this.env, race.part);
    return this.commit(createRace(this.context(by), race, known));
  }

  /** The race record, or null before init. */
  async getRace(): Promise<RaceRecord | null> {
    const meta = this.store.meta();
    return meta ? raceRecord(meta) : null;
  }

  /** The race's runners (not those on their way to another race), waiting first by bib, then by finish. */
  async listRunners(): Promise<RunnerRecord[]> {
    return this.runnersNow();
  }

  async getRunner(id: string): Promise<RunnerRecord | null> {
    const meta = this.store.requireMeta();
    const row = this.store.runnerRow(checkId(id));
    return row && row.moving_to === null ? runnerRecord(row, meta) : null;
  }

  /** `GET /api/races/get/{part}`: the race record, then the runners; null before init. */
  async snapshot(): Promise<RaceSnapshot | null> {
    const meta = this.store.meta();
    if (!meta) return null;
    return [raceRecord(meta), ...this.runnersNow()];
  }

  async addRunner(input: RunnerInput, by: ChangeAuthor = {}, options: AddRunnerOptions = {}): Promise<AddRunnerResult> {
    return this.commit(addRunner(this.context(by), input, options));
  }

  async updateRunner(id: string, patch: RunnerPatch, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    return this.commit(updateRunner(this.context(by), id, patch));
  }

  async anonymiseRunner(
    id: string,
    replacement: { firstname: string; lastname: string },
    by: ChangeAuthor = {},
  ): Promise<RunnerRecord> {
    return this.commit(anonymiseRunner(this.context(by), id, replacement));
  }

  async registerBib(id: string, bib: number | "next", by: ChangeAuthor = {}): Promise<RunnerRecord> {
    return this.commit(registerBib(this.context(by), id, bib));
  }

  async removeRunner(id: string, by: ChangeAuthor = {}): Promise<RunnerRecord | null> {
    return this.commit(removeRunner(this.context(by), id));
  }

  // ——— race day ———

  async start(tap: TapInput = {}, by: ChangeAuthor = {}): Promise<RaceRecord> {
    return this.commit(start(this.context(by), tap));
  }

  async finish(id: string, tap: TapInput & { rerecord?: boolean } = {}, by: ChangeAuthor = {}): Promise<FinishResult> {
    return this.commit(finish(this.context(by), id, tap));
  }

  async restore(id: string, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    return this.commit(restore(this.context(by), id));
  }

  async setDns(id: string, dns: boolean, by: ChangeAuthor = {}): Promise<RunnerRecord> {
    return this.commit(setDns(this.context(by), id, dns));
  }

  async end(by: ChangeAuthor = {}): Promise<RaceRecord> {
    return this.commit(end(this.context(by)));
  }

  async reset(by: ChangeAuthor = {}): Promise<RaceRecord> {
    return this.commit(reset(this.context(by)));
  }

  /** "Byt distans" (rules/move.ts): the target must be a race in D1's index. */
  async moveRunner(targetPart: string, id: string, by: ChangeAuthor = {}): Promise<MoveResult> {
    const row = checkMove(this.context(by), targetPart, id);
    if (!(await indexedRace(this.env, targetPart))) throw new RaceError(404, "Loppet finns inte");
    const moving = beginMove(this.context(by), targetPart, row);
    if (moving.effects.runners?.length) await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
    await this.commit(moving);
    const result = await this.completeMove(row.id, by);
    if (!result) throw new RaceError(404, "Loppet finns inte");
    return result;
  }

  /** The audit trail, oldest first (for the race-day screens and for tests). */
  async events(sinceSeq = 0): Promise<RaceAuditEvent[]> {
    return this.store.events(sinceSeq);
  }

  /** The newest `limit` audit rows, newest first (the race screen's log). */
  async recentEvents(limit = 500): Promise<RaceAuditEvent[]> {
    return this.store.recentEvents(limit);
  }

  // ——— sockets ———

  /** Only socket upgrades come here; the Worker has checked the admin and the origin and names the actor. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Förväntade en WebSocket-anslutning" }, { status: 426 });
    }
    if (!this.store.meta()) return Response.json({ error: "Loppet finns inte" }, { status: 404 });
    return acceptRaceSocket(this.ctx, request.headers.get(RACE_ACTOR_HEADER) ?? "");
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
        subscribe(this.store, ws, frame.since ?? 0);
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
    const meta = this.store.meta();
    if (!meta) return;
    let unfinished = false;
    for (const { id } of this.store.sql<{ id: string }>("SELECT id FROM runners WHERE moving_to IS NOT NULL")) {
      try {
        await this.completeMove(id, { actor: "system" });
      } catch (err) {
        console.error("distance move still unfinished", meta.part, id, err);
        unfinished = true;
      }
    }
    try {
      if (this.store.meta()?.mirror_pending) await this.mirrorRace();
    } catch (err) {
      console.error("race mirror to D1 failed", meta.part, err);
      unfinished = true;
    }
    if (unfinished || this.store.meta()?.mirror_pending) {
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
    }
  }

  // ——— carrying out a rule's effects ———

  private context(by: ChangeAuthor): RuleContext {
    return { store: this.store, now: this.clock.now(), by };
  }

  /** Broadcasts what the rule changed, then mirrors it to D1; answers the rule's value. */
  private async commit<T>(decision: Decision<T>): Promise<T> {
    const effects: Effects = decision.effects;
    const meta = effects.race || effects.runners?.length ? this.store.requireMeta() : null;
    if (meta) {
      broadcast(this.ctx, [
        ...(effects.race ? [raceEvent(meta)] : []),
        ...(effects.runners?.length ? runnerEvents(this.store, effects.runners) : []),
      ]);
    }
    for (const id of effects.mirror ?? []) await mirrorRunner(this.env, this.store, id);
    if (effects.mirrorRace) await this.mirrorRace();
    return decision.value;
  }

  private mirrorRace(): Promise<void> {
    return mirrorRace(this.env, this.store, this.ctx.storage, this.clock);
  }

  /**
   * Steps 2 and 3 of a move (rules/move.ts): add to the target (idempotent), then remove here. Null when the
   * target refused for good, after which the move is cancelled and the runner is back here. Throws on a failure
   * worth retrying (the alarm tries again).
   */
  private async completeMove(id: string, by: ChangeAuthor): Promise<MoveResult | null> {
    const row = this.store.runnerRow(id);
    if (!row || row.moving_to === null) return null;
    const targetPart = row.moving_to;
    const target = await indexedRace(this.env, targetPart);
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
      await this.commit(cancelMove(this.context(by), id, targetPart, err instanceof Error ? err.message : String(err)));
      return null;
    }
    return this.commit(endMove(this.context(by), row, targetPart, added));
  }

  private runnersNow(): RunnerRecord[] {
    const meta = this.store.requireMeta();
    return this.store
      .liveRunnerRows()
      .map((row) => runnerRecord(row, meta))
      .sort(compareRunners);
  }
}

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
 *
 * Only the admins' sockets are held here. Spectators are the race's fan-out object's (src/durable/spectators.ts):
 * after each change's broadcast this object sends it the public records that changed, without waiting
 * (public-feed.ts), and the fan-out reads `publicSince` only when it lacks something.
 */
import { DurableObject } from "cloudflare:workers";
import { closeSocket, parseClientFrame, sendFrame } from "../client-frames";
import { clockFromSettings, type Clock } from "../../shared/clock";
import { applyDevSeason } from "../../shared/dev-season";
import {
  compareRunners,
  RaceError,
  type RaceAuditEvent,
  type RaceRecord,
  type RaceSnapshot,
  type ReviewRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import { indexedRace, mirrorRace, mirrorRunner, participantsInRace, RETRY_MS, type IndexedRace } from "./d1";
import { isRaceId } from "../../shared/race-id";
import {
  bibEntryEvents,
  raceEvent,
  raceRecord,
  reviewEvents,
  reviewRecord,
  runnerEvents,
  runnerRecord,
  slotEvents,
} from "./records";
import { acceptRaceSocket, broadcast, closeSessions, subscribe, subscribedSessions } from "./sockets";
import { endedSessions, SessionRecheck, socketSessionFrom } from "../socket-sessions";
import { RaceStore } from "./storage";
import { publicUpdate, SpectatorFeed } from "./public-feed";
import { oweResultsMail, resultsMailOwed, sendResultsMail } from "./results-mail";
import type { PublicUpdate } from "../../shared/spectator-protocol";
import {
  RACE_ACTOR_HEADER,
  type AddRunnerOptions,
  type AddRunnerResult,
  type ChangeAuthor,
  type FinishResult,
  type MoveResult,
  type RaceAnswer,
  type RaceInit,
  type RapidTiming,
  type ReviewDecision,
  type SentToReview,
  type StartResult,
  type RunnerInput,
  type RunnerPatch,
  type TapInput,
} from "./types";
import { registerBib } from "./rules/bib";
import {
  bibAtPickup,
  dnsNotPickedUp,
  MAX_PICKUP_RUNNERS,
  pickUp,
  type NotPickedUpResult,
  type PickupAction,
  type PickupResult,
} from "./rules/checkin";
import { checkId } from "./rules/checks";
import { checkRaceInit, createRace, updateExistingRace } from "./rules/create";
import { mergeEffects, type Decision, type Effects, type RuleContext } from "./rules/decision";
import { changeBibEntry, enterBib, removeBibEntry, restoreBibEntry, type BibEntryResult } from "./rules/bib-entries";
import { rapidTap, type RapidTapResult } from "./rules/rapid";
import { rapidView, reconcile } from "./rules/reconcile";
import { keepResultsStatus, markOfficial, type OfficialResult } from "./rules/results";
import {
  assignSlot,
  discardSlot,
  restoreSlot,
  setMainTimer,
  unassignSlot,
  type AssignTarget,
  type SlotResult,
} from "./rules/slots";
import { setDns } from "./rules/dns";
import { end } from "./rules/end";
import { finish, restore, restoreTime, type FinishTap } from "./rules/finish";
import { applyReview, discardReview } from "./rules/review";
import { beginMove, cancelMove, checkMove, endMove, isPermanentRefusal } from "./rules/move";
import { reset } from "./rules/reset";
import { anonymiseRunner, runnerHistory, type RunnerHistory } from "./rules/erase";
import { addRunner, removeRunner, updateRunner } from "./rules/runners";
import { start } from "./rules/start";

export class RaceDO extends DurableObject<Env> {
  private readonly clock: Clock;
  private readonly store: RaceStore;
  /** When the sockets' sessions were last checked against D1 (kept in storage, across hibernation). */
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
    this.store = new RaceStore(ctx.storage, this.clock);
    this.sessionRecheck = new SessionRecheck(ctx.storage);
    this.spectators = new SpectatorFeed((update) => {
      const part = this.store.meta()?.part;
      return part ? env.SPECTATORS.getByName(part).publish(update) : Promise.resolve();
    });
    void ctx.blockConcurrencyWhile(async () => this.store.migrate());
    // Keep-alive pings from phones are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /**
   * Makes this object the race `race.part` (the create-race call), or updates whether registration is open.
   * Idempotent. Other calls need no init: an object without storage makes itself from D1 (`ready`).
   */
  async init(race: RaceInit, by: ChangeAuthor = {}): Promise<RaceAnswer<RaceRecord>> {
    return answer(async () => {
      checkRaceInit(race);
      const existing = updateExistingRace(this.context(by), race);
      if (existing) return this.commit(by, existing);
      // Runners that reached D1 before this object existed (e.g. seeded data) join the race with it.
      const [indexed, known] = await Promise.all([
        indexedRace(this.env, race.part),
        participantsInRace(this.env, race.part),
      ]);
      return this.commit(by, createRace(this.context(by), { ...race, ...mirroredState(indexed) }, known));
    });
  }

  /** The race record; null for a race D1's index does not have. */
  async getRace(): Promise<RaceAnswer<RaceRecord | null>> {
    return answer(async () => {
      if (!(await this.exists())) return null;
      return raceRecord(this.store.requireMeta());
    });
  }

  /** The race's runners (not those on their way to another race), waiting first by bib, then by finish. */
  async listRunners(): Promise<RaceAnswer<RunnerRecord[]>> {
    return answer(async () => {
      await this.ready();
      return this.runnersNow();
    });
  }

  async getRunner(id: string): Promise<RaceAnswer<RunnerRecord | null>> {
    return answer(async () => {
      await this.ready();
      const meta = this.store.requireMeta();
      const row = this.store.runnerRow(checkId(id));
      return row && row.moving_to === null ? runnerRecord(row, meta) : null;
    });
  }

  /**
   * The spectator fan-out's read (src/durable/spectators.ts), the only way spectators reach this object: the
   * public records changed after `since` (all of them for 0); null for a race D1 does not have.
   */
  async publicSince(since: number): Promise<RaceAnswer<PublicUpdate | null>> {
    return answer(async () => {
      if (!(await this.exists())) return null;
      return publicUpdate(this.store, Number.isSafeInteger(since) ? since : 0);
    });
  }

  /** The admin's `GET /admin/api/races/get/{part}`: the race record, then the runners; null for a race D1 lacks. */
  async snapshot(): Promise<RaceAnswer<RaceSnapshot | null>> {
    return answer(async () => {
      if (!(await this.exists())) return null;
      return [raceRecord(this.store.requireMeta()), ...this.runnersNow()];
    });
  }

  async addRunner(
    input: RunnerInput,
    by: ChangeAuthor = {},
    options: AddRunnerOptions = {},
  ): Promise<RaceAnswer<AddRunnerResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, addRunner(this.context(by), input, options));
    });
  }

  async updateRunner(id: string, patch: RunnerPatch, by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, updateRunner(this.context(by), id, patch));
    });
  }

  /**
   * Erasure (rules/erase.ts): the runner's row, race-day log and review items keep no name, whether it runs here,
   * left (a tombstone), or the race has ended. An object without storage has nothing about anyone: it answers null
   * without making itself from D1, and so does a race that never had the runner.
   */
  async anonymiseRunner(
    id: string,
    replacement: { firstname: string; lastname: string },
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<{ runner: RunnerRecord | null } | null>> {
    return answer(async () => {
      if (!this.store.meta()) return null;
      return this.commit(by, anonymiseRunner(this.context(by), id, replacement));
    });
  }

  /** What the race has about one runner (its record, log lines, review items), for a person's export; or null. */
  async runnerHistory(id: string): Promise<RaceAnswer<RunnerHistory | null>> {
    return answer(async () => runnerHistory(this.store, id));
  }

  async registerBib(id: string, bib: number | "next", by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, registerBib(this.context(by), id, bib));
    });
  }

  async removeRunner(id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord | null>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, removeRunner(this.context(by), id));
    });
  }

  // ——— the bib desk (rules/checkin.ts) ———

  /** These runners as the race has them now (those not in it are left out): the desk's view of a family. */
  async runnersById(ids: string[]): Promise<RaceAnswer<RunnerRecord[]>> {
    return answer(async () => {
      await this.ready();
      const meta = this.store.requireMeta();
      if (!Array.isArray(ids) || ids.length > MAX_PICKUP_RUNNERS) throw new RaceError(400, "Välj en till 30 löpare.");
      return ids
        .map((id) => this.store.runnerRow(checkId(id)))
        .filter((row): row is NonNullable<typeof row> => row !== null && row.moving_to === null)
        .map((row) => runnerRecord(row, meta));
    });
  }

  /** 'Hämtat' (true) or 'Ångra' (false) for runners of this race; a replayed action id changes nothing. */
  async pickUp(
    ids: string[],
    pickedUp: boolean,
    action: PickupAction = {},
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<PickupResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, pickUp(this.context(by), ids, pickedUp, action));
    });
  }

  /** A bib at pick-up: the next free number of the distance for a runner without one, or a typed one. */
  async bibAtPickup(id: string, bib: number | "next", by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, bibAtPickup(this.context(by), id, bib));
    });
  }

  /** 'Markera ej hämtade som DNS': after the start, every waiting runner who never picked up. */
  async dnsNotPickedUp(by: ChangeAuthor = {}): Promise<RaceAnswer<NotPickedUpResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, dnsNotPickedUp(this.context(by)));
    });
  }

  // ——— race day ———

  /** rules/start.ts: the start, the same start from another phone, or a start for the review list. */
  async start(
    tap: TapInput & { err?: number } = {},
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<StartResult | SentToReview>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, start(this.context(by), tap));
    });
  }

  /** rules/finish.ts: a finish, or (a tap the race cannot take as it is) an item for the review list. */
  async finish(
    id: string,
    tap: FinishTap = {},
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<FinishResult | SentToReview>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, finish(this.context(by), id, tap));
    });
  }

  /** The time finish event `seq` replaced, back on its runner (rules/finish.ts). */
  async restoreTime(seq: number, by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, restoreTime(this.context(by), seq));
    });
  }

  /** 'Att granska': the open items, oldest first. */
  async reviews(): Promise<RaceAnswer<ReviewRecord[]>> {
    return answer(async () => {
      await this.ready();
      const meta = this.store.requireMeta();
      return this.store.openReviews().map((row) => reviewRecord(row, meta));
    });
  }

  async applyReview(id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<ReviewDecision>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, applyReview(this.context(by), id));
    });
  }

  async discardReview(id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<ReviewDecision>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, discardReview(this.context(by), id));
    });
  }

  async restore(id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, restore(this.context(by), id));
    });
  }

  async setDns(id: string, dns: boolean, by: ChangeAuthor = {}): Promise<RaceAnswer<RunnerRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, setDns(this.context(by), id, dns));
    });
  }

  async end(by: ChangeAuthor = {}): Promise<RaceAnswer<RaceRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, end(this.context(by)));
    });
  }

  async reset(by: ChangeAuthor = {}): Promise<RaceAnswer<RaceRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, reset(this.context(by)));
    });
  }

  // ——— rapid timing and official results (issue 26) ———

  /** rules/rapid.ts: a 'Mål!' tap (a slot), or (a tap the race cannot take as it is) an item for the review list. */
  async rapidTap(
    tap: TapInput & { err?: number },
    by: ChangeAuthor = {},
  ): Promise<RaceAnswer<RapidTapResult | SentToReview>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, rapidTap(this.context(by), tap));
    });
  }

  /** rules/bib-entries.ts: a bib typed in finish order. */
  async enterBib(input: { entryId: string; bib: number }, by: ChangeAuthor = {}): Promise<RaceAnswer<BibEntryResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, enterBib(this.context(by), input));
    });
  }

  async changeBibEntry(entryId: string, bib: number, by: ChangeAuthor = {}): Promise<RaceAnswer<BibEntryResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, changeBibEntry(this.context(by), entryId, bib));
    });
  }

  async removeBibEntry(entryId: string, by: ChangeAuthor = {}): Promise<RaceAnswer<BibEntryResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, removeBibEntry(this.context(by), entryId));
    });
  }

  async restoreBibEntry(entryId: string, by: ChangeAuthor = {}): Promise<RaceAnswer<BibEntryResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, restoreBibEntry(this.context(by), entryId));
    });
  }

  /** rules/slots.ts: the slot holding tap `tapId` is this runner (by bib or id). */
  async assignSlot(tapId: string, target: AssignTarget, by: ChangeAuthor = {}): Promise<RaceAnswer<SlotResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, assignSlot(this.context(by), tapId, target));
    });
  }

  async unassignSlot(tapId: string, by: ChangeAuthor = {}): Promise<RaceAnswer<SlotResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, unassignSlot(this.context(by), tapId));
    });
  }

  async discardSlot(tapId: string, by: ChangeAuthor = {}): Promise<RaceAnswer<SlotResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, discardSlot(this.context(by), tapId));
    });
  }

  async restoreSlot(tapId: string, by: ChangeAuthor = {}): Promise<RaceAnswer<SlotResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, restoreSlot(this.context(by), tapId));
    });
  }

  async setMainTimer(device: string | null, by: ChangeAuthor = {}): Promise<RaceAnswer<RaceRecord>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, setMainTimer(this.context(by), device));
    });
  }

  /** rules/results.ts: the results become official (once; only on an ended race). */
  async markOfficial(confirm: boolean, by: ChangeAuthor = {}): Promise<RaceAnswer<OfficialResult>> {
    return answer(async () => {
      await this.ready();
      return this.commit(by, markOfficial(this.context(by), confirm === true));
    });
  }

  /** Rapid timing now: the merged, numbered slots and who each one is. */
  async rapidTiming(): Promise<RaceAnswer<RapidTiming>> {
    return answer(async () => {
      await this.ready();
      const view = rapidView(this.store);
      const bySlot = new Map(view.matching.pairs.map((p) => [p.slot, p]));
      return {
        reference: view.alignment.reference,
        offsets: view.alignment.offsets,
        slots: view.alignment.slots.map((slot) => ({
          key: slot.key,
          number: slot.number,
          at: slot.at,
          taps: slot.taps,
          single: slot.single,
          runnerId: bySlot.get(slot.key)?.runnerId ?? null,
          claim: bySlot.get(slot.key)?.claim ?? null,
        })),
      };
    });
  }

  /** "Byt distans" (rules/move.ts): the target must be a race in D1's index. */
  async moveRunner(targetPart: string, id: string, by: ChangeAuthor = {}): Promise<RaceAnswer<MoveResult>> {
    return answer(async () => {
      await this.ready();
      checkMove(this.context(by), targetPart, id);
      const target = await indexedRace(this.env, targetPart);
      if (!target) throw new RaceError(404, "Loppet finns inte");
      if (target.state === "ended") {
        throw new RaceError(409, "Loppet är avslutat och tar inte emot fler löpare. Löparen ligger kvar i sitt lopp.");
      }
      const moving = beginMove(this.context(by), targetPart, id);
      if (moving.effects.runners?.length) await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
      const row = await this.commit(by, moving);
      return this.completeMove(row.id, by);
    });
  }

  /** The admin's logout: every socket of that session is closed at once. How many were. */
  async closeSessionSockets(session: string): Promise<RaceAnswer<number>> {
    return answer(async () => closeSessions(this.ctx, new Set([session])));
  }

  /** The audit trail, oldest first (for the race-day screens and for tests). */
  async events(sinceSeq = 0): Promise<RaceAnswer<RaceAuditEvent[]>> {
    return answer(async () => {
      await this.ready();
      return this.store.events(sinceSeq);
    });
  }

  /** The newest `limit` audit rows, newest first (the race screen's log). */
  async recentEvents(limit = 500): Promise<RaceAnswer<RaceAuditEvent[]>> {
    return answer(async () => {
      await this.ready();
      return this.store.recentEvents(limit);
    });
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
        subscribe(this.store, ws, frame.since ?? 0, this.clock.now());
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
   * Retries what a failed call left unfinished: distance moves and D1 mirrors (the race's and each runner's); and
   * sends the families' results mail a change left owed (results-mail.ts).
   */
  override async alarm(): Promise<void> {
    const meta = this.store.meta();
    if (!meta) return;
    let unfinished = false;
    for (const { id } of this.store.sql<{ id: string }>("SELECT id FROM runners WHERE moving_to IS NOT NULL")) {
      try {
        await this.completeMove(id, { actor: "system" });
      } catch (err) {
        // A target that refused for good cancelled the move (the runner is back); anything else is retried.
        if (this.store.runnerRow(id)?.moving_to == null) continue;
        console.error("distance move still unfinished", meta.part, id, err);
        unfinished = true;
      }
    }
    for (const id of this.store.pendingMirrors()) {
      try {
        await mirrorRunner(this.env, this.store, id);
      } catch (err) {
        console.error("runner mirror to D1 still failing", meta.part, id, err);
        unfinished = true;
      }
    }
    try {
      if (this.store.meta()?.mirror_pending) await this.mirrorRace();
    } catch (err) {
      console.error("race mirror to D1 failed", meta.part, err);
      unfinished = true;
    }
    try {
      if (!(await this.sendResultsMail())) unfinished = true;
    } catch (err) {
      console.error("results mail still owed", meta.part, err);
      unfinished = true;
    }
    if (unfinished || this.store.meta()?.mirror_pending) {
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
    }
  }

  // ——— the race itself ———

  /**
   * The object is its race: one with storage knows it; one without makes itself once from its row in D1's index
   * (named by the object's own name), with the state D1 mirrors. Only a race D1 does not have is a 404.
   */
  private async ready(): Promise<void> {
    if (!(await this.exists())) throw new RaceError(404, "Loppet finns inte");
  }

  private async exists(): Promise<boolean> {
    if (this.store.meta()) return true;
    const part = this.ctx.id.name;
    if (!part || !isRaceId(part)) return false;
    const [indexed, known] = await Promise.all([indexedRace(this.env, part), participantsInRace(this.env, part)]);
    if (!indexed) return false;
    // Two calls may both have read D1 by now: the first to get here makes the race, the second finds it made.
    await this.commit({ actor: "system" }, createRace(this.context({ actor: "system" }), indexed, known));
    return true;
  }

  // ——— carrying out a rule's effects ———

  private context(by: ChangeAuthor): RuleContext {
    return { store: this.store, now: this.clock.now(), by };
  }

  /**
   * Reconciles rapid timing and the results' status with the rule's change (synchronously, before any await),
   * broadcasts what changed (to the admin sockets, then as a notice to the spectator fan-out), then mirrors it to
   * D1; answers the rule's value. A mirror that fails is left owed (the rule marked it) and the alarm retries it:
   * the change itself has committed and stands.
   */
  private async commit<T>(by: ChangeAuthor, decision: Decision<T>): Promise<T> {
    // Still the rule's synchronous step (no await before this): rapid timing is reconciled with the change, and
    // the results' status follows it, before any other call can land.
    const context = this.context(by);
    let effects: Effects = decision.effects;
    if (!effects.reconciled) effects = mergeEffects(effects, reconcile(context).effects);
    effects = mergeEffects(effects, keepResultsStatus(context, effects));
    // While the results are official, every change leaves the families' results mail owed (results-mail.ts).
    const mailOwed = oweResultsMail(this.store, this.ctx.storage, effects);
    if (
      effects.race ||
      effects.runners?.length ||
      effects.reviews?.length ||
      effects.slots?.length ||
      effects.entries?.length
    ) {
      await this.recheckSessions();
      const meta = this.store.requireMeta();
      const events = [
        ...(effects.race ? [raceEvent(meta)] : []),
        ...(effects.runners?.length ? runnerEvents(this.store, effects.runners) : []),
        ...(effects.reviews?.length ? reviewEvents(this.store, effects.reviews) : []),
        ...(effects.slots?.length ? slotEvents(this.store, effects.slots) : []),
        ...(effects.entries?.length ? bibEntryEvents(this.store, effects.entries) : []),
      ];
      broadcast(
        this.ctx,
        events.sort((a, b) => a.seq - b.seq),
        this.clock.now(),
      );
      // After the admin sockets have it, and without waiting: the crowd never slows a tap.
      if (effects.race || effects.runners?.length) this.spectators.changed(this.store);
    }
    if (mailOwed) await this.armResultsMail();
    for (const id of effects.mirror ?? []) await this.mirrorRunner(id);
    if (effects.mirrorRace) await this.mirrorRace();
    return decision.value;
  }

  /**
   * Before a broadcast, at most every SESSION_RECHECK_MS: sockets whose session was revoked, expired or whose
   * address left the allowlist are closed (src/durable/socket-sessions.ts). A failed check waits for the next.
   */
  private async recheckSessions(): Promise<void> {
    const now = this.clock.now();
    if (!this.sessionRecheck.due(now)) return;
    const sessions = subscribedSessions(this.ctx);
    if (sessions.length === 0) return;
    this.sessionRecheck.started(now);
    try {
      closeSessions(this.ctx, await endedSessions(this.env, sessions, now));
    } catch (err) {
      console.warn("socket session re-check failed", err);
    }
  }

  /** The alarm now, unless it is already due sooner (the owed results mail is sent from the alarm). */
  private async armResultsMail(): Promise<void> {
    const now = this.clock.now();
    const at = await this.ctx.storage.getAlarm();
    if (at === null || at > now) await this.ctx.storage.setAlarm(now);
  }

  /**
   * The owed results mail (results-mail.ts), one run at a time: while one is on its way (awaiting D1 or the queue),
   * another alarm leaves it owed for the next. False when it is still owed.
   */
  private async sendResultsMail(): Promise<boolean> {
    if (!resultsMailOwed(this.ctx.storage)) return true;
    if (this.mailing) return false;
    this.mailing = true;
    try {
      await sendResultsMail(
        this.env,
        this.store,
        this.ctx.storage,
        () => [raceRecord(this.store.requireMeta()), ...this.runnersNow()],
        this.clock.now(),
      );
    } finally {
      this.mailing = false;
    }
    return !resultsMailOwed(this.ctx.storage);
  }

  private async mirrorRunner(id: string): Promise<void> {
    try {
      await mirrorRunner(this.env, this.store, id);
    } catch (err) {
      console.error("runner mirror to D1 failed; the alarm retries", this.store.meta()?.part, id, err);
      await this.ctx.storage.setAlarm(this.clock.now() + RETRY_MS);
    }
  }

  private mirrorRace(): Promise<void> {
    return mirrorRace(this.env, this.store, this.ctx.storage, this.clock);
  }

  /**
   * Steps 2 and 3 of a move (rules/move.ts): add to the target (idempotent), then remove here. When the target
   * refuses for good the move is cancelled, the runner is back here, and the refusal is thrown. Any other failure
   * is thrown too and is worth retrying (the alarm tries again).
   */
  private async completeMove(id: string, by: ChangeAuthor): Promise<MoveResult> {
    const row = this.store.runnerRow(id);
    if (!row || row.moving_to === null) throw new RaceError(404, "Löparen finns inte i loppet.");
    const targetPart = row.moving_to;
    // The target object makes itself from D1 when it has no storage yet; a race D1 lacks answers 404. A failure
    // to reach it is thrown on (the alarm retries); a refusal is an answer.
    const answer = await this.env.RACE.getByName(targetPart).addRunner(
      {
        id: row.id,
        firstname: row.firstname,
        lastname: row.lastname,
        age: row.age,
        company: row.company,
        group: row.grp,
        bib: row.bib,
        pickedUpAt: row.picked_up_at,
      },
      by,
      { dropTakenBib: true, move: true },
    );
    if (!answer.ok) {
      const refusal = new RaceError(answer.status, answer.error, { final: answer.final === true });
      // A refusal that a retry could change (a 409 of a busy race) leaves the move for the alarm.
      if (!isPermanentRefusal(refusal)) throw refusal;
      await this.commit(by, cancelMove(this.context(by), id, targetPart, answer.error));
      throw answer.status === 409 ? refusal : new RaceError(404, "Loppet finns inte");
    }
    const added: AddRunnerResult = answer.value;
    return this.commit(by, endMove(this.context(by), row, targetPart, added));
  }

  private runnersNow(): RunnerRecord[] {
    const meta = this.store.requireMeta();
    return this.store
      .liveRunnerRows()
      .map((row) => runnerRecord(row, meta))
      .sort(compareRunners);
  }
}

/**
 * An RPC method's answer: the race's refusals (its rules' 4xx) travel as values, not exceptions, so they are
 * never logged as the object's uncaught errors and real errors stand out. Anything else is thrown on.
 */
async function answer<T>(run: () => Promise<T>): Promise<RaceAnswer<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (!(err instanceof RaceError)) throw err;
    return err.final
      ? { ok: false, status: err.status, error: err.message, final: true }
      : { ok: false, status: err.status, error: err.message };
  }
}

function mirroredState(indexed: IndexedRace | null): { state?: string; started?: number | null } {
  return indexed ? { state: indexed.state, started: indexed.started } : {};
}

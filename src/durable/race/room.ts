/**
 * The race room: one race's rules over its storage, with nothing of a Durable Object in it. It is built from a SQL
 * port, a key-value port (ports.ts) and a clock, so the race object (race-do.ts) runs it on its SQLite storage and
 * the rules' tests run it on Node's built-in SQLite (test/race-room/).
 *
 * A change is one command (commands.ts) decided in one exhaustive switch (`decide`) by its rule (`rules/`, one file
 * per concern). `apply` then does, in the same synchronous step (no await, so no other call lands in between),
 * everything the change causes inside the race:
 * 1. rapid timing is reconciled with it (rules/reconcile.ts: slot times, rapid timing's review items);
 * 2. the results' status follows it (rules/results.ts: preliminary from the first finish, corrected after
 *    'Officiella');
 * 3. while the results are official, the families' results mail is left owed (results-mail.ts);
 * 4. the records it changed become the events every admin socket gets, in seq order (records.ts).
 * It answers the rule's value and what the change owes the world outside the room (`Owed`): the events to
 * broadcast, the notice to the spectators' fan-out, the results mail, the D1 mirrors. The object carries those out;
 * each is also kept in storage (a mirror owed, the mail owed), so what a failed or evicted object left undone is
 * done by its alarm.
 *
 * States of the race: not started ('') → started → ended (only when nobody is waiting: every runner has finished
 * or is marked DNS); a reset returns any state to not started (runners and bibs kept). The invariants sit with the
 * rules that keep them: sequence numbers and the audit trail in storage.ts, finishes and taps in rules/finish.ts,
 * bibs in rules/bib.ts, distance moves in rules/move.ts, rapid timing in rules/reconcile.ts.
 */
import type { Clock } from "../../shared/clock";
import {
  compareRunners,
  RaceError,
  type RaceAuditEvent,
  type RaceEvent,
  type RaceRecord,
  type RaceSnapshot,
  type RetimeConfirm,
  type ReviewRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import type { MoveResult, RapidTiming } from "../../shared/race-answers";
import type { PublicUpdate } from "../../shared/spectator-protocol";
import type { AnswerOf, RaceCommand } from "./commands";
import type { KvPort, SqlPort } from "./ports";
import { publicUpdate } from "./public-feed";
import {
  bibEntryEvents,
  bibEntryRecord,
  photoEvents,
  raceEvent,
  raceRecord,
  reviewEvents,
  reviewRecord,
  runnerEvent,
  runnerEvents,
  runnerRecord,
  slotEvents,
  slotRecord,
} from "./records";
import {
  oweResultsMail,
  resultsMailAt,
  resultsMailDone,
  resultsMailDue,
  resultsMailDueNow,
  type ResultsMailRun,
} from "./results-mail";
import { changeBibEntry, enterBib, removeBibEntry, restoreBibEntry } from "./rules/bib-entries";
import { registerBib } from "./rules/bib";
import { bibAtPickup, dnsNotPickedUp, MAX_PICKUP_RUNNERS, pickUp } from "./rules/checkin";
import { checkId, checkOwner } from "./rules/checks";
import { checkRaceInit, createRace, updateExistingRace, type MirroredState } from "./rules/create";
import { decided, mergeEffects, type Decision, type Effects, type RuleContext } from "./rules/decision";
import { setDns } from "./rules/dns";
import { end } from "./rules/end";
import { anonymiseRunner, runnerHistory, type Replacement, type RunnerHistory } from "./rules/erase";
import { finish, restore, restoreTime } from "./rules/finish";
import { beginMove, cancelMove, checkMove, endMove } from "./rules/move";
import { PhotoUploadBudget } from "./rules/photo-uploads";
import { deletePhotos, hasPhoto, liveTapsWithPhotos, photosChangedSince, recordPhoto } from "./rules/photos";
import { rapidTap } from "./rules/rapid";
import { rapidView, reconcile } from "./rules/reconcile";
import { keepResultsStatus, markOfficial } from "./rules/results";
import { reset } from "./rules/reset";
import { applyReview, discardReview } from "./rules/review";
import { addRunner, removeRunner, updateRunner } from "./rules/runners";
import { assignSlot, discardSlot, restoreSlot, setMainTimer, unassignSlot } from "./rules/slots";
import { checkRetimes, finishes, isGuarded, namedBy } from "./rules/retime";
import { start } from "./rules/start";
import { RaceStore, type RunnerRow } from "./storage";
import type { AddRunnerResult, ChangeAuthor, KnownParticipant, RaceInit, RunnerInput, RunnerOwner } from "./types";

/** What a change owes beyond the room; the race object carries it out (race-do.ts `carry`). */
export interface Owed {
  /** The records the change made or touched, in seq order, for every subscribed admin socket (none: no change). */
  events: RaceEvent[];
  /** The race or a runner changed: the spectators' fan-out hears of it (public-feed.ts). */
  spectators: boolean;
  /** A results mail is now owed (the alarm sends it). */
  resultsMail: boolean;
  /** Runners whose race, bib and distance D1 must mirror now (each is marked owed in storage for the alarm). */
  mirror: readonly string[];
  /** The race's state, start and results status to D1's index and the hub (marked owed in storage too). */
  mirrorRace: boolean;
}

export interface Applied<T> {
  value: T;
  owed: Owed;
}

/** The subscribe answer: the hello frame and then the whole race, or what changed after the page's seq. */
export interface CatchUp {
  hello: { type: "hello"; part: string; seq: number; snapshot: boolean };
  events: RaceEvent[];
}

/** What D1's participants row of a runner must say (d1.ts): in this race, or no longer (unlink it). */
export type RunnerMirror =
  | {
      inRace: true;
      part: string;
      bib: number | null;
      distance: number;
      pickedUpAt: number | null;
      seq: number;
      /** Whose participants row it is (null: not known, from before owners were kept). */
      owner: RunnerOwner | null;
      /** When the runner joined this race (epoch ms). */
      addedAt: number;
    }
  | { inRace: false; part: string; seq: number | undefined };

/** What D1's races row must say (d1.ts), as of the change `seq`. */
export interface RaceMirror {
  part: string;
  state: string;
  started: number | null;
  results: string;
  officialAt: number | null;
  seq: number;
}

/** The one exhaustive switch: which rule decides each command. */
function decide(context: RuleContext, command: RaceCommand): Decision<unknown> {
  switch (command.type) {
    case "add-runner":
      return addRunner(context, command.runner, command.options ?? {}) satisfies Decided<"add-runner">;
    case "update-runner":
      return updateRunner(context, command.runnerId, command.patch) satisfies Decided<"update-runner">;
    case "remove-runner":
      return removeRunner(context, command.runnerId) satisfies Decided<"remove-runner">;
    case "register-bib":
      return registerBib(context, command.runnerId, command.bib) satisfies Decided<"register-bib">;
    case "pick-up":
      return pickUp(context, command.runnerIds, command.pickedUp, command.action ?? {}) satisfies Decided<"pick-up">;
    case "bib-at-pickup":
      return bibAtPickup(context, command.runnerId, command.bib) satisfies Decided<"bib-at-pickup">;
    case "dns-not-picked-up":
      return dnsNotPickedUp(context) satisfies Decided<"dns-not-picked-up">;
    case "start":
      return start(context, command.tap ?? {}) satisfies Decided<"start">;
    case "finish":
      return finish(context, command.runnerId, command.tap ?? {}) satisfies Decided<"finish">;
    case "undo-finish":
      return restore(context, command.runnerId) satisfies Decided<"undo-finish">;
    case "restore-time":
      return restoreTime(context, command.seq) satisfies Decided<"restore-time">;
    case "set-dns":
      return setDns(context, command.runnerId, command.dns) satisfies Decided<"set-dns">;
    case "end":
      return end(context) satisfies Decided<"end">;
    case "reset":
      return reset(context) satisfies Decided<"reset">;
    case "apply-review":
      return applyReview(context, command.reviewId) satisfies Decided<"apply-review">;
    case "discard-review":
      return discardReview(context, command.reviewId) satisfies Decided<"discard-review">;
    case "rapid-tap":
      return rapidTap(context, command.tap ?? {}) satisfies Decided<"rapid-tap">;
    case "enter-bib":
      return enterBib(context, {
        entryId: command.entryId,
        bib: command.bib,
        at: command.at,
      }) satisfies Decided<"enter-bib">;
    case "change-bib-entry":
      return changeBibEntry(context, command.entryId, command.bib) satisfies Decided<"change-bib-entry">;
    case "remove-bib-entry":
      return removeBibEntry(context, command.entryId) satisfies Decided<"remove-bib-entry">;
    case "restore-bib-entry":
      return restoreBibEntry(context, command.entryId) satisfies Decided<"restore-bib-entry">;
    case "assign-slot":
      return assignSlot(context, command.tapId, command.target) satisfies Decided<"assign-slot">;
    case "unassign-slot":
      return unassignSlot(context, command.tapId) satisfies Decided<"unassign-slot">;
    case "discard-slot":
      return discardSlot(context, command.tapId) satisfies Decided<"discard-slot">;
    case "restore-slot":
      return restoreSlot(context, command.tapId) satisfies Decided<"restore-slot">;
    case "set-main-timer":
      return setMainTimer(context, command.device) satisfies Decided<"set-main-timer">;
    case "mark-official":
      return markOfficial(context, command.confirm === true) satisfies Decided<"mark-official">;
    case "record-photo":
      return recordPhoto(context, {
        tapId: command.tapId,
        frame: command.frame,
        bytes: command.bytes,
        ...(command.limit === undefined ? {} : { limit: command.limit }),
      }) satisfies Decided<"record-photo">;
    case "delete-photos":
      return deletePhotos(
        context,
        command.reason === "retention" ? "retention" : "organiser",
      ) satisfies Decided<"delete-photos">;
    default: {
      const unknown: never = command;
      // Only a caller outside the type system gets here (RPC carries plain objects).
      throw new RaceError(400, `Okänd ändring av loppet: ${JSON.stringify((unknown as { type?: unknown }).type)}.`);
    }
  }
}

type Decided<K extends RaceCommand["type"]> = Decision<AnswerOf<{ type: K }>>;

export class RaceRoom {
  private readonly store: RaceStore;
  /** Målfoto's uploads per admin session, in memory only (rules/photo-uploads.ts). */
  private readonly photoUploads = new PhotoUploadBudget();

  constructor(
    sql: SqlPort,
    private readonly kv: KvPort,
    private readonly clock: Clock,
  ) {
    this.store = new RaceStore(sql, clock);
  }

  /** The storage's schema, brought up to date (once, before anything else). */
  migrate(): void {
    this.store.migrate();
  }

  /** Whether this storage is a race yet (made by `create`). */
  exists(): boolean {
    return this.store.meta() !== null;
  }

  /** The race's id; null before the race is made. */
  part(): string | null {
    return this.store.meta()?.part ?? null;
  }

  /**
   * The command decided by its rule, and everything the change causes (module comment). An action that may re-time
   * runners it does not name runs inside a transaction that rolls it back unless the organiser confirmed exactly who
   * gets which time (rules/retime.ts).
   */
  apply<C extends RaceCommand>(command: C, by: ChangeAuthor = {}): Applied<AnswerOf<C>> {
    this.store.requireMeta();
    // Målfoto's upload rate limit, before the rule decides anything (a 429 writes nothing).
    if (command.type === "record-photo" && command.uploader !== undefined) {
      this.photoUploads.take(command.uploader, this.clock.now());
    }
    const rule = (context: RuleContext) => decide(context, command) as Decision<AnswerOf<C>>;
    if (!isGuarded(this.store, command)) return this.settle(by, rule);
    const before = finishes(this.store);
    const named = namedBy(this.store, command);
    const changed = this.store.transaction(() => {
      const change = this.change(by, rule);
      checkRetimes(this.store, before, named, (command as { confirm?: RetimeConfirm[] }).confirm);
      return change;
    });
    return this.owe(changed);
  }

  // ——— changes that span objects: the object runs their steps ———

  /** `init` on a race that exists: whether registration is open follows `race`. Null before the race is made. */
  updateRace(race: RaceInit, by: ChangeAuthor = {}): Applied<RaceRecord> | null {
    checkRaceInit(race);
    if (!this.exists()) return null;
    return this.settle(by, (context) => updateExistingRace(context, race)!);
  }

  /**
   * Makes the storage the race, with the runners D1 already places in it (read by the object). A race made by
   * another call meanwhile (both read D1) is answered as it is.
   */
  create(
    race: RaceInit & MirroredState,
    known: readonly KnownParticipant[],
    by: ChangeAuthor = {},
  ): Applied<RaceRecord> {
    return this.settle(by, (context) => createRace(context, race, known));
  }

  /** What a change of distance can be refused for before the target is looked up in D1 (rules/move.ts). */
  checkMove(targetPart: string, runnerId: string): void {
    checkMove(this.context({}), targetPart, runnerId);
  }

  /** Step 1 of a change of distance: the runner leaves this race's lists. */
  beginMove(targetPart: string, runnerId: string, by: ChangeAuthor = {}): Applied<RunnerRow> {
    return this.settle(by, (context) => beginMove(context, targetPart, runnerId));
  }

  /** A runner on its way to another race, as the target's `add-runner` takes it; null when it is not moving. */
  movingRunner(runnerId: string): { targetPart: string; runner: RunnerInput } | null {
    const row = this.store.runnerRow(runnerId);
    if (!row || row.moving_to === null) return null;
    return {
      targetPart: row.moving_to,
      runner: {
        id: row.id,
        firstname: row.firstname,
        lastname: row.lastname,
        age: row.age,
        company: row.company,
        group: row.grp,
        bib: row.bib,
        pickedUpAt: row.picked_up_at,
        ...(checkOwner(row.owner) ? { owner: checkOwner(row.owner)! } : {}),
      },
    };
  }

  /** Step 3: the target has the runner; here it leaves a tombstone. */
  endMove(runnerId: string, targetPart: string, added: AddRunnerResult, by: ChangeAuthor = {}): Applied<MoveResult> {
    const row = this.store.runnerRow(runnerId);
    if (!row || row.moving_to !== targetPart) throw new RaceError(404, "Löparen finns inte i loppet.");
    return this.settle(by, (context) => endMove(context, row, targetPart, added));
  }

  /**
   * The target refused for good: the runner is back in this race's lists. Only the move to that target is
   * cancelled: two finishings of one move can run at once (the alarm's and the call's), and a late refusal of a move
   * already cancelled must not undo the move the runner is on now (to another race, which may already have added
   * it): then nothing is written.
   */
  cancelMove(runnerId: string, targetPart: string, reason: string, by: ChangeAuthor = {}): Applied<null> {
    if (this.store.runnerRow(runnerId)?.moving_to !== targetPart) return this.settle(by, () => decided(null));
    return this.settle(by, (context) => cancelMove(context, runnerId, targetPart, reason));
  }

  /** The runners on their way to another race (the alarm finishes their moves). */
  movingRunners(): string[] {
    return this.store.sql<{ id: string }>("SELECT id FROM runners WHERE moving_to IS NOT NULL").map((r) => r.id);
  }

  /** Erasure (rules/erase.ts): null when this storage is no race, or the race has nothing about the runner. */
  anonymise(
    runnerId: string,
    replacement: Replacement,
    by: ChangeAuthor = {},
  ): Applied<{ runner: RunnerRecord | null; photos?: string[]; photoObjects?: string[] } | null> | null {
    if (!this.exists()) return null;
    return this.settle(by, (context) => anonymiseRunner(context, runnerId, replacement));
  }

  // ——— reads ———

  race(): RaceRecord {
    return raceRecord(this.store.requireMeta());
  }

  /** The race's runners (not those on their way to another race), waiting first by bib, then by finish. */
  runners(): RunnerRecord[] {
    const meta = this.store.requireMeta();
    return this.store
      .liveRunnerRows()
      .map((row) => runnerRecord(row, meta))
      .sort(compareRunners);
  }

  runner(runnerId: string): RunnerRecord | null {
    const meta = this.store.requireMeta();
    const row = this.store.runnerRow(checkId(runnerId));
    return row && row.moving_to === null ? runnerRecord(row, meta) : null;
  }

  /** These runners as the race has them now (those not in it are left out): the bib desk's view of a family. */
  runnersById(runnerIds: readonly string[]): RunnerRecord[] {
    const meta = this.store.requireMeta();
    if (!Array.isArray(runnerIds) || runnerIds.length > MAX_PICKUP_RUNNERS) {
      throw new RaceError(400, "Välj en till 30 löpare.");
    }
    return runnerIds
      .map((id) => this.store.runnerRow(checkId(id)))
      .filter((row): row is RunnerRow => row !== null && row.moving_to === null)
      .map((row) => runnerRecord(row, meta));
  }

  /** The race record, then the runners (the admin's `GET /admin/api/races/get/{part}`). */
  snapshot(): RaceSnapshot {
    return [this.race(), ...this.runners()];
  }

  /** 'Att granska': the open items, oldest first. */
  reviews(): ReviewRecord[] {
    const meta = this.store.requireMeta();
    return this.store.openReviews().map((row) => reviewRecord(row, meta));
  }

  /** Rapid timing now: the merged, numbered slots and who each one is. */
  rapidTiming(): RapidTiming {
    this.store.requireMeta();
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
  }

  /** Målfoto: whether the race keeps frame `frame` of tap `tapId` now (rules/photos.ts). */
  hasPhoto(tapId: string, frame: number): boolean {
    this.store.requireMeta();
    return hasPhoto(this.store, tapId, frame);
  }

  /** The public records changed after `since` (all of them for 0): the spectators' fan-out's read. */
  publicSince(since: number): PublicUpdate {
    return publicUpdate(this.store, Number.isSafeInteger(since) ? since : 0);
  }

  /** The audit trail after `sinceSeq`, oldest first. */
  events(sinceSeq = 0): RaceAuditEvent[] {
    this.store.requireMeta();
    return this.store.events(sinceSeq);
  }

  /** The newest `limit` audit rows, newest first (the race screen's log). */
  recentEvents(limit = 500): RaceAuditEvent[] {
    this.store.requireMeta();
    return this.store.recentEvents(limit);
  }

  /** What the race has about one runner (record, log lines, review items), for a person's export; or null. */
  history(runnerId: string): RunnerHistory | null {
    return runnerHistory(this.store, runnerId);
  }

  /**
   * `subscribe-to-race`: a page that is new, or ahead of the race (storage made anew, or a bad number), gets the
   * whole race (the race, its runners, the open review items, rapid timing's taps and typed bibs); otherwise only the
   * records changed after `since`, in seq order.
   */
  catchUp(since: number): CatchUp {
    const store = this.store;
    const meta = store.requireMeta();
    const latest = store.latestSeq();
    if (since <= 0 || since > latest) {
      const runners = store.liveRunnerRows().map((row) => runnerEvent(row, meta));
      return {
        hello: { type: "hello", part: meta.part, seq: latest, snapshot: true },
        events: [
          raceEvent(meta),
          ...runners.sort(compareRunners),
          ...store.openReviews().map((row) => reviewRecord(row, meta)),
          ...store.rapidTaps().map((row) => slotRecord(row, meta)),
          ...store.liveBibEntries().map((row) => bibEntryRecord(row, meta)),
          ...photoEvents(store, liveTapsWithPhotos(store)),
        ],
      };
    }
    const events: RaceEvent[] = [];
    if (meta.seq > since) events.push(raceEvent(meta));
    events.push(...runnerEvents(store, store.changedSince(since)));
    events.push(...reviewEvents(store, store.reviewsChangedSince(since)));
    events.push(...slotEvents(store, store.rapidTapsChangedSince(since)));
    events.push(...bibEntryEvents(store, store.bibEntriesChangedSince(since)));
    events.push(...photoEvents(store, photosChangedSince(store, since)));
    events.sort((a, b) => a.seq - b.seq);
    return { hello: { type: "hello", part: meta.part, seq: latest, snapshot: false }, events };
  }

  // ——— what the object owes outside: D1's mirror and the results mail ———

  /** Runners (and tombstones) whose D1 mirror is still owed. */
  pendingMirrors(): string[] {
    return this.store.pendingMirrors();
  }

  /** What D1 must say of this runner now; null when the race never had it. */
  runnerMirror(runnerId: string): RunnerMirror | null {
    const meta = this.store.requireMeta();
    const row = this.store.runnerRow(runnerId);
    if (row && row.moving_to === null) {
      return {
        inRace: true,
        part: meta.part,
        bib: row.bib,
        distance: meta.distance,
        pickedUpAt: row.picked_up_at,
        seq: row.seq,
        owner: checkOwner(row.owner),
        addedAt: row.added_at,
      };
    }
    // On its way to another race: the target's mirror links it there; this race's tombstone unlinks it later.
    if (row) return null;
    return { inRace: false, part: meta.part, seq: this.store.removedSeq(runnerId) };
  }

  /** The mirror of the runner as it was at `seq` reached D1: its debt is paid unless a later change owes another. */
  runnerMirrored(runnerId: string, seq: number): void {
    this.store.mirrored(runnerId, seq);
  }

  /** What D1's index must say of the race now, and whether a mirror is still owed. */
  raceMirror(): (RaceMirror & { pending: boolean }) | null {
    const meta = this.store.meta();
    if (!meta) return null;
    return {
      part: meta.part,
      state: meta.state,
      started: meta.started,
      results: meta.results,
      officialAt: meta.official_at,
      seq: meta.seq,
      pending: meta.mirror_pending === 1,
    };
  }

  /** The race's state as of `seq` reached D1: only that state is done (a change that landed meanwhile still owes). */
  raceMirrored(seq: number): void {
    this.store.sql("UPDATE meta SET mirror_pending = 0 WHERE id = 1 AND seq = ?", seq);
  }

  /** The results mail owed, with the race to mail from as it is now; null when none is owed (results-mail.ts). */
  resultsMailDue(): ResultsMailRun | null {
    return resultsMailDue(this.store, this.kv, () => this.snapshot());
  }

  /** A run went through: it is no longer owed, unless a change came in while it ran. */
  resultsMailDone(run: ResultsMailRun): void {
    resultsMailDone(this.kv, run);
  }

  /** When the owed results mail falls due (after the race has been still a while); null when none is owed. */
  resultsMailAt(): number | null {
    return resultsMailAt(this.kv);
  }

  /** The owed results mail falls due at `now` (development's browser tests); false when none is owed. */
  resultsMailDueNow(now: number): boolean {
    return resultsMailDueNow(this.kv, now);
  }

  /** A distance move or a D1 mirror is still owed (the object's alarm retries them). */
  owesRetry(): boolean {
    return this.movingRunners().length > 0 || this.pendingMirrors().length > 0 || this.raceMirror()?.pending === true;
  }

  // ——— a change's synchronous step ———

  private context(by: ChangeAuthor): RuleContext {
    return { store: this.store, now: this.clock.now(), by };
  }

  /**
   * The rule's decision, then what it causes, all before the caller can await anything (module comment, 1–4).
   */
  private settle<T>(by: ChangeAuthor, rule: (context: RuleContext) => Decision<T>): Applied<T> {
    return this.owe(this.change(by, rule));
  }

  /** The change in SQLite: the rule's writes, rapid timing reconciled, the results' status (module comment, 1–2). */
  private change<T>(by: ChangeAuthor, rule: (context: RuleContext) => Decision<T>): Decision<T> {
    const context = this.context(by);
    const decision = rule(context);
    let effects: Effects = decision.effects;
    if (!effects.reconciled) effects = mergeEffects(effects, reconcile(context).effects);
    effects = mergeEffects(effects, keepResultsStatus(context, effects));
    return { value: decision.value, effects };
  }

  /** What a change written owes: the results mail (kept in the key-value port), its events, the mirrors (3–4). */
  private owe<T>({ value, effects }: Decision<T>): Applied<T> {
    const resultsMail = oweResultsMail(this.store, this.kv, effects);
    const events = this.changedRecords(effects);
    return {
      value,
      owed: {
        events,
        spectators: events.length > 0 && Boolean(effects.race || effects.runners?.length),
        resultsMail,
        mirror: effects.mirror ?? [],
        mirrorRace: effects.mirrorRace === true,
      },
    };
  }

  /** The records a change names, as they are after it, in seq order. */
  private changedRecords(effects: Effects): RaceEvent[] {
    const store = this.store;
    const meta = store.requireMeta();
    const events = [
      ...(effects.race ? [raceEvent(meta)] : []),
      ...(effects.runners?.length ? runnerEvents(store, effects.runners) : []),
      ...(effects.reviews?.length ? reviewEvents(store, effects.reviews) : []),
      ...(effects.slots?.length ? slotEvents(store, effects.slots) : []),
      ...(effects.entries?.length ? bibEntryEvents(store, effects.entries) : []),
      ...(effects.photos?.length ? photoEvents(store, effects.photos) : []),
    ];
    return events.sort((a, b) => a.seq - b.seq);
  }
}

/**
 * The race's side of the spectators (src/durable/spectators.ts): what changed publicly after a seq, as public
 * records only (shared/public-view.ts; the room's `publicSince`), and the race object's fire-and-forget notice to
 * the race's spectator fan-out after each change. The race object never holds a spectator socket and never waits for the fan-out: a tap's
 * answer and the admin sockets' broadcast are done before the notice leaves, and a notice that fails is simply
 * sent again, with everything since, at the next change (the fan-out also re-reads by itself when its copy is
 * old, or when a notice does not follow on from what it has).
 *
 * Child-safe publishing (shared/public-view.ts, issue 38 item 3): a withheld runner's public record does not change
 * with their finish while the race runs, so the fan-out, which passes on only what differs from its copy, has
 * nothing to send. Their record does change with the race's state (they show 'Fullföljt' from the end), which
 * their own row's seq does not know: an update after which the race record changed brings every withheld finisher
 * along. The records of an update are listed by `sort`, never in the order of their seqs, which would be the
 * withheld children's finish order.
 */
import { publishesResult } from "../../shared/child-safe";
import {
  seasonPublicContext,
  publicRace,
  publicRunner,
  showsFinish,
  type PublicRunnerChange,
} from "../../shared/public-view";
import { isRemovedRunner, type RunnerRecord } from "../../shared/race-protocol";
import type { PublicUpdate } from "../../shared/spectator-protocol";
import { raceRecord, runnerEvents, runnerRecord } from "./records";
import type { RaceStore } from "./storage";

/**
 * The public records changed after `since`, as they are now, with the race's latest seq. `since` 0, or a seq the
 * race has never reached (its storage was made anew), gives every record (`since` 0 in the answer). The race
 * record always comes along: it is small, and its public form depends on the runners (no results status before
 * the first finish the public sees). A change to the race record after `since` brings every withheld finisher too
 * (module comment). Runners are listed by `sort`.
 */
export function publicUpdate(store: RaceStore, since: number): PublicUpdate {
  const meta = store.requireMeta();
  const seq = store.latestSeq();
  const whole = since <= 0 || since > seq;
  const context = seasonPublicContext();
  const race = raceRecord(meta);
  const finishedAges = store.sql<{ age: number }>(
    "SELECT DISTINCT age FROM runners WHERE finished IS NOT NULL AND moving_to IS NULL",
  );
  const anyFinished = finishedAges.some(({ age }) => showsFinish({ age, finished: 0 }, race, context));
  const publicRaceRecord = publicRace(race, anyFinished, context);
  if (whole) {
    const runners = store.liveRunnerRows().map((row) => publicRunner(runnerRecord(row, meta), race, context));
    return { since: 0, seq, race: publicRaceRecord, runners: runners.sort(bySort) };
  }
  const ids = store.changedSince(since);
  if (meta.seq > since) {
    for (const row of store.sql<{ id: string; age: number }>(
      "SELECT id, age FROM runners WHERE finished IS NOT NULL AND moving_to IS NULL",
    )) {
      if (!publishesResult(row.age, context.publishing)) ids.push(row.id);
    }
  }
  const runners: PublicRunnerChange[] = runnerEvents(store, ids).map((event) =>
    isRemovedRunner(event)
      ? { type: "runner", part: event.part, sort: event.sort, removed: true }
      : publicRunner(event as RunnerRecord, race, context),
  );
  return { since, seq, race: publicRaceRecord, runners: runners.sort(bySort) };
}

function bySort(a: { sort: string }, b: { sort: string }): number {
  return a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0;
}

/** What the race object needs to reach its fan-out (the SPECTATORS binding's `publish`). */
export type PublishToSpectators = (update: PublicUpdate) => Promise<unknown>;

/**
 * Tells the fan-out of each change, never waiting for it. Memory only: `sent` is the seq the fan-out was last
 * sent up to; after the object wakes from eviction it is 0, so the first notice carries the whole view (the
 * fan-out passes on only what differs from its copy).
 */
export class SpectatorFeed {
  private sent = 0;

  constructor(private readonly publish: PublishToSpectators) {}

  /**
   * After a change's broadcast to the admin sockets: the public records changed since the last notice, as `read`
   * gives them (the room's `publicSince`).
   */
  changed(read: (since: number) => PublicUpdate): void {
    const since = this.sent;
    let update: PublicUpdate;
    try {
      update = read(since);
    } catch (err) {
      console.warn("spectator update not made", err);
      return;
    }
    if (update.since !== 0 && update.seq <= since) return;
    this.sent = update.seq;
    const failed = (err: unknown) => {
      // Not delivered: the next notice goes out from where this one started (unless a later one was sent since).
      if (this.sent === update.seq) this.sent = update.since;
      console.warn("spectator notice failed", update.race?.part, err);
    };
    try {
      this.publish(update).catch(failed);
    } catch (err) {
      failed(err);
    }
  }
}

/**
 * What the public may see of a race, decided in one place: the start-list and results pages, the public JSON
 * (`GET /api/races/get/{part}`), the results file (`GET /resultat/{csvfile}` for a race of the season without an
 * imported file), the pages' first HTML and the spectator socket all read a race through these functions.
 *
 * The view keeps the spec's wire shape, `[race, ...runners]`: the race record (plus its results status) and each
 * runner's public fields. Never an age or a participant id: a runner is known by `sort` alone.
 *
 * Two inputs are the place for rules to come, so they land here and nowhere else:
 * - `resultsStatus`: whether the race's results are preliminary, official or a corrected result: the race object's
 *   (`results`, issue 26, also passed on as it is), else the context's. Null until the race has a finish.
 * - `publishing`: which runners' time and placing are published (child-safe publishing, a season setting). The
 *   rules are child-safe.ts's; the default context is the season's.
 *
 * A withheld runner (child-safe publishing: 11 or under) as the public sees them (issue 38, item 3): neither when
 * they finished nor in which order may be told from the view, from its changes or from anything numbering them.
 * - Until the race has ended, a withheld runner's record is the one they have before they finish: `finished`
 *   null, no time, no `resultWithheld`. Their finish, a new time, a finish taken away change nothing in it, so the
 *   spectators' fan-out has nothing to send, to number or to replay (src/durable/spectators.ts). Only what any
 *   runner shows before finishing can change (a name, a number, a DNS mark: as today). Nor does the race record
 *   tell that someone finished: its results status (`results`, `resultsStatus`) appears with the first result the
 *   public sees, so a race whose first finisher is a child says nothing until a published runner finishes (or the
 *   end).
 * - Once the race has ended, every withheld finisher is `resultWithheld` ('Fullföljt'), still without a time, a
 *   finish moment or a placing, all in the one change that ends the race (public-feed.ts brings them along with
 *   the race record), listed after the published finishers by number, then name, never in finish order.
 * - `corrected` is never public for a withheld runner, before or after the end (a correction would give away that
 *   their time changed, and when).
 * The race list (D1's index, marked 'preliminary' at the first finish of anyone) says no results status for a race
 * that has not ended while publishing withholds anyone (`publicRaceList`).
 */
import {
  type ResultsStatus,
  type PublicRaceSnapshot,
  type RaceState,
  type PublicRunnerRecord,
  type RaceRecord,
  type RemovedRunnerRecord,
  type RunnerRecord,
} from "./race-protocol";
import { publishesResult, publishingRules, type PublishingRules } from "./child-safe";
import type { PublishedRow, ResultRow, WithheldRow } from "./results-file";
import { SEASON } from "./season";
import { parseResult } from "./time-format";

export type { ResultsStatus };

export interface PublicViewContext {
  resultsStatus: ResultsStatus | null;
  publishing: PublishingRules;
}

/**
 * The season's inputs: no status known beyond the race's own, and the season's publishing rules (child-safe
 * publishing when the season turns it on), read at each call. Every public reader (the routes, the pages, the race
 * object's feed to the spectators) uses this unless a test passes its own.
 */
export function seasonPublicContext(): PublicViewContext {
  return { resultsStatus: null, publishing: publishingRules(SEASON) };
}

/** The race as the public sees it: the spec's race record and the results status. */
export interface PublicRaceRecord extends RaceRecord {
  resultsStatus: ResultsStatus | null;
}

/** `[race, ...runners]`, runners in start-list order (finishers first by finish, then by bib, then by name). */
export type PublicRaceView = [PublicRaceRecord, ...PublicRunnerRecord[]];

/** A change the public sees: a runner as it is now, or one that left the race. */
export type PublicRunnerChange = PublicRunnerRecord | RemovedRunnerRecord;

export function isRemoved(change: PublicRunnerChange): change is RemovedRunnerRecord {
  return "removed" in change && change.removed === true;
}

/**
 * Whether the public sees this runner's finish: a published result as soon as it is there; a withheld one
 * ('Fullföljt') only once the race has ended (module comment).
 */
export function showsFinish(
  runner: Pick<RunnerRecord, "age" | "finished">,
  race: { state: RaceState },
  context: PublicViewContext = seasonPublicContext(),
): boolean {
  return runner.finished !== null && (race.state === "ended" || publishesResult(runner.age, context.publishing));
}

/**
 * One runner's public record: no age, no participant id. A withheld runner has no time, no finish moment and no
 * correction; before the race has ended they look as they did before finishing (module comment).
 */
export function publicRunner(
  runner: RunnerRecord,
  race: { state: RaceState },
  context: PublicViewContext = seasonPublicContext(),
): PublicRunnerRecord {
  const pub: PublicRunnerRecord = {
    type: "runner",
    part: runner.part,
    sort: runner.sort,
    bib: runner.bib,
    firstname: runner.firstname,
    lastname: runner.lastname,
    group: runner.group,
    company: runner.company,
    finished: runner.finished,
  };
  if (runner.dns) pub.dns = true;
  if (!publishesResult(runner.age, context.publishing)) {
    pub.finished = null;
    if (showsFinish(runner, race, context)) pub.resultWithheld = true;
    return pub;
  }
  if (runner.corrected) pub.corrected = true;
  if (runner.time !== undefined) pub.time = runner.time;
  return pub;
}

/**
 * The race record the public sees. `anyFinished`: whether the public sees any runner's finish (`showsFinish`): no
 * results status before that, neither the race object's (`results`) nor the context's.
 */
export function publicRace(
  race: RaceRecord,
  anyFinished: boolean,
  context: PublicViewContext = seasonPublicContext(),
): PublicRaceRecord {
  return {
    type: "race",
    part: race.part,
    sort: "race",
    state: race.state,
    started: race.started,
    date: race.date,
    distance: race.distance,
    openForReg: race.openForReg,
    // The race object's status (issue 26: preliminary from the first finish, official, corrected) wins; it is
    // 'preliminary' from a withheld child's finish too, which must not show (module comment).
    ...(race.results && anyFinished ? { results: race.results } : {}),
    resultsStatus: anyFinished ? (race.results ?? context.resultsStatus) : null,
  };
}

/** The whole view of a race from the admin records (the race object's, or D1's before the race object exists). */
export function publicView(
  race: RaceRecord,
  runners: readonly RunnerRecord[],
  context: PublicViewContext = seasonPublicContext(),
): PublicRaceView {
  const anyFinished = runners.some((r) => showsFinish(r, race, context));
  return assembleView(
    publicRace(race, anyFinished, context),
    runners.map((r) => publicRunner(r, race, context)),
  );
}

/**
 * The public race list (`GET /api/races`, the pages' first HTML) from D1's index. The index marks a race
 * 'preliminary' at the first finish of anyone, a withheld child's too: while publishing withholds anyone, a race
 * that has not ended shows no results status there (the pages count its finishers from its public view instead).
 */
export function publicRaceList<R extends RaceRecord>(
  races: readonly R[],
  context: PublicViewContext = seasonPublicContext(),
): R[] {
  if (context.publishing.resultsHiddenBelowAge === null) return [...races];
  return races.map((race) => {
    if (race.state === "ended" || race.results === undefined) return race;
    const { results: _hidden, ...rest } = race;
    return rest as R;
  });
}

/**
 * A view put together from public records (the spectator fan-out keeps them one by one): runners in start-list
 * order, and no results status while nobody has finished.
 */
export function assembleView(race: PublicRaceRecord, runners: readonly PublicRunnerRecord[]): PublicRaceView {
  const anyFinished = runners.some((r) => r.finished !== null || r.resultWithheld === true);
  const head: PublicRaceRecord = anyFinished || race.resultsStatus === null ? race : { ...race, resultsStatus: null };
  return [head, ...[...runners].sort(comparePublicRunners)];
}

/**
 * The race object's order (race-protocol's compareRunners): finished first in finish order, then waiting by bib
 * with unset bibs first, then by name; a public record has no id, so the last tie-break is its sort.
 */
export function comparePublicRunners(a: PublicRunnerRecord, b: PublicRunnerRecord): number {
  const af = a.finished !== null || a.resultWithheld === true;
  const bf = b.finished !== null || b.resultWithheld === true;
  if (af !== bf) return af ? 1 : -1;
  // A withheld result comes after every published finisher, by number then name: where it stood among the
  // finishers would give its placing away.
  const aw = a.resultWithheld === true;
  const bw = b.resultWithheld === true;
  if (aw !== bw) return aw ? 1 : -1;
  if (a.finished !== null && b.finished !== null && a.finished !== b.finished) return a.finished - b.finished;
  if ((a.bib === null) !== (b.bib === null)) return a.bib === null ? -1 : 1;
  if (a.bib !== null && b.bib !== null && a.bib !== b.bib) return a.bib - b.bib;
  return (
    a.lastname.localeCompare(b.lastname, "sv") ||
    a.firstname.localeCompare(b.firstname, "sv") ||
    (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0)
  );
}

/**
 * A race's results as result rows: its finishers with a published time, by time, places 1, 2, 3 … (equal times
 * share a place), then the finishers whose result is withheld (child-safe publishing: 'Fullföljt', not placed), by
 * name. Runners without a time (still out, did not start) are not results.
 */
export function resultRows(view: PublicRaceSnapshot | PublicRaceView): PublishedRow[] {
  const [, ...runners] = view;
  const timed = runners
    .map((r) => ({ r, ms: r.time === undefined ? null : parseResult(r.time) }))
    .filter((x): x is { r: PublicRunnerRecord; ms: number } => x.ms !== null)
    .sort((a, b) => a.ms - b.ms || (a.r.bib ?? Infinity) - (b.r.bib ?? Infinity));
  let place = 0;
  const ranked = timed.map(({ r, ms }, i): ResultRow => {
    if (i === 0 || ms !== timed[i - 1]!.ms) place = i + 1;
    return {
      place,
      // A result changed after the results were official says so (issue 26).
      name: `${r.firstname} ${r.lastname}`.trim() + (r.corrected ? " (korrigerad)" : ""),
      timeMs: ms,
      klass: r.group === "Ingen" ? "" : r.group,
      bib: r.bib !== null && r.bib > 0 ? r.bib : null,
      club: r.company,
    };
  });
  const withheld = runners
    .filter((r) => r.resultWithheld === true)
    .map((r): WithheldRow => ({
      place: null,
      name: `${r.firstname} ${r.lastname}`.trim(),
      timeMs: null,
      klass: r.group === "Ingen" ? "" : r.group,
      bib: r.bib !== null && r.bib > 0 ? r.bib : null,
      club: r.company,
      withheld: true,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "sv"));
  return [...ranked, ...withheld];
}

/**
 * An adult running with a child without competing (shared/companion.ts), as the public start list shows them: the
 * name and club, marked 'Med barn'. Never a bib, a time or a placing; not one of the race's runners (its counts,
 * results, the results file and the spectators' view have none). Known by `sort` alone, like a runner.
 */
export interface PublicCompanionRecord {
  type: "companion";
  part: string;
  sort: `companion-${string}`;
  firstname: string;
  lastname: string;
  company: string;
}

/** `GET /api/races/companions/{part}`: the race's companions, by name. */
export interface PublicCompanionList {
  part: string;
  companions: PublicCompanionRecord[];
}

export function publicCompanion(
  part: string,
  c: { id: string; firstname: string; lastname: string; company: string },
): PublicCompanionRecord {
  return {
    type: "companion",
    part,
    sort: `companion-${c.id}`,
    firstname: c.firstname,
    lastname: c.lastname,
    company: c.company,
  };
}

export function publicCompanionList(
  part: string,
  companions: readonly { id: string; firstname: string; lastname: string; company: string }[],
): PublicCompanionList {
  return {
    part,
    companions: companions
      .map((c) => publicCompanion(part, c))
      .sort(
        (a, b) =>
          a.lastname.localeCompare(b.lastname, "sv") ||
          a.firstname.localeCompare(b.firstname, "sv") ||
          (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0),
      ),
  };
}

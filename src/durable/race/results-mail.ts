/**
 * The results mails to families (issue 28, item 3), sent from the race object: once the race's results are
 * official, every change the object commits (whoever made it: a race-day route, a timing phone's typed bib or slot,
 * the box office, the bib desk, a refund, an erasure, or the object's own alarm finishing a distance move) leaves a
 * mail owed (the room's change step, room.ts), and the object's alarm sends it through the Worker's results mails
 * (src/worker/registration/results-mails.ts, reached by one call: src/worker/objects/object-services.ts):
 * - `mailOfficialResults`: each family with a runner in the race is mailed once per race (its claim in D1);
 * - `mailCorrectedResults`: a family told before whose own runner's time or status differs from its last mail
 *   gets one more mail saying what changed (a placing moved by another runner sends nothing);
 * both through the mail queue, respecting unsubscribe.
 *
 * Why here and not after each Worker route: every change of a runner goes through the room's change step, so no path
 * can change an official result without leaving the mail owed; and the alarm runs one at a time per object, each
 * run mailing from the race as it is at that moment, read from its own storage. So the mails go out in the order of
 * the changes: a run that read an older state can never follow one that read a newer one (two routes mailing after
 * their answers could, and tell a family an old time as the correction).
 *
 * The paths that change a runner of a race whose results are official (it has ended), all through the room's `apply`:
 * - a confirmed re-record or the spec's bare finish call (rules/finish.ts), a restored time ('restore-time'), a review
 *   item applied (rules/review.ts), rapid timing's typed bibs and slots (rules/bib-entries.ts, slots.ts): times;
 * - a start applied from the review list (rules/start.ts `moveStart`): every finisher's time;
 * - a DNS mark of a runner without a time, or taken back (rules/dns.ts);
 * - a runner taken out ('remove-runner': a refund, an admin) or moved to another distance (rules/move.ts, step 1 in
 *   the call, the rest in the call or in this object's alarm): told as no longer in the race;
 * - a runner added after the end (the box office, a late payment: rules/runners.ts) comes in marked DNS;
 * - an erasure (rules/erase.ts) anonymises a runner whose family is gone: nothing to mail.
 * What cannot change an official result: a plain tap (an ended race sends it to the review list), undoing a finish
 * and a plain 'Starta' (only on a race not ended; an ended race sends it to the review list), a move of a finisher
 * (the finish must be undone first), the bib desk's pick-up and 'Markera ej hämtade som DNS' (a pick-up is no
 * result; the DNS marks need a started race), a bib or a name changed (a mail tells time and status only). Those
 * still leave a run owed, which mails nobody.
 *
 * When: once the race has been still for RESULTS_MAIL_QUIET_MS. Each change after 'Officiella' leaves the mail
 * due that long after it (`resultsMailAt`, the moment the object's alarm is set to), so a correction made in
 * several steps (a bib swap is three edits; a time re-recorded and then restored) mails the family once, what the
 * race says when the organiser is done, never a step in between ('ingen tid' while a bib was moved). 'Officiella'
 * itself is due at once: the families are waiting for it, and a correction right after it postpones it with the
 * rest. The alarm sends nothing before the owed moment (race-do.ts).
 *
 * Two tabs, two phones, retries: a change leaves a counter higher (storage, in the change's own synchronous step,
 * so it survives eviction and a restart); a run takes the counter it started from and clears it only when no change
 * came in meanwhile, else the next run mails that change (when it is due). A run that fails (D1 or the queue
 * unreachable) leaves it owed and the alarm tries again: the families not claimed yet are mailed then, and first
 * the ones whose mail was written but never reached the queue. A family's mail once claimed in D1 is never sent
 * twice; one still waiting is listed on the mass e-mail screen under its race and can be resumed there
 * (results-mails.ts).
 */
import type { RaceSnapshot } from "../../shared/race-protocol";
import type { KvPort } from "./ports";
import type { Effects } from "./rules/decision";
import type { RaceStore } from "./storage";

/** How long a race must be still after a change before the families are mailed (module comment). */
export const RESULTS_MAIL_QUIET_MS = 3 * 60_000;

/** The key-value entry of the owed mail (the object's synchronous KV; the room's key-value port). */
export const RESULTS_MAIL_OWED_KEY = "results-mail-owed";

/**
 * What is owed: `n` counts the changes that owed it (a run clears only the count it started from), `at` is when it
 * is due. A bare number is an entry stored before mails waited for quiet: due at once.
 */
export interface OwedResultsMail {
  n: number;
  at: number;
}

function owedMail(kv: KvPort): OwedResultsMail | null {
  const stored = kv.get<OwedResultsMail | number>(RESULTS_MAIL_OWED_KEY);
  if (stored === undefined) return null;
  return typeof stored === "number" ? { n: stored, at: 0 } : stored;
}

function official(store: RaceStore): boolean {
  const results = store.meta()?.results;
  return results === "official" || results === "corrected";
}

/**
 * In a change's synchronous step, after the results' status has followed it: while the results are official, a
 * change of the race or of a runner leaves a results mail owed, due RESULTS_MAIL_QUIET_MS from now ('Officiella'
 * itself: now). True when one is now owed (set the alarm to `resultsMailAt`).
 */
export function oweResultsMail(store: RaceStore, kv: KvPort, effects: Effects): boolean {
  if (!official(store) || !(effects.race || effects.runners?.length)) return false;
  const now = store.clock.now();
  const at = madeOfficial(store) ? now : now + RESULTS_MAIL_QUIET_MS;
  kv.put(RESULTS_MAIL_OWED_KEY, { n: (owedMail(kv)?.n ?? 0) + 1, at } satisfies OwedResultsMail);
  return true;
}

/**
 * Whether this change was 'Officiella' itself: its last audit row is 'results-official' (the rule writes one row,
 * and no result changes with it, so nothing is written after it in the change's step).
 */
function madeOfficial(store: RaceStore): boolean {
  const [last] = store.sql<{ type: string }>("SELECT type FROM events WHERE seq = ?", store.latestSeq());
  return last?.type === "results-official";
}

/** When the owed results mail is due (the alarm's moment); null when none is owed. */
export function resultsMailAt(kv: KvPort): number | null {
  return owedMail(kv)?.at ?? null;
}

/**
 * The owed mail falls due at `now`, the quiet not waited out (development's browser tests, which cannot wait three
 * minutes: race-do.ts `sendResultsMailNow`). False when no mail is owed.
 */
export function resultsMailDueNow(kv: KvPort, now: number): boolean {
  const owed = owedMail(kv);
  if (owed === null) return false;
  if (owed.at > now) kv.put(RESULTS_MAIL_OWED_KEY, { ...owed, at: now } satisfies OwedResultsMail);
  return true;
}

/** The runners in the race when its results became official who are not in it now (moved, refunded, taken out). */
function goneSinceOfficial(store: RaceStore): string[] {
  return store
    .sql<{ id: string }>(
      "SELECT id FROM official_results WHERE id NOT IN (SELECT id FROM runners WHERE moving_to IS NULL)",
    )
    .map((r) => r.id);
}

/**
 * One run of the owed mail: the counter it started from, and what to mail (null: the results are no longer
 * official). Whether it is due yet is `resultsMailAt`'s: the object's alarm asks that first.
 */
export interface ResultsMailRun {
  owed: number;
  mail: { race: RaceSnapshot; gone: string[] } | null;
}

/**
 * The alarm's step, read from the race as it is now: the official mail (families not yet told) and the correction
 * mail (families whose runner changed) go out from `mail`. Null when nothing is owed. A race whose results are no
 * longer official (a reset) owes nothing: its run mails nobody.
 */
export function resultsMailDue(store: RaceStore, kv: KvPort, snapshot: () => RaceSnapshot): ResultsMailRun | null {
  const owed = owedMail(kv);
  if (owed === null) return null;
  return { owed: owed.n, mail: official(store) ? { race: snapshot(), gone: goneSinceOfficial(store) } : null };
}

/** A run went through (the Worker mailed from it): a change during the run left the counter higher, so it stays owed. */
export function resultsMailDone(kv: KvPort, run: ResultsMailRun): void {
  if (owedMail(kv)?.n === run.owed) kv.delete(RESULTS_MAIL_OWED_KEY);
}

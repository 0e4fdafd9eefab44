/**
 * Personal data in the race (erasure and export on request, src/worker/personal-data/).
 *
 * What the race holds about a runner: its row (name, club, age, group, bib, finish), or only a tombstone when it
 * left (a change of distance, a refund, an admin's removal); the events of its race-day log that name it (an add
 * records the whole runner, an edit the old and the new values, so a name from before an edit is in the log);
 * the review items made from its taps (with its name as it was then), and rapid timing's items that name it in
 * their sentence or suggest it for a mistyped bib; its taps (ids and moments only); the results as marked official
 * (id, bib, time: no name).
 *
 * Erasure (`anonymiseRunner`) works on whatever of that the race has, in one transaction: the row is renamed
 * (club emptied), every event about the runner (its payload's `id` is the runner's) has every name and club value
 * it carries replaced, whatever the value was at the time, and each review item of the runner is renamed (rapid
 * timing's items also in their sentence, and where they suggest the runner for a mistyped bib). The
 * erasure is logged by id only. The photos of the taps paired with the runner (Målfoto, rules/photos.ts) are removed,
 * every frame of those taps is closed (a phone that uploads one later is refused), and every such tap that ever had
 * a photo is answered (`photoObjects`, at each erasure, repeated ones too), so the Worker deletes their R2 objects
 * and an R2 deletion that failed is made good by erasing again. Times, bib, age and group stay: the race's results
 * still need them and they name nobody. A race with nothing about the runner, or where it is anonymous already, writes nothing (so an erasure
 * asks every race of the season, twice, and a repeated one changes nothing). An ended race is treated like any
 * other. The rule reads and writes in one synchronous step: a tap or an edit lands before or after it, never
 * between (an edit after it is a new name, which only a new erasure removes).
 */
import {
  DERIVED_REVIEW_KINDS,
  type RaceAuditEvent,
  type PhotoRecord,
  type ReviewRecord,
  type RunnerRecord,
} from "../../../shared/race-protocol";
import { photoEvents, reviewRecord, runnerRecord } from "../records";
import type { RaceStore, ReviewRow, RunnerRow } from "../storage";
import { checkId, checkName } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { removeRunnerPhotos, runnerFramesOpen, runnerPhotoObjects, runnerPhotoTaps } from "./photos";

/** Payload keys that hold a person's name or club (an edit's `changes` hold [old, new] under the same keys). */
const NAME_KEYS = ["firstname", "lastname", "company", "name"] as const;
type NameKey = (typeof NAME_KEYS)[number];

export interface Replacement {
  firstname: string;
  lastname: string;
}

/** Everything the race has about the runner: for the export of a person's data. */
export interface RunnerHistory {
  part: string;
  /** The runner as the race has it now; null when it left the race (only its log lines remain). */
  runner: RunnerRecord | null;
  /** The race-day log lines about the runner, oldest first. */
  events: RaceAuditEvent[];
  /**
   * Review items ('Att granska') made from taps on the runner, then rapid timing's items that suggest it for a
   * mistyped bib.
   */
  reviews: ReviewRecord[];
  /**
   * Målfoto (rules/photos.ts): the photos of the taps paired with the runner (a finish tile tap, a review item of its
   * tap, the 'Mål!' taps of its slot), each tap's frames as the race keeps them (the images: their admin addresses).
   */
  photos: PhotoRecord[];
}

function eventsAbout(store: RaceStore, id: string): RaceAuditEvent[] {
  return store.sql<RaceAuditEvent>(
    "SELECT seq, type, payload, actor, device, at FROM events WHERE instr(payload, ?) > 0 ORDER BY seq",
    JSON.stringify(id),
  );
}

function reviewsAbout(store: RaceStore, id: string): ReviewRow[] {
  return store.sql<ReviewRow>("SELECT * FROM review WHERE runner_id = ? ORDER BY created_at, id", id);
}

/** Whether a rapid timing item's data offers the runner as a likely meant runner for a mistyped bib. */
function suggests(data: string | null, runnerId: string): boolean {
  if (data === null) return false;
  const parsed = JSON.parse(data) as { suggestions?: { runnerId: string }[] };
  return parsed.suggestions?.some((s) => s.runnerId === runnerId) ?? false;
}

/**
 * Rapid timing's items (issue 26) about another claim that offer the runner as a suggestion (open or decided):
 * they show the runner's name and bib, so a person's export includes them. Erasure renames them through
 * `rapidItemsNaming`.
 */
function reviewsSuggesting(store: RaceStore, id: string): ReviewRow[] {
  const kinds = DERIVED_REVIEW_KINDS.map(() => "?").join(", ");
  return store
    .sql<ReviewRow>(
      `SELECT * FROM review WHERE kind IN (${kinds}) AND (runner_id IS NULL OR runner_id <> ?) AND instr(data, ?) > 0
        ORDER BY created_at, id`,
      ...DERIVED_REVIEW_KINDS,
      id,
      JSON.stringify(id),
    )
    .filter((row) => suggests(row.data, id));
}

/**
 * Everything about `id` in this race; null when the race has nothing about it. Its review items are those made
 * from taps or bibs on it, then those that only suggest it.
 */
export function runnerHistory(store: RaceStore, id: string): RunnerHistory | null {
  const meta = store.meta();
  if (!meta) return null;
  const runnerId = checkId(id);
  const row = store.runnerRow(runnerId);
  const events = eventsAbout(store, runnerId);
  const reviews = [...reviewsAbout(store, runnerId), ...reviewsSuggesting(store, runnerId)];
  if (!row && events.length === 0 && reviews.length === 0) return null;
  const photos = photoEvents(store, runnerPhotoTaps(store, runnerId)).map(({ seq: _seq, ...p }) => p as PhotoRecord);
  return {
    part: meta.part,
    runner: row && row.moving_to === null ? runnerRecord(row, meta) : null,
    events,
    reviews: reviews.map((r) => reviewRecord(r, meta)),
    photos,
  };
}

/** Every full name the race has had for the runner: its row's, each one its log lines and review items carry. */
function knownNames(row: RunnerRow | null, events: readonly RaceAuditEvent[], reviews: readonly ReviewRow[]): string[] {
  const names = new Set<string>();
  if (row) names.add(`${row.firstname} ${row.lastname}`);
  for (const r of reviews) if (r.name) names.add(r.name);
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (!value || typeof value !== "object") return;
    const o = value as Record<string, unknown>;
    if (typeof o.firstname === "string" && typeof o.lastname === "string") names.add(`${o.firstname} ${o.lastname}`);
    Object.values(o).forEach(collect);
  };
  for (const event of events) collect(JSON.parse(event.payload));
  return [...names].filter((n) => n.trim() !== "").sort((a, b) => b.length - a.length);
}

/**
 * Rapid timing's review items (issue 26) that name the runner in their sentence (a bib typed twice, a runner with a
 * time from elsewhere) or offer it as a likely meant runner (`suggestions`), open or decided: their reason and
 * suggestions with the runner's names replaced. Only the items that change.
 */
function rapidItemsNaming(
  store: RaceStore,
  runnerId: string,
  oldNames: readonly string[],
  fullName: string,
): { id: string; reason: string; data: string | null }[] {
  const kinds = DERIVED_REVIEW_KINDS.map(() => "?").join(", ");
  const rows = store.sql<ReviewRow>(`SELECT * FROM review WHERE kind IN (${kinds})`, ...DERIVED_REVIEW_KINDS);
  const changed: { id: string; reason: string; data: string | null }[] = [];
  for (const row of rows) {
    const data =
      row.data === null ? null : (JSON.parse(row.data) as { suggestions?: { runnerId: string; name: string }[] });
    const suggested = suggests(row.data, runnerId);
    if (row.runner_id !== runnerId && !suggested) continue;
    let reason = row.reason;
    if (row.runner_id === runnerId) for (const name of oldNames) reason = reason.split(name).join(fullName);
    let text = row.data;
    if (data && suggested) {
      data.suggestions = data.suggestions!.map((s) => (s.runnerId === runnerId ? { ...s, name: fullName } : s));
      text = JSON.stringify(data);
    }
    if (reason !== row.reason || text !== row.data) changed.push({ id: row.id, reason, data: text });
  }
  return changed;
}

/** Every name or club value in `value` replaced (keys anywhere in the payload; arrays of [old, new] too). */
function scrubbed(value: unknown, replacement: Replacement): unknown {
  if (Array.isArray(value)) return value.map((v) => scrubbed(v, replacement));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if ((NAME_KEYS as readonly string[]).includes(key)) return [key, replaced(key as NameKey, v, replacement)];
      return [key, scrubbed(v, replacement)];
    }),
  );
}

function replaced(key: NameKey, value: unknown, replacement: Replacement): unknown {
  if (Array.isArray(value)) return value.map((v) => replaced(key, v, replacement));
  if (typeof value !== "string" && value !== null) return scrubbed(value, replacement);
  if (value === null) return null;
  switch (key) {
    case "firstname":
      return replacement.firstname;
    case "lastname":
      return replacement.lastname;
    case "company":
      return "";
    case "name":
      return `${replacement.firstname} ${replacement.lastname}`;
  }
}

/**
 * Erasure: the runner's row, its log lines and its review items keep no name or club (module comment). Answers
 * null when the race has nothing about the runner (nothing written), else the runner as the race has it now (null
 * when it left the race: only its log lines were there).
 */
export function anonymiseRunner(
  { store, now, by }: RuleContext,
  id: string,
  replacement: Replacement,
): Decision<{ runner: RunnerRecord | null; photos?: string[]; photoObjects?: string[] } | null> {
  const meta = store.requireMeta();
  const runnerId = checkId(id);
  const names: Replacement = { firstname: checkName(replacement.firstname), lastname: checkName(replacement.lastname) };
  const row = store.runnerRow(runnerId);
  const events = eventsAbout(store, runnerId);
  const reviews = reviewsAbout(store, runnerId);
  if (!row && events.length === 0 && reviews.length === 0) return decided(null);
  const fullName = `${names.firstname} ${names.lastname}`;
  // An event is about the runner when its payload's `id` (or `runnerId`) is the runner's; only those are rewritten,
  // so a line that merely mentions the id elsewhere keeps any other runner's name.
  const rewritten = events
    .map((event) => ({ event, payload: JSON.parse(event.payload) as Record<string, unknown> }))
    .filter(({ payload }) => payload?.id === runnerId || payload?.runnerId === runnerId)
    .map(({ event, payload }) => ({
      seq: event.seq,
      before: event.payload,
      after: JSON.stringify(scrubbed(payload, names)),
    }))
    .filter((event) => event.after !== event.before);
  const renamedReviews = reviews.filter((r) => r.name !== null && r.name !== fullName);
  const rapidItems = rapidItemsNaming(store, runnerId, knownNames(row, events, reviews), fullName);
  const renameRow =
    row !== null && (row.firstname !== names.firstname || row.lastname !== names.lastname || row.company !== "");
  const live = (r: typeof row) => r !== null && r.moving_to === null;
  // Målfoto: the photos of the runner's taps are its personal data; removed here (and every frame of those taps the
  // race has not had closed, so a late upload is refused), their R2 objects deleted by the Worker.
  const photos = runnerPhotoTaps(store, runnerId);
  const openFrames = runnerFramesOpen(store, runnerId);
  const photoObjects = runnerPhotoObjects(store, runnerId);
  // Already anonymous here (a repeated erasure, the route's second pass): nothing is written.
  if (
    rewritten.length === 0 &&
    renamedReviews.length === 0 &&
    rapidItems.length === 0 &&
    !renameRow &&
    openFrames.length === 0
  ) {
    return decided({
      runner: live(row) ? runnerRecord(row!, meta) : null,
      ...(photoObjects.length ? { photoObjects } : {}),
    });
  }
  store.write("runner-anonymised", { id: runnerId, ...(photos.length ? { photos: photos.length } : {}) }, by, (seq) => {
    removeRunnerPhotos(store, openFrames, seq, now, by.actor ?? "system");
    for (const event of rewritten) store.sql("UPDATE events SET payload = ? WHERE seq = ?", event.after, event.seq);
    for (const item of renamedReviews)
      store.sql("UPDATE review SET name = ?, seq = ? WHERE id = ?", fullName, seq, item.id);
    for (const item of rapidItems) {
      store.sql("UPDATE review SET reason = ?, data = ?, seq = ? WHERE id = ?", item.reason, item.data, seq, item.id);
    }
    if (row) {
      store.sql(
        "UPDATE runners SET firstname = ?, lastname = ?, company = '', updated_at = ?, seq = ? WHERE id = ?",
        names.firstname,
        names.lastname,
        now,
        seq,
        runnerId,
      );
    }
  });
  const after = store.runnerRow(runnerId);
  return decided(
    {
      runner: live(after) ? runnerRecord(after!, meta) : null,
      ...(photos.length ? { photos } : {}),
      ...(photoObjects.length ? { photoObjects } : {}),
    },
    {
      photos,
      runners: after ? [runnerId] : [],
      reviews: [...new Set([...renamedReviews.map((r) => r.id), ...rapidItems.map((r) => r.id)])],
      mirror: live(after) ? [runnerId] : [],
    },
  );
}

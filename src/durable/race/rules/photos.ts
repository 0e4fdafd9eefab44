/**
 * Målfoto (issue 44): the race records which of its taps have finish photos, so every phone knows (the JPEGs
 * themselves are in R2, put there by the Worker: src/worker/race-day/finish-photos.ts; src/shared/finish-photos.ts
 * has the sizes and keys). The race keeps one row per tap and frame (0 before, 1 nearest, 2 after the press) with its
 * size; each change is one audited change with its seq, and the record `photo-{tap id}` goes to every admin socket
 * (never to a public view: public-feed.ts reads only the race and its runners).
 *
 * States of a frame: none → recorded (`record-photo`) → removed (`delete-photos`: 'Radera målfoton' or the 30-day
 * cron; a reset; an erasure of the runner the tap is paired with). Removed is final: the row stays (with its seq, so
 * the phones hear of it) and the same frame sent again is refused, so a phone that still holds a deleted photo can
 * never bring it back. A frame of a tap made before the race's photos were last deleted (`photos_cleared_at`) is
 * refused too: a phone that was offline while the organiser deleted keeps nothing.
 *
 * Invariants, each kept in one synchronous step (no await between check and write, so a second phone's upload, a
 * resend or a deletion lands before or after, never between):
 * - A frame is recorded only for a tap the race has now: a 'Mål!' tap not cleared by a reset, a finish tile tap of
 *   the race's current epoch, or a tap on the review list (404 otherwise).
 * - A frame is recorded once: the same frame again answers `replayed` and writes nothing (a resend stores nothing
 *   twice; its R2 key is the same too).
 * - The race's recorded bytes never pass `limit` (RACE_PHOTO_BYTES): the frame that would is refused (409,
 *   FULL_MESSAGE) and nothing is written.
 *
 * Failure cases: the Worker records first and puts the JPEG in R2 after, so an R2 put that fails leaves a record
 * whose object is missing: the phone keeps the photo and sends it again (the Worker then finds `replayed` with no
 * object and puts it). A deletion that lands between the record and the put is caught by the Worker asking
 * `hasPhoto` after the put (it removes its object when the answer is no).
 */
import {
  FULL_MESSAGE,
  isPhotoFrame,
  MAX_PHOTO_BYTES,
  PHOTO_FRAMES,
  RACE_PHOTO_BYTES,
} from "../../../shared/finish-photos";
import { RaceError } from "../../../shared/race-protocol";
import type { PhotoResult } from "../../../shared/race-answers";
import { photoRecord } from "../records";
import type { PhotoRow, RaceStore } from "../storage";
import { checkTapId } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";
import { rapidView } from "./reconcile";

/** Why photos were deleted, in the audit trail. */
export type PhotoDeletion = "organiser" | "retention";

/** The tap's moment and device when the race has the tap now; null otherwise. */
function tapOf(store: RaceStore, tapId: string): { at: number; device: string | null } | null {
  const rapid = store.rapidTap(tapId);
  if (rapid) return rapid.cleared ? null : { at: rapid.at, device: rapid.device };
  const meta = store.requireMeta();
  const finish = store.sql<{ at: number; device: string | null }>(
    "SELECT at, device FROM taps WHERE tap_id = ? AND kind = 'finish' AND epoch = ?",
    tapId,
    meta.epoch,
  )[0];
  if (finish) return finish;
  const item = store.review(tapId);
  if (item && (item.kind === "tap" || item.kind === "rapid")) return { at: item.at, device: item.device };
  return null;
}

export function photoRows(store: RaceStore, tapId: string): PhotoRow[] {
  return store.sql<PhotoRow>("SELECT * FROM photos WHERE tap_id = ? ORDER BY frame", tapId);
}

/** The bytes of every photo the race keeps now. */
export function photoBytes(store: RaceStore): number {
  return store.sql<{ total: number | null }>("SELECT SUM(bytes) AS total FROM photos WHERE removed = 0")[0]?.total ?? 0;
}

/** `record-photo`: frame `frame` of tap `tapId`, `bytes` long, is in R2 (module comment). */
export function recordPhoto(
  { store, now, by }: RuleContext,
  input: { tapId: string; frame: number; bytes: number; limit?: number },
): Decision<PhotoResult> {
  const meta = store.requireMeta();
  const tapId = checkTapId(input.tapId);
  if (!isPhotoFrame(input.frame)) throw new RaceError(400, "Okänd bildruta.");
  if (!Number.isSafeInteger(input.bytes) || input.bytes <= 0 || input.bytes > MAX_PHOTO_BYTES) {
    throw new RaceError(400, "Målfotot har fel storlek.");
  }
  const limit = input.limit ?? RACE_PHOTO_BYTES;
  const existing = store.sql<PhotoRow>("SELECT * FROM photos WHERE tap_id = ? AND frame = ?", tapId, input.frame)[0];
  if (existing?.removed) throw new RaceError(409, "Målfotot är raderat.");
  if (existing) return decided({ outcome: "replayed", photo: photoRecord(photoRows(store, tapId), meta)! });
  const tap = tapOf(store, tapId);
  if (!tap) throw new RaceError(404, "Loppet har ingen tryckning med det id:t.");
  if (meta.photos_cleared_at !== null && tap.at < meta.photos_cleared_at) {
    throw new RaceError(409, "Målfotona för loppet är raderade.");
  }
  if (photoBytes(store) + input.bytes > limit) throw new RaceError(409, FULL_MESSAGE);
  store.write("photo", { tapId, frame: input.frame, bytes: input.bytes }, by, (seq) =>
    store.sql(
      `INSERT INTO photos (tap_id, frame, bytes, tap_at, device, actor, received, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      tapId,
      input.frame,
      input.bytes,
      tap.at,
      tap.device,
      (by.actor ?? "system").slice(0, 200),
      now,
      seq,
    ),
  );
  return decided({ outcome: "recorded", photo: photoRecord(photoRows(store, tapId), meta)! }, { photos: [tapId] });
}

/**
 * Every photo of the race removed, and photos of taps made until now refused from here on ('Radera målfoton', the
 * cron). Answers the tap ids whose photos were removed (the Worker deletes the race's whole R2 prefix anyway).
 */
export function deletePhotos(
  { store, now, by }: RuleContext,
  reason: PhotoDeletion,
): Decision<{ deleted: number; taps: string[] }> {
  const taps = liveTapsWithPhotos(store);
  const count = store.sql<{ n: number }>("SELECT COUNT(*) AS n FROM photos WHERE removed = 0")[0]?.n ?? 0;
  store.write("photos-deleted", { reason, frames: count, taps: taps.length }, by, (seq) => {
    store.sql("UPDATE photos SET removed = 1, seq = ? WHERE removed = 0", seq);
    store.sql("UPDATE meta SET photos_cleared_at = ? WHERE id = 1", now);
  });
  return decided({ deleted: count, taps }, { photos: taps });
}

/** In a reset's write (rules/reset.ts): every photo removed, earlier taps' photos refused. Answers their tap ids. */
export function clearPhotosInReset(store: RaceStore, seq: number, now: number, taps: readonly string[]): void {
  if (taps.length > 0) store.sql("UPDATE photos SET removed = 1, seq = ? WHERE removed = 0", seq);
  store.sql("UPDATE meta SET photos_cleared_at = ? WHERE id = 1", now);
}

export function liveTapsWithPhotos(store: RaceStore): string[] {
  return store
    .sql<{ tap_id: string }>("SELECT DISTINCT tap_id FROM photos WHERE removed = 0 ORDER BY tap_id")
    .map((r) => r.tap_id);
}

/**
 * The taps whose photos are the runner's personal data: finish tile taps on the runner, review items made from taps
 * on it, and the 'Mål!' taps of the slot it is paired with (by a typed bib or by hand) or pinned to it.
 */
export function runnerPhotoTaps(store: RaceStore, runnerId: string): string[] {
  const ids = runnerTaps(store, runnerId);
  if (ids.length === 0) return [];
  const marks = ids.map(() => "?").join(", ");
  return store
    .sql<{ tap_id: string }>(
      `SELECT DISTINCT tap_id FROM photos WHERE removed = 0 AND tap_id IN (${marks}) ORDER BY tap_id`,
      ...ids,
    )
    .map((r) => r.tap_id);
}

/** Every tap paired with the runner (`runnerPhotoTaps`' sources), whether or not it has photos. */
function runnerTaps(store: RaceStore, runnerId: string): string[] {
  const ids = new Set<string>();
  for (const r of store.sql<{ tap_id: string }>(
    "SELECT tap_id FROM taps WHERE runner_id = ? AND kind = 'finish'",
    runnerId,
  ))
    ids.add(r.tap_id);
  for (const r of store.sql<{ id: string }>("SELECT id FROM review WHERE runner_id = ?", runnerId)) ids.add(r.id);
  for (const r of store.sql<{ tap_id: string }>("SELECT tap_id FROM rapid_taps WHERE pin = ?", runnerId))
    ids.add(r.tap_id);
  const slotKey = store.runnerRow(runnerId)?.slot ?? null;
  if (slotKey !== null) {
    const slot = rapidView(store).alignment.slots.find((s) => s.key === slotKey);
    for (const tap of slot?.taps ?? []) ids.add(tap.id);
    ids.add(slotKey);
  }
  return [...ids].sort();
}

/**
 * The frames of the runner's taps that an erasure has yet to close: a frame kept now, or one the race never had (a
 * phone may still hold it, offline or behind in its queue). `removeRunnerPhotos` closes them.
 */
export function runnerFramesOpen(store: RaceStore, runnerId: string): { tapId: string; frame: number }[] {
  const open: { tapId: string; frame: number }[] = [];
  for (const tapId of runnerTaps(store, runnerId)) {
    const closed = new Set(
      store
        .sql<{ frame: number }>("SELECT frame FROM photos WHERE tap_id = ? AND removed = 1", tapId)
        .map((r) => r.frame),
    );
    for (let frame = 0; frame < PHOTO_FRAMES; frame++) if (!closed.has(frame)) open.push({ tapId, frame });
  }
  return open;
}

/**
 * In an erasure's write (rules/erase.ts): every open frame of the runner's taps (`runnerFramesOpen`) removed, and a
 * frame the race never had recorded as removed (0 bytes), so the same frame sent later (a phone that was offline
 * during the erasure) is refused like any deleted one and the runner's photo never comes back.
 */
export function removeRunnerPhotos(
  store: RaceStore,
  frames: readonly { tapId: string; frame: number }[],
  seq: number,
  now: number,
  actor: string,
): void {
  for (const { tapId, frame } of frames) {
    const tap = tapOf(store, tapId);
    store.sql(
      `INSERT INTO photos (tap_id, frame, bytes, tap_at, device, actor, received, removed, seq)
         VALUES (?, ?, 0, ?, ?, ?, ?, 1, ?)
         ON CONFLICT (tap_id, frame) DO UPDATE SET removed = 1, seq = excluded.seq`,
      tapId,
      frame,
      tap?.at ?? now,
      tap?.device ?? null,
      actor.slice(0, 200),
      now,
      seq,
    );
  }
}

/**
 * The runner's taps that have or had a photo object (every frame row but an erasure's 0-byte ones): an erasure
 * deletes their R2 objects each time it runs, so an R2 deletion that failed is made good by repeating the erasure.
 */
export function runnerPhotoObjects(store: RaceStore, runnerId: string): string[] {
  const ids = runnerTaps(store, runnerId);
  if (ids.length === 0) return [];
  const marks = ids.map(() => "?").join(", ");
  return store
    .sql<{ tap_id: string }>(
      `SELECT DISTINCT tap_id FROM photos WHERE bytes > 0 AND tap_id IN (${marks}) ORDER BY tap_id`,
      ...ids,
    )
    .map((r) => r.tap_id);
}

/** Whether the race keeps this frame now (the Worker asks after its R2 put: module comment). */
export function hasPhoto(store: RaceStore, tapId: string, frame: number): boolean {
  return (
    store.sql<{ n: number }>(
      "SELECT COUNT(*) AS n FROM photos WHERE tap_id = ? AND frame = ? AND removed = 0",
      tapId,
      frame,
    )[0]!.n > 0
  );
}

/** Every photo record changed after `since` (the socket's catch-up). */
export function photosChangedSince(store: RaceStore, since: number): string[] {
  return store.sql<{ tap_id: string }>("SELECT DISTINCT tap_id FROM photos WHERE seq > ?", since).map((r) => r.tap_id);
}

/**
 * Målfoto (issue 44): the finish photos' objects in the R2 bucket `FINISH_PHOTOS`, one per tap and frame, keyed
 * `{race}/{tap id}/{frame}.jpg` (src/shared/finish-photos.ts), and the race object's record of them
 * (src/durable/race/rules/photos.ts), kept in step.
 *
 * Upload (`storePhoto`, the phone's queue sends each frame once its tap has reached the race):
 *   checked JPEG → the race records the frame (`record-photo`: within the session's upload rate, else 429 with
 *   Retry-After (rules/photo-uploads.ts); the tap must be the race's, the race's bound not passed; a resend answers
 *   `replayed`) → the object is put → the race is asked whether it still keeps the frame.
 * - A refusal (4xx) stores nothing: the race wrote nothing and no object was put.
 * - A resend whose object is there puts nothing (`replayed` + the object found): nothing is stored twice.
 * - A put that failed leaves the race's record without its object; the phone keeps the photo and sends it again,
 *   which finds `replayed` without the object and puts it.
 * - A deletion ('Radera målfoton', a reset, an erasure, the cron) that lands between the record and the put has
 *   already deleted what was there; the question after the put finds the frame gone and deletes the object again.
 * Reading (`readPhoto`) answers an object only while the race keeps its frame, so an object a failed deletion left
 * behind is never shown; the cron deletes every object of a race PHOTO_RETENTION_DAYS after race day whatever the
 * race says.
 */
import { photoKey, photosExpired } from "../../shared/finish-photos";
import { isRaceId } from "../../shared/race-id";
import type { ChangeAuthor } from "../../durable/race/types";
import { ApiError } from "../lib/errors";
import { deleteRacePhotos } from "./photo-objects";
import { answered, raceStub, runOnRace } from "./race-runners";
import type { PhotoResult } from "../../shared/race-answers";

export async function storePhoto(
  env: Env,
  raceId: string,
  photo: { tapId: string; frame: number; bytes: Uint8Array; uploader: string },
  by: ChangeAuthor,
): Promise<PhotoResult> {
  const { tapId, frame, bytes, uploader } = photo;
  const result = await runOnRace(
    env,
    raceId,
    { type: "record-photo", tapId, frame, bytes: bytes.length, uploader },
    by,
  );
  const key = photoKey(raceId, tapId, frame);
  if (result.outcome === "replayed" && (await env.FINISH_PHOTOS.head(key)) !== null) return result;
  await env.FINISH_PHOTOS.put(key, bytes, {
    httpMetadata: { contentType: "image/jpeg" },
    customMetadata: { race: raceId, tap: tapId, frame: String(frame) },
  });
  if (!(await answered(raceStub(env, raceId).hasPhoto(tapId, frame)))) {
    await env.FINISH_PHOTOS.delete(key);
    throw new ApiError(409, "Målfotona för loppet är raderade.");
  }
  return result;
}

/** One frame, while the race keeps it; null otherwise. */
export async function readPhoto(env: Env, raceId: string, tapId: string, frame: number): Promise<R2ObjectBody | null> {
  if (!(await answered(raceStub(env, raceId).hasPhoto(tapId, frame)))) return null;
  return env.FINISH_PHOTOS.get(photoKey(raceId, tapId, frame));
}

/**
 * The cron: every race whose photos are past their keeping (`today`: Stockholm's date) has them removed, first from
 * the race (its record, audited as 'retention', so the phones stop showing them), then every object under its
 * prefix. A race D1 no longer has still loses its objects. Answers the races purged.
 */
export async function purgeExpiredPhotos(env: Env, today: string): Promise<string[]> {
  const purged: string[] = [];
  let cursor: string | undefined;
  const expired: string[] = [];
  do {
    const page = await env.FINISH_PHOTOS.list({ delimiter: "/", limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const prefix of page.delimitedPrefixes) {
      const raceId = prefix.replace(/\/$/, "");
      if (photosExpired(raceId, today) === true) expired.push(raceId);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  for (const raceId of expired) {
    if (isRaceId(raceId)) {
      try {
        await runOnRace(env, raceId, { type: "delete-photos", reason: "retention" }, { actor: "system" });
      } catch (err) {
        // A race D1 does not have (404) has no record to remove; anything else waits for the next run.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    }
    await deleteRacePhotos(env, raceId);
    purged.push(raceId);
  }
  return purged;
}

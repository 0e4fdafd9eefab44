/**
 * Målfoto's objects in the R2 bucket `FINISH_PHOTOS`, deleted by race or by tap (keys: src/shared/finish-photos.ts).
 * Only R2 here: the race object's record of them is finish-photos.ts's.
 */
import { racePhotoPrefix } from "../../shared/finish-photos";

/** Every object under `prefix`, deleted (a thousand per call, R2's most). Answers how many. */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, limit: 1000, ...(cursor ? { cursor } : {}) });
    const keys = page.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/** Every photo object of the race (after the race removed its records: 'Radera målfoton', a reset). */
export function deleteRacePhotos(env: Env, raceId: string): Promise<number> {
  return deletePrefix(env.FINISH_PHOTOS, racePhotoPrefix(raceId));
}

/** The frames of these taps (an erasure: the race answered the runner's taps whose photos it removed). */
export async function deleteTapPhotos(env: Env, raceId: string, tapIds: readonly string[]): Promise<void> {
  for (const tapId of tapIds) await deletePrefix(env.FINISH_PHOTOS, `${racePhotoPrefix(raceId)}${tapId}/`);
}

/**
 * Målfoto's upload rate limit (issue 44): a phone sends at most the frames it took (three per press), so a broken or
 * hostile client that sends more must not flood R2. The race object counts, since it sees every upload before R2
 * does (src/worker/race-day/finish-photos.ts records first, puts after) and runs one call at a time: the count is
 * exact, not per Cloudflare location like the Workers rate-limit bindings (middleware/rate-limit.ts).
 *
 * A token bucket per admin session (the Worker passes the session's id as `uploader`) in this race: PHOTO_BURST
 * uploads at once, then PHOTO_RATE_PER_S more each second. Every `record-photo` call takes one, a resend or a refusal
 * too, before the race decides anything; one without a token is refused with 429, RATE_MESSAGE and the seconds until
 * the next token (the route's `Retry-After`), and nothing is written or put. The phone's queue keeps the frame and
 * tries again in its next round (photo-queue.ts).
 *
 * Sized so a real race never meets it: ten 'Mål!' presses in a few seconds are 30 frames, each sent again once is 60;
 * a phone that comes back online with 40 taps waiting (120 frames) sends them at once; a finish rush of 60 taps in a
 * minute on one phone (180 frames) is under the 240 the first minute allows. A client past it puts at most 2 frames
 * a second per session into R2, and the race's storage bound (RACE_PHOTO_BYTES) still holds the total.
 *
 * The buckets are in the object's memory, not its storage (an upload writes nothing more): an object that restarts
 * (after being idle, or a deploy) starts every bucket full, which a client sending without pause cannot cause. Two
 * phones on one session share a bucket; two tabs of one phone do too. A bucket that would be full again is dropped.
 */
import { RaceError } from "../../../shared/race-protocol";

/** Uploads a session may send at once. */
export const PHOTO_BURST = 120;
/** Uploads a second after the burst. */
export const PHOTO_RATE_PER_S = 2;
export const RATE_MESSAGE = "För många målfoton på kort tid. Telefonen skickar resten om en stund.";

interface Bucket {
  tokens: number;
  at: number;
}

export class PhotoUploadBudget {
  private readonly buckets = new Map<string, Bucket>();

  /** One upload by `uploader` at `now` (ms): taken, or a 429 RaceError with the seconds to wait (module comment). */
  take(uploader: string, now: number): void {
    const bucket = this.buckets.get(uploader) ?? { tokens: PHOTO_BURST, at: now };
    const tokens = Math.min(PHOTO_BURST, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * PHOTO_RATE_PER_S);
    if (tokens < 1) {
      this.buckets.set(uploader, { tokens, at: now });
      throw new RaceError(429, RATE_MESSAGE, { retryAfter: Math.ceil((1 - tokens) / PHOTO_RATE_PER_S) });
    }
    this.buckets.set(uploader, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 50) this.forgetFull(now);
  }

  private forgetFull(now: number): void {
    const refill = (PHOTO_BURST / PHOTO_RATE_PER_S) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= refill) this.buckets.delete(key);
  }
}

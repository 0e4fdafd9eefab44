/**
 * A race's public view as the Worker serves it to spectators (the public JSON, the pages' first HTML): read from
 * the race's spectator fan-out object (src/durable/spectators.ts), never from the race object, through two
 * layers in front of it:
 *
 * 1. The edge: Workers Cache, where the deployment turns it on (wrangler.toml, docs/live-results.md, "Live results for everyone"), keeps the
 *    answer for a second (`publicViewHeaders`) and collapses a crowd's requests into one per location.
 * 2. This isolate's copy of the settled answer, at most PUBLIC_COPY_MS old: correct on every address (also where
 *    no edge cache runs, e.g. locally and on workers.dev without the cache setting). It holds values only, never
 *    a pending promise or any other request's I/O (workerd refuses "I/O on behalf of a different request"):
 *    - a request that finds no copy, or finds it expired while no other request is reading, reads the fan-out
 *      itself; while one request of the isolate is reading, the others answer the copy they have (up to
 *      MAX_STALE_MS old), so a crowd reads the fan-out about once a second per isolate;
 *    - a read that fails leaves the old copy in place and answers it (up to MAX_STALE_MS old).
 *
 * An unknown race is answered before any Durable Object is asked: a malformed id at once, a well-formed one by
 * its row in D1's index (`isKnownRace`); the edge keeps that 404 for a few seconds.
 */
import { isRaceId } from "../../shared/race-id";
import type { PublicRaceView } from "../../shared/public-view";
import type { Db } from "../db/client";
import { getRace } from "./races-db";
import { keptInIsolate } from "../lib/isolate-memory";

export const PUBLIC_COPY_MS = 1_000;
/** An isolate's read of the fan-out that has not answered in this long no longer holds the others back. */
const READ_STALLED_MS = 5_000;
/** The oldest copy answered while another request reads, or after a failed read. */
const MAX_STALE_MS = 30_000;
/** Copies (and known race ids) an isolate keeps: a season has four races; this bounds what a crawl leaves behind. */
const MAX_COPIES = 100;

export interface PublicRaceAnswer {
  view: PublicRaceView;
  /** The view as the JSON the public endpoint sends (made once per version). */
  body: string;
  /**
   * From the fan-out's versions (spectators.ts): a new one for every change the public sees, and for nothing else.
   * Never from the race's seq, which also counts the changes the public does not see (a withheld child's finish).
   */
  etag: string;
}

interface Copy {
  answer: PublicRaceAnswer;
  at: number;
  /** When a request of this isolate started reading a newer one (null: nobody is). */
  readingSince: number | null;
}

const copies = keptInIsolate(new Map<string, Copy>());
const knownRaces = keptInIsolate(new Set<string>());

/**
 * Whether `part` is a race of D1's index: a malformed id without any I/O, a race this isolate has seen from its
 * set (races are never deleted), anything else from D1 by its key (a race made a moment ago is found at once).
 */
export async function isKnownRace(db: Db, part: string): Promise<boolean> {
  if (!isRaceId(part)) return false;
  if (knownRaces.has(part)) return true;
  if (!(await getRace(db, part))) return false;
  if (knownRaces.size >= MAX_COPIES) knownRaces.clear();
  knownRaces.add(part);
  return true;
}

/** The race's public view with its ETag; null for a race that does not exist. */
export async function publicRaceAnswer(env: Env, db: Db, part: string, now: number): Promise<PublicRaceAnswer | null> {
  const copy = copies.get(part);
  if (copy && now >= copy.at) {
    const age = now - copy.at;
    if (age < PUBLIC_COPY_MS) return copy.answer;
    const othersReading = copy.readingSince !== null && now - copy.readingSince < READ_STALLED_MS;
    if (othersReading && age < MAX_STALE_MS) return copy.answer;
  }
  if (!copy && !(await isKnownRace(db, part))) return null;
  if (copy) copy.readingSince = now;
  try {
    const found = await env.SPECTATORS.getByName(part).view();
    if (!found) {
      copies.delete(part);
      return null;
    }
    const etag = `"${found.baseVersion}-${found.version}"`;
    const answer =
      copy?.answer.etag === etag
        ? copy.answer
        : { view: found.view as PublicRaceView, body: JSON.stringify(found.view), etag };
    copies.delete(part);
    copies.set(part, { answer, at: now, readingSince: null });
    if (copies.size > MAX_COPIES) copies.delete(copies.keys().next().value!);
    return answer;
  } catch (err) {
    if (copy && now - copy.at < MAX_STALE_MS) {
      copy.readingSince = null;
      console.warn("public race view not read; answering this isolate's copy", part, err);
      return copy.answer;
    }
    throw err;
  }
}

/** Whether an If-None-Match header names this ETag (a list, a weak form, or '*'). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

/**
 * Browsers keep the answer and ask again every time with its ETag (a 304 costs nothing); the edge cache keeps it
 * for a second and may answer a stale copy for a few more seconds while it fetches a new one. Cache-Tag lets an
 * operator (or the Worker, `ctx.cache.purge`) drop one race's copies.
 */
export function publicViewHeaders(part: string, etag: string): Record<string, string> {
  return {
    etag,
    "cache-control": "no-cache",
    "cloudflare-cdn-cache-control": "public, max-age=1, stale-while-revalidate=4",
    "cache-tag": `race-${part}`,
  };
}

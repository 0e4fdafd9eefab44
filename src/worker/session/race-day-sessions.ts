/**
 * Race-day calls (`/admin/api/races/*`: a start, a finish tap, a bib, a rapid-timing slot) are the one hot path an
 * admin session guards: a volunteer taps every few seconds, and two D1 reads before each tap (the session row and
 * the allowlist) were most of what a tap cost over the race object's own work (issue 23 item 10). So a race-day
 * call may use a verification this isolate made of the same session at most SESSION_RECHECK_MS ago: the same bound
 * the admin's race sockets already live with (src/durable/socket-sessions.ts), applied to the calls they stream.
 *
 * What that means, case by case:
 * - The cookie still has to verify (signature, kind, expiry) on every call (sessions.ts keeps a token it verified
 *   until the token's own expiry: verifying it again would give the same answer); only the D1 look-up is reused
 *   here. A token that is expired by its own claim, or whose D1 row has expired, is refused at once (the entry keeps
 *   the expiry).
 * - Logout in this isolate forgets the session at once (`forgetRaceDaySession`). Logout answered by another isolate,
 *   a session revoked by signing in again elsewhere, or an address removed from the allowlist: this isolate accepts
 *   race-day calls with that session for at most SESSION_RECHECK_MS more, then reads D1 again and refuses it. The
 *   logged-out browser itself no longer holds the cookie; the window matters only for a copied cookie.
 * - Every other admin call (registrations, payments, exports, admins, …) reads D1 on every request, as before, and
 *   so do the race-day calls only an organiser may make (resetting a race, 'Officiella': src/worker/middleware/route-roles.ts),
 *   so a role taken away on the admins screen counts for them at the next call. The remembered session carries the
 *   role it had; the calls that may use it are open to both roles.
 *
 * The cache holds settled values only (never a pending promise or an I/O object: workerd forbids sharing those
 * between requests). Two taps arriving together with a cold entry both read D1; the later write wins, and both
 * values are the same verification. The map is bounded (MAX_ENTRIES, oldest out first): a handful of organisers
 * use it on race day.
 */
import { SESSION_RECHECK_MS } from "../../shared/object-calls";
import type { SessionInfo } from "../env";
import { keptInIsolate } from "../lib/isolate-memory";

/** The paths whose admin session may come from this cache: the race object's calls. */
export const RACE_DAY_PATH = /^\/admin\/api\/races\//;

const MAX_ENTRIES = 256;

interface Verified {
  session: SessionInfo;
  verifiedAt: number;
}

const verified = keptInIsolate(new Map<string, Verified>());

/** The session verified in D1 by this isolate within SESSION_RECHECK_MS of `now`, still unexpired; else null. */
export function recentlyVerified(sessionId: string, now: number): SessionInfo | null {
  const entry = verified.get(sessionId);
  if (!entry) return null;
  const age = now - entry.verifiedAt;
  // A clock set back (the development clock) counts as stale, as in SessionRecheck.
  if (age < 0 || age >= SESSION_RECHECK_MS || entry.session.expiresAt <= now) {
    verified.delete(sessionId);
    return null;
  }
  return entry.session;
}

/** Records a session D1 just confirmed live and allowed (the admin middleware's full check). */
export function rememberVerified(session: SessionInfo, now: number): void {
  verified.delete(session.id);
  verified.set(session.id, { session, verifiedAt: now });
  while (verified.size > MAX_ENTRIES) {
    const oldest = verified.keys().next().value;
    if (oldest === undefined) break;
    verified.delete(oldest);
  }
}

/** Logout (and a failed re-check) in this isolate: the next race-day call with this session reads D1. */
export function forgetRaceDaySession(sessionId: string): void {
  verified.delete(sessionId);
}

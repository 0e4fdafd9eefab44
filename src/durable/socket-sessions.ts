/**
 * Admin sockets follow the admin's session (race and hub objects alike). The Worker opens a socket only for a
 * signed-in admin and tells the object which session it belongs to and when that session expires; the object
 * keeps both in the socket's attachment. A socket stops streaming (it is closed with SESSION_ENDED_CODE):
 * - at the first broadcast after its session expired (checked from the attachment, no I/O);
 * - at once when its admin logs out (the logout call asks the hub and this season's races to close the
 *   session's sockets);
 * - otherwise when a re-check of D1 finds the session revoked or the address gone from the allowlist; the re-check
 *   runs with a broadcast when the last one is older than SESSION_RECHECK_MS (the hub's before it; a race's after
 *   it, so that no D1 query sits between a change and its broadcast and a race's changes reach each socket in seq
 *   order), so a socket of another season's race, or of an address removed from the allowlist, streams at most
 *   that long (and, on a race, the one change that ran the re-check).
 *   The time of the last re-check is kept in the object's storage (`SessionRecheck`), so that bound holds across
 *   hibernation too, and a woken object does not ask D1 before its first broadcast.
 */
import { SESSION_RECHECK_MS, SOCKET_EXPIRES_HEADER, SOCKET_SESSION_HEADER } from "../shared/object-calls";
import { isAdminEmail } from "../worker/session/admins-db";
import { database } from "../worker/db/client";

/** Close code for a socket whose session ended (4000–4999 are the application's). */
export const SESSION_ENDED_CODE = 4001;
/** The object's storage key (synchronous KV of its SQLite storage) for the time of its last re-check. */
export const RECHECKED_AT_KEY = "sessions-rechecked-at";

export interface SocketSession {
  /** The admin session's D1 id; absent for sockets opened before sessions were named. */
  session?: string;
  email?: string;
  expiresAt?: number;
}

/**
 * When an object last re-checked its sockets' sessions, in memory and in its storage. An object with only
 * hibernating sockets is evicted after some seconds without a message; with the time in memory only, the first
 * broadcast after every wake asked D1 again, so on race day the first tap after each quiet spell waited for a D1
 * query before reaching the phones. A stored time ahead of the clock (a development clock set back) counts as due.
 */
export class SessionRecheck {
  private checkedAt: number | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  due(now: number): boolean {
    this.checkedAt ??= this.storage.kv.get<number>(RECHECKED_AT_KEY) ?? 0;
    const since = now - this.checkedAt;
    return since >= SESSION_RECHECK_MS || since < 0;
  }

  /**
   * A re-check starts at `now`. Marked before its D1 query: a second broadcast while the query runs (another tap
   * on the same object) does not start another.
   */
  started(now: number): void {
    this.checkedAt = now;
    this.storage.kv.put(RECHECKED_AT_KEY, now);
  }
}

/** What the Worker's upgrade request says of the socket's session. */
export function socketSessionFrom(request: Request, email: string): SocketSession {
  const session = request.headers.get(SOCKET_SESSION_HEADER) ?? undefined;
  const expires = Number(request.headers.get(SOCKET_EXPIRES_HEADER));
  return { session, email, expiresAt: Number.isSafeInteger(expires) && expires > 0 ? expires : undefined };
}

/** Closes a socket whose session ended; the page shows it is signed out and stops. */
export function closeForEndedSession(ws: WebSocket): void {
  try {
    ws.close(SESSION_ENDED_CODE, "Sessionen har upphört. Logga in igen.");
  } catch {
    // Already closed.
  }
}

export function sessionExpired(state: SocketSession | null, now: number): boolean {
  return state?.expiresAt !== undefined && state.expiresAt <= now;
}

/**
 * The sessions among `states` that are no longer live in D1 (revoked or expired), or whose address left the
 * allowlist. One query for the sessions, one allowlist check per distinct address.
 */
export async function endedSessions(env: Env, states: readonly SocketSession[], now: number): Promise<Set<string>> {
  const ids = [...new Set(states.map((s) => s.session).filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Set();
  const live = await env.DB.prepare(
    `SELECT id, email FROM sessions WHERE id IN (${ids.map(() => "?").join(",")})
       AND revoked_at IS NULL AND expires_at > ?`,
  )
    .bind(...ids, now)
    .all<{ id: string; email: string }>();
  const db = database(env.DB);
  const allowed = new Map<string, boolean>();
  for (const email of new Set(live.results.map((r) => r.email))) {
    allowed.set(email, await isAdminEmail(db, email, env.ADMIN_EMAILS));
  }
  const stillLive = new Set(live.results.filter((r) => allowed.get(r.email)).map((r) => r.id));
  return new Set(ids.filter((id) => !stillLive.has(id)));
}

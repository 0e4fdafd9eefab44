/**
 * Admin sockets follow the admin's session (race and hub objects alike). The Worker opens a socket only for a
 * signed-in admin (its session just read from D1) and tells the object which session it belongs to and when that
 * session expires; the object keeps both in the socket's attachment. A socket gets nothing more (it is closed with
 * SESSION_ENDED_CODE):
 * - at once when its admin logs out (the logout call asks the hub and every race of D1's index to close the
 *   session's sockets);
 * - when it subscribes, or at the first broadcast, after its session expired (from the attachment, no I/O);
 * - otherwise when a re-check of D1 finds the session revoked or the address gone from the allowlist. A re-check
 *   covers every socket of the object, subscribed or not, and runs:
 *   - before a subscribe is answered, when the last one D1 answered is older than SESSION_RECHECK_MS: no snapshot
 *     goes to a session that was not checked within that bound (when D1 cannot answer, the socket is refused and
 *     closed with TRY_AGAIN_CODE, and the page reconnects);
 *   - with a broadcast, when the last one is older than SESSION_RECHECK_MS (the hub's before it; a race's after it,
 *     so that no D1 query sits between a change and its broadcast and a race's changes reach each socket in seq
 *     order), so a socket of an address removed from the allowlist streams at most that long (and, on a race, the
 *     one change that ran the re-check).
 *   The time of the last re-check D1 answered is kept in the object's storage (`SessionRecheck`), so that bound
 *   holds across hibernation too, and a woken object does not ask D1 before its first broadcast.
 */
import {
  SESSION_ENDED_CODE,
  SESSION_RECHECK_MS,
  SOCKET_EXPIRES_HEADER,
  SOCKET_SESSION_HEADER,
} from "../shared/object-calls";
import { isAdminEmail } from "../worker/session/admins-db";
import { database } from "../worker/db/client";
import { sendFrame } from "./client-frames";

/**
 * Close code for a socket whose session could not be checked (D1 did not answer): "try again later" (RFC 6455's
 * registry). The page reopens any socket that closes, and the Worker checks the session again at the upgrade.
 */
export const TRY_AGAIN_CODE = 1013;
/** The object's storage key (synchronous KV of its SQLite storage) for the start of its last answered re-check. */
export const RECHECKED_AT_KEY = "sessions-rechecked-at";
/**
 * A socket asks again (a page that lost track) at most this often; more often, or while its last subscribe is
 * still being answered, it gets one error frame instead of another snapshot, so a socket that sends 100 subscribe
 * frames cannot make the object send 100 snapshots (or ask D1 100 times).
 */
export const RESUBSCRIBE_MS = 5_000;

export interface SocketSession {
  /** The admin session's D1 id; absent for sockets opened before sessions were named (never answered now). */
  session?: string;
  email?: string;
  expiresAt?: number;
}

/** What both objects keep in an admin socket's attachment. */
export interface SubscriberState extends SocketSession {
  subscribed: boolean;
  /** When this socket last got a snapshot (server clock, ms). */
  subscribedAt?: number;
}

/** An object's admin sockets as a re-check sees them: every one's session, and closing those of ended sessions. */
export interface SessionSockets {
  sessions(): SocketSession[];
  close(ended: ReadonlySet<string>): void;
}

const NOTHING_ENDED: ReadonlySet<string> = new Set();

/**
 * An object's re-checks of its sockets' sessions against D1, and when the last one was, in memory and in its
 * storage. An object with only hibernating sockets is evicted after some seconds without a message; with the time
 * in memory only, the first broadcast after every wake asked D1 again, so on race day the first tap after each
 * quiet spell waited for a D1 query before reaching the phones. A stored time ahead of the clock (a development
 * clock set back) counts as old.
 *
 * Two times: when the last re-check that D1 answered started (stored; what a subscribe trusts), and when the last
 * one started at all (memory; a broadcast does not start another while one runs, nor retry a failed one before
 * SESSION_RECHECK_MS has passed). A subscribe that finds a re-check running awaits that one: every socket it did
 * not cover opened after it started, with a session the Worker had just read from D1.
 */
export class SessionRecheck {
  private verifiedAt: number | undefined;
  private triedAt = Number.NEGATIVE_INFINITY;
  /** The sessions the last answered re-check found ended (memory: a subscribe refuses them within the bound). */
  private ended: ReadonlySet<string> = NOTHING_ENDED;
  private running: Promise<ReadonlySet<string> | null> | null = null;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly sockets: SessionSockets,
  ) {}

  /** A broadcast's re-check, when none ran within SESSION_RECHECK_MS. Never throws: a failure waits for the next. */
  async ifDue(now: number): Promise<void> {
    if (this.running || recent(this.lastVerified(), now) || recent(this.triedAt, now)) return;
    await this.run(now);
  }

  /**
   * A subscribe's: the sessions found ended by a re-check D1 answered within SESSION_RECHECK_MS, asking D1 now
   * when the last is older (their sockets are closed by then); null when D1 could not answer.
   */
  async verified(now: number): Promise<ReadonlySet<string> | null> {
    if (recent(this.lastVerified(), now)) return this.ended;
    return this.running ?? this.run(now);
  }

  private lastVerified(): number {
    this.verifiedAt ??= this.storage.kv.get<number>(RECHECKED_AT_KEY) ?? 0;
    return this.verifiedAt;
  }

  private run(now: number): Promise<ReadonlySet<string> | null> {
    this.triedAt = now;
    const running = this.check(now).finally(() => {
      if (this.running === running) this.running = null;
    });
    this.running = running;
    return running;
  }

  private async check(now: number): Promise<ReadonlySet<string> | null> {
    try {
      const ended = await endedSessions(this.env, this.sockets.sessions(), now);
      this.sockets.close(ended);
      this.ended = ended;
      this.verifiedAt = now;
      this.storage.kv.put(RECHECKED_AT_KEY, now);
      return ended;
    } catch (err) {
      console.warn("socket session re-check failed", err);
      return null;
    }
  }
}

function recent(at: number, now: number): boolean {
  const since = now - at;
  return since >= 0 && since < SESSION_RECHECK_MS;
}

/**
 * A `subscribe-to-race` frame, judged at once (no I/O): a socket whose session has expired (or was never named) is
 * closed; one whose subscribe is still being answered (`answering`), or that got a snapshot within RESUBSCRIBE_MS,
 * gets one error frame. True when the socket may go on to `sessionPassed`.
 */
export function mayAsk(ws: WebSocket, socket: SubscriberState, now: number, answering: boolean): boolean {
  if (!socket.session || sessionExpired(socket, now)) {
    closeForEndedSession(ws);
    return false;
  }
  const since = now - (socket.subscribedAt ?? Number.NEGATIVE_INFINITY);
  if (answering || (since >= 0 && since < RESUBSCRIBE_MS)) {
    sendFrame(ws, { type: "error", error: "Redan ansluten. Vänta en stund innan du ansluter igen." });
    return false;
  }
  return true;
}

/**
 * After `mayAsk`, before the snapshot is read: whether the socket's session passed a re-check D1 answered within
 * SESSION_RECHECK_MS (asking D1 now when the last is older). A socket the re-check found ended is closed by it, and
 * one closed meanwhile (a logout) gets nothing either. When D1 cannot answer, the socket gets an error frame and is
 * closed with TRY_AGAIN_CODE: no snapshot for a session that could not be checked, and the page's reconnect (the
 * only retry it makes) brings the subscribe back a few seconds later.
 */
export async function sessionPassed(
  ws: WebSocket,
  socket: SubscriberState,
  recheck: SessionRecheck,
  now: number,
): Promise<boolean> {
  const ended = await recheck.verified(now);
  if (ended === null) {
    sendFrame(ws, { type: "error", error: "Inloggningen kunde inte kontrolleras just nu. Ansluter igen strax." });
    try {
      ws.close(TRY_AGAIN_CODE, "Försök igen");
    } catch {
      // Already closed.
    }
    return false;
  }
  return !ended.has(socket.session ?? "") && ws.readyState === WebSocket.READY_STATE_OPEN;
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
 * allowlist. One query for the sessions, one allowlist check per distinct address (at once).
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
  const emails = [...new Set(live.results.map((r) => r.email))];
  const allowed = new Set(
    (
      await Promise.all(emails.map(async (email) => ((await isAdminEmail(db, email, env.ADMIN_EMAILS)) ? email : null)))
    ).filter((email) => email !== null),
  );
  const stillLive = new Set(live.results.filter((r) => allowed.has(r.email)).map((r) => r.id));
  return new Set(ids.filter((id) => !stillLive.has(id)));
}

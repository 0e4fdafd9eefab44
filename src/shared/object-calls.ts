/**
 * What the Worker and the Durable Objects agree on besides their frames and RPC types: the headers through which
 * the Worker names who opened a socket and the session it follows, the hub's one name, and how long a verified
 * admin session is trusted before D1 is asked again. Both sides import them from here, so no route imports an
 * object's module at run time.
 */

/** Who opened a socket (the admin's e-mail), as the Worker tells the race and hub objects. */
export const RACE_ACTOR_HEADER = "x-race-actor";
/** The socket's admin session (its D1 id) and when that session expires (src/durable/socket-sessions.ts). */
export const SOCKET_SESSION_HEADER = "x-socket-session";
export const SOCKET_EXPIRES_HEADER = "x-socket-session-expires";
/** The one hub object's name in the RACE_HUB namespace. */
export const RACE_HUB_NAME = "hub";
/**
 * Close code of an admin socket whose session ended (logged out, revoked, expired, address off the allowlist):
 * the page says it is signed out and does not reconnect (4000–4999 are the application's).
 */
export const SESSION_ENDED_CODE = 4001;
/**
 * How long a session verified against D1 is trusted: the objects re-check their sockets' sessions at most this
 * often, and a race-day call may use a verification its isolate made at most this long ago.
 */
export const SESSION_RECHECK_MS = 30_000;

import { createMiddleware } from "hono/factory";
import { adminRole } from "./admins-db";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import type { Db } from "../db/client";
import type { SessionInfo } from "../env";
import { liveSession, readSession, sessionCookie, sessionIdFromToken } from "./sessions";
import { forgetRaceDaySession, RACE_DAY_PATH, recentlyVerified, rememberVerified } from "./race-day-sessions";
import { neededRole } from "../middleware/admin-role";

/**
 * The spectators' paths answer the same to everyone, so a crowd of signed-in families following a race costs no
 * session read in D1: the public view of a race and its live socket.
 */
const SESSION_FREE = [/^\/api\/races\/get\//, /^\/ws\/spectate\//];

/**
 * The admin session a request carries, with its role: the JWT must verify, its D1 row be live and its e-mail on the
 * allowlist (ADMIN_EMAILS: an organiser; the admins table: its row's role). A race-day call (RACE_DAY_PATH) that a
 * volunteer may make (`mayReuse`) may instead use this isolate's verification of the same session from at most 30 s
 * ago (src/worker/session/race-day-sessions.ts says what that changes); every other admin call reads D1, so a call
 * only an organiser may make (resetting a race, 'Officiella') is judged by the role D1 has now.
 */
async function adminSession(
  db: Db,
  env: Env,
  mayReuse: boolean,
  token: string,
  now: number,
): Promise<SessionInfo | null> {
  const claimed = await sessionIdFromToken(env.SESSION_SECRET, "admin", token, now);
  if (!claimed) return null;
  if (mayReuse) {
    const cached = recentlyVerified(claimed.id, now);
    if (cached && cached.email === claimed.email) return cached;
  }
  const admin = await liveSession(db, claimed, "admin", now);
  const role = admin ? await adminRole(db, admin.email, env.ADMIN_EMAILS) : null;
  if (!admin || !role) {
    forgetRaceDaySession(claimed.id);
    return null;
  }
  const withRole = { ...admin, role };
  rememberVerified(withRole, now);
  return withRole;
}

/**
 * Fills `c.var.session` (visitor) and `c.var.admin` from the cookies: the JWT must verify and its D1 row must be
 * live by the server's clock. An admin session also needs its e-mail to still be on the allowlist, so removing
 * someone from ADMIN_EMAILS or the admins table takes effect at their next request (at their next race-day call
 * within 30 s: adminSession above), and it carries the role the allowlist gives now, so a role changed on the admins
 * screen counts from the person's next request (the 30 s only for the race-day calls both roles may make).
 */
export const sessionContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set("session", null);
  c.set("admin", null);
  if (SESSION_FREE.some((re) => re.test(c.req.path))) return next();
  const visitorToken = sessionCookie(c, "visitor");
  const adminToken = sessionCookie(c, "admin");
  if (visitorToken || adminToken) {
    const db = database(c.env.DB);
    const now = c.var.clock.now();
    if (visitorToken) c.set("session", await readSession(db, c.env.SESSION_SECRET, "visitor", visitorToken, now));
    if (adminToken) {
      const mayReuse = RACE_DAY_PATH.test(c.req.path) && neededRole(c) === "volunteer";
      c.set("admin", await adminSession(db, c.env, mayReuse, adminToken, now));
    }
  }
  await next();
});

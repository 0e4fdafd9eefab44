import { createMiddleware } from "hono/factory";
import { isAdminEmail } from "../session/admins-db";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { readSession, sessionCookie } from "../session/sessions";

/**
 * The spectators' paths answer the same to everyone, so a crowd of signed-in families following a race costs no
 * session read in D1: the public view of a race and its live socket.
 */
const SESSION_FREE = [/^\/api\/races\/get\//, /^\/ws\/spectate\//];

/**
 * Fills `c.var.session` (visitor) and `c.var.admin` from the cookies: the JWT must verify and its D1 row must be
 * live by the server's clock. An admin session also needs its e-mail to still be on the allowlist, so removing
 * someone from ADMIN_EMAILS or the admins table takes effect at their next request.
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
      const admin = await readSession(db, c.env.SESSION_SECRET, "admin", adminToken, now);
      if (admin && (await isAdminEmail(db, admin.email, c.env.ADMIN_EMAILS))) c.set("admin", admin);
    }
  }
  await next();
});

import { createMiddleware } from "hono/factory";
import { isAdminEmail } from "../session/admins-db";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { readSession, sessionCookie } from "../session/sessions";

/**
 * Fills `c.var.session` (visitor) and `c.var.admin` from the cookies: the JWT must verify and its D1 row must be
 * live by the server's clock. An admin session also needs its e-mail to still be on the allowlist, so removing
 * someone from ADMIN_EMAILS or the admins table takes effect at their next request.
 */
export const sessionContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set("session", null);
  c.set("admin", null);
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

import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { unauthorized } from "../lib/errors";

/** The two admin calls a signed-out browser must reach: signing in. */
const OPEN_ADMIN_PATHS = new Set(["/admin/api/authenticate", "/admin/api/dev-login"]);

/**
 * Mounted on /admin/api/* and /admin/registrations before any admin route, so every admin path, built or not
 * yet, answers 401 to anyone without a valid admin session.
 */
export const adminGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (!OPEN_ADMIN_PATHS.has(c.req.path) && !c.var.admin) throw unauthorized("Inte inloggad som admin");
  await next();
});

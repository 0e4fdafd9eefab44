import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Context } from "hono";
import { mayAct, ORGANISERS_ONLY, type AdminRole } from "../../shared/admin-roles";
import { routeKey, ROUTE_ROLES, SIGN_IN_ROUTES } from "./route-roles";
import type { AppEnv } from "../env";
import { forbidden } from "../lib/errors";

/** Said to everyone, organisers included, by an admin route that src/worker/middleware/route-roles.ts does not list. */
export const NO_ROLE_STATED = "Den här funktionen saknar behörighetsregel och är spärrad.";

/**
 * The mounted route that will answer this request (the first matched handler; middleware is mounted for ALL), as
 * route-roles.ts names it, or null when no route does (the request ends in a 404). A HEAD is answered by its GET.
 */
export function answeringRoute(c: Context<AppEnv>): string | null {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL");
  return route ? routeKey(route.method, route.path) : null;
}

/** The role the answering route needs: 'none' for signing in and for a path no route answers. */
export function neededRole(c: Context<AppEnv>): AdminRole | "none" | "unlisted" {
  const key = answeringRoute(c);
  if (key === null || SIGN_IN_ROUTES.has(key)) return "none";
  return ROUTE_ROLES[key] ?? "unlisted";
}

/**
 * Mounted after the admin guard on every admin path (ADMIN_ROLE_PATHS, app.ts): the signed-in admin's role must be
 * the one the route states, else 403 'Det här får bara arrangörer göra.'; a route that states none answers 403 to
 * everyone. The role is the one the session middleware just read (src/worker/middleware/session.ts): D1's, at this
 * request, for every call an organiser alone may make. A request without an admin session goes on to what refuses it
 * (the guard before this on /admin/, the socket routes' own check).
 */
export const adminRole = createMiddleware<AppEnv>(async (c, next) => {
  const needed = neededRole(c);
  const admin = c.var.admin;
  if (needed === "none" || !admin) return next();
  if (needed === "unlisted") throw forbidden(NO_ROLE_STATED);
  if (!mayAct(admin.role, needed)) throw forbidden(ORGANISERS_ONLY);
  await next();
});

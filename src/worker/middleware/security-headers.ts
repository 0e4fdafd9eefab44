import { createMiddleware } from "hono/factory";
import { securityHeaders } from "../../shared/security-headers";
import type { AppEnv } from "../env";

/**
 * The security headers (src/shared/security-headers.ts) on every answer of the Worker: pages, API calls, files,
 * 404s and the error handler's 500s alike, since it wraps them all. A header the route set itself stays (the
 * unsubscribe page's stricter policy). A WebSocket upgrade is left as it is: its headers cannot be changed, and a
 * socket has no document to protect. The static assets get the same headers from `_headers` (vite.config.ts).
 */
export const securityHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  const wanted = securityHeaders({
    publicOrigin: c.env.PUBLIC_ORIGIN,
    mapTileUrl: c.env.MAP_TILE_URL,
    viteDevServer: c.env.DEV_MODE === "true" && c.env.DEV_SERVER === "vite",
  });
  const missing = Object.entries(wanted).filter(([name]) => !c.res.headers.has(name));
  if (missing.length === 0) return;
  // An answer passed on from fetch() (a static asset through the ASSETS binding) has immutable headers.
  const res = new Response(c.res.body, c.res);
  for (const [name, value] of missing) res.headers.set(name, value);
  c.res = undefined;
  c.res = res;
});

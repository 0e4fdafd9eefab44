import { createMiddleware } from "hono/factory";
import { isAdminDocument } from "../../shared/admin-document";
import { securityHeaders } from "../../shared/security-headers";
import type { AppEnv } from "../env";
import { setAnswerHeaders } from "../lib/answer-headers";

/**
 * The security headers (src/shared/security-headers.ts) on every answer of the Worker: pages, API calls, files,
 * 404s and the error handler's 500s alike, since it wraps them all. A header the route set itself stays (the
 * unsubscribe page's stricter policy). The admin area's addresses (`/admin`, `/admin/…`) get its policy (the camera,
 * `blob:` images), every other address the public site's. A WebSocket upgrade is left as it is: its headers cannot be changed, and a
 * socket has no document to protect. The static assets get the same headers from `_headers` (vite.config.ts).
 */
export const securityHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  const wanted = headersFor(
    c.env.PUBLIC_ORIGIN,
    c.env.MAP_TILE_URL,
    c.env.DEV_MODE === "true" && c.env.DEV_SERVER === "vite",
    isAdminDocument(c.req.path),
  );
  setAnswerHeaders(
    c,
    wanted.filter(([name]) => !c.res.headers.has(name)),
  );
});

/** The headers for one deployment's settings and area, worked out once per isolate (pure functions of them). */
const kept = new Map<string, Array<[string, string]>>();

function headersFor(
  publicOrigin: string,
  mapTileUrl: string | undefined,
  viteDevServer: boolean,
  admin: boolean,
): Array<[string, string]> {
  const key = `${publicOrigin}\n${mapTileUrl ?? ""}\n${viteDevServer}\n${admin}`;
  let headers = kept.get(key);
  if (!headers) {
    if (kept.size > 8) kept.clear();
    headers = Object.entries(securityHeaders({ publicOrigin, mapTileUrl, viteDevServer, admin }));
    kept.set(key, headers);
  }
  return headers;
}

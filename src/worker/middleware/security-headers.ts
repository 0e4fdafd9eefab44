import { createMiddleware } from "hono/factory";
import { securityHeaders } from "../../shared/security-headers";
import type { AppEnv } from "../env";
import { setAnswerHeaders } from "../lib/answer-headers";

/**
 * The security headers (src/shared/security-headers.ts) on every answer of the Worker: pages, API calls, files,
 * 404s and the error handler's 500s alike, since it wraps them all. A header the route set itself stays (the
 * unsubscribe page's stricter policy). A WebSocket upgrade is left as it is: its headers cannot be changed, and a
 * socket has no document to protect. The static assets get the same headers from `_headers` (vite.config.ts).
 */
export const securityHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  const wanted = headersFor(
    c.env.PUBLIC_ORIGIN,
    c.env.MAP_TILE_URL,
    c.env.DEV_MODE === "true" && c.env.DEV_SERVER === "vite",
  );
  setAnswerHeaders(
    c,
    wanted.filter(([name]) => !c.res.headers.has(name)),
  );
});

/** The headers for one deployment's settings, worked out once per isolate (a pure function of three strings). */
let kept: { key: string; headers: Array<[string, string]> } | null = null;

function headersFor(
  publicOrigin: string,
  mapTileUrl: string | undefined,
  viteDevServer: boolean,
): Array<[string, string]> {
  const key = `${publicOrigin}\n${mapTileUrl ?? ""}\n${viteDevServer}`;
  if (kept?.key !== key) {
    kept = { key, headers: Object.entries(securityHeaders({ publicOrigin, mapTileUrl, viteDevServer })) };
  }
  return kept.headers;
}

/**
 * The Worker's own route list, read from the app itself (Hono's `app.routes`), so a test over "every route" can
 * never miss a new one: the same-origin test (every state-changing GET, HEAD included) and the admin guard test
 * (every route under /admin/) enumerate it.
 */
import { createApp } from "../../src/worker/app";

export interface MountedRoute {
  method: string;
  /** As mounted: '/admin/api/races/finish/:raceId/:sort'. */
  path: string;
}

/** Every route handler of the app (middleware, mounted for ALL methods, left out), once each. */
export function mountedRoutes(): MountedRoute[] {
  const seen = new Set<string>();
  const routes: MountedRoute[] = [];
  for (const { method, path } of createApp().routes) {
    if (method === "ALL") continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method, path });
  }
  return routes;
}

/**
 * A concrete address for a mounted path: each `:param` (or `:param{regex}`) replaced by `values[param]` or a
 * placeholder that passes as an id ('x'); a trailing `*` by 'x'.
 */
export function concretePath(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_m, name: string) => values[name] ?? "x").replace(/\*$/, "x");
}

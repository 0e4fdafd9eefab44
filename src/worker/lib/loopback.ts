/**
 * This Worker talking to itself in development: which hosts are the developer's own machine, and how a request
 * to this Worker is answered in-process (a Worker cannot fetch its own localhost origin in the test pool, and
 * the dev server's port may differ from the one in a configured URL).
 */
import { exports } from "cloudflare:workers";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A URL host name (as `URL.hostname` gives it) that is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Hands a request to this Worker's own fetch handler, in-process (development only). */
export function loopbackFetch(request: Request): Promise<Response> {
  return exports.default.fetch(request);
}

import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

/** The header the SPA sets on every API call (older Safari sends neither Sec-Fetch-Site nor Origin on GETs). */
export const CLIENT_HEADER = "x-loppet-client";

const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The spec's state-changing GETs (kept as GETs for compatibility), the race screen's 'Markera ej hämtade som DNS'
 * made like them, and the logout call.
 */
const STATE_CHANGING_GET = [
  /^\/api\/logout$/,
  /^\/admin\/api\/races\/(start|finish|end|reset|register-bib|restore|change-distance|dns|dns-not-picked-up)\//,
];

/**
 * Exempt paths are verified in their own way: Swish's callbacks (/swish/callback for payments,
 * /swish/callback/refund for refunds) are only hints that make the server re-fetch the payment or refund from Swish;
 * unsubscribe links carry a signature; the dev Swish simulator is dev-only.
 */
const EXEMPT = [/^\/swish\/callback(\/refund)?$/, /^\/unsubscribe\//, /^\/dev\/swish\//];

/**
 * DESIGN.md §4: a state-changing call must show it comes from the site itself: a same-origin Sec-Fetch-Site,
 * an Origin equal to ours, or the SPA's custom header (which a cross-site form or image cannot send).
 */
export const sameOrigin = createMiddleware<AppEnv>(async (c, next) => {
  // HEAD runs the GET handler (Hono), so it must pass exactly the guard GET does.
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const path = c.req.path;
  const changesState =
    STATE_CHANGING_METHODS.has(method) || (method === "GET" && STATE_CHANGING_GET.some((re) => re.test(path)));
  if (changesState && !EXEMPT.some((re) => re.test(path)) && !comesFromSite(c.req.raw, c.env.PUBLIC_ORIGIN)) {
    throw new ApiError(403, "Förfrågan kom inte från sajten. Ladda om sidan och försök igen.");
  }
  await next();
});

/** An Origin header that names this site: the origin the request was made to, or the configured public one. */
export function isSiteOrigin(origin: string, req: Request, publicOrigin: string): boolean {
  return origin === new URL(req.url).origin || origin === publicOrigin;
}

export function comesFromSite(req: Request, publicOrigin: string): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site === "same-origin") return true;
  if (site === "cross-site" || site === "same-site") return false;
  const origin = req.headers.get("origin");
  if (origin) return isSiteOrigin(origin, req, publicOrigin);
  // A custom header forces a CORS preflight cross-origin, which this Worker never grants.
  return req.headers.has(CLIENT_HEADER);
}

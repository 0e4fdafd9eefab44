/**
 * The answer for an address no route answered. Built files are served without the Worker; wrangler.toml's
 * `not_found_handling = "none"` sends every request that matches no built file here, where:
 *
 * - a missing /assets/… file is a plain 404 that nothing keeps (`no-store`). A phone running the code of an
 *   earlier deploy that asks for one of its lazy chunks must learn that it is gone (and reload onto the new code:
 *   src/web/lib/chunk-reload.ts), never get the app's HTML for a script, kept for a year;
 * - an unknown address of the API and the other server paths (those `run_worker_first` sends here) keeps its
 *   JSON 404;
 * - any other GET is a deep link into the SPA (/anmalan/2, /admin/race/{id}): the empty shell, 200. Admin
 *   addresses get the admin area's start page, which names the admin shell's code and GET /api/config at once,
 *   and the race screen (/admin/race/{id}) its own, which names the race screen's code too, plus the race's GET
 *   added here (scripts/service-workers.mjs makes both pages). Without them (vite dev, a build without that step)
 *   the plain shell. Its Content-Security-Policy and Permissions-Policy are those of the address asked for (the
 *   admin area's for `/admin` and `/admin/…`: src/shared/security-headers.ts), set by the security middleware.
 */
import type { Context } from "hono";
import { isAdminDocument } from "../../shared/admin-document";
import { ADMIN_DOCUMENT_HEADERS } from "../../shared/security-headers";
import type { AppEnv } from "../env";

/** The server's own paths (run_worker_first in wrangler.toml, less the pre-rendered pages): JSON 404s. */
const SERVER_PATHS = [
  /^\/api\//,
  /^\/admin\/api\//,
  /^\/admin\/registrations(\/|$)/,
  /^\/(get|email|code|update|validate-kampanj|book-v2|qr-v2|verify)$/,
  /^\/resultat\//,
  /^\/galleri\//,
  /^\/galleri-bilder\//,
  /^\/img_/,
  /^\/ws\//,
  /^\/swish\//,
  /^\/dev\//,
  /^\/unsubscribe\//,
];

const SHELL = "/";
const ADMIN_SHELL = "/admin/_shell";
const RACE_SHELL = "/admin/_race-shell";
const RACE_SCREEN = /^\/admin\/race\/([^/]+)\/?$/;
/** Race ids are `race-YYMMDD-NN` or the older `lopp-YYYY-NN`; anything else gets no preload. */
const RACE_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** Headers worth passing on to the asset server (compression, content negotiation). */
const FORWARDED = ["accept", "accept-encoding", "accept-language", "user-agent"];

export function missingAsset(): Response {
  return new Response("Filen finns inte.\n", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

const isHtml = (res: Response) => res.ok && (res.headers.get("content-type") ?? "").includes("text/html");

async function asset(assets: Fetcher, incoming: Request, path: string): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return assets.fetch(new Request(new URL(path, incoming.url), { method: "GET", headers }));
}

/** The race id of a race screen's address, when it looks like one (only then is its GET named in the page). */
function raceIdOf(segment: string): string | null {
  try {
    const id = decodeURIComponent(segment);
    return RACE_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** The SPA's page for a deep link: the start page of its area, the plain shell when that was not built. */
async function spaPage(c: Context<AppEnv>): Promise<Response> {
  const path = c.req.path;
  const segment = RACE_SCREEN.exec(path)?.[1];
  const raceId = segment === undefined ? null : raceIdOf(segment);
  let served = segment !== undefined ? RACE_SHELL : isAdminDocument(path) ? ADMIN_SHELL : SHELL;
  let page = await asset(c.env.ASSETS, c.req.raw, served);
  if (!isHtml(page) && served !== SHELL) {
    await page.body?.cancel();
    served = SHELL;
    page = await asset(c.env.ASSETS, c.req.raw, SHELL);
  }
  if (!isHtml(page)) return page;

  const headers = new Headers(page.headers);
  headers.set("cache-control", "no-cache");
  // The document's policy follows the address asked for, not the page the assets served (the plain shell stands
  // in for an admin page when that was not built): the security middleware sets it from the request's path.
  for (const name of ADMIN_DOCUMENT_HEADERS) headers.delete(name);
  if (raceId === null || served !== RACE_SHELL) {
    return new Response(page.body, { status: 200, headers });
  }
  // The race's GET, so it runs while the code downloads (the race screen's fetch is handed this answer).
  headers.delete("content-length");
  headers.delete("etag");
  const href = `/admin/api/races/get/${encodeURIComponent(raceId)}`;
  return new HTMLRewriter()
    .on('link[rel="preload"][href="/api/config"]', {
      element(el) {
        el.after(`\n    <link rel="preload" as="fetch" crossorigin href="${href}">`, { html: true });
      },
    })
    .transform(new Response(page.body, { status: 200, headers }));
}

export async function notFound(c: Context<AppEnv>): Promise<Response> {
  const { method, path } = c.req;
  if (path.startsWith("/assets/")) return missingAsset();
  const page = method === "GET" || method === "HEAD";
  if (!page || SERVER_PATHS.some((re) => re.test(path)) || !c.env.ASSETS) {
    return c.json({ error: "Hittades inte" }, 404);
  }
  return spaPage(c);
}

/**
 * The admin area's service worker, served as /admin/sw.js with scope /admin/ (src/web/sw/names.ts). Registered by
 * the admin shell, so an organiser's phone has it before race morning. It makes the race screen open with no
 * connection: the admin area's code and its pages from the precache (common.ts), and the two answers the screens
 * need before they can draw anything:
 *
 * - GET /api/config (who is signed in, the server's clock): network first, else the last answer, fetched once
 *   already when the worker installs. The copy's `serverTime` is moved on by the time that has passed since it was
 *   fetched (config-copy.ts), so a phone that reloads offline still stamps its taps on the server's clock.
 * - GET /admin/api/races (the hub's list): network first, else the last answer.
 *
 * The race screen (/admin/race/{id}) is an instant page (common.ts): its start page comes from the precache at once,
 * with the race's GET named in it as the Worker names it (src/worker/site/spa-fallback.ts), so a phone that has
 * opened it before draws it again within a second, from the copies on the phone, before any network answer
 * (`fromPhoneCopies`, src/web/features/race-day/race-copies.ts). The race itself (GET /admin/api/races/get/{id}) is not handled here:
 * the race screen keeps the last state it showed, as its socket kept it, and says when it shows that
 * (src/web/features/race-day/offline-race.tsx).
 *
 * Signed out: when the network's config says this browser is no longer an admin, both copies and the race
 * screen's saved races are deleted (they hold runners' names); signing out in this browser deletes them too
 * (src/web/features/session/logout.ts).
 */
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import type { WorkboxPlugin } from "workbox-core/types.js";
import { readConfigCopy } from "../config-copy";
import { ADMIN_DATA_CACHE, FETCHED_AT_HEADER, RACE_SNAPSHOT_CACHE } from "../names";
import { NETWORK_TIMEOUT_SECONDS, startWorker, type PrecacheEntry } from "./common";

declare const self: ServiceWorkerGlobalScope;
/** This build's admin code, pages and icon (scripts/service-workers.mjs). */
declare const __PRECACHE__: PrecacheEntry[];

const RACE_SCREEN = /^\/admin\/race\/([^/]+)\/?$/;
/** As the Worker checks a race id before it names the race's GET in the page (spa-fallback.ts). */
const RACE_ID = /^[A-Za-z0-9_-]{1,80}$/;
const CONFIG_PRELOAD = '<link rel="preload" as="fetch" crossorigin href="/api/config">';

/** The race screen's start page with the race's GET named after the config's, so it runs while the code loads. */
async function raceScreenPage(page: Response, url: URL): Promise<Response> {
  let raceId: string | null = null;
  try {
    raceId = decodeURIComponent(RACE_SCREEN.exec(url.pathname)?.[1] ?? "");
  } catch {
    // A malformed address: the page without the race's GET, as the Worker answers it.
  }
  if (!raceId || !RACE_ID.test(raceId)) return page;
  const html = await page.text();
  const race = `<link rel="preload" as="fetch" crossorigin href="/admin/api/races/get/${encodeURIComponent(raceId)}">`;
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  return new Response(html.replace(CONFIG_PRELOAD, `${CONFIG_PRELOAD}\n    ${race}`), { status: 200, headers });
}

startWorker(__PRECACHE__, (url) => (RACE_SCREEN.test(url.pathname) ? "/admin/_race-shell" : "/admin/_shell"), {
  // The Worker's own answers under /admin/ (exports opened as links, the registrations list): not pages.
  notPages: [/^\/admin\/api\//, /^\/admin\/registrations(\/|$)/],
  instant: { pages: RACE_SCREEN, answer: raceScreenPage },
});

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;

async function forgetAdminData(): Promise<void> {
  await Promise.all([caches.delete(ADMIN_DATA_CACHE), caches.delete(RACE_SNAPSHOT_CACHE)]);
}

/** The config's copy: kept with the moment it was fetched, handed out with the server's clock moved on. */
const configCopy: WorkboxPlugin = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.sentAt = Date.now();
    return request;
  },
  cacheWillUpdate: async ({ response, state }) => {
    if (response.status !== 200) return null;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isRecord(body) || body.isAdmin !== true) {
      await forgetAdminData();
      return null;
    }
    // The server read its clock about halfway through the request (the same guess the page makes).
    const receivedAt = Date.now();
    const sentAt = typeof state?.sentAt === "number" ? state.sentAt : receivedAt;
    const headers = new Headers(response.headers);
    headers.set(FETCHED_AT_HEADER, String(Math.round((sentAt + receivedAt) / 2)));
    return new Response(text, { status: 200, statusText: response.statusText, headers });
  },
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return null;
    const body = await readConfigCopy(cachedResponse, Date.now());
    if (!body) return null;
    return new Response(JSON.stringify(body), { status: 200, headers: cachedResponse.headers });
  },
};

const sameSite = (url: URL) => url.origin === self.location.origin;

const config = new NetworkFirst({
  cacheName: ADMIN_DATA_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [configCopy],
});
registerRoute(({ url }) => sameSite(url) && url.pathname === "/api/config", config);

// Installing is the moment the phone is online in the admin area: keep the config now, not only when a page next
// asks for it through this worker, so a phone that loses its signal right after can still open the race screen.
self.addEventListener("install", (event) => {
  const request = new Request("/api/config", { credentials: "same-origin", headers: { accept: "application/json" } });
  event.waitUntil(config.handle({ request, event }).catch(() => undefined));
});

registerRoute(
  ({ url }) => sameSite(url) && url.pathname === "/admin/api/races",
  new NetworkFirst({ cacheName: ADMIN_DATA_CACHE, networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS }),
);

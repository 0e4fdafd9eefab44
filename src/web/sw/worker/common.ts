/**
 * What both service workers do (admin.ts for /admin/, timing.ts for /tidtagning), with Workbox:
 *
 * - Precache this build's code for the pages of the scope: the list is made at build time from Vite's import graph
 *   (scripts/service-workers.mjs), so the admin worker holds only the admin area's code and what it shares with the
 *   rest of the site, the timing worker only the stopwatch's. Built files have content hashes in their names: a
 *   new deploy is a new list, and so a new worker script, which the browser notices on the next load. Workbox
 *   fetches the list one file at a time (GoogleChrome/workbox#2528): with a 150 ms round trip that is seconds for
 *   the files the page has not loaded itself, so the install also fetches the built files it does not hold yet
 *   WARM_AT_ONCE at a time as it begins, and Workbox finds them in the browser's HTTP cache (built files are kept
 *   for a year: public/_headers). The entries with a revision (pages, pictures), which Workbox fetches from the
 *   network every time, go first in Workbox's turn, so their round trips overlap that.
 * - Take over at once (skipWaiting, clientsClaim) and drop the previous build's files. A page still running the
 *   old code keeps what it has already loaded; should it ask for an old lazy chunk that is gone, the network answers
 *   404 and the page reloads once onto the new code (src/web/lib/chunk-reload.ts). Nothing here ever
 *   touches the pages' storage, so a reload keeps the queued taps.
 * - Pages: the network first (with navigation preload, so the worker's start-up does not delay the request), so a
 *   phone with signal always gets the newest deploy; without an answer within NETWORK_TIMEOUT_SECONDS, or none at
 *   all, the page of this build from the precache. A worker may name `instant` pages instead (the admin worker: the
 *   race screen, which must open within a second on a cheap phone with poor signal): those come from the precache
 *   at once, never waiting for the network, so they show the build this worker holds. The browser looks for a new
 *   worker on that same load all the same, and a new build's worker takes over as above: such a page runs the new
 *   code from its next load.
 * - Everything else (the API, sockets, other pages' code) is not handled: it goes to the network as without a
 *   worker.
 */
import { cacheNames, clientsClaim } from "workbox-core";
import { enable as enableNavigationPreload } from "workbox-navigation-preload";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";
import type { RouteHandlerCallback } from "workbox-core/types.js";

declare const self: ServiceWorkerGlobalScope;

/** One precache entry: a hashed file (revision null) or a page with the hash of its content. */
export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/**
 * How long a page or a piece of data may take on a poor connection before the copy on the phone is used instead.
 * Long enough for a slow but working network (the race screen's HTML is 2 kB), short enough that a phone in a dead
 * spot shows the race screen rather than a blank page.
 */
export const NETWORK_TIMEOUT_SECONDS = 4;

/** A browser's connections to one host over HTTP/1.1; HTTP/2 takes them on one. */
const WARM_AT_ONCE = 6;

/**
 * Fetches the built files of `precache` that the precache does not hold yet (a file's precache key is its address:
 * it has no revision) a few at a time into the HTTP cache; a file that fails is left to Workbox's own fetch.
 */
async function warmHttpCache(precache: PrecacheEntry[]): Promise<void> {
  const held = await caches.open(cacheNames.precache);
  const left = precache.filter((entry) => entry.revision === null).map((entry) => entry.url);
  const fetchNext = async (): Promise<void> => {
    for (let url = left.shift(); url !== undefined; url = left.shift()) {
      try {
        if (await held.match(new URL(url, self.location.href).href)) continue;
        const res = await fetch(url, { credentials: "same-origin" });
        // Read to the end: only a whole answer is kept.
        await res.arrayBuffer();
      } catch {
        // No signal, or the server failed this one: Workbox's own fetch of it decides the install.
      }
    }
  };
  await Promise.all(Array.from({ length: WARM_AT_ONCE }, fetchNext));
}

export interface PageRules {
  /** Addresses in the scope that are not pages of the app (a file download opened as a link): the network alone. */
  notPages?: RegExp[];
  /**
   * Pages answered from the precache at once (`pageFor`'s page, which `answer` may add to for the address asked):
   * the network is not waited for. Only when the precache has no such page, the network as for any page.
   */
  instant?: { pages: RegExp; answer: (page: Response, url: URL) => Promise<Response> };
}

/**
 * Starts the worker: `pageFor(url)` names the precached page a navigation within the scope falls back to (or, for
 * an instant page, is answered with); `notPages` are never timed out, never answered with a page.
 */
export function startWorker(
  precache: PrecacheEntry[],
  pageFor: (url: URL) => string,
  { notPages = [], instant }: PageRules = {},
): void {
  // A new build replaces the old one at once: a phone must not stay on old code (see above for open pages).
  void self.skipWaiting();
  clientsClaim();
  cleanupOutdatedCaches();
  self.addEventListener("install", (event) => event.waitUntil(warmHttpCache(precache).catch(() => undefined)));
  precacheAndRoute([...precache].sort((a, b) => Number(a.revision === null) - Number(b.revision === null)));
  enableNavigationPreload();

  // Handled all the same (the navigation preload's answer is theirs), only without a timeout or a page instead.
  if (notPages.length > 0) registerRoute(new NavigationRoute(new NetworkOnly(), { allowlist: notPages }));
  const network = new NetworkOnly({ networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS });
  const networkFirst: RouteHandlerCallback = async (options) => {
    try {
      return await network.handle(options);
    } catch {
      const page = await matchPrecache(pageFor(options.url));
      return page ?? Response.error();
    }
  };
  if (instant) {
    registerRoute(
      new NavigationRoute(
        async (options) => {
          const page = await matchPrecache(pageFor(options.url));
          if (!page) return networkFirst(options);
          // The navigation preload's answer goes unused: let it settle, or the browser cancels it with a warning.
          const { preloadResponse } = options.event as FetchEvent;
          options.event.waitUntil(Promise.resolve(preloadResponse).catch(() => undefined));
          return instant.answer(page, options.url);
        },
        { allowlist: [instant.pages], denylist: notPages },
      ),
    );
  }
  registerRoute(new NavigationRoute(networkFirst, { denylist: notPages }));
}

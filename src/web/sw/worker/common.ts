/**
 * What both service workers do (admin.ts for /admin/, timing.ts for /tidtagning), with Workbox:
 *
 * - Precache this build's code for the pages of the scope: the list is made at build time from Vite's import graph
 *   (scripts/service-workers.mjs), so the admin worker holds only the admin area's code and what it shares with the
 *   rest of the site, the timing worker only the stopwatch's. Built files have content hashes in their names: a
 *   new deploy is a new list, and so a new worker script, which the browser notices on the next load. Workbox
 *   fetches the list one file at a time (GoogleChrome/workbox#2528): with a 150 ms round trip that was seconds for
 *   the files the page had not loaded itself, and for every page and picture (an entry with a revision, which it
 *   fetches from the network each time): the guide's eight pictures alone took about 4 s of a slowed phone's install
 *   (bench/race-screen-load.mjs). So the install first fills the precache itself, WARM_AT_ONCE files at a time, each
 *   under Workbox's own key for it (a built file from the browser's HTTP cache when the page loaded it, built files
 *   being kept for a year: public/_headers; a page or picture from the network), and only then lets Workbox walk its
 *   list: Workbox skips what its cache holds and fetches what is missing itself, so the install still fails unless
 *   every entry is there. A file that failed stays missing until Workbox's turn; one that came stays for the next
 *   attempt should this one fail (install-loop.ts).
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
import { clientsClaim } from "workbox-core";
import { enable as enableNavigationPreload } from "workbox-navigation-preload";
import { cleanupOutdatedCaches, PrecacheController, PrecacheRoute } from "workbox-precaching";
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
 * Puts the entries of `precache` that its cache does not hold yet into it, WARM_AT_ONCE at a time, each under
 * Workbox's key for it; an answer Workbox would refuse (not a plain 200 from this site) or no answer at all is left to
 * Workbox's own fetch, which then decides the install.
 */
async function fillPrecache(controller: PrecacheController, precache: PrecacheEntry[]): Promise<void> {
  const held = await caches.open(controller.strategy.cacheName);
  const left = [...precache];
  const fetchNext = async (): Promise<void> => {
    for (let entry = left.shift(); entry !== undefined; entry = left.shift()) {
      try {
        const key = controller.getCacheKeyForURL(entry.url);
        if (!key || (await held.match(key))) continue;
        // As Workbox asks: a page or picture fresh from the network, a built file from wherever the browser has it.
        const res = await fetch(entry.url, {
          credentials: "same-origin",
          cache: entry.revision ? "reload" : "default",
        });
        if (res.status === 200 && res.type === "basic" && !res.redirected) await held.put(key, res);
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
  const controller = new PrecacheController();
  controller.addToCacheList(precache);
  registerRoute(new PrecacheRoute(controller));
  // Workbox's turn after the precache is filled (above); its own waitUntil is allowed while this one is pending.
  self.addEventListener("install", (event) =>
    event.waitUntil(
      fillPrecache(controller, precache)
        .catch(() => undefined)
        .then(() => controller.install(event)),
    ),
  );
  // Drops this precache's entries that are not in this build's list.
  self.addEventListener("activate", (event) => event.waitUntil(controller.activate(event)));
  const matchPrecache = (url: string) => controller.matchPrecache(url);
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

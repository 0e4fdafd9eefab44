/**
 * What both service workers do (admin.ts for /admin/, timing.ts for /tidtagning), with Workbox:
 *
 * - Precache this build's code for the pages of the scope: the list is made at build time from Vite's import graph
 *   (scripts/service-workers.mjs), so the admin worker holds only the admin area's code and what it shares with the
 *   rest of the site, the timing worker only the stopwatch's. Built files have content hashes in their names: a
 *   new deploy is a new list, and so a new worker script, which the browser notices on the next load.
 * - Take over at once (skipWaiting, clientsClaim) and drop the previous build's files. A page still running the
 *   old code keeps what it has already loaded; should it ask for an old lazy chunk that is gone, the network answers
 *   404 and the page reloads once onto the new code (src/web/features/offline/chunk-reload.ts). Nothing here ever
 *   touches the pages' storage, so a reload keeps the queued taps.
 * - Pages: the network first (with navigation preload, so the worker's start-up does not delay the request), so a
 *   phone with signal always gets the newest deploy; without an answer within NETWORK_TIMEOUT_SECONDS, or none at
 *   all, the page of this build from the precache.
 * - Everything else (the API, sockets, other pages' code) is not handled: it goes to the network as without a
 *   worker.
 */
import { clientsClaim } from "workbox-core";
import { enable as enableNavigationPreload } from "workbox-navigation-preload";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";

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

/**
 * Starts the worker: `pageFor(url)` names the precached page a navigation within the scope falls back to;
 * `notPages` are addresses in the scope that are not pages of the app (a file download opened as a link), left to
 * the network alone: never timed out, never answered with a page.
 */
export function startWorker(precache: PrecacheEntry[], pageFor: (url: URL) => string, notPages: RegExp[] = []): void {
  // A new build replaces the old one at once: a phone must not stay on old code (see above for open pages).
  void self.skipWaiting();
  clientsClaim();
  cleanupOutdatedCaches();
  precacheAndRoute(precache);
  enableNavigationPreload();

  // Handled all the same (the navigation preload's answer is theirs), only without a timeout or a page instead.
  if (notPages.length > 0) registerRoute(new NavigationRoute(new NetworkOnly(), { allowlist: notPages }));
  const network = new NetworkOnly({ networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS });
  registerRoute(
    new NavigationRoute(
      async (options) => {
        try {
          return await network.handle(options);
        } catch {
          const page = await matchPrecache(pageFor(options.url));
          return page ?? Response.error();
        }
      },
      { denylist: notPages },
    ),
  );
}

/**
 * What the service workers (src/web/sw/worker/, built by scripts/service-workers.mjs) and the pages share: where
 * each worker is served and what it controls, and the names of the caches both sides read. Pure constants, so the
 * page's code and the workers' code (another TypeScript project, the WebWorker library) can both import them.
 *
 * A worker's scope can be no wider than the folder of its script, so each script is served from its scope:
 * /admin/sw.js controls /admin/… (the admin area with the race screens), /tidtagning-sw.js controls /tidtagning
 * (the public stopwatch). No other page of the site is ever controlled by either.
 */
export const SERVICE_WORKERS = {
  admin: { script: "/admin/sw.js", scope: "/admin/" },
  timing: { script: "/tidtagning-sw.js", scope: "/tidtagning" },
} as const;

export type ServiceWorkerName = keyof typeof SERVICE_WORKERS;

/** The admin worker's copies of GET /api/config and GET /admin/api/races (network first, this when offline). */
export const ADMIN_DATA_CACHE = "loppet-admin-data";

/** The race screen's last known snapshot of each race this phone has opened (written by the page). */
export const RACE_SNAPSHOT_CACHE = "loppet-race-snapshots";

/** On a copy of /api/config kept by the admin worker: when (epoch ms, the device's clock) it came from the server. */
export const FETCHED_AT_HEADER = "x-loppet-fetched-at";

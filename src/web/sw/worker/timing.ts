/**
 * The public stopwatch's service worker, served as /tidtagning-sw.js with scope /tidtagning (src/web/sw/names.ts):
 * only that page is controlled, and only the stopwatch's code and what it shares with the rest of the site are
 * precached (no admin code). The stopwatch keeps its time in the browser's storage and makes no server calls, so
 * the page and its code are all it needs to open with no connection (common.ts).
 */
import { startWorker, type PrecacheEntry } from "./common";

/** This build's stopwatch code, its page and the icon (scripts/service-workers.mjs). */
declare const __PRECACHE__: PrecacheEntry[];

startWorker(__PRECACHE__, () => "/tidtagning");

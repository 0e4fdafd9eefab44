/**
 * Registers one of the two service workers (src/web/sw/names.ts): the admin shell asks for the admin area's, the
 * stopwatch for its own, each once it is on screen. Loaded lazily by both (and by the race screen, which shows how
 * it goes), so no public page carries it in its first download.
 *
 * The worker's first install downloads the code of its pages (a few hundred kB on a phone with poor signal), so it
 * waits until the page has loaded: the screen's own requests have been made by then. An install that fails for
 * lack of signal is tried again as soon as the phone is back online, without a reload (install-loop.ts). Later
 * visits find the worker active and download nothing here; the browser itself looks for a new worker script on every
 * load, which is how a deploy reaches the phone.
 *
 * Two tabs each make their attempts; the browser runs registrations one at a time, and both end with the same
 * worker. How it goes, per worker, is watched by the race screen (`watchServiceWorker`, offline-ready.tsx): known at
 * once when this page already has an active worker, otherwise from the attempts.
 */
import { SERVICE_WORKERS, type ServiceWorkerName } from "../sw/names";
import { installUntilActive, type InstallState } from "./install-loop";

/** The cheapest answer of the site (no database, no JSON): whether there is a connection at all. */
const REACHABLE_PATH = "/api/health";

/** `unknown`: not asked yet; `unsupported`: this browser has no service workers, or this is `vite dev` (no build). */
export type WorkerState = InstallState | "unknown" | "unsupported";

const states = new Map<ServiceWorkerName, WorkerState>();
const watchers = new Set<() => void>();
const started = new Set<ServiceWorkerName>();

function report(name: ServiceWorkerName, state: WorkerState): void {
  if (states.get(name) === state) return;
  states.set(name, state);
  watchers.forEach((watcher) => watcher());
}

const supported = () => !import.meta.env.DEV && "serviceWorker" in navigator;

export function serviceWorkerState(name: ServiceWorkerName): WorkerState {
  return supported() ? (states.get(name) ?? "unknown") : "unsupported";
}

/** For useSyncExternalStore: `watcher` runs whenever a worker's state changes. */
export function watchServiceWorker(watcher: () => void): () => void {
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

/** Registers and resolves once a worker is active for the scope; rejects when the install failed. */
async function install(script: string, scope: string): Promise<void> {
  const registration = await navigator.serviceWorker.register(script, { scope, updateViaCache: "none" });
  // An active worker serves the pages with no connection already (a newer one installing takes over when done).
  if (registration.active) return;
  const worker = registration.installing ?? registration.waiting;
  if (!worker) throw new Error("Ingen service worker installeras.");
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (worker.state === "activated") resolve();
      else if (worker.state === "redundant") reject(new Error("Service workern kunde inte installeras."));
      else return;
      worker.removeEventListener("statechange", check);
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

async function reachable(): Promise<boolean> {
  try {
    const res = await fetch(REACHABLE_PATH, { cache: "no-store" });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** `ms`, or until the browser says it is back online. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
  });
}

export function registerServiceWorker(name: ServiceWorkerName): void {
  if (!supported() || started.has(name)) return;
  started.add(name);
  const { script, scope } = SERVICE_WORKERS[name];
  // A worker already active for this page: ready now. Otherwise waiting for the first attempt (unless it began).
  void navigator.serviceWorker.getRegistration(scope).then(
    (registration) => {
      if (registration?.active) report(name, "active");
      else if (states.get(name) === undefined) report(name, "waiting");
    },
    () => undefined,
  );
  const attempt = () =>
    installUntilActive({
      install: () => install(script, scope),
      reachable,
      pause,
      report: (state) => {
        // A worker that was active stays so: a failed update leaves the earlier one serving the pages.
        if (states.get(name) !== "active" || state === "active") report(name, state);
      },
    }).catch((err: unknown) => console.warn("Kunde inte registrera service workern:", err));
  if (document.readyState === "complete") void attempt();
  else window.addEventListener("load", () => void attempt(), { once: true });
}

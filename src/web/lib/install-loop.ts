/**
 * Getting a service worker installed on a phone whose signal comes and goes (issue 41), as plain code: the browser's
 * part (register and wait for the worker, ask the site whether it answers, wait) is handed in, so the loop is tested
 * in Node (test/web/service-worker-install.test.ts); register-service-worker.ts is the glue.
 *
 * The browser tries a worker's install once per page load: one that failed (the script or a file of the precache
 * could not be fetched) is gone, and is not tried again until the page is loaded anew. So here:
 *
 * - An attempt that failed for lack of signal (the site does not answer either) waits for a connection: the phone
 *   asks the site every RETRY_MS with its cheapest request, or sooner when the browser says it is back online, and
 *   tries again as soon as one answers. Such waiting costs a failed request now and then, nothing more.
 * - An attempt that failed while the site answers (a server in trouble, or a signal that came back just in time)
 *   is tried again after a pause that doubles each time, from RETRY_MS up to MAX_PAUSE_MS, so a broken deploy does
 *   not spend a phone's data plan on a worker script every few seconds. A failure for lack of signal starts the
 *   doubling over.
 * - Each attempt continues where the last stopped: the worker keeps every file it fetched (the precache skips a
 *   file it has), so a phone that keeps losing its signal still gets there.
 */

/** How the attempts are going; `active` is the end: a worker is active and serves the pages with no connection. */
export type InstallState = "waiting" | "installing" | "no-network" | "retrying" | "active";

export const RETRY_MS = 5_000;
export const MAX_PAUSE_MS = 5 * 60_000;

export interface InstallPorts {
  /** Registers the worker; resolves once one is active, rejects when the install failed. */
  install: () => Promise<void>;
  /** Whether the site answers now. */
  reachable: () => Promise<boolean>;
  /** Resolves after `ms`, or sooner when the browser says the network is back. */
  pause: (ms: number) => Promise<void>;
  report: (state: InstallState) => void;
}

/** Tries until a worker is active (the promise resolves then); `stopped()` ends it between two steps. */
export async function installUntilActive(ports: InstallPorts, stopped: () => boolean = () => false): Promise<void> {
  let failuresWithSignal = 0;
  while (!stopped()) {
    ports.report("installing");
    try {
      await ports.install();
      ports.report("active");
      return;
    } catch {
      // Why it failed is told by whether the site answers now.
    }
    if (stopped()) return;
    if (await ports.reachable()) {
      failuresWithSignal++;
      ports.report("retrying");
      await ports.pause(Math.min(RETRY_MS * 2 ** (failuresWithSignal - 1), MAX_PAUSE_MS));
      continue;
    }
    failuresWithSignal = 0;
    ports.report("no-network");
    do {
      await ports.pause(RETRY_MS);
      if (stopped()) return;
    } while (!(await ports.reachable()));
  }
}

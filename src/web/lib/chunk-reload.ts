/**
 * After a deploy, a page still running the earlier build's code may ask for a lazy chunk it had not loaded yet (a
 * screen not opened so far): that file is gone, the server answers 404 (src/worker/site/spa-fallback.ts) and the
 * import fails. Vite reports every failed lazy import as the window event `vite:preloadError`; the page then reloads
 * once, onto the new code. A reload keeps everything the page keeps in the browser's storage (the race screen's
 * queued taps, the stopwatch), and the service worker serves the new build's page even without a connection.
 *
 * Reload only when a deploy really happened: the page's own entry script is gone too (every build names its entry
 * after the files it loads). With no answer at all (no connection, a lost service worker copy) a reload would only
 * trade the page for the browser's offline page, so the error stays where it is. At most once a minute per tab,
 * so a broken deploy cannot make a phone reload in circles.
 */
const RELOADED_AT_KEY = "loppet:chunk-reload-at";
const AT_MOST_EVERY_MS = 60_000;

function reloadedRecently(now: number): boolean {
  try {
    return now - Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0) < AT_MOST_EVERY_MS;
  } catch {
    return false;
  }
}

/** The page's entry script (/assets/index-….js); in `vite dev` there is none and nothing reloads. */
function entryScript(): string | null {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/"]');
  return script?.src ?? null;
}

async function reloadIfRedeployed(): Promise<void> {
  const now = Date.now();
  const entry = entryScript();
  if (!entry || reloadedRecently(now)) return;
  let status: number;
  try {
    // HEAD passes the service worker (it answers GETs only) and no-store the HTTP cache: the server's own answer.
    status = (await fetch(entry, { method: "HEAD", cache: "no-store" })).status;
  } catch {
    return;
  }
  if (status !== 404) return;
  try {
    sessionStorage.setItem(RELOADED_AT_KEY, String(now));
  } catch {
    // Without session storage the minute's limit is lost, not the reload.
  }
  location.reload();
}

export function reloadOnStaleChunks(): void {
  window.addEventListener("vite:preloadError", () => void reloadIfRedeployed());
}

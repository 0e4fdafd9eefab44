/**
 * Registers one of the two service workers (src/web/sw/names.ts): the admin shell asks for the admin area's, the
 * stopwatch for its own. Loaded lazily by both, so no page of the site carries it in its first download.
 *
 * The worker's first install downloads the code of its pages (a few hundred kB on a phone with poor signal), so it
 * waits until the page has loaded and the screen is on it. Later visits find it registered and download nothing
 * here; the browser itself looks for a new worker script on every load, which is how a deploy reaches the phone.
 */
import { SERVICE_WORKERS, type ServiceWorkerName } from "../../sw/names";

/** After the page's `load`: what the screen itself needs has been asked for by then. */
const AFTER_LOAD_MS = 2_000;

export function registerServiceWorker(name: ServiceWorkerName): void {
  // `vite dev` serves sources, not a build: there is no worker script there.
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  const { script, scope } = SERVICE_WORKERS[name];
  const register = () =>
    navigator.serviceWorker.register(script, { scope, updateViaCache: "none" }).catch((err: unknown) => {
      console.warn("Kunde inte registrera service workern:", err);
    });
  const later = () => setTimeout(register, AFTER_LOAD_MS);
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

/**
 * Development's season switch: `CHILD_SAFE_PUBLISHING` ("true" or "false"), a variable only a local server gets
 * (scripts/lib/settings.mjs passes it on from the environment: `CHILD_SAFE_PUBLISHING=true npm start`), sets the
 * season's `childSafePublishing` (shared/season.ts) for this server, so the browser tests can serve the setting on
 * from the same build as the setting off (test/e2e/child-safe.test.ts). Outside development mode (DEV_MODE not
 * "true", the deployed configuration) it is ignored and the season is what was built; any other value is ignored
 * too (`npm start` refuses one before the server starts).
 *
 * Every entry point that reads the season's publishing rules calls this first: the app's context middleware (each
 * request), the cron and the queue (src/worker/index.ts), and the race object's constructor (its feed to the
 * spectators: locally it shares the Worker's isolate, but an object woken by its alarm may run before any request
 * has). A server's variables are the same for every request and object, so each call sets the same value;
 * nothing here waits or keeps a request's object. Without the variable nothing is touched (the Worker tests set
 * SEASON.childSafePublishing themselves).
 *
 * A running local server can also be switched (`setDevChildSafePublishing`, POST /dev/season in
 * src/worker/dev/routes.ts): a browser file turns the setting on for its own server and back to the build's value
 * when it is done, without a server of its own (test/e2e/child-safe.test.ts). The Worker and the race objects share
 * one isolate locally, so both read the switched value; a server started with the variable sets it again on its
 * next request.
 */
import { SEASON } from "./season";

/** The season's setting as built, for switching back. */
const BUILT_CHILD_SAFE = SEASON.childSafePublishing;

/** Development only (the route is answered in DEV_MODE alone): `null` goes back to the built value. */
export function setDevChildSafePublishing(on: boolean | null): boolean {
  SEASON.childSafePublishing = on ?? BUILT_CHILD_SAFE;
  return SEASON.childSafePublishing;
}

export function applyDevSeason(env: { DEV_MODE?: string; CHILD_SAFE_PUBLISHING?: string }): void {
  if (env.DEV_MODE !== "true") return;
  const value = env.CHILD_SAFE_PUBLISHING;
  if (value === "true" || value === "false") SEASON.childSafePublishing = value === "true";
}

/**
 * The admin worker's copy of GET /api/config as it is handed out (the worker keeps it in ADMIN_DATA_CACHE, stamped
 * with FETCHED_AT_HEADER: src/web/sw/worker/admin.ts). Read in two places: by the worker, for a page's request that
 * finds no network, and by the race screen's page itself, which draws from it before any network answer
 * (src/web/features/race-day/race-copies.ts). Both hand the copy out with the server's clock moved on by the time
 * that has passed since it was fetched, so a page that starts from it still stamps taps on the server's clock (the
 * offset the device measured then, applied to its clock now).
 */
import type { Config } from "../../shared/api-answers";
import { FETCHED_AT_HEADER } from "./names";

/** The copy as it was stored: any field may be missing (a copy from an older server); the reader checks what it uses. */
export type ConfigCopy = Partial<Config>;

/** The copy's body with `serverTime` as it is `now` (epoch ms, this device's clock); null for a broken copy. */
export async function readConfigCopy(copy: Response, now: number): Promise<ConfigCopy | null> {
  const stamp = copy.headers.get(FETCHED_AT_HEADER);
  const fetchedAt = stamp === null ? NaN : Number(stamp);
  const body: unknown = await copy.json().catch(() => null);
  if (typeof body !== "object" || body === null || Array.isArray(body) || !Number.isFinite(fetchedAt)) return null;
  const config = body as ConfigCopy;
  const server = typeof config.serverTime === "number" ? config.serverTime : Date.parse(String(config.serverTime));
  if (Number.isFinite(server)) config.serverTime = now + (server - fetchedAt);
  return config;
}

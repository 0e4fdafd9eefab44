/**
 * GET /api/logout: ends the visitor and admin sessions on the server (DESIGN.md §3: revocable sessions). The admin
 * area's copies on this browser go with it (issue 43): the admin worker's copies of the config and of the hub's race
 * list, and the races the race screen kept, with runners' names; the race screen would otherwise draw from them
 * before the network says who is signed in, for whoever picks up the phone next. They are deleted before the call, so
 * a phone that cannot reach the server keeps none of them either, and again after its answer, in case an answer in
 * flight (the worker's config, a race screen's save) wrote one meanwhile. Taps not yet sent stay (the tap queue's own
 * storage): they are the race's.
 */
import { api } from "../../lib/api";
import { ADMIN_DATA_CACHE, RACE_SNAPSHOT_CACHE } from "../../sw/names";

async function forgetAdminCopies(): Promise<void> {
  if (typeof caches === "undefined") return;
  await Promise.all([caches.delete(ADMIN_DATA_CACHE), caches.delete(RACE_SNAPSHOT_CACHE)]).catch(() => undefined);
}

export async function logout(): Promise<unknown> {
  await forgetAdminCopies();
  try {
    return await api("/api/logout");
  } finally {
    await forgetAdminCopies();
  }
}

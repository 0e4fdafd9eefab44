/**
 * GET /api/logout: ends the visitor and admin sessions on the server (DESIGN.md §3: revocable sessions). The admin
 * area's copies on this browser go with it (the config and the races the race screen kept, with runners' names: the
 * race screen would otherwise draw from them before the network says who is signed in).
 */
import { api } from "../../lib/api";
import { ADMIN_DATA_CACHE, RACE_SNAPSHOT_CACHE } from "../../sw/names";

export async function logout(): Promise<unknown> {
  const answer = await api("/api/logout");
  if (typeof caches !== "undefined") {
    await Promise.all([caches.delete(ADMIN_DATA_CACHE), caches.delete(RACE_SNAPSHOT_CACHE)]).catch(() => undefined);
  }
  return answer;
}

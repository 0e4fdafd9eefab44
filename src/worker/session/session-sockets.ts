/**
 * Closing an admin session's live sockets at once, on the hub and every race: at logout (session/routes.ts) and when
 * an organiser removes the admin (session/admins-routes.ts).
 */
import { RACE_HUB_NAME } from "../../shared/object-calls";
import { raceIdForSeason } from "../../shared/race-id";
import { SEASON } from "../../shared/season";
import { database } from "../db/client";
import { races } from "../db/schema";

/**
 * Asks the hub and every race object to close the sessions' sockets, all at once; one that fails (logged) keeps no
 * other from closing. The race objects are named by race id, and D1's index lists every race of every season (a
 * few a season: tens of calls); this season's are asked even when D1 cannot list them. A race object with no row in
 * the index (none should exist) is not asked: its sockets of this session stream until its next re-check finds the
 * session revoked (at a subscribe, or with the first broadcast SESSION_RECHECK_MS after the last re-check), as for a
 * session revoked elsewhere. A race that never had an object gets one (empty) from this call.
 */
export async function closeSessionSockets(env: Env, sessions: readonly string[]): Promise<void> {
  if (sessions.length === 0) return;
  const hub = env.RACE_HUB.getByName(RACE_HUB_NAME);
  const closing = sessions.map((session) => settle(hub.closeSessionSockets(session)));
  const parts = new Set(SEASON.races.map((race) => raceIdForSeason(race.distance, SEASON)));
  try {
    for (const race of await database(env.DB).select({ part: races.part }).from(races).all()) parts.add(race.part);
  } catch (err) {
    console.warn("listing the races to close a signed-out session's sockets failed", err);
  }
  for (const part of parts) {
    const race = env.RACE.getByName(part);
    for (const session of sessions) closing.push(settle(race.closeSessionSockets(session)));
  }
  await Promise.all(closing);
}

/** A failed call is logged, never thrown: handled from the start, while the others are still being made. */
async function settle(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    console.warn("closing a signed-out session's sockets failed", err);
  }
}

/** The spectators' socket and public JSON as the tests (test/durable/spectators*.test.ts) and the crowd load test use them. */
import { expect } from "vitest";
import type { SpectatorStats } from "../../src/durable/spectators";
import type { PublicRaceView } from "../../src/shared/public-view";
import { call, get, openSocket, type CookieJar, type TestSocket } from "../worker/helpers";
import { addRunner, json, newRace, startEarlier } from "./race/race-helpers";

export async function spectate(part: string, since = 0, headers: Record<string, string> = {}): Promise<TestSocket> {
  return openSocket(`/ws/spectate/${part}${since > 0 ? `?since=${since}` : ""}`, { headers });
}

export async function stats(jar: CookieJar, part: string): Promise<SpectatorStats> {
  return json<SpectatorStats>(await get(`/admin/api/races/spectators/${part}`, { jar }));
}

/** A race of its own with runners, started ten minutes ago. */
export async function runningRace(jar: CookieJar, runners = 3) {
  const part = await newRace(jar);
  const list = [];
  for (let i = 0; i < runners; i += 1) list.push(await addRunner(jar, part, { firstname: `Löpare${i}`, bib: 600 + i }));
  expect((await startEarlier(jar, part)).status).toBe(200);
  return { part, runners: list };
}

export async function publicJson(part: string): Promise<PublicRaceView> {
  return json<PublicRaceView>(await call(`/api/races/get/${part}`));
}

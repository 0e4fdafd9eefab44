/**
 * The race screen's copies on the phone (race-copies.ts, config-copy.ts), with a real query cache: a copy goes on
 * screen only where no answer has come, the GET's answer takes it off (whichever comes first), the page's own writes
 * (a finish confirmed over HTTP, the socket's state) do not, and the config's copy carries the server's clock on.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { RaceRecord, RaceSnapshot, RunnerRecord } from "../../src/shared/race-protocol";
import { EMPTY_RAPID, type RapidRecords } from "../../src/web/features/race-day/apply-race-events";
import { raceQueryOptions } from "../../src/web/features/race-day/api/get-race";
import { rapidQueryOptions } from "../../src/web/features/race-day/api/rapid-timing";
import {
  forgetRaceCopy,
  raceCopyOnScreen,
  showRaceCopy,
  watchRaceCopies,
  type SavedRace,
} from "../../src/web/features/race-day/race-copies";
import { readConfigCopy } from "../../src/web/sw/config-copy";
import { FETCHED_AT_HEADER } from "../../src/web/sw/names";

const RACE = "race-400101-56";
/** A minute ago: to react-query, a copy is as old as it is (and so fetched again). */
const SAVED_AT = Date.now() - 60_000;

const race = (state: RaceRecord["state"]) => ({ part: RACE, sort: "race", state }) as unknown as RaceRecord;
const runner = (n: number, finished: number | null = null) =>
  ({ sort: `runner-${n}`, id: `r${n}`, firstname: `Löpare${n}`, bib: n, finished }) as unknown as RunnerRecord;
const snapshot = (state: RaceRecord["state"], ...runners: RunnerRecord[]): RaceSnapshot => [race(state), ...runners];
const saved = (snap: RaceSnapshot, rapid?: RapidRecords): SavedRace =>
  rapid ? { savedAt: SAVED_AT, snapshot: snap, rapid } : { savedAt: SAVED_AT, snapshot: snap };

const key = raceQueryOptions(RACE).queryKey;
const dataOf = (client: QueryClient) => client.getQueryData(key);

/** The race's GET answering `answer` through the cache, as the screen's fetch does. */
const fetchAnswers = (client: QueryClient, answer: Promise<RaceSnapshot>) =>
  client.fetchQuery({ queryKey: key, queryFn: () => answer, staleTime: 0 });

describe("a race's copy on screen", () => {
  it("goes on screen where no answer has come, dated when it was saved, and says so to its watchers", () => {
    const client = new QueryClient();
    const copy = saved(snapshot("started", runner(1), runner(2)));
    let told = 0;
    const unwatch = watchRaceCopies(() => told++);
    expect(showRaceCopy(client, RACE, copy)).toBe(true);
    unwatch();
    expect(dataOf(client)).toBe(copy.snapshot);
    expect(client.getQueryState(key)?.dataUpdatedAt).toBe(SAVED_AT);
    expect(raceCopyOnScreen(client, RACE)?.saved).toBe(copy);
    expect(raceCopyOnScreen(client, RACE)?.shownAt).toBeGreaterThan(SAVED_AT);
    expect(told).toBe(1);
  });

  it("never replaces an answer that came first", async () => {
    const client = new QueryClient();
    const server = snapshot("started", runner(1, SAVED_AT + 5_000));
    await fetchAnswers(client, Promise.resolve(server));
    expect(showRaceCopy(client, RACE, saved(snapshot("", runner(1))))).toBe(false);
    expect(dataOf(client)).toBe(server);
    expect(raceCopyOnScreen(client, RACE)).toBeNull();
  });

  it("the GET's answer, still on its way when the copy went on screen, replaces it and takes it off", async () => {
    const client = new QueryClient();
    let answer!: (s: RaceSnapshot) => void;
    const fetching = fetchAnswers(client, new Promise<RaceSnapshot>((resolve) => (answer = resolve)));
    const copy = saved(snapshot("", runner(1)));
    expect(showRaceCopy(client, RACE, copy)).toBe(true);
    expect(raceCopyOnScreen(client, RACE)?.saved).toBe(copy);

    const server = snapshot("started", runner(1), runner(2));
    answer(server);
    await fetching;
    expect(dataOf(client)).toEqual(server);
    expect(raceCopyOnScreen(client, RACE)).toBeNull();
  });

  it("an answer equal to the copy takes it off all the same (the cache keeps the copy's objects for it)", async () => {
    const client = new QueryClient();
    const copy = saved(snapshot("started", runner(1), runner(2)));
    showRaceCopy(client, RACE, copy);
    await fetchAnswers(client, Promise.resolve(structuredClone(copy.snapshot)));
    expect(dataOf(client)).toBe(copy.snapshot);
    expect(raceCopyOnScreen(client, RACE)).toBeNull();
  });

  it("the page's own writes (a finish confirmed over HTTP, the socket's state) leave it on screen as the copy", () => {
    const client = new QueryClient();
    const copy = saved(snapshot("started", runner(1), runner(2)));
    showRaceCopy(client, RACE, copy);
    client.setQueryData(key, (s): RaceSnapshot | undefined =>
      s ? [s[0], runner(1, SAVED_AT + 9_000), ...(s.slice(2) as RunnerRecord[])] : s,
    );
    expect(raceCopyOnScreen(client, RACE)?.saved).toBe(copy);
    // Newer than the copy: what the screen compares with the moment it came on screen once the socket is live.
    expect(client.getQueryState(key)!.dataUpdatedAt).toBeGreaterThanOrEqual(raceCopyOnScreen(client, RACE)!.shownAt);
    // The screen forgets it once the socket has brought the server's state (offline-race.tsx).
    forgetRaceCopy(client, RACE);
    expect(raceCopyOnScreen(client, RACE)).toBeNull();
  });

  it("a later fetch after the copy was forgotten changes nothing (its watch on the cache is gone)", async () => {
    const client = new QueryClient();
    showRaceCopy(client, RACE, saved(snapshot("started", runner(1))));
    forgetRaceCopy(client, RACE);
    const again = saved(snapshot("started", runner(1), runner(3)));
    client.removeQueries({ queryKey: key });
    expect(showRaceCopy(client, RACE, again)).toBe(true);
    await fetchAnswers(client, Promise.resolve(snapshot("started", runner(1))));
    expect(raceCopyOnScreen(client, RACE)).toBeNull();
  });

  it("brings rapid timing's records unless the screen knows some already", () => {
    const rapid: RapidRecords = { slots: [{ sort: "slot-1" } as unknown as RapidRecords["slots"][number]], bibs: [] };
    const fresh = new QueryClient();
    showRaceCopy(fresh, RACE, saved(snapshot("started"), rapid));
    expect(fresh.getQueryData(rapidQueryOptions(RACE).queryKey)).toBe(rapid);

    const knowing = new QueryClient();
    const known: RapidRecords = { slots: [{ sort: "slot-9" } as unknown as RapidRecords["slots"][number]], bibs: [] };
    knowing.setQueryData(rapidQueryOptions(RACE).queryKey, known);
    showRaceCopy(knowing, RACE, saved(snapshot("started"), rapid));
    expect(knowing.getQueryData(rapidQueryOptions(RACE).queryKey)).toBe(known);

    const empty = new QueryClient();
    empty.setQueryData(rapidQueryOptions(RACE).queryKey, EMPTY_RAPID);
    showRaceCopy(empty, RACE, saved(snapshot("started"), rapid));
    expect(empty.getQueryData(rapidQueryOptions(RACE).queryKey)).toEqual(rapid);
  });

  it("is kept per page: another query client has none", () => {
    const client = new QueryClient();
    showRaceCopy(client, RACE, saved(snapshot("started")));
    expect(raceCopyOnScreen(new QueryClient(), RACE)).toBeNull();
  });
});

describe("the config's copy", () => {
  const copyOf = (body: unknown, fetchedAt: number | null) =>
    new Response(JSON.stringify(body), {
      headers: fetchedAt === null ? {} : { [FETCHED_AT_HEADER]: String(fetchedAt) },
    });

  it("carries the server's clock on by the time passed since it was fetched (the device's offset kept)", async () => {
    const fetchedAt = 1_000_000;
    const serverThen = fetchedAt + 42_000; // the server's clock 42 s ahead of this device's
    const body = await readConfigCopy(
      copyOf({ isAdmin: true, serverTime: serverThen }, fetchedAt),
      fetchedAt + 600_000,
    );
    expect(body).toEqual({ isAdmin: true, serverTime: fetchedAt + 600_000 + 42_000 });
    const iso = await readConfigCopy(
      copyOf({ isAdmin: true, serverTime: new Date(serverThen).toISOString() }, fetchedAt),
      fetchedAt + 1_000,
    );
    expect(iso?.serverTime).toBe(fetchedAt + 1_000 + 42_000);
  });

  it("is no copy without the moment it was fetched, or without a JSON object", async () => {
    expect(await readConfigCopy(copyOf({ isAdmin: true, serverTime: 5 }, null), 10)).toBeNull();
    expect(await readConfigCopy(copyOf([1, 2], 5), 10)).toBeNull();
    expect(await readConfigCopy(new Response("<html>", { headers: { [FETCHED_AT_HEADER]: "5" } }), 10)).toBeNull();
  });
});

/**
 * Spectators over real HTTP against `npm start`'s server (separate incoming requests, which the Worker test
 * project cannot make: there every fetch is a sub-request of the test). A running race's public view is read by
 * 50 phones at once just after the Worker's per-isolate copy has expired (each asking again as soon as it has its
 * answer, for 1.5 s), round after round, with a finish between rounds: every read is a 200 with the race (workerd
 * answers 500 "Cannot perform I/O on behalf of a different request" when one request awaits a promise another
 * request made), and the newest finish is in the view within 2 s. Races of this file are made on days in 2039 (other files keep to 2040–2099).
 */
import { expect, inject, test } from "vitest";
import { raceId } from "../../src/shared/race-id";
import type { PublicRaceSnapshot, RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";

const baseURL = inject("baseURL");
const CLIENT = { "x-loppet-client": "1" };

/** The admin's cookie from the development sign-in (Node's fetch keeps no cookie jar). */
async function adminCookie(): Promise<string> {
  const res = await fetch(`${baseURL}/admin/api/dev-login`, {
    method: "POST",
    headers: { ...CLIENT, "content-type": "application/json" },
    body: JSON.stringify({ email: "arrangor@example.se" }),
  });
  expect(res.status).toBe(200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  expect(cookies.length).toBeGreaterThan(0);
  return cookies.join("; ");
}

async function admin(cookie: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseURL}/admin/api/races/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...CLIENT, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const pick = (n: number) => Math.floor(Math.random() * n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tapId = () => crypto.randomUUID().replace(/-/g, "");

async function createRace(cookie: string): Promise<RaceRecord> {
  for (;;) {
    const day = `2039-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
    const distance = 100 * (1 + pick(9_000));
    const res = await admin(cookie, `create-race/${raceId(day, distance)}`, { date: day, distance, openForReg: false });
    if (res.status === 409) continue;
    expect(res.status).toBe(200);
    return (await res.json()) as RaceRecord;
  }
}

async function publicRead(part: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${baseURL}/api/races/get/${part}`);
  return { status: res.status, body: await res.text() };
}

test("50 phones reading at once just after the copy expires all get 200, and show the newest finish", async () => {
  const cookie = await adminCookie();
  const race = await createRace(cookie);
  const runners: RunnerRecord[] = [];
  for (let i = 0; i < 12; i += 1) {
    const res = await admin(cookie, `add-runner/${race.part}`, { firstname: `Åskådad${i}`, lastname: "Test", age: 30 });
    expect(res.status).toBe(200);
    runners.push((await res.json()) as RunnerRecord);
  }
  // The server's clock (not this machine's) times the start and the finishes: no `at`.
  expect((await admin(cookie, `start/${race.part}?tap=${tapId()}`)).status).toBe(200);

  const failures: string[] = [];
  for (let round = 0; round < 6; round += 1) {
    const runner = runners[round]!;
    const finished = await admin(cookie, `finish/${race.part}/${runner.sort}?tap=${tapId()}`);
    expect(finished.status).toBe(200);
    // One read makes the copy; just after it has expired, 50 phones ask at once, and again as soon as each has
    // its answer, for 1.5 s (across the next expiry too).
    expect((await publicRead(race.part)).status).toBe(200);
    await sleep(1_050);
    const until = Date.now() + 1_500;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        do {
          const { status, body } = await publicRead(race.part);
          if (status !== 200) failures.push(`round ${round}: ${status} ${body.slice(0, 120)}`);
        } while (Date.now() < until);
      }),
    );
    // Within 2 s of the tap the view has the finish.
    const deadline = Date.now() + 2_000;
    for (;;) {
      const { status, body } = await publicRead(race.part);
      expect(status).toBe(200);
      const [head, ...rest] = JSON.parse(body) as PublicRaceSnapshot;
      expect(head.part).toBe(race.part);
      if (rest.find((r) => r.sort === runner.sort)?.time !== undefined) break;
      expect(Date.now(), `runner ${round} in the view within 2 s`).toBeLessThan(deadline);
      await sleep(100);
    }
  }
  expect(failures).toEqual([]);
});

/**
 * Child-safe publishing in the public view of a race of the season (issue 28, item 5): `GET /api/races/get/{part}`
 * (start lists, results and spectators read it) withholds the time, the finish moment and the placing of runners
 * aged 11 or under (11 withheld, 12 shown) while the season setting is on, and publishes every result while it is
 * off (the default). A withheld finisher looks as before finishing until the race has ended, then 'Fullföljt'
 * (issue 38; the spectators' socket and replays: test/durable/spectators-child-safe.test.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { addParticipantsToRaces } from "../../../src/worker/race-day/race-runners";
import { testRace } from "../race-calls";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { PublicRunnerRecord, RaceRecord } from "../../../src/shared/race-protocol";
import { SEASON, type Season } from "../../../src/shared/season";
import { get, sleep } from "../helpers";

const db = () => database(env.DB);
let counter = 0;
function testSeason(): Season {
  counter += 1;
  return { ...SEASON, year: 2090 + counter, raceDay: `${2090 + counter}-09-13` };
}

async function withChildSafe<T>(on: boolean, run: () => Promise<T>): Promise<T> {
  const was = SEASON.childSafePublishing;
  SEASON.childSafePublishing = on;
  try {
    return await run();
  } finally {
    SEASON.childSafePublishing = was;
  }
}

/** A started race on 2.8 km of these runners (bibs from 401 in the order given); the `finishers` finished in order. */
async function raceOf(people: readonly (readonly [firstname: string, age: number])[], finishers: readonly string[]) {
  const season = testSeason();
  const runners = people.map(([firstname, age], i) => ({
    id: crypto.randomUUID(),
    firstname,
    lastname: "Testsson",
    age,
    company: "",
    group: "Ingen",
    distance: "2.8",
    bib: 401 + i,
  }));
  for (const p of runners) {
    await env.DB.prepare(
      `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", bib, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(p.id, season.year, p.firstname, p.lastname, p.age, p.company, p.distance, p.group, p.bib, Date.now())
      .run();
  }
  await addParticipantsToRaces(env, db(), runners, season);
  const part = raceIdForSeason("2.8", season);
  const race = testRace(part);
  const now = Date.now();
  await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
  for (const [i, name] of finishers.entries()) {
    const runner = runners.find((r) => r.firstname === name)!;
    await race.run({
      type: "finish",
      runnerId: runner.id,
      tap: { tapId: crypto.randomUUID(), at: now - 300_000 + i * 10_000 },
    });
  }
  return { part, race, runners };
}

/** Ends the race: those still out marked DNS first. The public view read next is the ended race's. */
async function endRace({ race, runners }: Awaited<ReturnType<typeof raceOf>>, stillOut: readonly string[] = []) {
  for (const name of stillOut) {
    await race.run({ type: "set-dns", runnerId: runners.find((r) => r.firstname === name)!.id, dns: true });
  }
  await race.run({ type: "end" });
  // This isolate's copy of the public view is at most a second old.
  await sleep(1_100);
}

/** A started race: Vuxen (34) first, Barn (9) second, Tolv (12) third, Sen (10) still out. */
async function finishedRace() {
  return raceOf(
    [
      ["Vuxen", 34],
      ["Barn", 9],
      ["Tolv", 12],
      ["Sen", 10],
    ],
    ["Vuxen", "Barn", "Tolv"],
  );
}

async function publicView(part: string) {
  const res = await get(`/api/races/get/${part}`);
  expect(res.status).toBe(200);
  return (await res.json()) as [RaceRecord, ...PublicRunnerRecord[]];
}

describe("child-safe publishing in a race's public view", () => {
  it("publishes every time while the setting is off", async () => {
    const [, ...runners] = await withChildSafe(false, async () => publicView((await finishedRace()).part));
    expect(runners.filter((r) => r.time !== undefined).map((r) => r.firstname)).toEqual(["Vuxen", "Barn", "Tolv"]);
    expect(runners.some((r) => r.resultWithheld)).toBe(false);
  });

  it("withholds the time and the finish moment of a finisher aged 11 or under: as before finishing until the end, then 'Fullföljt', listed last", async () => {
    // The season's setting holds for the whole season: the race object's feed to the spectators' fan-out applies it
    // as each change happens, so it is on before the race starts.
    await withChildSafe(true, async () => {
      const made = await finishedRace();
      const [race, ...running] = await publicView(made.part);
      expect(race.state).toBe("started");
      // Barn finished second, but the public cannot tell her from Sen, who is still out: both are simply out.
      const out = { finished: null };
      for (const name of ["Barn", "Sen"]) {
        const r = running.find((x) => x.firstname === name)!;
        expect(r, name).toMatchObject(out);
        expect(r.time, name).toBeUndefined();
        expect(r.resultWithheld, name).toBeUndefined();
      }
      expect(running.filter((r) => r.time !== undefined).map((r) => r.firstname)).toEqual(["Vuxen", "Tolv"]);
      expect(running.map((r) => r.firstname)).toEqual(["Barn", "Sen", "Vuxen", "Tolv"]);

      await endRace(made, ["Sen"]);
      const [ended, ...runners] = await publicView(made.part);
      expect(ended.state).toBe("ended");
      const barn = runners.find((r) => r.firstname === "Barn")!;
      expect(barn).toMatchObject({ finished: null, resultWithheld: true });
      expect(barn.time).toBeUndefined();
      // A child who did not start is simply DNS; older runners keep their time.
      expect(runners.find((r) => r.firstname === "Sen")).toMatchObject({ finished: null, dns: true });
      expect(runners.find((r) => r.firstname === "Sen")!.resultWithheld).toBeUndefined();
      expect(runners.filter((r) => r.time !== undefined).map((r) => r.firstname)).toEqual(["Vuxen", "Tolv"]);
      // The withheld finisher is not among the finishers in finish order (that would give the placing away).
      expect(runners.map((r) => r.firstname)).toEqual(["Sen", "Vuxen", "Tolv", "Barn"]);
      expect(JSON.stringify(runners)).not.toContain('"age"');
    });
  });

  it("the limit is 11 and under: an 11-year-old who finished is 'Fullföljt' without a time or a place, a 12-year-old keeps both", async () => {
    // Elva finishes first of all, just ahead of Tolv: her placing would show in the order if it were kept.
    const people = [
      ["Tolv", 12],
      ["Elva", 11],
      ["Vuxen", 40],
    ] as const;
    const [, ...runners] = await withChildSafe(true, async () => {
      const made = await raceOf(people, ["Elva", "Tolv", "Vuxen"]);
      await endRace(made);
      return publicView(made.part);
    });
    const elva = runners.find((r) => r.firstname === "Elva")!;
    expect(elva).toMatchObject({ finished: null, resultWithheld: true });
    expect(elva.time).toBeUndefined();
    expect(runners.find((r) => r.firstname === "Tolv")).toMatchObject({ time: expect.any(String) });
    expect(runners.find((r) => r.firstname === "Tolv")!.resultWithheld).toBeUndefined();
    // The published finishers in their order, then Elva, not ranked.
    expect(runners.map((r) => r.firstname)).toEqual(["Tolv", "Vuxen", "Elva"]);
    expect(JSON.stringify(runners)).not.toContain('"age"');
  });
});

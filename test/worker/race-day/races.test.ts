import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { ensureSeasonRaces, getRace, listRaces, setRaceState } from "../../../src/worker/race-day/races-db";
import {
  addParticipantsToRaces,
  answered,
  changeRunnerDistance,
  raceStub,
} from "../../../src/worker/race-day/race-runners";
import { testRace } from "../race-calls";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { RaceRecord, RunnerRecord } from "../../../src/shared/race-protocol";
import { SEASON, type Season } from "../../../src/shared/season";
import { ApiError } from "../../../src/worker/lib/errors";
import { get, loginAdmin } from "../helpers";

const db = () => database(env.DB);
const SEASON_PARTS = ["race-250913-08", "race-250913-16", "race-250913-28", "race-250913-56"];

// A season of the tests' own (another race day), so its races and runners never meet the real season's.
let seasonCounter = 0;
function testSeason(): Season {
  seasonCounter += 1;
  return { ...SEASON, year: 2060 + seasonCounter, raceDay: `${2060 + seasonCounter}-09-13` };
}

interface Person {
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  group: string;
  distance: string;
  bib?: number | null;
}

async function insertParticipants(people: Person[], season: number): Promise<void> {
  for (const p of people) {
    await env.DB.prepare(
      `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", bib, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(p.id, season, p.firstname, p.lastname, p.age, p.company, p.distance, p.group, p.bib ?? null, Date.now())
      .run();
  }
}

function person(distance: string, overrides: Partial<Person> = {}): Person {
  return {
    id: crypto.randomUUID(),
    firstname: "Lisa",
    lastname: "Ek",
    age: 9,
    company: "",
    group: "Ingen",
    distance,
    ...overrides,
  };
}

async function participantRow(id: string) {
  return env.DB.prepare("SELECT bib, race_id, distance FROM participants WHERE id = ?")
    .bind(id)
    .first<{ bib: number | null; race_id: string | null; distance: string }>();
}

describe("the race index", () => {
  it("seeds the season's four races from the config, keeping race-day state on a second run", async () => {
    const season = testSeason();
    const rows = await ensureSeasonRaces(db(), season);
    const yy = String(season.year).slice(2);
    expect(rows.map((r) => [r.part, r.distance, r.startTime, r.date])).toEqual([
      [`race-${yy}0913-08`, 800, "11:00", season.raceDay],
      [`race-${yy}0913-16`, 1600, "11:15", season.raceDay],
      [`race-${yy}0913-28`, 2800, "11:45", season.raceDay],
      [`race-${yy}0913-56`, 5600, "11:45", season.raceDay],
    ]);

    expect(await setRaceState(db(), `race-${yy}0913-08`, "started", 1234)).toBe(true);
    expect(await setRaceState(db(), "race-000101-08", "started", 1)).toBe(false);
    const changed = { ...season, races: season.races.map((r) => ({ ...r, startTime: "10:00" })) };
    await ensureSeasonRaces(db(), changed);
    const row = await getRace(db(), `race-${yy}0913-08`);
    expect(row).toMatchObject({ state: "started", started: 1234, startTime: "10:00" });
    const all = await listRaces(db());
    expect(all.filter((r) => r.season === season.year)).toHaveLength(4);
    expect(all.map((r) => r.part)).toEqual([...all.map((r) => r.part)].sort());
  });
});

describe("GET /api/races", () => {
  it("lists the races of every season by part, the current season's included", async () => {
    const other = testSeason();
    await ensureSeasonRaces(db(), other);
    const res = await get("/api/races");
    expect(res.status).toBe(200);
    const races = (await res.json()) as RaceRecord[];
    const parts = races.map((r) => r.part);
    expect(parts).toEqual([...parts].sort());
    for (const part of SEASON_PARTS) expect(parts).toContain(part);
    expect(parts).toContain(raceIdForSeason("0.8", other));
    expect(races.find((r) => r.part === "race-250913-56")).toEqual({
      type: "race",
      part: "race-250913-56",
      sort: "race",
      state: "",
      started: null,
      date: "2025-09-13",
      distance: 5600,
      openForReg: true,
    });
  });
});

describe("GET /api/races/get/{part}", () => {
  it("answers the race record, then public runner records without age or id", async () => {
    const season = testSeason();
    const [anna, per] = [
      person("1.6", { firstname: "Anna", lastname: "Berg", age: 12, company: "IK Ymer", group: "Dam", bib: 201 }),
      person("1.6", { firstname: "Per", lastname: "Holm", age: 44, group: "Herr" }),
    ];
    await insertParticipants([anna, per], season.year);
    await addParticipantsToRaces(env, db(), [anna, per], season);
    const part = raceIdForSeason("1.6", season);

    const res = await get(`/api/races/get/${part}`);
    expect(res.status).toBe(200);
    const [race, ...runners] = (await res.json()) as [RaceRecord, ...Record<string, unknown>[]];
    expect(race).toMatchObject({ type: "race", sort: "race", part, distance: 1600, state: "" });
    expect(runners).toEqual([
      {
        type: "runner",
        part,
        sort: `runner-${per.id}`,
        bib: null,
        firstname: "Per",
        lastname: "Holm",
        group: "Herr",
        company: "",
        finished: null,
      },
      {
        type: "runner",
        part,
        sort: `runner-${anna.id}`,
        bib: 201,
        firstname: "Anna",
        lastname: "Berg",
        group: "Dam",
        company: "IK Ymer",
        finished: null,
      },
    ]);
  });

  it("answers from D1 for a race whose object has no data yet", async () => {
    const part = "race-990101-08";
    await env.DB.prepare(
      "INSERT INTO races (part, season, date, distance, open_for_reg, state) VALUES (?, 2099, '2099-01-01', 800, 1, '')",
    )
      .bind(part)
      .run();
    const kid = person("0.8", { firstname: "Ola", bib: 17 });
    await insertParticipants([kid], 2099);
    await env.DB.prepare("UPDATE participants SET race_id = ? WHERE id = ?").bind(part, kid.id).run();

    const res = await get(`/api/races/get/${part}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        type: "race",
        part,
        sort: "race",
        state: "",
        started: null,
        date: "2099-01-01",
        distance: 800,
        openForReg: true,
        resultsStatus: null,
      },
      {
        type: "runner",
        part,
        sort: `runner-${kid.id}`,
        bib: 17,
        firstname: "Ola",
        lastname: "Ek",
        group: "Ingen",
        company: "",
        finished: null,
      },
    ]);
  });

  it("answers 404 for an unknown or malformed race", async () => {
    for (const part of ["race-991231-56", "nonsense", "race-250913-00", "race-251340-56", "lopp-2019-56"]) {
      const res = await get(`/api/races/get/${part}`);
      expect(res.status, part).toBe(404);
      expect(await res.json()).toEqual({ error: "Loppet finns inte" });
    }
  });
});

describe("admin race reads", () => {
  it("needs an admin session", async () => {
    expect((await get("/admin/api/races")).status).toBe(401);
    expect((await get("/admin/api/races/get/race-250913-56")).status).toBe(401);
  });

  it("lists races and gives runners with age and id", async () => {
    const jar = await loginAdmin();
    const list = await get("/admin/api/races", { jar });
    expect(list.status).toBe(200);
    const parts = ((await list.json()) as RaceRecord[]).map((r) => r.part);
    for (const part of SEASON_PARTS) expect(parts).toContain(part);

    const season = testSeason();
    const p = person("5.6", { age: 37, bib: 650 });
    await insertParticipants([p], season.year);
    await addParticipantsToRaces(env, db(), [p], season);
    const part = raceIdForSeason("5.6", season);
    const res = await get(`/admin/api/races/get/${part}`, { jar });
    expect(res.status).toBe(200);
    const [race, runner] = (await res.json()) as [RaceRecord, RunnerRecord];
    expect(race.part).toBe(part);
    expect(runner).toMatchObject({ id: p.id, age: 37, bib: 650, distance: "5.6", sort: `runner-${p.id}` });

    const missing = await get("/admin/api/races/get/race-991231-56", { jar });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Loppet finns inte" });
  });
});

describe("addParticipantsToRaces", () => {
  it("puts each participant in the season's race for its distance, once, and links D1", async () => {
    const season = testSeason();
    const people = [person("0.8"), person("5.6", { bib: 601 }), person("5.6"), person("2.8")];
    await insertParticipants(people, season.year);

    const first = await addParticipantsToRaces(env, db(), people, season);
    expect(first.map((r) => [r.runner.id, r.part, r.added])).toEqual(
      expect.arrayContaining(people.map((p) => [p.id, raceIdForSeason(p.distance as "0.8", season), true])),
    );
    const second = await addParticipantsToRaces(env, db(), people, season);
    expect(second.every((r) => !r.added)).toBe(true);

    const race56 = testRace(raceIdForSeason("5.6", season));
    expect((await race56.listRunners()).map((r) => r.id).sort()).toEqual([people[1]!.id, people[2]!.id].sort());
    expect((await race56.events()).filter((e) => e.type === "runner-added")).toHaveLength(2);
    for (const p of people) {
      expect(await participantRow(p.id)).toEqual({
        bib: p.bib ?? null,
        race_id: raceIdForSeason(p.distance as "0.8", season),
        distance: p.distance,
      });
    }
  });

  it("keeps a paid runner whose bib was taken meanwhile, without the bib", async () => {
    const season = testSeason();
    const [first, second] = [person("1.6", { bib: 250 }), person("1.6", { bib: 250, firstname: "Maja" })];
    await insertParticipants([first, second], season.year);
    await addParticipantsToRaces(env, db(), [first], season);
    const [result] = await addParticipantsToRaces(env, db(), [second], season);
    expect(result).toMatchObject({ added: true, droppedBib: 250, runner: { bib: null, firstname: "Maja" } });
    expect(await participantRow(second.id)).toMatchObject({ bib: null, race_id: raceIdForSeason("1.6", season) });
  });

  it("follows the race D1 already links the participant to (a moved runner stays moved)", async () => {
    const season = testSeason();
    const p = person("5.6");
    await insertParticipants([p], season.year);
    await addParticipantsToRaces(env, db(), [p], season);
    await changeRunnerDistance(env, raceIdForSeason("5.6", season), raceIdForSeason("2.8", season), p.id);
    // A replayed settlement still carries the distance paid for.
    await addParticipantsToRaces(env, db(), [p], season);
    expect(await testRace(raceIdForSeason("5.6", season)).listRunners()).toEqual([]);
    expect((await testRace(raceIdForSeason("2.8", season)).listRunners()).map((r) => r.id)).toEqual([p.id]);
  });
});

describe("changeRunnerDistance", () => {
  it("moves the runner with its bib and mirrors race and distance to D1, idempotently", async () => {
    const season = testSeason();
    const p = person("2.8", { bib: 480 });
    await insertParticipants([p], season.year);
    await addParticipantsToRaces(env, db(), [p], season);
    const [from, to] = [raceIdForSeason("2.8", season), raceIdForSeason("1.6", season)];

    const moved = await changeRunnerDistance(env, from, to, p.id, { actor: "arrangor@example.se" });
    expect(moved.runner).toMatchObject({ id: p.id, part: to, distance: "1.6", bib: 480 });
    expect(await participantRow(p.id)).toEqual({ bib: 480, race_id: to, distance: "1.6" });
    expect(await testRace(from).listRunners()).toEqual([]);

    const again = await changeRunnerDistance(env, from, to, p.id);
    expect(again.runner).toEqual(moved.runner);
    expect(await testRace(to).listRunners()).toHaveLength(1);
  });

  it("refuses an unknown race or runner with a 4xx ApiError", async () => {
    const season = testSeason();
    await ensureSeasonRaces(db(), season);
    const [from, to] = [raceIdForSeason("2.8", season), raceIdForSeason("1.6", season)];
    await expect(changeRunnerDistance(env, from, "race-991231-56", "x")).rejects.toMatchObject({ status: 404 });
    await expect(changeRunnerDistance(env, from, to, "finns-inte")).rejects.toMatchObject({
      status: 404,
      message: "Löparen finns inte i loppet.",
    });
    await expect(changeRunnerDistance(env, from, from, "x")).rejects.toBeInstanceOf(ApiError);
  });
});

describe("raceStub and answered", () => {
  it("reaches the object, which makes itself the race of the index row; refusals map to ApiError", async () => {
    const season = testSeason();
    await ensureSeasonRaces(db(), season);
    const part = raceIdForSeason("0.8", season);
    expect(await answered(raceStub(env, part).getRace())).toMatchObject({
      part,
      distance: 800,
      date: season.raceDay,
      openForReg: true,
    });
    // A race the index does not have: the object answers 404 itself, and writes nothing.
    await expect(answered(raceStub(env, "race-991231-08").listRunners())).rejects.toMatchObject({
      status: 404,
      message: "Loppet finns inte",
    });
    expect(await answered(raceStub(env, "race-991231-08").getRace())).toBeNull();
    expect(() => raceStub(env, "not-a-race")).toThrow("Loppet finns inte");
  });
});

/**
 * Race day through the real Worker and real sockets: every admin socket sees every change in seq order, a replay
 * sends nothing, a reconnect gets what it missed, eviction loses nothing, a distance move survives a failure
 * half-way, the routes answer the race's refusals with its status and Swedish message and refuse bad input before
 * the race sees it. The rules themselves (starts, taps, replays, re-records, the review list, DNS, end, reset,
 * bibs, the ended race) are tested in the race room on Node: test/race-room/race-day.test.ts, review.test.ts,
 * ended-race.test.ts.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceDO } from "../../../src/durable/race/race-do";
import { raceId, raceIdForSeason } from "../../../src/shared/race-id";
import { runnerSort, type RaceRecord, type RunnerRecord } from "../../../src/shared/race-protocol";
import { payOnPhone, seedFamily, startPayment } from "../../worker/swish-helpers";
import {
  addRunner,
  applyFrames,
  auditTypes,
  dataFrames,
  finish,
  json,
  newRace,
  raceState,
  snapshot,
  startEarlier,
  subscribe,
  tapId,
  TEN_MINUTES,
} from "./race-helpers";
import { call, get, loginAdmin, openSocket, post, waitFor } from "../../worker/helpers";
import { testRace } from "../../worker/race-calls";

describe("a whole race from three sockets", () => {
  it("start, 30 finishes from three devices, bibs, undo and end reach every socket in seq order", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const runners: RunnerRecord[] = [];
    for (let i = 0; i < 30; i += 1)
      runners.push(await addRunner(jar, part, { firstname: `R${i}`, bib: i < 20 ? 600 + i : null }));
    const phones = await Promise.all([0, 1, 2].map(() => subscribe(jar, part)));
    for (const { hello, first } of phones) {
      expect(hello.snapshot).toBe(true);
      expect(first).toHaveLength(31);
    }

    // Bibs for the last ten before the start.
    for (let i = 20; i < 30; i += 1) {
      const { runner } = await json<{ runner: RunnerRecord }>(
        await get(`/admin/api/races/register-bib/${part}/${runners[i]!.sort}/${700 + i}?device=phone-a`, { jar }),
      );
      expect(runner.bib).toBe(700 + i);
    }
    const started = await json<{ started: number; race: RaceRecord }>(
      await get(`/admin/api/races/start/${part}?device=phone-a&tap=${tapId()}&at=${Date.now() - TEN_MINUTES}`, { jar }),
    );
    expect(started.race.state).toBe("started");

    for (let i = 0; i < 30; i += 1) {
      const at = started.started + 1000 * (i + 1);
      const result = await json<{ outcome: string; finished: number }>(
        await finish(jar, part, runners[i]!.sort, { tap: tapId(), at, device: `phone-${"abc"[i % 3]}` }),
      );
      expect(result).toMatchObject({ outcome: "recorded", finished: at });
    }
    await json(await get(`/admin/api/races/restore/${part}/${runners[29]!.sort}?device=phone-b`, { jar }));
    const ended = await get(`/admin/api/races/end/${part}`, { jar });
    expect(ended.status).toBe(409);
    expect(((await ended.json()) as { error: string }).error).toMatch(/1 löpare är kvar/);
    await json(await finish(jar, part, runners[29]!.sort, { tap: tapId(), device: "phone-c" }));
    const end = await json<{ race: RaceRecord }>(await get(`/admin/api/races/end/${part}?device=phone-a`, { jar }));
    expect(end.race.state).toBe("ended");

    const truth = await snapshot(jar, part);
    expect(truth.race.state).toBe("ended");
    expect(truth.runners.map((r) => r.firstname)).toEqual(runners.map((r) => r.firstname));
    for (const { socket } of phones) {
      await waitFor(() => raceState(applyFrames(dataFrames(socket))) === "ended", 3000, "the end on every phone");
      const frames = dataFrames(socket);
      const seqs = frames.slice(1).flatMap((f) => f.map((e) => e.seq));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      const seen = applyFrames(frames);
      for (const r of truth.runners) expect(seen.get(r.sort)).toMatchObject({ finished: r.finished, bib: r.bib });
      socket.ws.close();
    }
    // The audit trail names who and which device for each tap.
    const finishes = (await testRace(part).events()).filter((e) => e.type === "finish");
    expect(finishes).toHaveLength(31);
    expect(new Set(finishes.map((e) => e.device))).toEqual(new Set(["phone-a", "phone-b", "phone-c"]));
    expect(new Set(finishes.map((e) => e.actor))).toEqual(new Set(["arrangor@example.se"]));
    const audit = await json<{ type: string }[]>(await get(`/admin/api/races/audit/${part}`, { jar }));
    expect(audit[0]!.type).toBe("end");
  });
});

describe("taps through the routes", () => {
  it("a replayed tap sends nothing to the sockets", async () => {
    // The replay's rule (same answer, nothing changed, one audit row): test/race-room/race-day.test.ts.
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { firstname: "Anna", bib: 601 });
    const { started } = await json<{ started: number }>(await startEarlier(jar, part));
    const { socket } = await subscribe(jar, part);
    const tap = tapId();
    const first = await json(await finish(jar, part, a.sort, { tap, at: started + 5000, device: "p1" }));
    await waitFor(() => dataFrames(socket).length === 2, 2000, "the finish event");
    for (let i = 0; i < 3; i += 1) {
      const again = await json(await finish(jar, part, a.sort, { tap, at: started + 9000, device: "p1" }));
      expect(again).toMatchObject({ outcome: "replayed", finished: first.finished });
    }
    // No broadcast for a replay: a sync round trip proves the socket is idle, not just slow.
    socket.send({ action: "sync", id: 1, t0: 1 });
    await waitFor(() => socket.messages.some((m) => (m as { type?: string }).type === "sync"), 2000, "sync");
    expect(dataFrames(socket)).toHaveLength(2);
  });

  it("a tap for 'Att granska' is a 202; a refusal is the race's status and message; bad query values are 400s", async () => {
    // Every reason a tap goes to the list, and every refusal of the bare call: test/race-room/review.test.ts and
    // race-day.test.ts. Here: how the route answers them, and what it refuses before the race sees the call.
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { bib: 601 });
    const notStarted = await finish(jar, part, a.sort, { tap: tapId() });
    expect(notStarted.status).toBe(202);
    expect(await notStarted.json()).toMatchObject({
      outcome: "review",
      review: { kind: "tap", status: "open", reason: "Loppet har inte startat.", runnerId: a.id, bib: 601 },
    });
    const bare = await finish(jar, part, a.sort);
    expect(bare.status).toBe(409);
    expect(await bare.json()).toEqual({ error: "Loppet har inte startat." });
    const { started } = await json<{ started: number }>(await get(`/admin/api/races/start/${part}`, { jar }));
    expect((await finish(jar, part, a.sort, { at: started - 1 })).status).toBe(422);
    for (const [query, message] of [
      [{ tap: "kort" }, "Ogiltigt tryck-id."],
      [{ tap: tapId(), at: "igår" }, "Ogiltig tidpunkt."],
      [{ device: "<script>" }, "Ogiltigt enhets-id."],
    ] as const) {
      const res = await finish(jar, part, a.sort, query);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    expect(await finish(jar, part, "runner-finns-inte")).toHaveProperty("status", 404);
    const unknownRace = await finish(jar, raceId("2071-01-01", 5600), a.sort, { tap: tapId() });
    expect(unknownRace.status).toBe(404);
    expect((await snapshot(jar, part)).runners.find((r) => r.id === a.id)?.finished).toBeNull();
  });
});

describe("bibs through the route", () => {
  it("a typed number and 'next' are set; a taken one is a 409; what is no number is refused by the route", async () => {
    // Uniqueness and the season's ranges: test/race-room/race-day.test.ts.
    const jar = await loginAdmin();
    const part = await newRace(jar, 800);
    const a = await addRunner(jar, part, { firstname: "Alva" });
    const b = await addRunner(jar, part, { firstname: "Bert", lastname: "Berg" });
    expect(
      (await json<{ runner: RunnerRecord }>(await get(`/admin/api/races/register-bib/${part}/${a.sort}/4711`, { jar })))
        .runner.bib,
    ).toBe(4711);
    const taken = await get(`/admin/api/races/register-bib/${part}/${b.sort}/4711`, { jar });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: "Startnummer 4711 används redan av Alva Ek." });
    for (const bad of ["abc", "-3", "1.5", "999999"]) {
      const res = await get(`/admin/api/races/register-bib/${part}/${b.sort}/${bad}`, { jar });
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("Startnummer måste vara ett positivt heltal.");
    }
    // 0.8 km: the season's range starts at 1.
    const next = await json<{ runner: RunnerRecord }>(
      await get(`/admin/api/races/register-bib/${part}/${b.sort}/next`, { jar }),
    );
    expect(next.runner.bib).toBe(1);
  });
});

describe("reconnect and eviction", () => {
  it("a socket that reconnects gets only what it missed, removals included", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const target = await newRace(jar, 2800);
    const runners = [];
    for (let i = 0; i < 4; i += 1) runners.push(await addRunner(jar, part, { firstname: `N${i}`, bib: 610 + i }));
    const { socket, hello } = await subscribe(jar, part);
    socket.ws.close();

    await json(await get(`/admin/api/races/start/${part}`, { jar }));
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId() }));
    await json(await get(`/admin/api/races/change-distance/${target}/${part}/${runners[1]!.sort}`, { jar }));

    const back = await subscribe(jar, part, hello.seq);
    expect(back.hello.snapshot).toBe(false);
    // In seq order: the finish, then the race (its results became preliminary with that first finish), the move.
    expect(back.first.map((e) => e.sort)).toEqual([runners[0]!.sort, "race", runners[1]!.sort]);
    expect(back.first[2]).toMatchObject({ removed: true });
    expect(back.first[1]).toMatchObject({ state: "started", results: "preliminary" });

    // Nothing missed: an empty replay. A client ahead of the race (bad number) gets a snapshot.
    const current = await subscribe(jar, part, back.hello.seq);
    expect(current.first).toEqual([]);
    const ahead = await subscribe(jar, part, back.hello.seq + 1000);
    expect(ahead.hello.snapshot).toBe(true);
    expect(ahead.first).toHaveLength(4);
  });

  it("an eviction in the middle of a race loses nothing, and hibernated sockets keep receiving", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const runners = [];
    for (let i = 0; i < 6; i += 1) runners.push(await addRunner(jar, part, { firstname: `E${i}`, bib: 620 + i }));
    const { socket } = await subscribe(jar, part);
    const { started } = await json<{ started: number }>(await startEarlier(jar, part));
    const taps = runners.map(() => tapId());
    for (let i = 0; i < 3; i += 1)
      await json(await finish(jar, part, runners[i]!.sort, { tap: taps[i]!, at: started + i * 100 + 100 }));
    const before = await snapshot(jar, part);

    await evictDurableObject(env.RACE.getByName(part));
    expect(await snapshot(jar, part)).toEqual(before);
    // A tap replayed after the eviction is still known.
    expect(await json(await finish(jar, part, runners[0]!.sort, { tap: taps[0]!, at: started + 5000 }))).toMatchObject({
      outcome: "replayed",
      finished: started + 100,
    });
    for (let i = 3; i < 6; i += 1)
      await json(await finish(jar, part, runners[i]!.sort, { tap: taps[i]!, at: started + i * 100 + 100 }));
    await waitFor(
      () => [...applyFrames(dataFrames(socket)).values()].filter((e) => "finished" in e && e.finished).length === 6,
      3000,
      "six finishes on the socket",
    );
    const after = await snapshot(jar, part);
    expect(after.runners.map((r) => r.finished)).toEqual(runners.map((_, i) => started + i * 100 + 100));
  });
});

describe("reset", () => {
  it("is confirmed by its word; the reset reaches every socket and D1's index follows the race", async () => {
    // What a reset clears and keeps, and that taps made before stay spent: test/race-room/race-day.test.ts.
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { bib: 630 });
    const b = await addRunner(jar, part, { bib: 631 });
    const { socket } = await subscribe(jar, part);
    await json(await get(`/admin/api/races/start/${part}`, { jar }));
    await json(await finish(jar, part, a.sort, { tap: tapId() }));
    await json(await get(`/admin/api/races/dns/${part}/${b.sort}/on`, { jar }));
    await json(await get(`/admin/api/races/end/${part}`, { jar }));

    // Without the word, or with another (its case wrong, the other confirmed action's): refused, nothing reset.
    for (const query of ["", "?confirm=", "?confirm=apraket", "?confirm=APRAKET%20", "?confirm=DNS", "?confirm=JA"]) {
      const refused = await get(`/admin/api/races/reset/${part}${query}`, { jar });
      expect(refused.status, query).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe("Skriv APRAKET för att återställa loppet.");
    }
    expect((await snapshot(jar, part)).race.state).toBe("ended");

    const reset = await json<{ race: RaceRecord }>(
      await get(`/admin/api/races/reset/${part}?confirm=APRAKET`, { jar }),
    );
    expect(reset.race).toMatchObject({ state: "", started: null });
    await waitFor(() => raceState(applyFrames(dataFrames(socket))) === "", 2000, "the reset on the socket");
    const seen = applyFrames(dataFrames(socket));
    expect(seen.get(a.sort)).toMatchObject({ finished: null });
    expect(seen.get(b.sort)).not.toHaveProperty("dns");

    await json(await get(`/admin/api/races/start/${part}`, { jar }));
    // D1's index follows the race.
    const row = await env.DB.prepare("SELECT state, started FROM races WHERE part = ?").bind(part).first();
    expect(row).toMatchObject({ state: "started" });
  });
});

describe("change of distance", () => {
  it("moves the runner with its bib, idempotently, and both races' sockets hear of it", async () => {
    const jar = await loginAdmin();
    const from = await newRace(jar);
    const to = await newRace(jar, 1600);
    const a = await addRunner(jar, from, { bib: 640 });
    const source = await subscribe(jar, from);
    const target = await subscribe(jar, to);
    const moved = await json<{ runner: RunnerRecord }>(
      await get(`/admin/api/races/change-distance/${to}/${from}/${a.sort}`, { jar }),
    );
    expect(moved.runner).toMatchObject({ part: to, bib: 640, distance: "1.6" });
    const again = await json<{ runner: RunnerRecord }>(
      await get(`/admin/api/races/change-distance/${to}/${from}/${a.sort}`, { jar }),
    );
    expect(again.runner).toEqual(moved.runner);
    expect((await snapshot(jar, from)).runners).toEqual([]);
    expect((await snapshot(jar, to)).runners.map((r) => r.id)).toEqual([a.id]);
    await waitFor(() => !applyFrames(dataFrames(source.socket)).has(a.sort), 2000, "removal in the source");
    await waitFor(() => applyFrames(dataFrames(target.socket)).has(a.sort), 2000, "arrival in the target");
  });

  it("finishes a move interrupted after marking, and after adding, without losing or doubling the runner", async () => {
    const jar = await loginAdmin();
    const from = await newRace(jar);
    const to = await newRace(jar, 2800);
    const a = await addRunner(jar, from, { firstname: "Mark", bib: 650 });
    const b = await addRunner(jar, from, { firstname: "Added", bib: 651 });
    const fromStub = env.RACE.getByName(from);
    // Crash after step 1 for a, after step 2 for b.
    await runInDurableObject(fromStub, async (_i: RaceDO, state) => {
      state.storage.sql.exec("UPDATE runners SET moving_to = ? WHERE id IN (?, ?)", to, a.id, b.id);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    await testRace(to).run({
      type: "add-runner",
      runner: {
        id: b.id,
        firstname: "Added",
        lastname: "Ek",
        age: 12,
        bib: 651,
      },
    });
    // While moving, the runner is in neither list twice.
    expect((await snapshot(jar, from)).runners).toEqual([]);
    expect((await snapshot(jar, to)).runners.map((r) => r.id)).toEqual([b.id]);

    expect(await runDurableObjectAlarm(fromStub)).toBe(true);
    expect((await snapshot(jar, from)).runners).toEqual([]);
    const arrived = (await snapshot(jar, to)).runners;
    expect(arrived.map((r) => [r.firstname, r.bib]).sort()).toEqual([
      ["Added", 651],
      ["Mark", 650],
    ]);
    const d1 = await env.DB.prepare("SELECT COUNT(*) AS n FROM participants WHERE id IN (?, ?)")
      .bind(a.id, b.id)
      .first();
    expect(d1).toMatchObject({ n: 0 }); // admin-added runners live in the race only
  });

  it("cancels a move whose target is gone, keeping the runner where it was", async () => {
    const jar = await loginAdmin();
    const from = await newRace(jar);
    const a = await addRunner(jar, from, { bib: 660 });
    const fromStub = env.RACE.getByName(from);
    await runInDurableObject(fromStub, async (_i: RaceDO, state) => {
      state.storage.sql.exec("UPDATE runners SET moving_to = 'race-991231-56' WHERE id = ?", a.id);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(fromStub)).toBe(true);
    expect((await snapshot(jar, from)).runners.map((r) => r.id)).toEqual([a.id]);
    expect(await auditTypes(from)).toContain("runner-move-cancelled");
    const unknown = await get(`/admin/api/races/change-distance/race-991231-56/${from}/${a.sort}`, { jar });
    expect(unknown.status).toBe(404);
  });
});

describe("socket frames", () => {
  it("refuses malformed and oversized frames on an open socket, answers sync with the server's clock", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const { socket } = await subscribe(jar, part);
    const count = socket.messages.length;
    for (const bad of [
      "not json",
      JSON.stringify({ action: "start" }),
      JSON.stringify({ action: "sync", id: -1, t0: 1 }),
      "x".repeat(5000),
    ]) {
      socket.send(bad);
    }
    await waitFor(() => socket.messages.length === count + 4, 2000, "four refusals");
    expect(socket.messages.slice(count)).toEqual([
      { type: "error", error: "Okänt meddelande." },
      { type: "error", error: "Okänt meddelande." },
      { type: "error", error: "Okänt meddelande." },
      { type: "error", error: "Meddelandet är för stort." },
    ]);
    const t0 = Date.now();
    socket.send({ action: "sync", id: 7, t0 });
    await waitFor(() => socket.messages.length === count + 5, 2000, "the sync answer");
    const sync = socket.messages.at(-1) as { type: string; id: number; t0: number; t1: number };
    expect(sync).toMatchObject({ type: "sync", id: 7, t0 });
    expect(Math.abs(sync.t1 - Date.now())).toBeLessThan(1000);
    socket.send("ping");
    await waitFor(() => socket.messages.includes("pong"), 2000, "pong");
    expect(socket.closeCode()).toBeNull();
  });

  it("lets only admins from the site open a race or hub socket", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    for (const path of [`/ws/race/${part}`, "/ws/races"]) {
      expect((await call(path, { headers: { upgrade: "websocket" } })).status).toBe(401);
      expect(
        (await call(path, { jar, headers: { upgrade: "websocket", origin: "https://evil.example" } })).status,
      ).toBe(403);
      expect((await call(path, { jar })).status).toBe(426);
    }
    expect((await call("/ws/race/race-991231-56", { jar, headers: { upgrade: "websocket" } })).status).toBe(404);
  });
});

describe("the hub socket", () => {
  it("sends every race, then each state change", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    await addRunner(jar, part, { bib: 670 });
    const hub = await openSocket("/ws/races", { jar });
    hub.send({ action: "subscribe-to-race" });
    expect(await hub.next()).toMatchObject({ type: "hello", snapshot: true });
    const races = (await hub.next()) as (RaceRecord & { seq: number })[];
    expect(races.find((r) => r.part === part)).toMatchObject({ state: "", sort: "race" });
    await json(await get(`/admin/api/races/start/${part}`, { jar }));
    const change = (await hub.next()) as (RaceRecord & { seq: number })[];
    expect(change).toEqual([expect.objectContaining({ part, state: "started" })]);
    expect(change[0]!.seq).toBeGreaterThan(races[0]!.seq);
  });
});

describe("the admin's race answer", () => {
  it("carries the live race record (main timer, results status, officialAt), as the socket's does", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const ella = await addRunner(jar, part, { bib: 690 });
    expect((await startEarlier(jar, part)).status).toBe(200);
    const phone = await subscribe(jar, part);
    const socketRace = () => applyFrames(dataFrames(phone.socket)).get("race") as RaceRecord & { seq: number };
    const answered = async () => (await snapshot(jar, part)).race;

    // Phone A times a 'Mål!' (so it can be the main timer); the slot is left for 'Att granska'.
    await json(
      await post(`/admin/api/races/rapid/${part}?tap=${tapId()}&at=${Date.now() - 90_000}&device=phone-a`, {}, { jar }),
    );
    const { race: timed } = await json<{ race: RaceRecord }>(
      await post(`/admin/api/races/main-timer/${part}`, { mainTimer: "phone-a" }, { jar }),
    );
    expect(timed.mainTimer).toBe("phone-a");
    // The main timer lives only in the race object: a phone that loads before its socket connects needs it here.
    expect(await answered()).toMatchObject({ mainTimer: "phone-a" });
    await waitFor(() => socketRace()?.mainTimer === "phone-a", 5000, "the main timer on the socket");

    await json(await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 60_000 }));
    await json(await get(`/admin/api/races/end/${part}`, { jar }));
    await json(await post(`/admin/api/races/official/${part}`, { confirm: true }, { jar }));
    await waitFor(() => socketRace()?.results === "official", 5000, "'Officiella' on the socket");
    // The whole record as the socket carries it (less the seq the socket's events have).
    const { seq, ...live } = socketRace();
    expect(seq).toBeGreaterThan(0);
    expect(await answered()).toEqual(live);
    expect(live).toMatchObject({ mainTimer: "phone-a", results: "official", officialAt: expect.any(Number) });
  });
});

describe("public start list", () => {
  it("shows DNS and results without ages or ids", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { firstname: "Dora", bib: 680 });
    const b = await addRunner(jar, part, { firstname: "Nils", bib: 681 });
    await json(await get(`/admin/api/races/start/${part}`, { jar }));
    await json(await finish(jar, part, a.sort, { tap: tapId() }));
    await json(await get(`/admin/api/races/dns/${part}/${b.sort}/on`, { jar }));
    const res = await call(`/api/races/get/${part}`);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toMatch(/^"\d+-\d+"$/);
    const [race, ...runners] = (await res.json()) as [RaceRecord, ...Record<string, unknown>[]];
    expect(race.state).toBe("started");
    const dns = runners.find((r) => r.sort === b.sort);
    expect(dns).toMatchObject({ dns: true, finished: null });
    expect(runners.every((r) => !("age" in r) && !("id" in r))).toBe(true);
  });
});

describe("race and runner forms", () => {
  it("creates a race once, with the spec's messages for a bad date or distance", async () => {
    const jar = await loginAdmin();
    const cases: [unknown, number, string][] = [
      [{ date: "2070-13-40", distance: 5600 }, 400, "felaktigt datum"],
      [{ date: "1999-09-13", distance: 5600 }, 400, "felaktigt datum"],
      [{ date: "2070-09-13", distance: "fem" }, 400, "felaktig sträcka"],
      [{ date: "2070-09-13", distance: null }, 400, "felaktig sträcka"],
      [{ date: "2070-09-13", distance: 5650 }, 400, "sträckan måste anges i hela hundra meter"],
      [{ date: "2070-09-13", distance: 0 }, 400, "sträckan måste anges i hela hundra meter"],
      [
        { date: "2070-09-13", distance: 2800 },
        400,
        "Loppets id ska vara race-700913-28 för det datumet och den sträckan.",
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await post("/admin/api/races/create-race/race-700913-56", body, { jar });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
    expect(await env.DB.prepare("SELECT 1 FROM races WHERE part = 'race-700913-56'").first()).toBeNull();
    const made = await json<RaceRecord>(
      await post("/admin/api/races/create-race/race-700913-56", { date: "2070-09-13", distance: "5600" }, { jar }),
    );
    expect(made).toMatchObject({ part: "race-700913-56", distance: 5600, state: "", openForReg: false });
    const again = await post(
      "/admin/api/races/create-race/race-700913-56",
      { date: "2070-09-13", distance: 5600 },
      { jar },
    );
    expect(again.status).toBe(409);
    const listed = await json<RaceRecord[]>(await get("/admin/api/races", { jar }));
    expect(listed.some((r) => r.part === "race-700913-56")).toBe(true);
  });

  it("adds and edits runners, refusing a bad age or a taken bib", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const a = await addRunner(jar, part, { firstname: "Gun", age: "44", bib: "690", group: "Dam", company: "IK" });
    expect(a).toMatchObject({ firstname: "Gun", age: 44, bib: 690, group: "Dam", company: "IK", distance: "5.6" });
    for (const age of ["x", -1, 300, null]) {
      const res = await post(`/admin/api/races/add-runner/${part}`, { firstname: "A", lastname: "B", age }, { jar });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("felaktig ålder");
    }
    const clash = await post(
      `/admin/api/races/add-runner/${part}`,
      { firstname: "A", lastname: "B", age: 9, bib: 690 },
      { jar },
    );
    expect(clash.status).toBe(409);
    const b = await addRunner(jar, part, { firstname: "Bo", bib: "" });
    expect(b.bib).toBeNull();
    const edited = await json<RunnerRecord>(
      await post(
        `/admin/api/races/update-runner/${part}/${b.sort}`,
        { lastname: "Lund", bib: 691, group: "Herr" },
        { jar },
      ),
    );
    expect(edited).toMatchObject({ firstname: "Bo", lastname: "Lund", bib: 691, group: "Herr" });
    const taken = await post(`/admin/api/races/update-runner/${part}/${b.sort}`, { bib: 690 }, { jar });
    expect(taken.status).toBe(409);
    const badGroup = await post(`/admin/api/races/update-runner/${part}/${b.sort}`, { group: "Katt" }, { jar });
    expect(badGroup.status).toBe(400);
    expect((await snapshot(jar, part)).runners.find((r) => r.id === b.id)).toMatchObject({
      bib: 691,
      lastname: "Lund",
    });
  });
});

describe("paid registrations", () => {
  it("land in the race of their distance and reach every open timing socket at once", async () => {
    const jar = await loginAdmin();
    const [long, short] = [raceIdForSeason("5.6"), raceIdForSeason("1.6")];
    const phones = [await subscribe(jar, long), await subscribe(jar, long), await subscribe(jar, short)];
    const family = await seedFamily([
      { firstname: "Tove", lastname: "Ring", age: 38, distance: "5.6" },
      { firstname: "Ebbe", lastname: "Ring", age: 7, distance: "1.6" },
    ]);
    const { token } = await startPayment(family);
    await payOnPhone(token);
    const [tove, ebbe] = family.participantIds.map((id) => runnerSort(id));
    for (const phone of phones.slice(0, 2)) {
      await waitFor(() => applyFrames(dataFrames(phone.socket)).has(tove!), 3000, "Tove on the 5.6 km phones");
      expect(applyFrames(dataFrames(phone.socket)).has(ebbe!)).toBe(false);
    }
    await waitFor(() => applyFrames(dataFrames(phones[2]!.socket)).has(ebbe!), 3000, "Ebbe on the 1.6 km phone");
    expect(applyFrames(dataFrames(phones[2]!.socket)).get(ebbe!)).toMatchObject({ firstname: "Ebbe", distance: "1.6" });
  });
});

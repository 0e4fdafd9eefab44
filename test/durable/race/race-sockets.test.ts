/**
 * The race's and the hub's sockets (issue 23, items 6–8): what a phone's cache and the hub's snapshot can trust,
 * frames measured in bytes, re-subscribing throttled, refusals answered as values, and sockets that follow the
 * admin's session.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceHubDO } from "../../../src/durable/race-hub";
import type { RaceDO } from "../../../src/durable/race/race-do";
import { RACE_HUB_NAME, SESSION_RECHECK_MS } from "../../../src/shared/object-calls";
import { mirrorRace } from "../../../src/durable/race/d1";
import type { RaceRoom } from "../../../src/durable/race/room";
import { RECHECKED_AT_KEY, SESSION_ENDED_CODE } from "../../../src/durable/socket-sessions";
import { MAX_CLIENT_FRAME_BYTES, type RaceEvent, type RaceRecord } from "../../../src/shared/race-protocol";
import { addAdmin, removeAdmin } from "../../../src/worker/session/admins-db";
import { database } from "../../../src/worker/db/client";
import { testRace } from "../../worker/race-calls";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { get, loginAdmin, openSocket, waitFor, type CookieJar, type TestSocket } from "../../worker/helpers";
import {
  addRunner,
  dataFrames,
  finish,
  json,
  newRace,
  startEarlier,
  subscribe,
  tapId,
  useRaceYear,
} from "./race-helpers";

useRaceYear(2072);

describe("what phones can trust", () => {
  it("every runner in an answer carries the seq of its last change, the same as its socket event", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const ella = await addRunner(jar, part, { bib: 601 });
    const phone = await subscribe(jar, part);
    expect((await startEarlier(jar, part)).status).toBe(200);
    const answer = await json<{ runner: { seq: number; sort: string } }>(
      await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 1000 }),
    );
    await waitFor(() =>
      dataFrames(phone.socket)
        .flat()
        .some((e) => e.sort === ella.sort && e.seq === answer.runner.seq),
    );
  });

  it("init changing whether registration is open reaches the open phones", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const phone = await subscribe(jar, part);
    const [date, meters] = [`20${part.slice(5, 7)}-${part.slice(7, 9)}-${part.slice(9, 11)}`, 5600];
    await testRace(part).init({ part, date, distance: meters, openForReg: true });
    await waitFor(() =>
      dataFrames(phone.socket)
        .flat()
        .some((e) => e.sort === "race" && (e as RaceRecord).openForReg === true),
    );
  });

  it("a runner's D1 mirror that fails is owed and made by the alarm; the change itself stands", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const runner = await addRunner(jar, part, { bib: 610 });
    await env.DB.prepare(
      `CREATE TRIGGER fail_mirror_${runner.id.replaceAll("-", "")} BEFORE UPDATE ON participants
       WHEN NEW.id = '${runner.id}' BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`,
    ).run();
    // The admin-added runner has no D1 row: give it one, so the mirror has something to write.
    await env.DB.prepare(
      `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", bib, race_id, created_at)
       VALUES (?, 2072, 'Ella', 'Ek', 12, '', '5.6', 'Dam', 610, ?, ?)`,
    )
      .bind(runner.id, part, Date.now())
      .run();
    const res = await get(`/admin/api/races/register-bib/${part}/${runner.sort}/611`, { jar });
    expect(res.status).toBe(200);
    const bibInD1 = () =>
      env.DB.prepare("SELECT bib FROM participants WHERE id = ?").bind(runner.id).first<{ bib: number }>();
    expect((await bibInD1())?.bib).toBe(610);
    await env.DB.prepare(`DROP TRIGGER fail_mirror_${runner.id.replaceAll("-", "")}`).run();
    const stub = env.RACE.getByName(part);
    await runInDurableObject(stub, (instance: RaceDO) => instance.alarm());
    expect((await bibInD1())?.bib).toBe(611);
  });

  it("a race mirror clears its debt only for the state it wrote, not for a change that landed meanwhile", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    await runInDurableObject(env.RACE.getByName(part), async (instance: RaceDO) => {
      const room = (instance as unknown as { room: RaceRoom }).room;
      // The start owes D1's index a mirror; the object's own carrying of it is left out here.
      room.apply({ type: "start", tap: {} }, { actor: "test" });
      expect(room.raceMirror()!.pending).toBe(true);
      const mirroring = mirrorRace(env, room);
      // While D1 answers, another race-level change is written (and owes its own mirror).
      room.apply({ type: "reset" }, { actor: "test" });
      await mirroring;
      expect(room.raceMirror()).toMatchObject({ state: "", pending: true });
    });
  });

  it("the hub holds back a change made while it reads a new page's snapshot, and sends it after", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const socket = await openSocket("/ws/races", { jar });
    socket.send({ action: "subscribe-to-race" });
    const hub = env.RACE_HUB.getByName("hub");
    // A change races the snapshot's D1 read.
    const started = {
      ...(await testRace(part).getRace())!,
      state: "started" as const,
      started: 1,
    };
    await hub.raceChanged(started);
    await waitFor(() => socket.messages.length >= 2, 3000, "the snapshot");
    await waitFor(
      () => seen(socket.messages).get(part)?.state === "started",
      3000,
      "the change on top of the snapshot",
    );
  });
});

/** The hub page's view: a snapshot replaces, a newer seq wins. */
function seen(frames: unknown[]): Map<string, RaceRecord & { seq: number }> {
  const state = new Map<string, RaceRecord & { seq: number }>();
  for (const frame of frames) {
    if (!Array.isArray(frame)) continue;
    for (const e of frame as (RaceRecord & { seq: number })[]) {
      const known = state.get(e.part);
      if (!known || known.seq <= e.seq) state.set(e.part, e);
    }
  }
  return state;
}

describe("socket frames", () => {
  it("a frame is measured in bytes: 600 'ö' (1,200 bytes) is too large, the socket stays open", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const { socket } = await subscribe(jar, part);
    const text = JSON.stringify({ action: "sync", id: 1, t0: 1, pad: "ö".repeat(600) });
    expect(text.length).toBeLessThan(MAX_CLIENT_FRAME_BYTES);
    socket.send(text);
    expect(await socket.next()).toEqual({ type: "error", error: "Meddelandet är för stort." });
    socket.send({ action: "sync", id: 2, t0: 5 });
    expect(await socket.next()).toMatchObject({ type: "sync", id: 2 });
  });

  it("100 subscribe frames from one socket get one snapshot and error frames, not 100 snapshots", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    for (let i = 0; i < 20; i += 1) await addRunner(jar, part, { firstname: `R${i}` });
    const { socket } = await subscribe(jar, part);
    for (let i = 0; i < 100; i += 1) socket.send({ action: "subscribe-to-race" });
    await waitFor(() => socket.messages.length >= 102, 5000, "an answer to each frame");
    const hellos = socket.messages.filter((m) => (m as { type?: string }).type === "hello");
    expect(hellos).toHaveLength(1);
    expect(socket.messages.filter((m) => (m as { type?: string }).type === "error")).toHaveLength(100);
  });

  it("a refusal is an answer of the race object, not an exception it throws", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const stub = env.RACE.getByName(part);
    expect(await stub.run({ type: "end" })).toEqual({ ok: false, status: 409, error: "Loppet har inte startat." });
  });
});

describe("sockets follow the session", () => {
  it("logging out closes the admin's race and hub sockets at once", async () => {
    const jar = await loginAdmin();
    await ensureSeasonRaces(database(env.DB), SEASON);
    const part = raceIdForSeason("5.6", SEASON);
    const race = await openSocket(`/ws/race/${part}`, { jar });
    race.send({ action: "subscribe-to-race" });
    const hub = await openSocket("/ws/races", { jar });
    hub.send({ action: "subscribe-to-race" });
    await waitFor(() => race.messages.length >= 2 && hub.messages.length >= 2);
    expect((await get("/api/logout", { jar })).status).toBe(200);
    await waitFor(
      () => race.closeCode() === SESSION_ENDED_CODE && hub.closeCode() === SESSION_ENDED_CODE,
      5000,
      "close",
    );
  });

  it("a socket whose session was revoked elsewhere, or whose address left the allowlist, stops at the next change", async () => {
    const other = "tillfallig-admin@example.se";
    await addAdmin(database(env.DB), other, Date.now());
    const jar = await loginAdmin();
    const otherJar = await loginAdmin(undefined, other);
    const part = await newRace(jar);
    const runner = await addRunner(jar, part, { bib: 690 });
    const kept = await subscribe(jar, part);
    const dropped = await subscribe(otherJar, part);
    await removeAdmin(database(env.DB), other);
    expect((await get(`/admin/api/races/register-bib/${part}/${runner.sort}/691`, { jar })).status).toBe(200);
    await waitFor(() => dropped.socket.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's socket closed");
    const frames = dataFrames(dropped.socket).flat() as RaceEvent[];
    expect(frames.some((e) => "bib" in e && e.bib === 691)).toBe(false);
    await waitFor(() =>
      dataFrames(kept.socket)
        .flat()
        .some((e) => "bib" in e && e.bib === 691),
    );
    expect(kept.socket.closeCode()).toBeNull();
  });

  it("the re-check keeps its 30 s across hibernation: a woken race broadcasts without asking D1 first", async () => {
    const other = "vilande-admin@example.se";
    await addAdmin(database(env.DB), other, Date.now());
    const jar = await loginAdmin();
    const otherJar = await loginAdmin(undefined, other);
    const part = await newRace(jar);
    const runner = await addRunner(jar, part, { bib: 694 });
    const kept = await subscribe(jar, part);
    const removed = await subscribe(otherJar, part);
    const bib = async (n: number) => {
      expect((await get(`/admin/api/races/register-bib/${part}/${runner.sort}/${n}`, { jar })).status).toBe(200);
    };
    const got = (socket: typeof kept.socket, n: number) =>
      dataFrames(socket)
        .flat()
        .some((e) => "bib" in e && e.bib === n);

    // The first change re-checks both sessions (both live): both phones get it.
    await bib(695);
    await waitFor(() => got(removed.socket, 695) && got(kept.socket, 695));
    // The address leaves the allowlist, and the object hibernates (evicted; its sockets stay).
    await removeAdmin(database(env.DB), other);
    await evictDurableObject(env.RACE.getByName(part));
    // Within SESSION_RECHECK_MS of the last re-check the woken object does not ask D1: the removed address still
    // gets this change (socket-sessions.ts: it streams at most that long), whereas a re-check would close it.
    await bib(696);
    await waitFor(() => got(removed.socket, 696) && got(kept.socket, 696));
    expect(removed.socket.closeCode()).toBeNull();

    // Once the stored re-check is older than that, the next change re-checks and closes it before sending.
    await runInDurableObject(env.RACE.getByName(part), (_instance: RaceDO, state) => {
      state.storage.kv.put(RECHECKED_AT_KEY, Date.now() - SESSION_RECHECK_MS - 1);
    });
    await evictDurableObject(env.RACE.getByName(part));
    await bib(697);
    await waitFor(() => removed.socket.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's socket closed");
    expect(got(removed.socket, 697)).toBe(false);
    await waitFor(() => got(kept.socket, 697));
    expect(kept.socket.closeCode()).toBeNull();
  });

  it("the hub's re-check keeps its 30 s across hibernation too", async () => {
    const other = "vilande-hubb@example.se";
    await addAdmin(database(env.DB), other, Date.now());
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const race = (await testRace(part).getRace())!;
    const hub = env.RACE_HUB.getByName(RACE_HUB_NAME);
    const open = async (who: CookieJar) => {
      const socket = await openSocket("/ws/races", { jar: who });
      socket.send({ action: "subscribe-to-race" });
      await waitFor(() => socket.messages.length >= 2, 3000, "the hub's snapshot");
      return socket;
    };
    const kept = await open(jar);
    const removed = await open(await loginAdmin(undefined, other));
    const forgetRecheck = async () => {
      await runInDurableObject(hub, (_instance: RaceHubDO, state) => {
        state.storage.kv.put(RECHECKED_AT_KEY, Date.now() - SESSION_RECHECK_MS - 1);
      });
      await evictDurableObject(hub);
    };
    const change = (n: number) => hub.raceChanged({ ...race, state: "started", started: n });
    const got = (socket: TestSocket, n: number) => seen(socket.messages).get(part)?.started === n;

    await forgetRecheck();
    await change(1);
    await waitFor(() => got(kept, 1) && got(removed, 1));
    await removeAdmin(database(env.DB), other);
    await evictDurableObject(hub);
    await change(2);
    await waitFor(() => got(kept, 2) && got(removed, 2));
    expect(removed.closeCode()).toBeNull();

    await forgetRecheck();
    await change(3);
    await waitFor(() => removed.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's hub socket closed");
    expect(got(removed, 3)).toBe(false);
    await waitFor(() => got(kept, 3));
  });
});

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
import { RECHECKED_AT_KEY } from "../../../src/durable/socket-sessions";
import { SESSION_ENDED_CODE } from "../../../src/shared/object-calls";
import { MAX_CLIENT_FRAME_BYTES, type RaceEvent, type RaceRecord } from "../../../src/shared/race-protocol";
import { addAdmin, removeAdmin } from "../../../src/worker/session/admins-db";
import { database } from "../../../src/worker/db/client";
import { testRace } from "../../worker/race-calls";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { get, loginAdmin, openSocket, post, waitFor, type CookieJar, type TestSocket } from "../../worker/helpers";
import {
  addBoxOfficeRunner,
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
    // A runner with a D1 row to mirror into (a race-screen runner has none).
    const runner = await addBoxOfficeRunner(part, { bib: 610 });
    await env.DB.prepare(
      `CREATE TRIGGER fail_mirror_${runner.id.replaceAll("-", "")} BEFORE UPDATE ON participants
       WHEN NEW.id = '${runner.id}' BEGIN SELECT RAISE(ABORT, 'D1 är nere'); END`,
    ).run();
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

  it("a socket whose session was revoked elsewhere, or whose address left the allowlist, stops at the next change once the re-check is due", async () => {
    // The change that finds it revoked reaches it (the re-check runs after the broadcast, so frames stay in seq
    // order); it is closed then, and gets nothing after.
    const other = "tillfallig-admin@example.se";
    await addAdmin(database(env.DB), other, Date.now());
    const jar = await loginAdmin();
    const otherJar = await loginAdmin(undefined, other);
    const part = await newRace(jar);
    const runner = await addRunner(jar, part, { bib: 690 });
    const kept = await subscribe(jar, part);
    const dropped = await subscribe(otherJar, part);
    await removeAdmin(database(env.DB), other);
    // The subscribes had both sessions checked (socket-sessions.ts); SESSION_RECHECK_MS later the next change
    // re-checks them.
    await runInDurableObject(env.RACE.getByName(part), (_instance: RaceDO, state) => {
      state.storage.kv.put(RECHECKED_AT_KEY, Date.now() - SESSION_RECHECK_MS - 1);
    });
    await evictDurableObject(env.RACE.getByName(part));
    expect((await get(`/admin/api/races/register-bib/${part}/${runner.sort}/691`, { jar })).status).toBe(200);
    await waitFor(() => dropped.socket.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's socket closed");
    expect((await get(`/admin/api/races/register-bib/${part}/${runner.sort}/692`, { jar })).status).toBe(200);
    const gotBib = (socket: TestSocket, n: number) =>
      (dataFrames(socket).flat() as RaceEvent[]).some((e) => "bib" in e && e.bib === n);
    await waitFor(() => gotBib(kept.socket, 692));
    expect(gotBib(dropped.socket, 692)).toBe(false);
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

    // Once the stored re-check is older than that, the next change re-checks (after sending it) and closes it.
    await runInDurableObject(env.RACE.getByName(part), (_instance: RaceDO, state) => {
      state.storage.kv.put(RECHECKED_AT_KEY, Date.now() - SESSION_RECHECK_MS - 1);
    });
    await evictDurableObject(env.RACE.getByName(part));
    await bib(697);
    await waitFor(() => removed.socket.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's socket closed");
    await bib(698);
    await waitFor(() => got(kept.socket, 697) && got(kept.socket, 698));
    expect(got(removed.socket, 698)).toBe(false);
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

describe("a race's changes reach each socket in seq order", () => {
  /**
   * The hello's seq, then each change's frame's (its events carry their records' seqs; the change's is the highest).
   * The first data frame is the subscribe answer, which the hello's seq stands for.
   */
  function frameSeqs(socket: TestSocket, hello: number): number[] {
    return [
      hello,
      ...dataFrames(socket)
        .slice(1)
        .map((frame) => Math.max(...frame.map((e) => e.seq))),
    ];
  }

  it("bursts of 'Mål!' taps from five phones at once, while the sessions' re-check is due: every frame in order", async () => {
    const jar = await loginAdmin();
    const TAPS_PER_PHONE = 2;
    const PHONES = ["phone-1", "phone-2", "phone-3", "phone-4", "phone-5"];
    for (let round = 0; round < 3; round += 1) {
      const part = await newRace(jar);
      expect((await startEarlier(jar, part)).status).toBe(200);
      const started = (await testRace(part).getRace())!.started!;
      const phones = await Promise.all(PHONES.map(() => subscribe(jar, part)));
      for (let burst = 0; burst < 3; burst += 1) {
        // The re-check against D1 is due at the burst's first change (as after any 30 s without one): the stored
        // time is old, and the object is evicted so it reads it again (its sockets hibernate and stay).
        await runInDurableObject(env.RACE.getByName(part), (_instance: RaceDO, state) => {
          state.storage.kv.put(RECHECKED_AT_KEY, 0);
        });
        await evictDurableObject(env.RACE.getByName(part));
        const taps = PHONES.flatMap((device, d) =>
          Array.from({ length: TAPS_PER_PHONE }, (_, k) => {
            const at = started + 60_000 + burst * 10_000 + (d * TAPS_PER_PHONE + k) * 300;
            return post(`/admin/api/races/rapid/${part}?tap=${tapId()}&at=${at}&device=${device}`, {}, { jar });
          }),
        );
        for (const res of await Promise.all(taps)) expect(res.status, await res.clone().text()).toBe(200);
      }
      const latest = (await testRace(part).events()).at(-1)!.seq;
      for (const phone of phones) {
        await waitFor(() => frameSeqs(phone.socket, phone.hello.seq).at(-1)! >= latest, 5000, "the last change");
        const seqs = frameSeqs(phone.socket, phone.hello.seq);
        for (let i = 1; i < seqs.length; i += 1) {
          expect(seqs[i], `frame ${i} of [${seqs.join(", ")}]`).toBeGreaterThan(seqs[i - 1]!);
        }
      }
      for (const phone of phones) phone.socket.ws.close();
    }
  });
});

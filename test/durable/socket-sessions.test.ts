/**
 * Admin sockets follow the session everywhere at once (issue 38, item 2; src/durable/socket-sessions.ts): logout
 * reaches every race D1's index knows, a subscribe is answered only for a session checked within
 * SESSION_RECHECK_MS (race and hub alike), and the hub throttles re-subscribing as the race does.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceHubDO } from "../../src/durable/race-hub";
import type { RaceDO } from "../../src/durable/race/race-do";
import { RECHECKED_AT_KEY } from "../../src/durable/socket-sessions";
import { SESSION_ENDED_CODE } from "../../src/shared/object-calls";
import { RACE_HUB_NAME, SESSION_RECHECK_MS } from "../../src/shared/object-calls";
import type { RaceRecord } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import { database } from "../../src/worker/db/client";
import { addAdmin, removeAdmin } from "../../src/worker/session/admins-db";
import { SESSION_MAX_AGE_SECONDS } from "../../src/worker/session/sessions";
import { testRace } from "../worker/race-calls";
import { get, loginAdmin, openSocket, sessionJar, waitFor, type CookieJar, type TestSocket } from "../worker/helpers";
import { newRace, subscribe, useRaceYear } from "./race/race-helpers";

useRaceYear(2078);

const SUBSCRIBE = { action: "subscribe-to-race" };

/** An admin of their own (on the allowlist through the admins table), signed in through the development login. */
async function newAdmin(prefix: string): Promise<{ jar: CookieJar; email: string; session: string }> {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.se`;
  await addAdmin(database(env.DB), email, Date.now());
  const jar = await loginAdmin(undefined, email);
  const row = await env.DB.prepare("SELECT id FROM sessions WHERE email = ? AND revoked_at IS NULL")
    .bind(email)
    .first<{ id: string }>();
  return { jar, email, session: row!.id };
}

/**
 * Time passes for the object's sessions: its last re-check is older than SESSION_RECHECK_MS (the stored time; the
 * object is evicted so it reads it again, its sockets hibernate and stay).
 */
async function recheckDue(stub: DurableObjectStub<RaceDO> | DurableObjectStub<RaceHubDO>): Promise<void> {
  await runInDurableObject(stub, (_instance: unknown, state) => {
    state.storage.kv.put(RECHECKED_AT_KEY, Date.now() - SESSION_RECHECK_MS - 1);
  });
  await evictDurableObject(stub);
}

const hub = () => env.RACE_HUB.getByName(RACE_HUB_NAME);
const framesOfType = (socket: TestSocket, type: string) =>
  socket.messages.filter((m) => (m as { type?: string }).type === type);
const dataFrames = (socket: TestSocket) => socket.messages.filter((m) => Array.isArray(m));

/** Every frame sent before this point has arrived (frames keep their order): a sync answered. */
async function settled(socket: TestSocket): Promise<void> {
  const id = Math.floor(Math.random() * 1e9);
  socket.send({ action: "sync", id, t0: 1 });
  await waitFor(() => socket.messages.some((m) => (m as { id?: number }).id === id), 5000, "the sync's answer");
}

/** A socket that asked for a snapshot and got none: closed with `code`, no hello, no data. */
async function refused(socket: TestSocket, code: number): Promise<void> {
  await waitFor(() => socket.closeCode() !== null, 5000, "the socket closed");
  expect(socket.closeCode()).toBe(code);
  expect(framesOfType(socket, "hello")).toEqual([]);
  expect(dataFrames(socket)).toEqual([]);
}

describe("logout closes the session's sockets on every object", () => {
  it("a race of another season (in D1's index) closes the signed-out session's socket; another session's stays", async () => {
    const out = await newAdmin("ut");
    const stays = await newAdmin("kvar");
    const part = await newRace(out.jar); // year 2078: not this season's
    expect(part.slice(5, 7)).not.toBe(String(SEASON.year).slice(2));
    const race = await subscribe(out.jar, part);
    const other = await subscribe(stays.jar, part);
    const hubSocket = await openSocket("/ws/races", { jar: out.jar });

    expect((await get("/api/logout", { jar: out.jar })).status).toBe(200);
    await waitFor(
      () => race.socket.closeCode() === SESSION_ENDED_CODE && hubSocket.closeCode() === SESSION_ENDED_CODE,
      5000,
      "the signed-out session's sockets closed",
    );
    await settled(other.socket);
    expect(other.socket.closeCode()).toBeNull();
  });
});

describe("a subscribe is answered only for a session checked within SESSION_RECHECK_MS", () => {
  const endings = {
    "whose session was revoked elsewhere": async (admin: { session: string }) => {
      await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").bind(Date.now(), admin.session).run();
    },
    "whose address left the allowlist": async (admin: { email: string }) => {
      await removeAdmin(database(env.DB), admin.email);
    },
  };

  for (const [ending, end] of Object.entries(endings)) {
    it(`race: a socket ${ending} gets no snapshot when it subscribes after the window`, async () => {
      const admin = await newAdmin("lopp");
      const part = await newRace(await loginAdmin());
      const socket = await openSocket(`/ws/race/${part}`, { jar: admin.jar });
      await end(admin);
      await recheckDue(env.RACE.getByName(part));
      socket.send(SUBSCRIBE);
      await refused(socket, SESSION_ENDED_CODE);
    });

    it(`hub: a socket ${ending} gets no snapshot when it subscribes after the window`, async () => {
      const admin = await newAdmin("hubb");
      const socket = await openSocket("/ws/races", { jar: admin.jar });
      await end(admin);
      await recheckDue(hub());
      socket.send(SUBSCRIBE);
      await refused(socket, SESSION_ENDED_CODE);
    });
  }

  it("an expired session's sockets get no snapshot (race and hub), judged from the socket, not D1", async () => {
    const email = `utgangen-${crypto.randomUUID().slice(0, 8)}@example.se`;
    await addAdmin(database(env.DB), email, Date.now());
    const expiresAt = Date.now() + 2_500;
    // A real session (D1 row and signed cookie) started so long ago that it ends in 2.5 s.
    const jar = await sessionJar("admin", email, undefined, expiresAt - SESSION_MAX_AGE_SECONDS.admin * 1000);
    const part = await newRace(await loginAdmin());
    const race = await openSocket(`/ws/race/${part}`, { jar });
    const hubSocket = await openSocket("/ws/races", { jar });
    // A live admin subscribes first: each object has just checked its sockets' sessions, so no D1 check is due.
    await subscribe(await loginAdmin(), part);
    const live = await openSocket("/ws/races", { jar: await loginAdmin() });
    live.send(SUBSCRIBE);
    await waitFor(() => dataFrames(live).length >= 1, 5000, "the live admin's hub snapshot");
    await waitFor(() => Date.now() > expiresAt + 50, 5000, "the session's end");

    race.send(SUBSCRIBE);
    hubSocket.send(SUBSCRIBE);
    await refused(race, SESSION_ENDED_CODE);
    await refused(hubSocket, SESSION_ENDED_CODE);
  });

  it("when D1 cannot answer the check: an error frame, the socket closed to be reopened, no snapshot", async () => {
    const admin = await newAdmin("d1-nere");
    const part = await newRace(admin.jar);
    const race = await openSocket(`/ws/race/${part}`, { jar: admin.jar });
    const hubSocket = await openSocket("/ws/races", { jar: admin.jar });
    await recheckDue(env.RACE.getByName(part));
    await recheckDue(hub());
    await env.DB.prepare("ALTER TABLE sessions RENAME TO sessions_away").run();
    try {
      race.send(SUBSCRIBE);
      hubSocket.send(SUBSCRIBE);
      await waitFor(() => race.closeCode() !== null && hubSocket.closeCode() !== null, 5000, "both closed");
    } finally {
      await env.DB.prepare("ALTER TABLE sessions_away RENAME TO sessions").run();
    }
    for (const socket of [race, hubSocket]) {
      expect(framesOfType(socket, "error")).toHaveLength(1);
      await refused(socket, 1013);
    }
    // The page reopens and subscribes again: D1 answers now, and so does the object.
    const again = await subscribe(admin.jar, part);
    expect(again.hello.snapshot).toBe(true);
  });
});

describe("one subscribe at a time, and a change made while the session is checked", () => {
  it("race: two subscribe frames racing while the check asks D1 get one snapshot and one error frame", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const socket = await openSocket(`/ws/race/${part}`, { jar });
    await recheckDue(env.RACE.getByName(part));
    socket.send(SUBSCRIBE);
    socket.send(SUBSCRIBE);
    await waitFor(() => socket.messages.length >= 3, 5000, "an answer to each frame");
    await settled(socket);
    expect(framesOfType(socket, "hello")).toHaveLength(1);
    expect(framesOfType(socket, "error")).toHaveLength(1);
    expect(dataFrames(socket)).toHaveLength(1);
  });

  it("race: a change made while the check asks D1 is not broadcast to the socket; its snapshot, read after, has it", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const socket = await openSocket(`/ws/race/${part}`, { jar });
    const stub = env.RACE.getByName(part);
    await recheckDue(stub);
    await runInDurableObject(stub, async (instance: RaceDO, state) => {
      const [server] = state.getWebSockets();
      const subscribing = instance.webSocketMessage(server!, JSON.stringify(SUBSCRIBE));
      // The subscribe now awaits D1; the start is decided and broadcast meanwhile (no I/O before its broadcast).
      expect(await instance.run({ type: "start", tap: {} }, { actor: "test" })).toMatchObject({ ok: true });
      await subscribing;
    });
    await settled(socket);
    const frames = socket.messages.filter((m) => (m as { type?: string }).type !== "sync");
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatchObject({ type: "hello", snapshot: true });
    const race = (frames[1] as RaceRecord[]).find((e) => (e as { sort?: string }).sort === "race");
    expect(race?.state).toBe("started");
  });

  it("race: a logout while the check asks D1 leaves the socket closed, with no snapshot", async () => {
    const admin = await newAdmin("ut-under");
    const part = await newRace(admin.jar);
    const socket = await openSocket(`/ws/race/${part}`, { jar: admin.jar });
    const stub = env.RACE.getByName(part);
    await recheckDue(stub);
    await runInDurableObject(stub, async (instance: RaceDO, state) => {
      const [server] = state.getWebSockets();
      const subscribing = instance.webSocketMessage(server!, JSON.stringify(SUBSCRIBE));
      // The logout's call (routes.ts) arrives while D1 answers the subscribe's check, which finds the session live.
      expect(await instance.closeSessionSockets(admin.session)).toEqual({ ok: true, value: 1 });
      expect(server!.readyState).not.toBe(WebSocket.READY_STATE_OPEN);
      await subscribing;
    });
    await refused(socket, SESSION_ENDED_CODE);
  });

  it("hub: re-subscribing within 5 s gets one error frame per frame instead of another snapshot", async () => {
    const socket = await openSocket("/ws/races", { jar: await loginAdmin() });
    socket.send(SUBSCRIBE);
    await waitFor(() => dataFrames(socket).length >= 1, 5000, "the hub's snapshot");
    for (let i = 0; i < 10; i += 1) socket.send(SUBSCRIBE);
    await waitFor(() => socket.messages.length >= 12, 5000, "an answer to each frame");
    await settled(socket);
    expect(framesOfType(socket, "hello")).toHaveLength(1);
    expect(framesOfType(socket, "error")).toHaveLength(10);
    expect(dataFrames(socket)).toHaveLength(1);
  });

  it("hub: two subscribe frames racing while the check asks D1 get one snapshot and one error frame", async () => {
    const socket = await openSocket("/ws/races", { jar: await loginAdmin() });
    await recheckDue(hub());
    socket.send(SUBSCRIBE);
    socket.send(SUBSCRIBE);
    await waitFor(() => socket.messages.length >= 3, 5000, "an answer to each frame");
    await settled(socket);
    expect(framesOfType(socket, "hello")).toHaveLength(1);
    expect(framesOfType(socket, "error")).toHaveLength(1);
    expect(dataFrames(socket)).toHaveLength(1);
  });

  it("hub: a change made while the check asks D1 is held back and sent after the snapshot", async () => {
    const admin = await newAdmin("hubb-haller");
    const part = await newRace(admin.jar);
    const socket = await openSocket("/ws/races", { jar: admin.jar });
    const record = (await testRace(part).getRace())!;
    await recheckDue(hub());
    await runInDurableObject(hub(), async (instance: RaceHubDO, state) => {
      const server = state
        .getWebSockets()
        .find((ws) => (ws.deserializeAttachment() as { email?: string } | null)?.email === admin.email);
      const subscribing = instance.webSocketMessage(server!, JSON.stringify(SUBSCRIBE));
      await instance.raceChanged({ ...record, state: "started", started: 7 });
      await subscribing;
    });
    await settled(socket);
    const [hello, snapshot, held] = socket.messages as [
      { seq: number },
      RaceRecord[],
      (RaceRecord & { seq: number })[],
    ];
    expect(hello).toMatchObject({ type: "hello", snapshot: true });
    expect(snapshot.find((r) => r.part === part)?.state).toBe("");
    expect(held).toEqual([expect.objectContaining({ part, state: "started", started: 7 })]);
    expect(held[0]!.seq).toBeGreaterThan(hello.seq);
  });
});

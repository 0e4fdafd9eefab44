/**
 * The spectators' fan-out object (src/durable/spectators.ts) and the public paths in front of it, through the
 * real Worker and real sockets: the view and socket carry public fields only; a finish reaches an open socket as a
 * delta; a page that reconnects with its seq gets only what changed; a socket that sends anything gets one error
 * frame and changes nothing; lost notices, an evicted race object and an evicted fan-out heal without losing or
 * doubling anything; an unknown race is a 404 that wakes no Durable Object; the ETag answers 304. A crowd of 10,000
 * sockets at once is a load test, run by hand: bench/load/spectators-crowd.test.ts (`npm run bench spectators-crowd`).
 */
import { evictDurableObject, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceDO } from "../../src/durable/race/race-do";
import type { PublicRaceView } from "../../src/shared/public-view";
import type { PublicRunnerRecord, RaceRecord } from "../../src/shared/race-protocol";
import { applyUpdate, SPECTATOR_NO_MESSAGES, type SpectatorFrame } from "../../src/shared/spectator-protocol";
import { call, get, loginAdmin, openSocket, post, waitFor, type TestSocket } from "../worker/helpers";
import { testRace } from "../worker/race-calls";
import { publicJson, runningRace, spectate, stats } from "./spectator-helpers";
import { addRunner, auditTypes, finish, json, newRace, tapId, useRaceYear } from "./race/race-helpers";

useRaceYear(2074);

function frames(socket: TestSocket): SpectatorFrame[] {
  return socket.messages as SpectatorFrame[];
}

/** What a page holds after applying every frame as the page does. */
function pageView(socket: TestSocket): { seq: number; view: PublicRaceView } {
  let seq = 0;
  let view: PublicRaceView | null = null;
  for (const frame of frames(socket)) {
    if (frame.type === "snapshot") [seq, view] = [frame.seq, frame.view];
    else if (frame.type === "delta") {
      expect(frame.since, "a delta follows on from what the page has").toBe(seq);
      view = applyUpdate(view!, frame);
      seq = frame.seq;
    }
  }
  return { seq, view: view! };
}

describe("the spectator socket", () => {
  it("opens with a snapshot of public fields, then a finish arrives as a delta", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar);
    const socket = await spectate(part);
    const first = (await socket.next()) as SpectatorFrame;
    expect(first.type).toBe("snapshot");
    if (first.type !== "snapshot") return;
    const [race, ...listed] = first.view;
    expect(race).toMatchObject({ part, state: "started", resultsStatus: null });
    expect(listed.map((r) => r.sort).sort()).toEqual(runners.map((r) => r.sort).sort());
    for (const r of listed) {
      expect(Object.keys(r)).not.toContain("age");
      expect(Object.keys(r)).not.toContain("id");
      expect(Object.keys(r)).not.toContain("seq");
    }

    await json(await finish(jar, part, runners[1]!.sort, { tap: tapId(), at: Date.now() - 1_000 }));
    const delta = (await socket.next()) as SpectatorFrame;
    expect(delta).toMatchObject({ type: "delta", since: first.seq, seq: first.seq + 1 });
    if (delta.type !== "delta") return;
    expect(delta.runners).toHaveLength(1);
    expect(delta.runners[0]).toMatchObject({ sort: runners[1]!.sort, time: expect.any(String) });
    expect(Object.keys(delta.runners[0]!)).not.toContain("age");
    // The page's view after the frames is the public JSON.
    expect(pageView(socket).view).toEqual(await publicJson(part));
    socket.ws.close();
  });

  it("a page that reconnects with its seq gets only what changed since, or a snapshot for a seq it cannot use", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar);
    const first = await spectate(part);
    const { seq } = (await first.next()) as { seq: number };
    first.ws.close();
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: Date.now() - 2_000 }));
    await json(await get(`/admin/api/races/dns/${part}/${runners[2]!.sort}/on`, { jar }));

    const again = await spectate(part, seq);
    const resumed = (await again.next()) as SpectatorFrame;
    expect(resumed).toMatchObject({ type: "delta", since: seq });
    if (resumed.type !== "delta") return;
    expect(resumed.runners.map((r) => r.sort).sort()).toEqual([runners[0]!.sort, runners[2]!.sort].sort());

    for (const since of [resumed.seq + 5, -3]) {
      const odd = await openSocket(`/ws/spectate/${part}?since=${since}`);
      expect(((await odd.next()) as SpectatorFrame).type).toBe("snapshot");
      odd.ws.close();
    }
    again.ws.close();
  });

  it("a socket that sends anything gets one error frame, and nothing changes", async () => {
    const jar = await loginAdmin();
    const { part } = await runningRace(jar);
    const socket = await spectate(part);
    await socket.next();
    const audit = await auditTypes(part);
    const before = await stats(jar, part);
    for (const frame of ["hej", JSON.stringify({ action: "subscribe-to-race" }), "x".repeat(50_000), "ping"]) {
      socket.send(frame);
    }
    expect(await socket.next()).toEqual({ type: "error", error: SPECTATOR_NO_MESSAGES });
    await new Promise((r) => setTimeout(r, 200));
    expect(socket.messages).toHaveLength(2);
    expect(socket.closeCode()).toBeNull();
    expect(await auditTypes(part)).toEqual(audit);
    const after = await stats(jar, part);
    expect(after).toMatchObject({ version: before.version, raceReads: before.raceReads, errorFrames: 1 });
    socket.ws.close();
  });

  it("is refused for a page of another site, and for an unknown race without waking any object", async () => {
    const jar = await loginAdmin();
    const { part } = await runningRace(jar, 1);
    const other = await call(`/ws/spectate/${part}`, {
      headers: { upgrade: "websocket", origin: "https://evil.example" },
    });
    expect(other.status).toBe(403);
    const ours = await spectate(part, 0, { origin: "http://localhost" });
    expect(((await ours.next()) as SpectatorFrame).type).toBe("snapshot");
    ours.ws.close();
    expect((await call(`/ws/spectate/${part}`)).status).toBe(426);

    const unknown = "race-741231-99";
    const [races, fans] = [await listDurableObjectIds(env.RACE), await listDurableObjectIds(env.SPECTATORS)];
    for (const path of [`/ws/spectate/${unknown}`, "/ws/spectate/nonsense"]) {
      const res = await call(path, { headers: { upgrade: "websocket" } });
      expect(res.status, path).toBe(404);
    }
    for (const path of [`/api/races/get/${unknown}`, "/api/races/get/nonsense"]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: "Loppet finns inte" });
    }
    expect((await listDurableObjectIds(env.RACE)).length).toBe(races.length);
    expect((await listDurableObjectIds(env.SPECTATORS)).length).toBe(fans.length);
  });
});

describe("a start applied from 'Att granska'", () => {
  it("is a new time for every finisher: on the spectators' socket and in the public JSON, as the phones have it", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar);
    const started = (await testRace(part).getRace())!.started!;
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: started + 60_000 }));
    await json(await finish(jar, part, runners[1]!.sort, { tap: tapId(), at: started + 75_000 }));
    const socket = await spectate(part);
    await socket.next();
    /** Each runner's time by sort. */
    const times = (view: PublicRaceView): Record<string, string | null> =>
      Object.fromEntries((view.slice(1) as PublicRunnerRecord[]).map((r) => [r.sort, r.time ?? null]));
    expect(times(pageView(socket).view)).toMatchObject({
      [runners[0]!.sort]: "01:00.000",
      [runners[1]!.sort]: "01:15.000",
    });

    // A second 'Starta' 20 s before the first: to the list, and an admin applies its moment as the start.
    const { review } = await json<{ review: { id: string } }>(
      await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${started - 20_000}`, { jar }),
      202,
    );
    await json(await post(`/admin/api/races/review/${part}/${review.id}/apply`, {}, { jar }));
    const moved: Record<string, string | null> = {
      [runners[0]!.sort]: "01:20.000",
      [runners[1]!.sort]: "01:35.000",
      [runners[2]!.sort]: null,
    };
    // The admin's answer has the new times (what the phones show)...
    const [, ...admin] = await json<[RaceRecord, ...{ sort: string; time?: string }[]]>(
      await get(`/admin/api/races/get/${part}`, { jar }),
    );
    expect(Object.fromEntries(admin.map((r) => [r.sort, r.time ?? null]))).toEqual(moved);
    // ...and so do the spectators' socket and the public JSON.
    const same = (view: PublicRaceView) =>
      view.length === 4 && Object.entries(times(view)).every(([sort, time]) => moved[sort] === time);
    await waitFor(() => same(pageView(socket).view), 5000, "the new times on the spectators' socket");
    expect(pageView(socket).view[0]).toMatchObject({ started: started - 20_000 });
    await waitFor(async () => same(await publicJson(part)), 5000, "the new times in the public JSON");
    expect(pageView(socket).view).toEqual(await publicJson(part));
    socket.ws.close();
  });
});

describe("erasure (personal data)", () => {
  it("an erased runner's name leaves the spectators' view: a delta to open sockets, and the public JSON", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const erased = await addRunner(jar, part, { firstname: "Greta", lastname: "Raderasdotter", company: "IK Spår" });
    await addRunner(jar, part, { firstname: "Kvar", lastname: "Kvarsson" });
    const socket = await spectate(part);
    const first = (await socket.next()) as SpectatorFrame;
    expect(JSON.stringify(first)).toContain("Raderasdotter");
    expect(JSON.stringify(await publicJson(part))).toContain("Raderasdotter");

    const stub = env.RACE.getByName(part);
    const answer = await stub.anonymiseRunner(erased.id, { firstname: "Anonym", lastname: "Löpare" });
    expect(answer.ok).toBe(true);
    const delta = (await socket.next()) as SpectatorFrame;
    expect(delta.type).toBe("delta");
    expect(JSON.stringify(delta)).not.toMatch(/Greta|Raderasdotter|IK Spår/);
    expect(pageView(socket).view.find((r) => r.sort === erased.sort)).toMatchObject({
      firstname: "Anonym",
      lastname: "Löpare",
      company: "",
    });
    // This isolate's copy is at most a second old.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(JSON.stringify(await publicJson(part))).not.toMatch(/Greta|Raderasdotter|IK Spår/);
    socket.ws.close();
  });
});

describe("a fan-out that cannot be reached", () => {
  it("the socket and the public JSON answer 503 with when to try again, never a 500; the page polls meanwhile", async () => {
    const jar = await loginAdmin();
    const { part } = await runningRace(jar, 1);
    // As workerd answers when it is out of connections: the stub's calls throw.
    const broken = () => {
      throw new Error("overloaded: Too many open files");
    };
    const SPECTATORS = { getByName: () => ({ fetch: broken, view: broken }) } as unknown as Env["SPECTATORS"];
    const socket = await call(`/ws/spectate/${part}`, { headers: { upgrade: "websocket" }, env: { SPECTATORS } });
    expect(socket.status).toBe(503);
    expect(socket.headers.get("retry-after")).toBe("5");
    expect(await socket.json()).toEqual({
      error: "Liveuppdateringen kan inte öppnas just nu. Försök igen om en stund.",
    });
    // A race this isolate has no copy of yet.
    const fresh = await runningRace(jar, 1);
    const view = await call(`/api/races/get/${fresh.part}`, { env: { SPECTATORS } });
    expect(view.status).toBe(503);
    expect(view.headers.get("retry-after")).toBe("5");
    expect(await view.json()).toEqual({ error: "Startlistan kan inte hämtas just nu. Försök igen om en stund." });
  });
});

describe("the public JSON", () => {
  it("carries an ETag: the same one answers 304, a change makes a new one", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar, 2);
    const first = await call(`/api/races/get/${part}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"\d+-\d+"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("cloudflare-cdn-cache-control")).toBe("public, max-age=1, stale-while-revalidate=4");
    expect(first.headers.get("cache-tag")).toBe(`race-${part}`);
    const same = await call(`/api/races/get/${part}`, { headers: { "if-none-match": etag } });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    const head = await call(`/api/races/get/${part}`, { method: "HEAD", headers: { "if-none-match": `W/${etag}` } });
    expect(head.status).toBe(304);

    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: Date.now() - 1_000 }));
    // This isolate's copy is at most a second old.
    await new Promise((r) => setTimeout(r, 1_100));
    const changed = await call(`/api/races/get/${part}`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    const [, ...listed] = (await changed.json()) as PublicRaceView;
    expect(listed.find((r) => r.sort === runners[0]!.sort)?.time).toBeDefined();
  });
});

describe("healing", () => {
  it("a lost notice is made good from the race object at the next one", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar, 3);
    const socket = await spectate(part);
    await socket.next();
    const before = await stats(jar, part);
    // The next notice is lost on its way (the race object believes it sent it).
    await runInDurableObject(env.RACE.getByName(part), (race: RaceDO) => {
      const feed = (race as unknown as { spectators: { publish: (u: unknown) => Promise<unknown> } }).spectators;
      const publish = feed.publish;
      feed.publish = () => {
        feed.publish = publish;
        return Promise.resolve();
      };
    });
    await json(await get(`/admin/api/races/dns/${part}/${runners[1]!.sort}/on`, { jar }));
    await new Promise((r) => setTimeout(r, 100));
    expect(frames(socket)).toHaveLength(1);
    await json(await finish(jar, part, runners[2]!.sort, { tap: tapId(), at: Date.now() - 1_000 }));
    await waitFor(() => frames(socket).length >= 2);
    const after = await stats(jar, part);
    expect(after.gaps).toBe(before.gaps + 1);
    expect(after.raceReads).toBe(before.raceReads + 1);
    const { view } = pageView(socket);
    expect(view.find((r) => r.sort === runners[1]!.sort)).toMatchObject({ dns: true });
    expect(view.find((r) => r.sort === runners[2]!.sort)).toMatchObject({ time: expect.any(String) });
    expect(view).toEqual(await publicJson(part));
    socket.ws.close();
  });

  it("an evicted race object sends the whole view once; spectators get only what changed", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar, 4);
    const socket = await spectate(part);
    await socket.next();
    await evictDurableObject(env.RACE.getByName(part));
    await json(await finish(jar, part, runners[3]!.sort, { tap: tapId(), at: Date.now() - 1_000 }));
    const delta = (await socket.next()) as SpectatorFrame;
    expect(delta.type).toBe("delta");
    if (delta.type !== "delta") return;
    expect(delta.runners.map((r) => r.sort)).toEqual([runners[3]!.sort]);
    expect(pageView(socket).view).toEqual(await publicJson(part));
    socket.ws.close();
  });

  it("an evicted fan-out keeps its view and its sockets, and does not read the race object again", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar, 2);
    const socket = await spectate(part);
    await socket.next();
    const before = await stats(jar, part);
    await evictDurableObject(env.SPECTATORS.getByName(part), { webSockets: "hibernate" });
    const fresh = await spectate(part);
    expect(((await fresh.next()) as SpectatorFrame).type).toBe("snapshot");
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: Date.now() - 1_000 }));
    await waitFor(() => frames(socket).length >= 2 && frames(fresh).length >= 2);
    expect(pageView(socket).view).toEqual(pageView(fresh).view);
    expect((await stats(jar, part)).raceReads).toBe(before.raceReads);
    socket.ws.close();
    fresh.ws.close();
  });
});

/**
 * Child-safe publishing on the spectators' paths (issue 38, item 3), through the real Worker, the race-day routes
 * and real sockets: a race with three withheld children who finish at different moments, watched as the public
 * can watch it: every frame of a spectators' socket (with when it arrived), a `?since=` replay after each step (from
 * the race's start, and from where the page was), the public JSON with its ETag, and the race list. Nothing got
 * before the end may tell when a child finished or in which order; the end makes every child 'Fullföljt' at once,
 * without a time or a placing, in an order that is not their finish order.
 */
import { describe, expect, it } from "vitest";
import type { SpectatorStats } from "../../src/durable/spectators";
import { resultRows, type PublicRaceView } from "../../src/shared/public-view";
import type { PublicRunnerRecord, RaceRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import { applyUpdate, type SpectatorFrame } from "../../src/shared/spectator-protocol";
import { call, get, loginAdmin, openSocket, post, sleep, waitFor, type CookieJar } from "../worker/helpers";
import { testRace } from "../worker/race-calls";
import { addRunner, finish, json, newRace, startEarlier, tapId, useRaceYear } from "./race/race-helpers";

useRaceYear(2079);

async function withChildSafe<T>(run: () => Promise<T>): Promise<T> {
  const was = SEASON.childSafePublishing;
  SEASON.childSafePublishing = true;
  try {
    return await run();
  } finally {
    SEASON.childSafePublishing = was;
  }
}

/** What the public could get after one step of the race. */
interface Seen {
  step: string;
  /** The live socket's frames that arrived during the step, each with when it arrived. */
  frames: { at: number; frame: SpectatorFrame }[];
  /** A socket opened with `?since=` the version the race started at, and with the version the page had. */
  fromStart: SpectatorFrame;
  fromPage: SpectatorFrame;
  json: string;
  etag: string;
  /** `If-None-Match` with the ETag before the step. */
  revalidated: number;
  /** The race's entry in the public race list. */
  listed: RaceRecord;
}

/** The first frame a spectators' socket gets, opened with `since`. */
async function replay(part: string, since: number): Promise<SpectatorFrame> {
  const socket = await openSocket(`/ws/spectate/${part}?since=${since}`);
  const frame = (await socket.next()) as SpectatorFrame;
  socket.ws.close();
  return frame;
}

function runnersOf(frame: SpectatorFrame): PublicRunnerRecord[] {
  if (frame.type === "snapshot") return frame.view.slice(1) as PublicRunnerRecord[];
  if (frame.type === "delta") return frame.runners.filter((r): r is PublicRunnerRecord => !("removed" in r));
  return [];
}

describe("child-safe publishing on the spectators' socket, its replays and the public JSON", () => {
  it(
    "nothing before the end tells when a withheld child finished; the end makes them all 'Fullföljt' at once",
    async () =>
      withChildSafe(async () => {
        const jar: CookieJar = await loginAdmin();
        const part = await newRace(jar);
        const add = (firstname: string, age: number, bib: number) =>
          addRunner(jar, part, { firstname, lastname: "Testsson", age, bib, group: "Ingen" });
        const vera = await add("Vera", 40, 601);
        const alva = await add("Alva", 9, 602);
        const bo = await add("Bo", 10, 603);
        const cia = await add("Cia", 11, 604);
        const tor = await add("Tor", 12, 605);
        const children = [alva, bo, cia];
        const isChild = (sort: string) => children.some((c) => c.sort === sort);
        expect((await startEarlier(jar, part)).status).toBe(200);
        const started = (await testRace(part).getRace())!.started!;

        const live = await openSocket(`/ws/spectate/${part}`);
        const first = (await live.next()) as SpectatorFrame;
        if (first.type !== "snapshot") throw new Error("a socket opens with a snapshot");
        const startVersion = first.seq;
        /** Each child as the public saw them before the first finish. */
        const atStart = new Map(runnersOf(first).map((r) => [r.sort, r]));
        const arrivals: { at: number; frame: SpectatorFrame }[] = [];
        live.ws.addEventListener("message", (e) => {
          arrivals.push({ at: Date.now(), frame: JSON.parse(e.data as string) as SpectatorFrame });
        });

        const publicJson = async (etag?: string) => {
          const res = await call(`/api/races/get/${part}`, etag ? { headers: { "if-none-match": etag } } : {});
          return { status: res.status, etag: res.headers.get("etag")!, body: await res.text() };
        };
        const listed = async () => (await json<RaceRecord[]>(await call("/api/races"))).find((r) => r.part === part)!;
        /** The version the page is at, after applying every frame it got. */
        const pageVersion = () => {
          const last = live.messages.at(-1) as SpectatorFrame;
          return last.type === "error" ? 0 : last.seq;
        };

        const initial = await publicJson();
        const seen: Seen[] = [];
        let before = { etag: initial.etag, body: initial.body, fromStart: await replay(part, startVersion) };

        /** One step of the race, then what the public could get once the fan-out has it. */
        const step = async (name: string, action: () => Promise<Response>) => {
          const page = pageVersion();
          const from = arrivals.length;
          const res = await action();
          expect(res.status, `${name}: ${await res.clone().text()}`).toBe(200);
          const raceSeq = (await testRace(part).publicSince(0))!.seq;
          await waitFor(
            async () =>
              (await json<SpectatorStats>(await get(`/admin/api/races/spectators/${part}`, { jar }))).raceSeq >=
              raceSeq,
            5000,
            `the fan-out to have '${name}'`,
          );
          // This isolate's copy of the public JSON is at most a second old; a frame on its way has arrived by then.
          await sleep(1_100);
          const revalidated = (await publicJson(before.etag)).status;
          const now = await publicJson();
          const observed: Seen = {
            step: name,
            frames: arrivals.slice(from),
            fromStart: await replay(part, startVersion),
            fromPage: await replay(part, page),
            json: now.body,
            etag: now.etag,
            revalidated,
            listed: await listed(),
          };
          seen.push(observed);
          return { observed, was: before, after: (before = { ...now, fromStart: observed.fromStart }) };
        };
        const tap =
          (runner: RunnerRecord, after: number, rerecord = false) =>
          () =>
            finish(jar, part, runner.sort, { tap: tapId(), at: started + after, ...(rerecord ? { rerecord: 1 } : {}) });

        /** A step in which only a child changed: the public got nothing new, by any path. */
        const childStep = async (name: string, action: () => Promise<Response>) => {
          const { observed, was } = await step(name, action);
          expect(observed.frames, `${name}: no frame on the live socket`).toEqual([]);
          expect(observed.revalidated, `${name}: the public JSON is not modified`).toBe(304);
          expect(observed.etag, name).toBe(was.etag);
          expect(observed.json, name).toBe(was.body);
          expect(observed.fromStart, `${name}: a replay from the start is as before`).toEqual(was.fromStart);
          expect(runnersOf(observed.fromPage), `${name}: a replay from the page's version lists nobody`).toEqual([]);
        };
        /** A step in which a published runner finished: one delta, with that runner only. */
        const adultStep = async (name: string, runner: RunnerRecord, action: () => Promise<Response>) => {
          const { observed } = await step(name, action);
          expect(
            observed.frames.map((f) => f.frame.type),
            name,
          ).toEqual(["delta"]);
          expect(
            runnersOf(observed.frames[0]!.frame).map((r) => r.sort),
            name,
          ).toEqual([runner.sort]);
          expect(
            runnersOf(observed.fromPage).map((r) => r.sort),
            name,
          ).toEqual([runner.sort]);
          expect(observed.revalidated, name).toBe(200);
        };

        // Cia is the first of all to finish, Vera (40) the first published; Alva, Cia's new time and Bo; then Tor (12).
        await childStep("Cia i mål", tap(cia, 200_000));
        await adultStep("Vera i mål", vera, tap(vera, 210_000));
        await childStep("Alva i mål", tap(alva, 230_000));
        await childStep("Cias tid ändrad", tap(cia, 202_000, true));
        await childStep("Bo i mål", tap(bo, 250_000));
        await adultStep("Tor i mål", tor, tap(tor, 260_000));

        // Everything got before the end: each child exactly as at the start, wherever they appear.
        const beforeEnd: PublicRunnerRecord[] = [
          ...seen.flatMap((s) => [...s.frames.map((f) => f.frame), s.fromStart, s.fromPage].flatMap(runnersOf)),
          ...seen.flatMap((s) => (JSON.parse(s.json) as PublicRaceView).slice(1) as PublicRunnerRecord[]),
        ];
        for (const record of beforeEnd.filter((r) => isChild(r.sort))) {
          expect(record, record.firstname).toEqual(atStart.get(record.sort));
        }
        // Only the published finishers' frames arrived, and the race list never said a result was there.
        expect(arrivals.flatMap((a) => runnersOf(a.frame).map((r) => r.firstname))).toEqual(["Vera", "Tor"]);
        expect(arrivals.every((a, i) => i === 0 || a.at >= arrivals[i - 1]!.at)).toBe(true);
        expect(seen.map((s) => s.listed.results)).toEqual(seen.map(() => undefined));
        const versionBeforeEnd = pageVersion();

        // The end: one delta, every child at once as 'Fullföljt', in no finish order (Cia, Alva, Bo finished).
        const { observed: end } = await step("slut", () => get(`/admin/api/races/end/${part}`, { jar }));
        expect(end.frames).toHaveLength(1);
        const endFrame = end.frames[0]!.frame;
        expect(endFrame).toMatchObject({ type: "delta", race: { state: "ended" } });
        const revealed = runnersOf(endFrame);
        const bySort = children.map((c) => c.sort).sort();
        expect(revealed.map((r) => r.sort)).toEqual(bySort);
        for (const r of revealed) expect(r).toEqual({ ...atStart.get(r.sort), resultWithheld: true });
        // A page that comes back with its version before the end gets the same, in the same order.
        const resumed = await replay(part, versionBeforeEnd);
        expect(runnersOf(resumed).map((r) => r.sort)).toEqual(bySort);
        // The public JSON: the published finishers placed by time, then the children by number, without time or place.
        const view = JSON.parse(end.json) as PublicRaceView;
        expect((view.slice(1) as PublicRunnerRecord[]).map((r) => r.firstname)).toEqual([
          "Vera",
          "Tor",
          "Alva",
          "Bo",
          "Cia",
        ]);
        expect(resultRows(view).map((r) => [r.place, r.name, r.timeMs === null])).toEqual([
          [1, "Vera Testsson", false],
          [2, "Tor Testsson", false],
          [null, "Alva Testsson", true],
          [null, "Bo Testsson", true],
          [null, "Cia Testsson", true],
        ]);
        for (const child of view.filter((r) => isChild(r.sort)) as PublicRunnerRecord[]) {
          expect(child).toMatchObject({ finished: null, resultWithheld: true });
          expect(child).not.toHaveProperty("time");
          expect(child).not.toHaveProperty("corrected");
        }
        expect(end.listed.results).toBe("preliminary");

        // Official, then a child's time corrected: the race says 'corrected'; no child's record changes.
        await step("officiella", () => post(`/admin/api/races/official/${part}`, {}, { jar }));
        const { observed: corrected } = await step("Alvas tid ändrad", tap(alva, 231_000, true));
        expect(corrected.frames.map((f) => f.frame)).toMatchObject([{ type: "delta", race: { results: "corrected" } }]);
        expect(corrected.frames.flatMap((f) => runnersOf(f.frame))).toEqual([]);
        expect(corrected.json).not.toContain('"corrected":true');

        // A page that applied every frame holds what the public JSON says.
        let page = first.view;
        for (const { frame } of arrivals) if (frame.type === "delta") page = applyUpdate(page, frame);
        expect(page).toEqual(JSON.parse(corrected.json));
        live.ws.close();
      }),
    90_000,
  );
});

/** Race-day test helpers: races of their own in D1's index, runners, taps, sockets, and applying frames. */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { raceId } from "../../../src/shared/race-id";
import type { RaceEvent, RaceRecord, RunnerRecord } from "../../../src/shared/race-protocol";
import { call, CLIENT_HEADERS, get, openSocket, post, type CookieJar, type TestSocket } from "../../worker/helpers";
import { testRace } from "../../worker/race-calls";

let dayCounter = 0;
/** Each test file picks its own year (storage is shared within a file), so races never collide. */
let raceYear = 2070;
export function useRaceYear(year: number): void {
  raceYear = year;
}

/** A race of its own (a distinct far-future date) in D1's index, made through the admin API. */
export async function newRace(jar: CookieJar, meters = 5600): Promise<string> {
  dayCounter += 1;
  const date = `${raceYear}-${String(1 + Math.floor(dayCounter / 28)).padStart(2, "0")}-${String((dayCounter % 28) + 1).padStart(2, "0")}`;
  const part = raceId(date, meters);
  const res = await post(
    `/admin/api/races/create-race/${part}`,
    { date, distance: meters, openForReg: false },
    { jar },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return part;
}

export async function addRunner(
  jar: CookieJar,
  part: string,
  fields: Record<string, unknown> = {},
): Promise<RunnerRecord> {
  const res = await post(
    `/admin/api/races/add-runner/${part}`,
    { firstname: "Ella", lastname: "Ek", age: 12, bib: null, group: "Dam", company: "", ...fields },
    { jar },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as RunnerRecord;
}

export async function json<T = Record<string, unknown>>(res: Response, status = 200): Promise<T> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  return JSON.parse(body) as T;
}

export const TEN_MINUTES = 600_000;

/** Starts the race ten minutes ago (a start tap replayed late), so taps at start + n s lie in the past. */
export function startEarlier(jar: CookieJar, part: string) {
  return get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - TEN_MINUTES}`, { jar });
}

export function tapId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

export function finish(jar: CookieJar, part: string, sort: string, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return get(`/admin/api/races/finish/${part}/${sort}${qs ? `?${qs}` : ""}`, { jar });
}

/** A subscribed race socket: its hello and first (snapshot or replay) frame already read. */
export async function subscribe(jar: CookieJar, part: string, since?: number) {
  const socket = await openSocket(`/ws/race/${part}`, { jar });
  socket.send(since === undefined ? { action: "subscribe-to-race" } : { action: "subscribe-to-race", since });
  const hello = (await socket.next()) as { type: string; seq: number; snapshot: boolean };
  expect(hello.type).toBe("hello");
  const first = (await socket.next()) as RaceEvent[];
  return { socket, hello, first };
}

/** Applies event frames as a phone does: by sort, a removal deletes, an older seq never overwrites a newer. */
export function applyFrames(frames: unknown[]): Map<string, RaceEvent> {
  const state = new Map<string, RaceEvent>();
  for (const frame of frames) {
    if (!Array.isArray(frame)) continue;
    for (const event of frame as RaceEvent[]) {
      const known = state.get(event.sort);
      if (known && known.seq > event.seq) continue;
      state.set(event.sort, event);
    }
  }
  for (const [sort, e] of state) if ("removed" in e) state.delete(sort);
  return state;
}

export function raceState(seen: Map<string, RaceEvent>): string | undefined {
  return (seen.get("race") as RaceRecord | undefined)?.state;
}

export async function snapshot(jar: CookieJar, part: string) {
  const [race, ...runners] = await json<[RaceRecord, ...RunnerRecord[]]>(
    await get(`/admin/api/races/get/${part}`, { jar }),
  );
  return { race, runners };
}

export async function auditTypes(part: string): Promise<string[]> {
  return (await testRace(part).events()).map((e) => e.type);
}

export function dataFrames(socket: TestSocket): RaceEvent[][] {
  return socket.messages.filter((m): m is RaceEvent[] => Array.isArray(m));
}

/**
 * A runner with a participants row in D1, added to the race as the box office adds one (a row without a
 * registration, the owner 'box-office'): the race mirrors bib, race and pick-up into that row. A runner added on the
 * race screen (`addRunner`) has no row, and the race never writes one with its id (src/durable/race/d1.ts).
 */
export async function addBoxOfficeRunner(
  part: string,
  fields: { firstname?: string; bib?: number | null } = {},
): Promise<RunnerRecord> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", created_at)
     VALUES (?, 2077, ?, 'Holm', 41, '', '5.6', 'Herr', ?)`,
  )
    .bind(id, fields.firstname ?? "Per", Date.now())
    .run();
  const runner = { id, firstname: fields.firstname ?? "Per", lastname: "Holm", age: 41, bib: fields.bib ?? null };
  return (await testRace(part).run({ type: "add-runner", runner: { ...runner, owner: "box-office" } })).runner;
}

// ——— Målfoto (finish-photos*.test.ts) ———

/**
 * A JPEG-shaped body `bytes` long whose frame header says `width`×`height`: SOI, a comment to pad the size, a frame
 * header, EOI. The Worker checks exactly that structure and never decodes the image.
 */
export function jpeg(width = 960, height = 540, bytes = 3000, fill = 7): Uint8Array {
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
  ];
  sof.push(1, 3, 0x11, 1);
  const out: number[] = [0xff, 0xd8];
  let padding = bytes - 2 - sof.length - 2;
  while (padding > 0) {
    const length = Math.min(padding, 65_000);
    const body = Math.max(length - 4, 0);
    out.push(0xff, 0xfe, (body + 2) >> 8, (body + 2) & 255, ...new Array<number>(body).fill(fill));
    padding -= body + 4;
  }
  out.push(...sof, 0xff, 0xd9);
  return new Uint8Array(out);
}

export function upload(
  jar: CookieJar | undefined,
  part: string,
  tap: string,
  frame: number | string,
  body: BodyInit,
  type = "image/jpeg",
) {
  return call(`/admin/api/races/photo/${part}/${tap}/${frame}?device=phone-a`, {
    ...(jar ? { jar } : {}),
    method: "PUT",
    headers: { "content-type": type, ...CLIENT_HEADERS },
    body,
  });
}

export async function objects(part: string): Promise<string[]> {
  return (await env.FINISH_PHOTOS.list({ prefix: `${part}/` })).objects.map((o) => o.key).sort();
}

/** A 'Mål!' tap `ago` ms ago from `device`, taken by the race. */
export async function rapidTap(jar: CookieJar, part: string, device = "phone-a", ago = 1000): Promise<string> {
  const tap = tapId();
  await json(
    await post(`/admin/api/races/rapid/${part}?tap=${tap}&at=${Date.now() - ago}&device=${device}`, {}, { jar }),
  );
  return tap;
}

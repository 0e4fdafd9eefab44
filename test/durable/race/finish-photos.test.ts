/**
 * Målfoto (issue 44) on the platform: the upload route into the local R2 bucket and the race object's record, through
 * the real Worker. Upload, read, resend (nothing stored twice), every bad input (a Swedish 4xx, nothing stored),
 * a second phone's socket hearing of the photo, 'Radera målfoton', a reset, an erasure, and the cron 30 days after
 * race day. The race's bound on its photos' bytes is tested on the race room in Node (test/race-room/photos.test.ts).
 *
 * The uploads are JPEG-shaped byte strings (SOI, a comment to pad the size, a frame header with the size, EOI): the
 * Worker checks exactly that structure and never decodes the image; the browser test sends the phone's real JPEGs.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../src/worker/index";
import { photoKey } from "../../../src/shared/finish-photos";
import { raceId } from "../../../src/shared/race-id";
import type { PhotoRecord, RunnerRecord } from "../../../src/shared/race-protocol";
import { stockholmDate } from "../../../src/shared/stockholm";
import { call, get, loginAdmin, post, waitFor, type CookieJar } from "../../worker/helpers";
import { testRace } from "../../worker/race-calls";
import {
  addRunner,
  dataFrames,
  jpeg,
  json,
  newRace,
  objects,
  rapidTap,
  subscribe,
  tapId,
  upload,
  useRaceYear,
} from "./race-helpers";

useRaceYear(2077);

async function startedRace(jar: CookieJar) {
  const part = await newRace(jar);
  await json(await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - 600_000}`, { jar }));
  return part;
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("Målfoto", () => {
  it("stores each frame once, serves it to admins only, and every phone's socket hears of it", async () => {
    const jar = await loginAdmin();
    const part = await startedRace(jar);
    const { socket: second } = await subscribe(jar, part);
    const tap = await rapidTap(jar, part);
    const body = jpeg(960, 540, 5000, 9);

    const first = await json<{ outcome: string; photo: PhotoRecord }>(await upload(jar, part, tap, 1, body), 201);
    expect(first.outcome).toBe("recorded");
    expect(first.photo).toMatchObject({ type: "photo", sort: `photo-${tap}`, id: tap, frames: [1] });
    // A resend (the phone did not hear the answer): answered, nothing stored again, nothing audited again.
    const again = await json<{ outcome: string }>(await upload(jar, part, tap, 1, body), 200);
    expect(again.outcome).toBe("replayed");
    await json(await upload(jar, part, tap, 0, jpeg(960, 540, 4000, 1)), 201);
    expect(await objects(part)).toEqual([photoKey(part, tap, 0), photoKey(part, tap, 1)]);
    const audit = (await testRace(part).events()).filter((e) => e.type === "photo");
    expect(audit.map((e) => JSON.parse(e.payload) as { frame: number })).toMatchObject([{ frame: 1 }, { frame: 0 }]);

    const image = await get(`/admin/api/races/photo/${part}/${tap}/1`, { jar });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(image.headers.get("cache-control")).toContain("no-store");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(body);
    // No admin session: no photo.
    expect((await get(`/admin/api/races/photo/${part}/${tap}/1`)).status).toBe(401);

    // The other phone's socket got the record, frames 1 then 0 and 1.
    await waitFor(() =>
      dataFrames(second)
        .flat()
        .some((e) => e.sort === `photo-${tap}` && (e as PhotoRecord).frames.length === 2),
    );
    second.ws.close();
    // The public view never carries it.
    const view = await (await get(`/api/races/get/${part}`)).text();
    expect(view).not.toContain(tap);
  });

  it("refuses bad input with a Swedish 4xx and stores nothing", async () => {
    const jar = await loginAdmin();
    const part = await startedRace(jar);
    const other = await startedRace(jar);
    const tap = await rapidTap(jar, part);
    const otherTap = await rapidTap(jar, other);
    const cases: [Promise<Response>, number, RegExp][] = [
      [upload(jar, part, tap, 1, new TextEncoder().encode("inte en bild")), 422, /ingen JPEG/],
      [upload(jar, part, tap, 1, jpeg(1920, 1080)), 422, /fel storlek/],
      [upload(jar, part, tap, 1, jpeg(100, 80)), 422, /fel storlek/],
      [upload(jar, part, tap, 1, jpeg(960, 540, 500 * 1024)), 413, /för stort/],
      [upload(jar, part, tap, 1, jpeg(), "application/json"), 415, /JPEG/],
      [upload(jar, part, tap, 3, jpeg()), 400, /bildruta/],
      [upload(jar, part, tapId(), 1, jpeg()), 404, /ingen tryckning/],
      // Another race's tap.
      [upload(jar, part, otherTap, 1, jpeg()), 404, /ingen tryckning/],
      [upload(undefined, part, tap, 1, jpeg()), 401, /./],
    ];
    for (const [res, status, message] of cases) {
      const r = await res;
      const body = (await r.json()) as { error: string };
      expect(r.status, body.error).toBe(status);
      expect(body.error).toMatch(message);
    }
    // From another site (a form, a cross-site fetch): the same-origin guard.
    const cross = await call(`/admin/api/races/photo/${part}/${tap}/1`, {
      jar,
      method: "PUT",
      headers: { "content-type": "image/jpeg", "sec-fetch-site": "cross-site" },
      body: jpeg(),
    });
    expect(cross.status).toBe(403);
    expect(await objects(part)).toEqual([]);
    expect((await testRace(part).events()).some((e) => e.type === "photo")).toBe(false);
  });

  it("'Radera målfoton' deletes every photo at once, and a phone's late resend cannot bring one back", async () => {
    const jar = await loginAdmin();
    const part = await startedRace(jar);
    const taps = [await rapidTap(jar, part), await rapidTap(jar, part, "phone-b")];
    for (const tap of taps) await json(await upload(jar, part, tap, 1, jpeg()), 201);
    const unsent = await rapidTap(jar, part);
    expect(await objects(part)).toHaveLength(2);

    const deleted = await json<{ deleted: number }>(await post(`/admin/api/races/photos-delete/${part}`, {}, { jar }));
    expect(deleted.deleted).toBe(2);
    expect(await objects(part)).toEqual([]);
    expect((await get(`/admin/api/races/photo/${part}/${taps[0]}/1`, { jar })).status).toBe(404);
    // The same frame again, and a photo of a tap made before the deletion, still on a phone: refused, nothing stored.
    expect((await upload(jar, part, taps[0]!, 1, jpeg())).status).toBe(409);
    expect((await upload(jar, part, unsent, 1, jpeg())).status).toBe(409);
    expect(await objects(part)).toEqual([]);
    // A tap after it takes photos again.
    const later = await rapidTap(jar, part, "phone-a", 0);
    await json(await upload(jar, part, later, 1, jpeg()), 201);
    const types = (await testRace(part).events()).map((e) => e.type);
    expect(types.filter((t) => t === "photos-deleted")).toHaveLength(1);
  });

  it("a reset deletes the race's photos; an erasure deletes the runner's, and the export lists them first", async () => {
    const jar = await loginAdmin();
    const part = await startedRace(jar);
    const runner: RunnerRecord = await addRunner(jar, part, { firstname: "Fotad", lastname: "Löpare", bib: 41 });
    const tileTap = tapId();
    await json(
      await get(`/admin/api/races/finish/${part}/${runner.sort}?tap=${tileTap}&at=${Date.now() - 500}`, { jar }),
    );
    await json(await upload(jar, part, tileTap, 1, jpeg()), 201);
    const strayTap = await rapidTap(jar, part);
    await json(await upload(jar, part, strayTap, 1, jpeg()), 201);

    const history = await testRace(part).runnerHistory(runner.id);
    expect(history?.photos.map((p) => p.id)).toEqual([tileTap]);
    const erased = await testRace(part).anonymiseRunner(runner.id, { firstname: "Anonym", lastname: "Löpare" });
    expect(erased?.photos).toEqual([tileTap]);

    await json(await get(`/admin/api/races/reset/${part}?confirm=APRAKET`, { jar }));
    expect(await objects(part)).toEqual([]);
    expect((await get(`/admin/api/races/photo/${part}/${strayTap}/1`, { jar })).status).toBe(404);
  });

  it("a decision made with the photo open says so in its audit row", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const tap = tapId();
    // Before the start: the tap goes to 'Att granska'.
    const early = Date.now() - 1000;
    await json(await post(`/admin/api/races/rapid/${part}?tap=${tap}&at=${early}`, {}, { jar }), 202);
    await json(await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${early - 600_000}`, { jar }));
    await json(await post(`/admin/api/races/review/${part}/${tap}/apply?device=phone-a`, { photo: true }, { jar }));
    const row = (await testRace(part).events()).find((e) => e.type === "rapid-tap" && e.payload.includes('"review"'));
    expect(JSON.parse(row!.payload)).toMatchObject({ tapId: tap, fromPhoto: true });
    // Anything else than `true` is bad input.
    const bad = await post(`/admin/api/races/slots/${part}/${tap}/discard`, { photo: "ja" }, { jar });
    expect(bad.status).toBe(400);
  });

  it("the cron deletes a race's photos 30 days after race day, and keeps a younger race's", async () => {
    const jar = await loginAdmin();
    const now = Date.now();
    const make = async (date: string) => {
      const part = raceId(date, 2800);
      await json(
        await post(`/admin/api/races/create-race/${part}`, { date, distance: 2800, openForReg: false }, { jar }),
      );
      // Not started: the tap goes to 'Att granska', which is a tap the race has.
      const tap = tapId();
      await json(await post(`/admin/api/races/rapid/${part}?tap=${tap}&at=${now - 1000}`, {}, { jar }), 202);
      await json(await upload(jar, part, tap, 1, jpeg()), 201);
      return { part, tap };
    };
    const old = await make(stockholmDate(now - 31 * 86_400_000));
    const young = await make(stockholmDate(now - 29 * 86_400_000));

    await runCron();
    expect(await objects(old.part)).toEqual([]);
    expect(await objects(young.part)).toHaveLength(1);
    const events = await testRace(old.part).events();
    expect(events.filter((e) => e.type === "photos-deleted").map((e) => JSON.parse(e.payload))).toMatchObject([
      { reason: "retention" },
    ]);
    expect((await get(`/admin/api/races/photo/${old.part}/${old.tap}/1`, { jar })).status).toBe(404);
    expect((await get(`/admin/api/races/photo/${young.part}/${young.tap}/1`, { jar })).status).toBe(200);
  });
});

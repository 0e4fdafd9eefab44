/**
 * Målfoto (issue 44) as personal data, end to end on the platform: once a 'Mål!' tap is paired with a family's
 * runner, or a finish tile tap is made on one, its photos are the runner's. The family's export
 * (`GET /admin/api/personal-data/export`) lists them and no other runner's; its erasure
 * (`POST /admin/api/personal-data/erase`) removes them from the race object and deletes their objects in the R2
 * bucket, while another family's and an unpaired tap's photos stay; a phone that sends a frame of the erased
 * runner's taps afterwards is refused and stores nothing. Also the upload's rate limit on the route: 429 with a
 * Swedish message and `Retry-After`, and a burst of real taps passing (the bucket itself: test/race-room/photos.test.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PHOTO_BURST, RATE_MESSAGE } from "../../../src/durable/race/rules/photo-uploads";
import { photoKey, photoUrl } from "../../../src/shared/finish-photos";
import type { RunnerRecord } from "../../../src/shared/race-protocol";
import { get, loginAdmin, post, type CookieJar } from "../../worker/helpers";
import { testRace } from "../../worker/race-calls";
import { json, jpeg, newRace, objects, rapidTap, tapId, upload, useRaceYear } from "./race-helpers";

const YEAR = 2080;
useRaceYear(YEAR);

/** A family (its own address) with one registration and one runner in `part`, as a paid registration places it. */
async function familyRunner(
  part: string,
  lastname: string,
  bib: number,
): Promise<{ email: string; runner: RunnerRecord }> {
  const email = `${lastname.toLowerCase()}.${crypto.randomUUID().slice(0, 6)}@example.se`;
  const registration = crypto.randomUUID();
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)",
  )
    .bind(registration, YEAR, email, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group",
       race_id, created_at)
     VALUES (?, ?, ?, 'Ella', ?, 12, '', '5.6', 'Dam', ?, ?)`,
  )
    .bind(id, registration, YEAR, lastname, part, now)
    .run();
  const { runner } = await testRace(part).run({
    type: "add-runner",
    runner: {
      id,
      firstname: "Ella",
      lastname,
      age: 12,
      company: "",
      group: "Dam",
      bib,
      owner: `registration:${registration}`,
    },
  });
  return { email, runner };
}

interface ExportedPhoto {
  tap: string;
  at: string;
  device: string | null;
  frames: { frame: number; address: string }[];
}

async function exportedPhotos(jar: CookieJar, email: string): Promise<ExportedPhoto[]> {
  const file = await json<{ raceDay: { photos: ExportedPhoto[] }[] }>(
    await get(`/admin/api/personal-data/export?email=${encodeURIComponent(email)}`, { jar }),
  );
  return file.raceDay.flatMap((r) => r.photos);
}

async function stored(part: string, tap: string, frame: number): Promise<boolean> {
  return (await env.FINISH_PHOTOS.get(photoKey(part, tap, frame))) !== null;
}

describe("Målfoto as personal data", () => {
  it("a family's export lists its runners' photos, and its erasure deletes them from the race and from R2", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    await json(await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - 600_000}`, { jar }));
    const anna = await familyRunner(part, "Foto", 51);
    const bo = await familyRunner(part, "Bild", 52);

    // Anna: a 'Mål!' tap with two of its frames sent (the third still on the phone), paired with her by hand
    // afterwards (the organiser read the photo).
    const pressed = await rapidTap(jar, part);
    for (const frame of [0, 1]) await json(await upload(jar, part, pressed, frame, jpeg(960, 540, 3000, frame)), 201);
    await json(await post(`/admin/api/races/slots/${part}/${pressed}/assign`, { sort: anna.runner.sort }, { jar }));
    // Bo: a finish tile tap on him with one frame. And a stray 'Mål!' tap nobody is paired with.
    const tile = tapId();
    await json(
      await get(`/admin/api/races/finish/${part}/${bo.runner.sort}?tap=${tile}&at=${Date.now() - 500}`, { jar }),
    );
    await json(await upload(jar, part, tile, 1, jpeg()), 201);
    const stray = await rapidTap(jar, part);
    await json(await upload(jar, part, stray, 1, jpeg()), 201);

    const annas = await exportedPhotos(jar, anna.email);
    expect(annas).toEqual([
      {
        tap: pressed,
        at: expect.any(String) as string,
        device: "phone-a",
        frames: [0, 1].map((frame) => ({ frame, address: photoUrl(part, pressed, frame) })),
      },
    ]);
    expect((await exportedPhotos(jar, bo.email)).map((p) => p.tap)).toEqual([tile]);
    // The address the export names serves the photo to an admin.
    expect((await get(annas[0]!.frames[1]!.address, { jar })).status).toBe(200);

    const erased = await post("/admin/api/personal-data/erase", { email: anna.email, confirm: anna.email }, { jar });
    expect(erased.status, await erased.clone().text()).toBe(200);

    // Anna's frames: gone from R2, the race no longer keeps them, the admin address answers 404.
    for (const frame of [0, 1, 2]) {
      expect(await stored(part, pressed, frame)).toBe(false);
      expect(await testRace(part).hasPhoto(pressed, frame)).toBe(false);
    }
    expect((await get(photoUrl(part, pressed, 1), { jar })).status).toBe(404);
    expect((await testRace(part).runnerHistory(anna.runner.id))?.photos.filter((p) => !p.removed)).toEqual([]);
    // The erasure is audited with the count, never a name.
    const audit = (await testRace(part).events()).filter((e) => e.type === "runner-anonymised");
    expect(audit.map((e) => JSON.parse(e.payload) as unknown)).toContainEqual({ id: anna.runner.id, photos: 1 });
    // Bo's photo and the stray tap's stay.
    expect(await stored(part, tile, 1)).toBe(true);
    expect(await stored(part, stray, 1)).toBe(true);
    expect((await get(photoUrl(part, tile, 1), { jar })).status).toBe(200);
    expect((await exportedPhotos(jar, bo.email)).map((p) => p.tap)).toEqual([tile]);

    // The phone that held Anna's third frame (offline during the erasure) sends it, and another resends frame 1:
    // both refused, nothing stored.
    for (const frame of [2, 1]) {
      const late = await upload(jar, part, pressed, frame, jpeg());
      expect(late.status).toBe(409);
      expect(((await late.json()) as { error: string }).error).toMatch(/raderat/);
      expect(await stored(part, pressed, frame)).toBe(false);
    }
    expect((await objects(part)).sort()).toEqual([photoKey(part, stray, 1), photoKey(part, tile, 1)].sort());
  });

  it("limits a session's uploads with a Swedish 429 and Retry-After, after a burst of real taps has passed", async () => {
    const jar = await loginAdmin();
    const other = await loginAdmin();
    const part = await newRace(jar);
    await json(await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - 600_000}`, { jar }));
    // Ten 'Mål!' presses in a few seconds, three frames each, then every frame sent once more (a phone that lost
    // the answers): all taken.
    const taps: string[] = [];
    for (let i = 0; i < 10; i++) taps.push(await rapidTap(jar, part, "phone-a", 3000 - i * 300));
    for (const tap of taps) for (const frame of [0, 1, 2]) await json(await upload(jar, part, tap, frame, jpeg()), 201);
    for (const tap of taps) for (const frame of [0, 1, 2]) await json(await upload(jar, part, tap, frame, jpeg()), 200);
    expect(await objects(part)).toHaveLength(30);

    // A client that keeps resending: the rest of the burst (whatever the seconds so far gave back), then 429.
    let refused: Response | null = null;
    for (let i = 0; i < PHOTO_BURST && !refused; i++) {
      const res = await upload(jar, part, taps[0]!, 1, jpeg());
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
    }
    expect(refused, "no 429 within the burst").not.toBeNull();
    expect(((await refused!.json()) as { error: string }).error).toBe(RATE_MESSAGE);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // A new frame is refused too and nothing is stored; another admin session uploads as before. The bucket fills
    // 2 a second: on a slow machine a token can come back between the refusal and the new frame (then that frame is
    // taken, as it should be), so the bucket is drained again with resends before each try, on a new tap each time.
    let fresh = "";
    for (let attempt = 0; attempt < 10; attempt++) {
      while ((await upload(jar, part, taps[0]!, 1, jpeg())).status !== 429);
      fresh = await rapidTap(jar, part);
      const res = await upload(jar, part, fresh, 1, jpeg());
      if (res.status === 429) break;
      expect(res.status).toBe(201);
    }
    expect(await stored(part, fresh, 1)).toBe(false);
    expect(await testRace(part).hasPhoto(fresh, 1)).toBe(false);
    await json(await upload(other, part, fresh, 1, jpeg()), 201);
  });
});

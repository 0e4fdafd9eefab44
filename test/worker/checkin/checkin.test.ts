/**
 * The bib desk through the real Worker, D1, the race objects and the Swish simulator: the check-in code on the
 * receipt (a PNG QR that decodes to it) and on the family's page, finding a family by code or by search, checking
 * it in across its races (live on the timing phones), bibs at pick-up, and the bad input the issue names: a code
 * of another season, a forged code, a taken bib, a runner who changed distance meanwhile, an action replayed.
 */
import { env } from "cloudflare:workers";
import { decode } from "fast-png";
import jsQR from "jsqr";
import { beforeAll, describe, expect, it } from "vitest";
import { formatCheckinCode, makeCheckinCode, type DeskFamily, type DeskSearchHit } from "../../../src/shared/checkin";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { RaceEvent, RunnerRecord } from "../../../src/shared/race-protocol";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { call, get, loginAdmin, post, storedState, visitorJar, waitFor, type CookieJar } from "../helpers";
import { payOnPhone, receiptsTo, seedFamily, startPayment, type Family } from "../swish-helpers";
import { dataFrames, subscribe } from "../../durable/race/race-helpers";

const PART_56 = raceIdForSeason("5.6");
const PART_16 = raceIdForSeason("1.6");
const PART_28 = raceIdForSeason("2.8");

let admin: CookieJar;
beforeAll(async () => {
  admin = await loginAdmin();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

function actionId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** A family of two (5.6 km and 1.6 km), paid through the simulator: runners in their races, receipt sent. */
async function paidFamily(): Promise<Family & { code: string }> {
  const family = await seedFamily();
  const { token } = await startPayment(family);
  await payOnPhone(token);
  const [receipt] = await receiptsTo(family.email);
  const code = /Koden: <strong[^>]*>([0-9A-Z-]{14})</.exec(receipt!.html)?.[1];
  expect(code, receipt!.html).toBeDefined();
  return { ...family, code: code! };
}

function family(code: string, jar = admin) {
  return get(`/admin/api/checkin/code/${encodeURIComponent(code)}`, { jar });
}

function pickup(body: Record<string, unknown>, jar = admin) {
  return post(
    "/admin/api/checkin/pickup",
    { actionId: actionId(), pickedUp: true, device: "desk-1", ...body },
    { jar },
  );
}

function deskRunners(f: DeskFamily) {
  return f.runners.map((r) => ({ id: r.id, raceId: r.raceId! }));
}

describe("the check-in code", () => {
  it("is on the receipt as a PNG QR and as text, and on the family's page; it opens the family at the desk", async () => {
    const paid = await paidFamily();
    const [receipt] = await receiptsTo(paid.email);
    expect(receipt!.text).toContain(`koden ${paid.code}`);
    const png = /src="([^"]+\.png)"/.exec(receipt!.html)![1]!;
    const image = await call(new URL(png).pathname);
    expect(image.headers.get("content-type")).toBe("image/png");
    const { width, height, data, channels } = decode(new Uint8Array(await image.arrayBuffer()));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i += 1) {
      const v = data[i * channels]!;
      rgba.set([v, v, v, 255], i * 4);
    }
    expect(jsQR(rgba, width, height)?.data).toBe(paid.code);

    const visitor = await visitorJar(paid.email);
    const view = await json<{ checkinCode: string | null }>(await get("/get", { jar: visitor }));
    expect(formatCheckinCode(view.checkinCode!)).toBe(paid.code);
    expect((await call(`/api/checkin-qr/${paid.code}.svg`)).headers.get("content-type")).toContain("image/svg+xml");

    const found = await json<DeskFamily>(await family(paid.code));
    expect(found).toMatchObject({ kind: "anmalan", id: paid.registrationId, paid: true, email: paid.email });
    expect(found.runners.map((r) => r.raceId).sort()).toEqual([PART_16, PART_56].sort());
    expect(found.runners.every((r) => r.pickedUpAt === null)).toBe(true);
    // Typed by hand: lower case, no dashes, an O for a 0.
    const typed = paid.code.replaceAll("-", "").toLowerCase().replaceAll("0", "o");
    expect((await json<DeskFamily>(await family(typed))).id).toBe(paid.registrationId);
  });

  it("an older registration gets its code on first need, once, however many ask at the same moment", async () => {
    const older = await seedFamily([{ firstname: "Gammal", lastname: "Anmälan", age: 40, distance: "5.6" }]);
    const { token } = await startPayment(older, 250);
    // The payment settles, but say the receipt was sent before this feature: the code is made by the family page.
    await env.DB.prepare("UPDATE registrations SET checkin_token = NULL WHERE id = ?").bind(older.registrationId).run();
    await payOnPhone(token);
    await env.DB.prepare("UPDATE registrations SET checkin_token = NULL WHERE id = ?").bind(older.registrationId).run();
    const visitor = await visitorJar(older.email);
    const views = await Promise.all(
      [1, 2, 3].map(async () => json<{ checkinCode: string }>(await get("/get", { jar: visitor }))),
    );
    expect(new Set(views.map((v) => v.checkinCode)).size).toBe(1);
  });

  it("refuses a forged code (400), an unknown one (404) and one of another season (409), for admins only", async () => {
    const paid = await paidFamily();
    const forged = paid.code.slice(0, -1) + (paid.code.endsWith("A") ? "B" : "A");
    const refused = await json<{ error: string }>(await family(forged), 400);
    expect(refused.error).toContain("Koden stämmer inte");
    const unknown = formatCheckinCode(makeCheckinCode(crypto.getRandomValues(new Uint8Array(16))));
    expect((await json<{ error: string }>(await family(unknown), 404)).error).toContain("Ingen anmälan");

    const lastYear = makeCheckinCode(crypto.getRandomValues(new Uint8Array(16)));
    await env.DB.prepare(
      `INSERT INTO registrations (id, season, email, version, created_at, updated_at, checkin_token)
       VALUES (?, ?, ?, 0, 0, 0, ?)`,
    )
      .bind(crypto.randomUUID(), SEASON.year - 1, `fjol-${actionId()}@example.se`, lastYear)
      .run();
    const other = await json<{ error: string }>(await family(lastYear), 409);
    expect(other.error).toBe(
      `Koden hör till anmälan för ${SEASON.year - 1}, inte årets lopp (${SEASON.year}). Sök på namn eller e-post i stället.`,
    );

    expect((await get(`/admin/api/checkin/code/${paid.code}`)).status).toBe(401);
    expect((await get(`/admin/api/checkin/code/${paid.code}`, { jar: await visitorJar(paid.email) })).status).toBe(401);
  });

  it("is erased with the family's personal data", async () => {
    const paid = await paidFamily();
    await json(
      await post("/admin/api/personal-data/erase", { email: paid.email, confirm: paid.email }, { jar: admin }),
    );
    expect((await family(paid.code)).status).toBe(404);
  });
});

describe("checking a family in", () => {
  it("checks in the whole family across its races, live on the timing phones; a second scan says when", async () => {
    const paid = await paidFamily();
    const found = await json<DeskFamily>(await family(paid.code));
    const phone = await subscribe(admin, PART_16);
    const at = Date.now() - 2_000;
    const first = { actionId: actionId(), runners: deskRunners(found), at };
    const done = await json<{ outcome: string; runners: { id: string; pickedUpAt: number }[] }>(await pickup(first));
    expect(done.outcome).toBe("picked-up");
    expect(done.runners.map((r) => r.pickedUpAt)).toEqual([at, at]);

    const child = paid.participantIds[1]!;
    await waitFor(
      () => dataFrames(phone.socket).some((f) => f.some((e) => e.sort === `runner-${child}` && "pickedUpAt" in e)),
      5000,
      "the pick-up on the 1.6 km timing phone",
    );
    const seen = dataFrames(phone.socket)
      .flat()
      .find((e: RaceEvent) => e.sort === `runner-${child}` && "pickedUpAt" in e) as RunnerRecord;
    expect(seen.pickedUpAt).toBe(at);
    phone.socket.ws.close();

    // Scanned again: the family shows when it picked up, and a second press changes nothing.
    const again = await json<DeskFamily>(await family(paid.code));
    expect(again.runners.map((r) => r.pickedUpAt)).toEqual([at, at]);
    const second = await json<{ outcome: string; already: string[] }>(
      await pickup({ runners: deskRunners(again), device: "desk-2" }),
    );
    expect(second.outcome).toBe("unchanged");
    expect(second.already.sort()).toEqual([...paid.participantIds].sort());

    // Undone, then the first action arrives once more from a desk's queue: answered before, so nothing changes.
    await json(await pickup({ runners: deskRunners(again), pickedUp: false }));
    expect((await json<{ outcome: string }>(await pickup(first))).outcome).toBe("replayed");
    const after = await json<DeskFamily>(await family(paid.code));
    expect(after.runners.every((r) => r.pickedUpAt === null)).toBe(true);

    const audit = await testRace(PART_56).events();
    const mine = audit.filter((e) => e.payload.includes(paid.participantIds[0]!) && e.type.startsWith("pick"));
    expect(mine.map((e) => [e.type, e.actor, e.device])).toEqual([
      ["picked-up", "arrangor@example.se", "desk-1"],
      ["pickup-undone", "arrangor@example.se", "desk-1"],
    ]);
  });

  it("tells the desk when a runner changed distance after the family was shown, and checks nobody in twice", async () => {
    const paid = await paidFamily();
    const shown = await json<DeskFamily>(await family(paid.code));
    const adult = paid.participantIds[0]!;
    await json(await get(`/admin/api/races/change-distance/${PART_28}/${PART_56}/runner-${adult}`, { jar: admin }));

    const refused = await json<{ error: string }>(await pickup({ runners: deskRunners(shown) }), 409);
    expect(refused.error).toBe(
      "Anna Berg har bytt till 2,8 km sedan familjen visades. Listan är uppdaterad: tryck igen.",
    );
    const reloaded = await json<DeskFamily>(await family(paid.code));
    const moved = reloaded.runners.find((r) => r.id === adult)!;
    expect(moved).toMatchObject({ raceId: PART_28, pickedUpAt: null });
    // The child's race took its part of the action; pressing again checks in the adult and reports the child.
    const again = await json<{ outcome: string; already: string[] }>(await pickup({ runners: deskRunners(reloaded) }));
    expect(again).toMatchObject({ outcome: "picked-up", already: [paid.participantIds[1]] });
  });

  it("shows an unpaid family as such, with nobody in a race", async () => {
    const unpaid = await seedFamily([{ firstname: "Obetald", lastname: "Familj", age: 30, distance: "5.6" }]);
    const hits = await json<DeskSearchHit[]>(await get(`/admin/api/checkin/search?q=obetald%20familj`, { jar: admin }));
    const hit = hits.find((h) => h.id === unpaid.registrationId)!;
    expect(hit).toMatchObject({ kind: "anmalan", paid: false });
    const shown = await json<DeskFamily>(
      await get(`/admin/api/checkin/family/anmalan/${unpaid.registrationId}`, { jar: admin }),
    );
    expect(shown).toMatchObject({ paid: false, paymentStatus: null });
    expect(shown.runners[0]!.raceId).toBeNull();
  });

  it("finds families by name, e-mail or bib as you type, with all their runners", async () => {
    const paid = await paidFamily();
    const byName = await json<DeskSearchHit[]>(await get(`/admin/api/checkin/search?q=olle%20berg`, { jar: admin }));
    const hit = byName.find((h) => h.id === paid.registrationId)!;
    expect(hit.runners.map((r) => r.firstname).sort()).toEqual(["Anna", "Olle"]);
    const byEmail = await json<DeskSearchHit[]>(
      await get(`/admin/api/checkin/search?q=${encodeURIComponent(paid.email.slice(0, 14))}`, { jar: admin }),
    );
    expect(byEmail.map((h) => h.id)).toContain(paid.registrationId);

    const shown = await json<DeskFamily>(await family(paid.code));
    const child = shown.runners.find((r) => r.distance === "1.6")!;
    const withBib = await json<{ bib: number }>(
      await post("/admin/api/checkin/bib", { raceId: child.raceId, runnerId: child.id, bib: "next" }, { jar: admin }),
    );
    const byBib = await json<DeskSearchHit[]>(await get(`/admin/api/checkin/search?q=${withBib.bib}`, { jar: admin }));
    expect(byBib.map((h) => h.id)).toContain(paid.registrationId);
    // Wildcards are taken literally.
    expect(await json<DeskSearchHit[]>(await get(`/admin/api/checkin/search?q=%25%25`, { jar: admin }))).toEqual([]);
    expect((await get(`/admin/api/checkin/search?q=a`, { jar: admin })).status).toBe(400);
  });

  it("gives a runner without a bib the next free one once, and refuses a typed bib another runner has", async () => {
    const first = await paidFamily();
    const second = await paidFamily();
    const a = (await json<DeskFamily>(await family(first.code))).runners.find((r) => r.distance === "5.6")!;
    const b = (await json<DeskFamily>(await family(second.code))).runners.find((r) => r.distance === "5.6")!;
    const bib = (body: Record<string, unknown>) => post("/admin/api/checkin/bib", body, { jar: admin });
    const given = await json<{ bib: number }>(await bib({ raceId: a.raceId, runnerId: a.id, bib: "next" }));
    const [r1, r2] = await Promise.all([
      json<{ bib: number }>(await bib({ raceId: a.raceId, runnerId: a.id, bib: "next" })),
      json<{ bib: number }>(await bib({ raceId: a.raceId, runnerId: a.id, bib: "next" })),
    ]);
    expect([r1.bib, r2.bib]).toEqual([given.bib, given.bib]);
    const taken = await json<{ error: string }>(
      await bib({ raceId: b.raceId, runnerId: b.id, bib: given.bib, device: "desk-2" }),
      409,
    );
    expect(taken.error).toBe(`Startnummer ${given.bib} används redan av Anna Berg.`);
  });

  it("answers bad input with a Swedish 4xx and changes nothing", async () => {
    const paid = await paidFamily();
    const found = await json<DeskFamily>(await family(paid.code));
    const before = await storedState();
    const bad: [Record<string, unknown>, number][] = [
      [{ runners: [] }, 400],
      [{ runners: deskRunners(found), actionId: "x" }, 400],
      [{ runners: deskRunners(found), pickedUp: "ja" }, 400],
      [{ runners: [{ id: "nobody", raceId: "race-1" }] }, 400],
      [{ runners: deskRunners(found), at: -5 }, 400],
      [{ runners: deskRunners(found), at: Date.now() + 3_600_000 }, 422],
      [{ runners: deskRunners(found), device: "a b" }, 400],
    ];
    for (const [body, status] of bad) {
      const res = await pickup(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toMatch(/[a-zåäö]/i);
    }
    for (const body of [{}, { raceId: PART_56, runnerId: "x", bib: -1 }, { raceId: "nej", runnerId: "x", bib: 5 }]) {
      expect((await post("/admin/api/checkin/bib", body, { jar: admin })).status).toBe(400);
    }
    expect((await get("/admin/api/checkin/family/okänt/x", { jar: admin })).status).toBe(400);
    expect((await get("/admin/api/checkin/family/anmalan/finns-inte", { jar: admin })).status).toBe(404);
    expect((await call("/api/checkin-qr/hej.png")).status).toBe(400);
    expect(await storedState()).toEqual(before);
  });
});

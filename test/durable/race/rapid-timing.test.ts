/**
 * Times first, bibs later (issue 26) on the platform: what only workerd can show. The rules themselves (replays,
 * review items, pairing, slots and bibs by hand, the main timer, the ended race, 'Officiella' and corrections, a
 * reset, bad input, erasure) are tested on the race room in Node (test/race-room/rapid-timing.test.ts). Here:
 * the issue's whole race through the HTTP routes with an eviction, real sockets (every phone sees a change), calls
 * landing inside the object at once, D1's index and the public view after 'Officiella', and what the routes
 * themselves do (zod's Swedish messages, a digit string from a keypad, a runner's sort, the 202 of the review list).
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RaceDO } from "../../../src/durable/race/race-do";
import type { RaceRecord, ReviewRecord, RunnerRecord } from "../../../src/shared/race-protocol";
import { get, loginAdmin, post, waitFor, type CookieJar } from "../../worker/helpers";
import {
  addRunner,
  applyFrames,
  auditTypes,
  dataFrames,
  finish,
  json,
  newRace,
  snapshot,
  subscribe,
  tapId,
  useRaceYear,
} from "./race-helpers";
import type { RapidTiming } from "../../../src/shared/race-answers";

useRaceYear(2076);

const MINUTE = 60_000;

function rapid(jar: CookieJar, part: string, query: { tap: string; at?: number; device?: string; err?: number }) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return post(`/admin/api/races/rapid/${part}?${qs}`, {}, { jar });
}

function typeBib(jar: CookieJar, part: string, entry: string, bib: unknown, device = "phone-c") {
  return post(`/admin/api/races/bibs/${part}?device=${device}`, { entry, bib }, { jar });
}

async function reviews(jar: CookieJar, part: string): Promise<ReviewRecord[]> {
  return json<ReviewRecord[]>(await get(`/admin/api/races/review/${part}`, { jar }));
}

async function timing(jar: CookieJar, part: string): Promise<RapidTiming> {
  return json<RapidTiming>(await get(`/admin/api/races/slots/${part}`, { jar }));
}

function decide(jar: CookieJar, part: string, id: string, action: "apply" | "discard") {
  return post(`/admin/api/races/review/${part}/${id}/${action}?device=phone-c`, {}, { jar });
}

/** A started race (its start `startedAgo` ms ago) with runners of bibs `bibs`. */
async function startedRace(jar: CookieJar, bibs: number[], startedAgo = 20 * MINUTE) {
  const part = await newRace(jar);
  const runners: RunnerRecord[] = [];
  for (const bib of bibs) runners.push(await addRunner(jar, part, { firstname: `Löpare${bib}`, lastname: "Ek", bib }));
  const { started } = await json<{ started: number }>(
    await get(`/admin/api/races/start/${part}?tap=${tapId()}&at=${Date.now() - startedAgo}`, { jar }),
  );
  return { part, runners, started };
}

/** A seeded random source (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function auditCount(part: string): Promise<number> {
  return (await auditTypes(part)).length;
}

describe("the issue's race: 60 finishers, two timing phones, bibs typed on a third", () => {
  it("after the review list is resolved the results equal the truth, nothing doubled, through replays and an eviction", async () => {
    const jar = await loginAdmin();
    const bibs = Array.from({ length: 60 }, (_, i) => 601 + i);
    const { part, runners, started } = await startedRace(jar, bibs);
    const random = seeded(26);
    // The truth: who finished when (a shuffled order; gaps of 1–8 s, a third of them in clumps 0.2–0.7 s apart).
    const order = [...runners].sort(() => random() - 0.5);
    const truth: number[] = [];
    let t = started + 2 * MINUTE;
    for (let i = 0; i < 60; i++) {
      t += random() < 0.3 ? 200 + Math.round(random() * 500) : 1_000 + Math.round(random() * 7_000);
      truth.push(t);
    }
    expect(truth.at(-1)!).toBeLessThan(Date.now() - MINUTE);
    // Phone A's clock sync left it 0.35 s late, phone B's 0.3 s early; each volunteer reacts within ±60 ms.
    // B misses three finishers.
    const missedByB = new Set([4, 31, 47]);
    const jitter = () => Math.round((random() * 2 - 1) * 60);
    const aTaps = truth.map((at) => ({ tap: tapId(), at: at + 350 + jitter(), device: "phone-a" }));
    const bTaps = truth.map((at, i) =>
      missedByB.has(i) ? null : { tap: tapId(), at: at - 300 + jitter(), device: "phone-b" },
    );
    // Phone C types the bibs in finish order: two typos (two digits swapped: 615 as 165; a digit left out: 642 as
    // 62), neither of them another runner's bib, and one bib typed twice.
    const middle = (i: number) => Math.floor((order[i]!.bib! % 100) / 10);
    const swapAt = order.findIndex((_, i) => i >= 10 && middle(i) >= 1 && middle(i) <= 5);
    const missingAt = order.findIndex((_, i) => i >= 35);
    const typed: { entry: string; bib: number }[] = [];
    order.forEach((runner, i) => {
      const digits = String(runner.bib);
      if (i === swapAt) typed.push({ entry: tapId(), bib: Number(digits[1]! + digits[0]! + digits[2]!) });
      else if (i === missingAt) typed.push({ entry: tapId(), bib: Number(digits[0]! + digits[2]!) });
      else typed.push({ entry: tapId(), bib: runner.bib! });
      if (i === 50) typed.push({ entry: tapId(), bib: runner.bib! }); // pressed twice
    });
    expect(typed.filter((e) => !bibs.includes(e.bib))).toHaveLength(2);

    const { socket } = await subscribe(jar, part);
    const send = async (i: number) => {
      const a = await json<{ outcome: string }>(await rapid(jar, part, aTaps[i]!));
      expect(a.outcome).toBe("recorded");
      const b = bTaps[i];
      if (b) expect((await json<{ outcome: string }>(await rapid(jar, part, b))).outcome).toBe("recorded");
    };
    // The first half timed live, bibs following behind; replays of taps and bibs in between.
    for (let i = 0; i < 30; i++) {
      await send(i);
      if (i >= 5) await json(await typeBib(jar, part, typed[i - 5]!.entry, typed[i - 5]!.bib));
    }
    const replayedTap = await json<{ outcome: string }>(await rapid(jar, part, aTaps[3]!));
    expect(replayedTap.outcome).toBe("replayed");
    expect((await json<{ outcome: string }>(await typeBib(jar, part, typed[2]!.entry, typed[2]!.bib))).outcome).toBe(
      "replayed",
    );

    await evictDurableObject(env.RACE.getByName(part));

    for (let i = 30; i < 60; i++) await send(i);
    for (let i = 25; i < typed.length; i++) await json(await typeBib(jar, part, typed[i]!.entry, typed[i]!.bib));
    // Every tap and bib sent again (a phone's queue after a lost answer): nothing changes.
    const seqBefore = await auditCount(part);
    for (const tap of [...aTaps.slice(28, 33), ...bTaps.slice(28, 33).filter((b) => b !== null)]) {
      expect((await json<{ outcome: string }>(await rapid(jar, part, tap!))).outcome).toBe("replayed");
    }
    for (const entry of typed.slice(40, 45)) {
      expect((await json<{ outcome: string }>(await typeBib(jar, part, entry.entry, entry.bib))).outcome).toBe(
        "replayed",
      );
    }
    expect(await auditCount(part)).toBe(seqBefore);

    // The two streams are one sequence of 60, B (earlier) the reference; A's shift found beyond the tolerance.
    const view = await timing(jar, part);
    expect(view.slots).toHaveLength(60);
    expect(view.reference).toBe("phone-b");
    expect(Math.abs(view.offsets["phone-a"]! - 650)).toBeLessThan(60);
    expect(view.slots.filter((s) => s.taps.length === 1).map((s) => s.number)).toEqual([5, 32, 48]);

    // The review list: three slots only A has, two bibs not in the race (with the meant runner suggested), one bib
    // typed twice (which holds its slot: every later bib is one slot off until it goes, so the last has none).
    const open = await reviews(jar, part);
    const kinds = open.map((r) => r.kind).sort();
    expect(kinds).toEqual([
      "bib-twice",
      "bib-unknown",
      "bib-unknown",
      "bib-unmatched",
      "slot-single",
      "slot-single",
      "slot-single",
    ]);
    expect(open.find((r) => r.kind === "bib-unmatched")).toMatchObject({ entry: typed.at(-1)!.entry });
    for (const item of open.filter((r) => r.kind === "bib-unknown")) {
      const meant = order[typed.findIndex((e) => e.entry === item.entry)]!;
      expect(item.reason).toMatch(/finns inte i loppet/);
      expect(item.suggestions?.map((s) => s.bib)).toContain(meant.bib);
    }

    // Resolved from the list, one tap each: keep A's singles; remove the second of the bib typed twice; take the
    // suggestion that is the meant runner.
    for (const item of open) {
      if (item.kind === "slot-single") await json(await decide(jar, part, item.id, "apply"));
      if (item.kind === "bib-twice") {
        // Every later bib moves one slot back: the race lists them first (409), then takes the confirmation.
        const { retimes } = await json<{ retimes: { runnerId: string; to: number | null }[] }>(
          await decide(jar, part, item.id, "discard"),
          409,
        );
        const confirm = retimes.map((r) => ({ runnerId: r.runnerId, to: r.to }));
        await json(
          await post(`/admin/api/races/review/${part}/${item.id}/discard?device=phone-c`, { confirm }, { jar }),
        );
      }
    }
    for (const item of (await reviews(jar, part)).filter((r) => r.kind === "bib-unknown")) {
      const meant = order[typed.findIndex((e) => e.entry === item.entry)]!;
      await json(await post(`/admin/api/races/bibs/${part}/${item.entry}/change`, { bib: meant.bib }, { jar }));
    }
    expect(await reviews(jar, part)).toEqual([]);

    // The results equal the truth: everyone in the true order, each time within the phones' error of the truth
    // (on B's timeline, 0.3 s early), each runner once, each slot once.
    const { race, runners: after } = await snapshot(jar, part);
    expect(race.results).toBe("preliminary");
    const byFinish = [...after].sort((x, y) => x.finished! - y.finished!);
    expect(byFinish.map((r) => r.bib)).toEqual(order.map((r) => r.bib));
    byFinish.forEach((runner, i) => expect(Math.abs(runner.finished! - (truth[i]! - 300))).toBeLessThanOrEqual(130));
    expect(new Set(after.map((r) => r.slot)).size).toBe(60);
    const finalView = await timing(jar, part);
    expect(finalView.slots.every((s) => s.runnerId !== null)).toBe(true);

    // The phone that watched all along (through the eviction) shows the same runners.
    await waitFor(
      () => {
        const seen = applyFrames(dataFrames(socket));
        return after.every((r) => (seen.get(r.sort) as RunnerRecord | undefined)?.finished === r.finished);
      },
      5000,
      "the socket's runners equal the race's",
    );
    const seen = applyFrames(dataFrames(socket));
    expect([...seen.values()].filter((e) => e.sort.startsWith("slot-"))).toHaveLength(
      aTaps.length + bTaps.filter(Boolean).length,
    );
    expect(
      [...seen.values()].filter((e) => e.sort.startsWith("review-") && (e as ReviewRecord).status === "open"),
    ).toEqual([]);

    // Each pairing is its own audited change, numbered; every runner's last pairing is its slot's.
    const events = await json<{ type: string; payload: string }[]>(
      await get(`/admin/api/races/audit/${part}?limit=5000`, { jar }),
    );
    const paired = events.filter((e) => e.type === "slot-paired").map((e) => JSON.parse(e.payload) as { id: string });
    expect(new Set(paired.map((p) => p.id)).size).toBe(60);
  }, 120_000);
});

describe("every phone sees the change", () => {
  it("a slot appears on every subscribed phone at once; a reset takes the slots and typed bibs off them again", async () => {
    const jar = await loginAdmin();
    const { part, started } = await startedRace(jar, [701]);
    const one = await subscribe(jar, part);
    const two = await subscribe(jar, part);
    const tap = tapId();
    const first = await json<{ outcome: string; number: number }>(
      await rapid(jar, part, { tap, at: started + MINUTE, device: "phone-a" }),
    );
    expect(first).toMatchObject({ outcome: "recorded", number: 1 });
    for (const phone of [one, two]) {
      await waitFor(() => applyFrames(dataFrames(phone.socket)).has(`slot-${tap}`), 3000, "the slot on the socket");
    }
    const entry = tapId();
    await json(await typeBib(jar, part, entry, 701));
    await waitFor(() => applyFrames(dataFrames(one.socket)).has(`bib-${entry}`), 3000, "the bib on the socket");

    await json(await get(`/admin/api/races/reset/${part}?confirm=APRAKET`, { jar }));
    for (const phone of [one, two]) {
      await waitFor(
        () => {
          const seen = applyFrames(dataFrames(phone.socket));
          return !seen.has(`slot-${tap}`) && !seen.has(`bib-${entry}`);
        },
        3000,
        "the cleared slot and bib gone from the phone",
      );
    }
  });
});

describe("what the routes do themselves", () => {
  it("zod's Swedish 400s before the race is asked, nothing changed; a keypad's digits, a runner's sort, a 202 for the review list", async () => {
    const jar = await loginAdmin();
    const { part, runners, started } = await startedRace(jar, [861, 862]);
    const slot = tapId();
    await json(await rapid(jar, part, { tap: slot, at: started + 10_000 }));
    const before = await auditCount(part);
    const typedBib = "Startnummer måste vara ett heltal från 1 till 99999.";
    const refusals: [Response, number, string][] = [
      [await typeBib(jar, part, tapId(), "sex"), 400, typedBib],
      [await typeBib(jar, part, tapId(), 0), 400, typedBib],
      [await typeBib(jar, part, tapId(), 1.5), 400, typedBib],
      [await typeBib(jar, part, "kort", 861), 400, "Ogiltigt id för startnumret."],
      [await post(`/admin/api/races/slots/${part}/${slot}/assign`, { bib: "x" }, { jar }), 400, typedBib],
      [await rapid(jar, part, { tap: "x" }), 400, "Ogiltigt tryck-id."],
      [await post(`/admin/api/races/main-timer/${part}`, { mainTimer: 7 }, { jar }), 400, "Ogiltigt enhets-id."],
      [
        await post(`/admin/api/races/official/${part}`, { confirm: "ja" }, { jar }),
        400,
        "Ange om resultaten ändå ska bli officiella.",
      ],
    ];
    for (const [res, status, message] of refusals) {
      const body = (await res.json()) as { error: string };
      expect([res.status, body.error]).toEqual([status, message]);
    }
    expect(await auditCount(part)).toBe(before);

    // A bib from a keypad comes as a digit string; a slot is assigned by the tile's sort.
    const typed = await json<{ entry: { bib: number }; runner: RunnerRecord }>(
      await typeBib(jar, part, tapId(), " 861"),
    );
    expect(typed).toMatchObject({ entry: { bib: 861 }, runner: { bib: 861, finished: started + 10_000 } });
    const second = tapId();
    await json(await rapid(jar, part, { tap: second, at: started + 20_000, device: "phone-a" }));
    const assigned = await json<{ outcome: string; runner: RunnerRecord }>(
      await post(`/admin/api/races/slots/${part}/${second}/assign`, { sort: runners[1]!.sort }, { jar }),
    );
    expect(assigned).toMatchObject({ outcome: "assigned", runner: { bib: 862, finished: started + 20_000 } });

    // The main timer is set through its route, and the public race view never carries the device.
    const { race } = await json<{ race: RaceRecord }>(
      await post(`/admin/api/races/main-timer/${part}`, { mainTimer: "phone-a" }, { jar }),
    );
    expect(race.mainTimer).toBe("phone-a");
    const [publicRace] = await json<[RaceRecord]>(await get(`/api/races/get/${part}`));
    expect(publicRace.mainTimer).toBeUndefined();
    expect((await post(`/admin/api/races/main-timer/${part}`, { mainTimer: "phone-x" }, { jar })).status).toBe(404);

    // A tap the race cannot take (it has ended) is a 202: the phone drops it from its queue, a person decides.
    await json(await get(`/admin/api/races/end/${part}`, { jar }));
    const late = await json<{ outcome: string; review: ReviewRecord }>(await rapid(jar, part, { tap: tapId() }), 202);
    expect(late).toMatchObject({ outcome: "review", review: { kind: "rapid", status: "open" } });
  });
});

describe("'Officiella' outside the race object", () => {
  it("'Officiella' reaches D1's index and the race list; a correction after it reaches D1 and the public view", async () => {
    const jar = await loginAdmin();
    const { part, runners, started } = await startedRace(jar, [871, 872]);
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: started + 10_000 }));
    await json(await get(`/admin/api/races/dns/${part}/${runners[1]!.sort}/on`, { jar }));
    await json(await get(`/admin/api/races/end/${part}`, { jar }));
    // An open item on the list: a stray rapid tap after the end. The route's empty body does not confirm past it.
    await json(await rapid(jar, part, { tap: tapId() }), 202);
    const refused = await post(`/admin/api/races/official/${part}`, {}, { jar });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/1 sak under Att granska/);

    const official = await json<{ outcome: string; race: RaceRecord; openReviews: number }>(
      await post(`/admin/api/races/official/${part}`, { confirm: true }, { jar }),
    );
    expect(official).toMatchObject({ outcome: "official", openReviews: 1, race: { results: "official" } });
    // D1 carries the moment for the Worker (the families' mail).
    const row = await env.DB.prepare("SELECT results_status, results_official_at FROM races WHERE part = ?")
      .bind(part)
      .first<{ results_status: string; results_official_at: number }>();
    expect(row).toEqual({ results_status: "official", results_official_at: official.race.officialAt });
    const listed = (await (await get("/api/races")).json()) as RaceRecord[];
    expect(listed.find((r) => r.part === part)).toMatchObject({ results: "official" });

    // A correction after that: allowed, shown as corrected in the public view (the race and the runner) and D1.
    const corrected = await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: started + 11_000, rerecord: 1 });
    expect(corrected.status).toBe(200);
    const pub = await json<[RaceRecord, ...RunnerRecord[]]>(await get(`/api/races/get/${part}`));
    expect(pub[0].results).toBe("corrected");
    const publicRunners = pub.slice(1) as RunnerRecord[];
    expect(publicRunners.find((r) => r.sort === runners[0]!.sort)).toMatchObject({ corrected: true });
    expect(publicRunners.find((r) => r.sort === runners[1]!.sort)?.corrected).toBeUndefined();
    await waitFor(async () => {
      const d1 = await env.DB.prepare("SELECT results_status FROM races WHERE part = ?")
        .bind(part)
        .first<{ results_status: string }>();
      return d1?.results_status === "corrected";
    });
  });

  it("two admins pressing 'Officiella' at once: one is the event, the other a 409", async () => {
    const jar = await loginAdmin();
    const { part, runners, started } = await startedRace(jar, [881]);
    await json(await finish(jar, part, runners[0]!.sort, { tap: tapId(), at: started + 10_000 }));
    await json(await get(`/admin/api/races/end/${part}`, { jar }));
    const answers = await runInDurableObject(env.RACE.getByName(part), async (race: RaceDO) =>
      Promise.all([
        race.run({ type: "mark-official", confirm: false }, { actor: "a" }),
        race.run({ type: "mark-official", confirm: false }, { actor: "b" }),
      ]),
    );
    expect(answers.map((a) => (a.ok ? a.value.outcome : a.status)).sort()).toEqual([409, "official"]);
    expect((await auditTypes(part)).filter((t) => t === "results-official")).toHaveLength(1);
  });
});

describe("interleavings", () => {
  it("two phones tapping and a third typing bibs at the same moments: one sequence, each runner once", async () => {
    const jar = await loginAdmin();
    const { part, started } = await startedRace(jar, [901, 902, 903, 904, 905]);
    const answers = await runInDurableObject(env.RACE.getByName(part), async (race: RaceDO) =>
      Promise.all(
        [1, 2, 3, 4, 5].flatMap((s) => [
          race.run(
            { type: "rapid-tap", tap: { tapId: tapId(), at: started + s * 5_000 } },
            { actor: "a", device: "phone-a" },
          ),
          race.run(
            { type: "rapid-tap", tap: { tapId: tapId(), at: started + s * 5_000 + 150 } },
            { actor: "b", device: "phone-b" },
          ),
          race.run({ type: "enter-bib", ...{ entryId: tapId(), bib: 906 - s } }, { actor: "c", device: "phone-c" }),
        ]),
      ),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
    const { runners } = await snapshot(jar, part);
    expect(runners.map((r) => [r.bib, r.finished])).toEqual([
      [905, started + 5_000],
      [904, started + 10_000],
      [903, started + 15_000],
      [902, started + 20_000],
      [901, started + 25_000],
    ]);
    expect(await reviews(jar, part)).toEqual([]);
    // Every change has its own sequence number.
    const seqs = (await raceClientEvents(part)).map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("two phones deciding one review item at once: the first decides, the second is told it is decided", async () => {
    const jar = await loginAdmin();
    const { part, started } = await startedRace(jar, [911]);
    await json(await rapid(jar, part, { tap: tapId(), at: started + 5_000 }));
    await json(await typeBib(jar, part, tapId(), 919));
    const [item] = await reviews(jar, part);
    const [first, second] = await Promise.all([
      decide(jar, part, item!.id, "discard"),
      decide(jar, part, item!.id, "discard"),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(((await refused.json()) as { error: string }).error).toBe("Den är redan avgjord.");
    // 919 reached a slot: the bib and its slot went together, once.
    expect((await auditTypes(part)).filter((t) => t === "bib-removed-with-slot")).toHaveLength(1);
  });
});

async function raceClientEvents(part: string) {
  return json<{ seq: number }[]>(await get(`/admin/api/races/audit/${part}?limit=5000`, { jar: await loginAdmin() }));
}

describe("who else gets a new time (issue 37), through the routes", () => {
  it("a removal that moves later bibs is a 409 with the list and changes nothing; sent with the list, it is done", async () => {
    const jar = await loginAdmin();
    const { part, started, runners } = await startedRace(jar, [931, 945, 967]);
    for (const s of [1, 2, 3]) {
      expect((await rapid(jar, part, { tap: tapId(), at: started + s * 10_000, device: "phone-a" })).status).toBe(200);
    }
    // 945 typed twice: the second holds slot 3, so 967 has no slot.
    for (const bib of [931, 945, 945, 967]) expect((await typeBib(jar, part, tapId(), bib)).status).toBe(200);
    const twice = (await reviews(jar, part)).find((r) => r.kind === "bib-twice")!;
    const r967 = runners.find((r) => r.bib === 967)!;

    const refused = await decide(jar, part, twice.id, "discard");
    const body = await json<{ error: string; retimes: { runnerId: string; bib: number; to: number | null }[] }>(
      refused,
      409,
    );
    expect(body.error).toBe("Nr 967 får en ny tid. Bekräfta för att ändra den.");
    expect(body.retimes).toEqual([
      expect.objectContaining({ runnerId: r967.id, bib: 967, from: null, to: started + 30_000, started }),
    ]);
    const { runners: before } = await snapshot(jar, part);
    expect(before.find((r) => r.bib === 967)!.finished).toBeNull();

    // A confirmation the route cannot read is a 400; the list itself, the change.
    const bad = await post(
      `/admin/api/races/review/${part}/${twice.id}/discard?device=phone-c`,
      { confirm: "ja" },
      { jar },
    );
    expect(await json(bad, 400)).toMatchObject({ error: "Ogiltig bekräftelse av nya tider." });
    const confirm = body.retimes.map((r) => ({ runnerId: r.runnerId, to: r.to }));
    const done = await post(`/admin/api/races/review/${part}/${twice.id}/discard?device=phone-c`, { confirm }, { jar });
    expect(done.status).toBe(200);
    const { runners: after } = await snapshot(jar, part);
    expect(after.find((r) => r.bib === 967)!.finished).toBe(started + 30_000);
  });

  it("a bib typed before the race's start (sent after a reset) goes to the list with 202", async () => {
    const jar = await loginAdmin();
    const { part, started } = await startedRace(jar, [951]);
    const res = await post(
      `/admin/api/races/bibs/${part}?device=phone-c`,
      { entry: tapId(), bib: 951, at: started - MINUTE },
      { jar },
    );
    expect(await json(res, 202)).toMatchObject({ outcome: "review", review: { kind: "bib-early", bib: 951 } });
    const badAt = await post(
      `/admin/api/races/bibs/${part}?device=phone-c`,
      { entry: tapId(), bib: 951, at: "igår" },
      { jar },
    );
    expect(await json(badAt, 400)).toMatchObject({ error: "Ogiltig tidpunkt." });
  });
});

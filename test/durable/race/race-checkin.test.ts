/**
 * Bib pick-up in the race object (src/durable/race/rules/checkin.ts): the object is the one writer of a runner's
 * picked-up state, each change audited, broadcast to the timing phones and mirrored to D1; replayed desk actions
 * change nothing; the state survives reset, eviction and a change of distance; 'Markera ej hämtade som DNS'.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RaceEvent, RunnerRecord } from "../../../src/shared/race-protocol";
import { testRace } from "../../worker/race-calls";
import { get, loginAdmin, waitFor, type CookieJar } from "../../worker/helpers";
import {
  addRunner,
  auditTypes,
  dataFrames,
  json,
  newRace,
  startEarlier,
  subscribe,
  tapId,
  useRaceYear,
} from "./race-helpers";

useRaceYear(2077);

let jar: CookieJar;
beforeAll(async () => {
  jar = await loginAdmin();
});

const desk = { actor: "desk@example.se", device: "desk-1" };
const race = (part: string) => testRace(part);

async function rejection(promise: Promise<unknown>): Promise<{ message: string; status?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as { message: string; status?: number };
  }
  throw new Error("expected the call to be refused");
}

async function d1PickedUp(id: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT picked_up_at FROM participants WHERE id = ?")
    .bind(id)
    .first<{ picked_up_at: number | null }>();
  return row?.picked_up_at ?? null;
}

async function insertParticipant(id: string, part: string): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO participants (id, season, firstname, lastname, age, company, distance, "group", race_id, created_at)
     VALUES (?, 2077, 'Per', 'Holm', 41, '', '5.6', 'Herr', ?, ?)`,
  )
    .bind(id, part, Date.now())
    .run();
}

describe("picking up a bib", () => {
  it("marks the runners, audits who and which device, reaches every timing phone and D1, never the public list", async () => {
    const part = await newRace(jar);
    const anna = await addRunner(jar, part, { firstname: "Anna", bib: 601 });
    const bo = await addRunner(jar, part, { firstname: "Bo", bib: 602 });
    await insertParticipant(anna.id, part);
    const phone = await subscribe(jar, part);

    const at = Date.now() - 1_000;
    const result = await race(part).run(
      { type: "pick-up", runnerIds: [anna.id, bo.id], pickedUp: true, action: { actionId: tapId(), at } },
      desk,
    );
    expect(result.outcome).toBe("picked-up");
    expect(result.changed.sort()).toEqual([anna.id, bo.id].sort());
    expect(result.runners.map((r) => r.pickedUpAt)).toEqual([at, at]);

    // The first frame is the snapshot the phone got when it subscribed; the pick-up follows it.
    await waitFor(() => dataFrames(phone.socket).length > 1, 5000, "the pick-up on the timing phone");
    const events = dataFrames(phone.socket).slice(1).flat() as (RaceEvent & RunnerRecord)[];
    expect(
      events
        .filter((e) => e.pickedUpAt === at)
        .map((e) => e.id)
        .sort(),
    ).toEqual([anna.id, bo.id].sort());
    // One change, one seq, for the whole family.
    expect(new Set(events.map((e) => e.seq)).size).toBe(1);

    const audit = (await race(part).events()).filter((e) => e.type === "picked-up");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: desk.actor, device: desk.device });
    expect(JSON.parse(audit[0]!.payload)).toMatchObject({ at, runners: [{ bib: 601 }, { bib: 602 }] });

    expect(await d1PickedUp(anna.id)).toBe(at);

    const publicList = await json<Record<string, unknown>[]>(await get(`/api/races/get/${part}`));
    expect(JSON.stringify(publicList)).not.toContain("pickedUp");
    const adminList = await json<Record<string, unknown>[]>(await get(`/admin/api/races/get/${part}`, { jar }));
    expect(adminList.filter((r) => r.pickedUpAt === at)).toHaveLength(2);
    phone.socket.ws.close();
  });

  it("a second check-in keeps the first moment and says so; a replayed action changes nothing, even after an undo", async () => {
    const part = await newRace(jar);
    const anna = await addRunner(jar, part, { firstname: "Anna" });
    const first = tapId();
    const at = Date.now() - 60_000;
    await race(part).run(
      { type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { actionId: first, at } },
      desk,
    );

    const again = await race(part).run(
      { type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { actionId: tapId() } },
      { ...desk, device: "desk-2" },
    );
    expect(again).toMatchObject({ outcome: "unchanged", changed: [], already: [anna.id] });
    expect(again.runners[0]!.pickedUpAt).toBe(at);

    const undone = await race(part).run(
      { type: "pick-up", runnerIds: [anna.id], pickedUp: false, action: { actionId: tapId() } },
      desk,
    );
    expect(undone.outcome).toBe("undone");
    expect(undone.runners[0]!.pickedUpAt).toBeUndefined();

    // The first check-in arrives once more from a desk's queue: it was answered, so it is not done again.
    const replay = await race(part).run(
      { type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { actionId: first, at } },
      desk,
    );
    expect(replay.outcome).toBe("replayed");
    expect(replay.runners[0]!.pickedUpAt).toBeUndefined();
    expect((await auditTypes(part)).filter((t) => t === "picked-up" || t === "pickup-undone")).toEqual([
      "picked-up",
      "pickup-undone",
    ]);

    // An action id used for something else is refused, not taken for a replay.
    const misuse = await rejection(
      race(part).run({ type: "pick-up", runnerIds: [anna.id], pickedUp: false, action: { actionId: first } }, desk),
    );
    expect(misuse).toMatchObject({ status: 409 });
  });

  it("two desks checking one family in at the same moment make one pick-up", async () => {
    const part = await newRace(jar);
    const anna = await addRunner(jar, part, { firstname: "Anna" });
    const bo = await addRunner(jar, part, { firstname: "Bo" });
    const answers = await Promise.all([
      race(part).run(
        { type: "pick-up", runnerIds: [anna.id, bo.id], pickedUp: true, action: { actionId: tapId() } },
        { ...desk, device: "desk-1" },
      ),
      race(part).run(
        { type: "pick-up", runnerIds: [bo.id, anna.id], pickedUp: true, action: { actionId: tapId() } },
        { ...desk, device: "desk-2" },
      ),
    ]);
    expect(answers.map((a) => a.outcome).sort()).toEqual(["picked-up", "unchanged"]);
    expect((await auditTypes(part)).filter((t) => t === "picked-up")).toHaveLength(1);
  });

  it("refuses bad input and a runner who is not in the race, changing nothing", async () => {
    const part = await newRace(jar);
    const anna = await addRunner(jar, part);
    const before = await auditTypes(part);
    expect(
      await rejection(race(part).run({ type: "pick-up", runnerIds: [], pickedUp: true, action: {} }, desk)),
    ).toMatchObject({ status: 400 });
    expect(
      await rejection(
        race(part).run({ type: "pick-up", runnerIds: [anna.id, "nobody"], pickedUp: true, action: {} }, desk),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      await rejection(
        race(part).run({ type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { actionId: "x" } }, desk),
      ),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await rejection(
        race(part).run(
          { type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { at: Date.now() + 10 * 60_000 } },
          desk,
        ),
      ),
    ).toMatchObject({
      status: 422,
    });
    expect(await auditTypes(part)).toEqual(before);
    expect((await race(part).getRunner(anna.id))!.pickedUpAt).toBeUndefined();
  });

  it("survives a reset and an eviction, and goes along with a change of distance", async () => {
    const part = await newRace(jar);
    const target = await newRace(jar, 2800);
    const anna = await addRunner(jar, part, { bib: 611 });
    await insertParticipant(anna.id, part);
    const at = Date.now() - 5_000;
    await race(part).run({ type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { at } }, desk);

    await json(await get(`/admin/api/races/reset/${part}?confirm=APRAKET`, { jar }));
    await evictDurableObject(env.RACE.getByName(part));
    expect((await race(part).getRunner(anna.id))!.pickedUpAt).toBe(at);

    await json(await get(`/admin/api/races/change-distance/${target}/${part}/runner-${anna.id}`, { jar }));
    expect((await race(target).getRunner(anna.id))!.pickedUpAt).toBe(at);
    expect(await d1PickedUp(anna.id)).toBe(at);
    // The old race no longer has the runner: a desk that still shows the old distance is told so.
    expect(
      await rejection(race(part).run({ type: "pick-up", runnerIds: [anna.id], pickedUp: false, action: {} }, desk)),
    ).toMatchObject({ status: 404 });
  });
});

describe("a bib at pick-up", () => {
  it("gives the next free number once, keeps a runner's number on a repeat, and names the holder of a typed one", async () => {
    const part = await newRace(jar);
    const anna = await addRunner(jar, part, { firstname: "Anna", lastname: "Ek", bib: 600 });
    const bo = await addRunner(jar, part, { firstname: "Bo" });
    const first = await race(part).run({ type: "bib-at-pickup", runnerId: bo.id, bib: "next" }, desk);
    expect(first.bib).toBe(601);
    expect((await race(part).run({ type: "bib-at-pickup", runnerId: bo.id, bib: "next" }, desk)).bib).toBe(601);
    expect(await rejection(race(part).run({ type: "bib-at-pickup", runnerId: bo.id, bib: 600 }, desk))).toMatchObject({
      status: 409,
      message: "Startnummer 600 används redan av Anna Ek.",
    });
    expect((await race(part).run({ type: "bib-at-pickup", runnerId: bo.id, bib: 777 }, desk)).bib).toBe(777);
    expect(await rejection(race(part).run({ type: "bib-at-pickup", runnerId: bo.id, bib: 0 }, desk))).toMatchObject({
      status: 400,
    });
    expect(anna.bib).toBe(600);
  });
});

describe("'Markera ej hämtade som DNS'", () => {
  it("after the start marks every waiting runner who never picked up, in one audited action, undoable per runner", async () => {
    const part = await newRace(jar);
    const picked = await addRunner(jar, part, { firstname: "Picked", bib: 650 });
    const absent = await addRunner(jar, part, { firstname: "Absent", bib: 651 });
    const absent2 = await addRunner(jar, part, { firstname: "Absent2", bib: 652 });
    await race(part).run({ type: "pick-up", runnerIds: [picked.id], pickedUp: true, action: {} }, desk);

    expect(await rejection(race(part).run({ type: "dns-not-picked-up" }, desk))).toMatchObject({ status: 409 });
    await json(await startEarlier(jar, part));
    const phone = await subscribe(jar, part);

    // Through the Worker, confirmed with the word: without it, nothing is marked.
    expect((await get(`/admin/api/races/dns-not-picked-up/${part}`, { jar })).status).toBe(400);
    const { marked } = await json<{ marked: RunnerRecord[] }>(
      await get(`/admin/api/races/dns-not-picked-up/${part}?confirm=DNS&device=desk-1`, { jar }),
    );
    expect(marked.map((r) => r.id).sort()).toEqual([absent.id, absent2.id].sort());
    expect(marked.every((r) => r.dns)).toBe(true);
    await waitFor(() => dataFrames(phone.socket).length > 1, 5000, "the DNS marks on the timing phone");
    expect(
      (dataFrames(phone.socket)[1] as (RaceEvent & RunnerRecord)[])
        .filter((e) => e.dns)
        .map((e) => e.id)
        .sort(),
    ).toEqual([absent.id, absent2.id].sort());
    expect((await auditTypes(part)).filter((t) => t === "dns-not-picked-up")).toHaveLength(1);

    expect((await race(part).run({ type: "dns-not-picked-up" }, desk)).marked).toEqual([]);
    await json(await get(`/admin/api/races/dns/${part}/runner-${absent.id}/off`, { jar }));
    expect((await race(part).getRunner(absent.id))!.dns).toBeUndefined();
    expect((await race(part).getRunner(picked.id))!.dns).toBeUndefined();
    phone.socket.ws.close();
  });

  it("a runner added on the race screen after the start is checked in as added, so the bulk DNS leaves them alone", async () => {
    const part = await newRace(jar);
    const before = await addRunner(jar, part, { firstname: "Before", bib: 660 });
    expect(before.pickedUpAt).toBeUndefined();
    await json(await startEarlier(jar, part));
    const atFinish = await addRunner(jar, part, { firstname: "AtFinish", bib: 661 });
    expect(typeof atFinish.pickedUpAt).toBe("number");
    // Through the other ways in, a runner after the start is not checked in by being added (a late payment).
    const paid = await race(part).run(
      { type: "add-runner", runner: { id: crypto.randomUUID(), firstname: "Paid", lastname: "Sent", age: 30 } },
      desk,
    );
    expect(paid.runner.pickedUpAt).toBeUndefined();

    const { marked } = await race(part).run({ type: "dns-not-picked-up" }, desk);
    expect(marked.map((r) => r.id).sort()).toEqual([before.id, paid.runner.id].sort());
    expect((await race(part).getRunner(atFinish.id))!.dns).toBeUndefined();
  });
});

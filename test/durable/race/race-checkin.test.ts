/**
 * Bib pick-up in the race object (src/durable/race/rules/checkin.ts), where it needs the platform: a timing phone's
 * socket hears a pick-up, D1's participants row follows it (the public list never shows it), the object's storage
 * keeps it across an eviction, a change of distance carries it between two race objects, and one race day at the
 * desk through the routes. The rule itself (replays, undo, two desks at once, bad input, a bib at pick-up, a reset,
 * the DNS marks) is tested in Node: test/race-room/checkin.test.ts.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RaceEvent, RunnerRecord } from "../../../src/shared/race-protocol";
import { testRace } from "../../worker/race-calls";
import { get, loginAdmin, waitFor, type CookieJar } from "../../worker/helpers";
import {
  addBoxOfficeRunner,
  addRunner,
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

async function d1PickedUp(id: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT picked_up_at FROM participants WHERE id = ?")
    .bind(id)
    .first<{ picked_up_at: number | null }>();
  return row?.picked_up_at ?? null;
}

describe("picking up a bib", () => {
  it("reaches every timing phone as one change and D1's participant row, never the public list", async () => {
    const part = await newRace(jar);
    const anna = await addBoxOfficeRunner(part, { firstname: "Anna", bib: 601 });
    const bo = await addRunner(jar, part, { firstname: "Bo", bib: 602 });
    const phone = await subscribe(jar, part);

    const at = Date.now() - 1_000;
    const result = await race(part).run(
      { type: "pick-up", runnerIds: [anna.id, bo.id], pickedUp: true, action: { actionId: tapId(), at } },
      desk,
    );
    expect(result.outcome).toBe("picked-up");

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

    expect(await d1PickedUp(anna.id)).toBe(at);

    const publicList = await json<Record<string, unknown>[]>(await get(`/api/races/get/${part}`));
    expect(JSON.stringify(publicList)).not.toContain("pickedUp");
    const adminList = await json<Record<string, unknown>[]>(await get(`/admin/api/races/get/${part}`, { jar }));
    expect(adminList.filter((r) => r.pickedUpAt === at)).toHaveLength(2);
    phone.socket.ws.close();
  });

  // A reset keeping the pick-up, and the old race refusing a desk that still shows the runner, are the room's
  // (test/race-room/checkin.test.ts); here what only the platform has: the object's storage after an eviction, and
  // a move between two race objects with D1 following.
  it("survives an eviction, and goes along with a change of distance to the new race object and D1", async () => {
    const part = await newRace(jar);
    const target = await newRace(jar, 2800);
    const anna = await addBoxOfficeRunner(part, { firstname: "Anna", bib: 611 });
    const at = Date.now() - 5_000;
    await race(part).run({ type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { at } }, desk);

    await evictDurableObject(env.RACE.getByName(part));
    expect((await race(part).getRunner(anna.id))!.pickedUpAt).toBe(at);

    await json(await get(`/admin/api/races/change-distance/${target}/${part}/runner-${anna.id}`, { jar }));
    expect((await race(target).getRunner(anna.id))!.pickedUpAt).toBe(at);
    expect(await race(part).getRunner(anna.id)).toBeNull();
    expect(await d1PickedUp(anna.id)).toBe(at);
  });
});

describe("the desk's race day through the routes", () => {
  it("a runner added on the race screen after the start is checked in; 'Markera ej hämtade som DNS' takes its word, reaches the phones, and a mark comes off per runner", async () => {
    const part = await newRace(jar);
    const picked = await addRunner(jar, part, { firstname: "Picked", bib: 650 });
    const absent = await addRunner(jar, part, { firstname: "Absent", bib: 651 });
    // Added on the race screen before the start: picks up at the desk like anyone.
    expect(absent.pickedUpAt).toBeUndefined();
    await race(part).run({ type: "pick-up", runnerIds: [picked.id], pickedUp: true, action: {} }, desk);

    await json(await startEarlier(jar, part));
    // The race screen's add is the route that says the runner is at the race (AddRunnerOptions.onSite).
    const atFinish = await addRunner(jar, part, { firstname: "AtFinish", bib: 661 });
    expect(typeof atFinish.pickedUpAt).toBe("number");
    const phone = await subscribe(jar, part);

    // Through the Worker, confirmed with the word: without it, or with another, nothing is marked.
    for (const query of ["", "?confirm=", "?confirm=dns", "?confirm=APRAKET", "?confirm=JA"]) {
      const refused = await get(`/admin/api/races/dns-not-picked-up/${part}${query}`, { jar });
      expect(refused.status, query).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(
        "Skriv DNS för att markera dem som inte hämtat som DNS.",
      );
    }
    expect((await race(part).getRunner(absent.id))!.dns).toBeUndefined();
    const { marked } = await json<{ marked: RunnerRecord[] }>(
      await get(`/admin/api/races/dns-not-picked-up/${part}?confirm=DNS&device=desk-1`, { jar }),
    );
    expect(marked.map((r) => r.id)).toEqual([absent.id]);
    expect(marked.every((r) => r.dns)).toBe(true);
    await waitFor(() => dataFrames(phone.socket).length > 1, 5000, "the DNS marks on the timing phone");
    expect((dataFrames(phone.socket)[1] as (RaceEvent & RunnerRecord)[]).filter((e) => e.dns).map((e) => e.id)).toEqual(
      [absent.id],
    );

    await json(await get(`/admin/api/races/dns/${part}/runner-${absent.id}/off`, { jar }));
    expect((await race(part).getRunner(absent.id))!.dns).toBeUndefined();
    expect((await race(part).getRunner(picked.id))!.dns).toBeUndefined();
    expect((await race(part).getRunner(atFinish.id))!.dns).toBeUndefined();
    phone.socket.ws.close();
  });
});

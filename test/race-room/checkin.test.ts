/**
 * Bib pick-up at the desk in the race room (rules/checkin.ts): 'Hämtat' and 'Ångra' with the desk's action ids
 * (a queued action replayed changes nothing), two desks at once, a bib at pick-up, bad input refused with nothing
 * changed, a reset that keeps the pick-up, 'Markera ej hämtade som DNS' (during rapid timing too, while a 'Mål!'
 * slot waits for its bib) and a runner added on the race screen after the start. What needs the platform (a timing
 * phone's socket, D1's participants row, the public list over HTTP, eviction, a change of distance between two race
 * objects, the routes) stays in test/durable/race/race-checkin.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MAX_CLOCK_ERROR_MS, MAX_TAP_AGE_MS, type RunnerRecord } from "../../src/shared/race-protocol";
import type { RunnerInput } from "../../src/durable/race/types";
import { newRoom, refusal, runner, tapId, type TestRoom } from "./room-helpers";

const desk = { actor: "desk@example.se", device: "desk-1" };
const otherDesk = { actor: "desk2@example.se", device: "desk-2" };

function add(race: TestRoom, fields: Partial<RunnerInput> = {}): RunnerRecord {
  return race.run({ type: "add-runner", runner: runner(fields) }).runner;
}

/** 'Hämtat' for these runners from a desk, as the desk sends it (an action id made on the device). */
function pickUp(race: TestRoom, ids: string[], action: { actionId?: string; at?: number } = { actionId: tapId() }) {
  return race.apply({ type: "pick-up", runnerIds: ids, pickedUp: true, action }, desk);
}

function undo(race: TestRoom, ids: string[], action: { actionId?: string; at?: number } = { actionId: tapId() }) {
  return race.apply({ type: "pick-up", runnerIds: ids, pickedUp: false, action }, desk);
}

describe("'Hämtat' at the desk", () => {
  it("marks a family in one audited change naming who, which device and the moment pressed; each runner's record and D1 mirror are owed", () => {
    const race = newRoom();
    const anna = add(race, { firstname: "Anna", bib: 601 });
    const bo = add(race, { firstname: "Bo", bib: 602 });
    const at = race.clock.now() - 1_000;

    const { value, owed } = pickUp(race, [anna.id, bo.id], { actionId: tapId(), at });
    expect(value.outcome).toBe("picked-up");
    expect(value.changed.sort()).toEqual([anna.id, bo.id].sort());
    expect(value.already).toEqual([]);
    expect(value.runners.map((r) => r.pickedUpAt)).toEqual([at, at]);

    // Every admin socket hears both runners, as one change (one seq) for the whole family.
    const events = owed.events as RunnerRecord[];
    expect(events.map((e) => e.id).sort()).toEqual([anna.id, bo.id].sort());
    expect(events.every((e) => e.pickedUpAt === at)).toBe(true);
    expect(new Set(events.map((e) => e.seq)).size).toBe(1);
    // D1's participants.picked_up_at follows: the mirror is owed now, and kept owed for the alarm.
    expect([...owed.mirror].sort()).toEqual([anna.id, bo.id].sort());
    expect(race.room.pendingMirrors()).toEqual(expect.arrayContaining([anna.id, bo.id]));
    expect(race.room.runnerMirror(anna.id)).toMatchObject({ inRace: true, pickedUpAt: at, bib: 601 });

    const audit = race.audit("picked-up");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: desk.actor, device: desk.device });
    expect(audit[0]!.data).toMatchObject({ at, runners: [{ bib: 601 }, { bib: 602 }] });
    expect(race.room.runners().filter((r) => r.pickedUpAt === at)).toHaveLength(2);
  });

  it("never shows a pick-up to the spectators' feed", () => {
    const race = newRoom();
    const anna = add(race, { bib: 601 });
    const since = race.room.publicSince(0).seq;
    pickUp(race, [anna.id]);
    expect(JSON.stringify(race.room.publicSince(0))).not.toContain("picked");
    expect(JSON.stringify(race.room.publicSince(since))).not.toContain("picked");
  });

  it("a second check-in from another desk keeps the first moment, says so, and writes nothing", () => {
    const race = newRoom();
    const anna = add(race);
    const at = race.clock.now() - 60_000;
    pickUp(race, [anna.id], { actionId: tapId(), at });
    const before = race.auditTypes();

    race.clock.advance(30_000);
    const again = race.apply(
      { type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { actionId: tapId() } },
      otherDesk,
    );
    expect(again.value).toMatchObject({ outcome: "unchanged", changed: [], already: [anna.id] });
    expect(again.value.runners[0]!.pickedUpAt).toBe(at);
    expect(again.owed.events).toEqual([]);
    expect(again.owed.mirror).toEqual([]);
    expect(race.auditTypes()).toEqual(before);
  });

  it("a family where one runner picked up already changes only the other, and names the one who had", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    const first = race.clock.now() - 120_000;
    pickUp(race, [anna.id], { actionId: tapId(), at: first });

    const { value } = pickUp(race, [anna.id, bo.id]);
    expect(value).toMatchObject({ outcome: "picked-up", changed: [bo.id], already: [anna.id] });
    expect(value.runners.map((r) => r.pickedUpAt)).toEqual([first, race.clock.now()]);
  });

  it("a runner named twice in one action is picked up once", () => {
    const race = newRoom();
    const anna = add(race);
    const { value } = pickUp(race, [anna.id, anna.id]);
    expect(value.changed).toEqual([anna.id]);
    expect(value.runners).toHaveLength(1);
    expect(race.audit("picked-up")[0]!.data.runners).toHaveLength(1);
  });

  it("takes the moment the volunteer pressed: queued hours ago, or slightly ahead of the server (clamped to now)", () => {
    const race = newRoom();
    const [a, b, c] = [add(race), add(race), add(race)];
    const now = race.clock.now();
    expect(pickUp(race, [a.id], { at: now - 3 * 3_600_000 }).value.runners[0]!.pickedUpAt).toBe(now - 3 * 3_600_000);
    // A desk has no clock sync beyond the page's server time: up to the largest clock error counts as now.
    expect(pickUp(race, [b.id], { at: now + MAX_CLOCK_ERROR_MS }).value.runners[0]!.pickedUpAt).toBe(now);
    expect(pickUp(race, [c.id], {}).value.runners[0]!.pickedUpAt).toBe(now);
  });
});

describe("'Ångra' and replayed desk actions", () => {
  it("'Ångra' takes the pick-up back, audited and mirrored; on a runner who never picked up it changes nothing", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    pickUp(race, [anna.id]);

    const undone = undo(race, [anna.id]);
    expect(undone.value).toMatchObject({ outcome: "undone", changed: [anna.id], already: [] });
    expect(undone.value.runners[0]!.pickedUpAt).toBeUndefined();
    expect(undone.owed.mirror).toEqual([anna.id]);
    expect(race.room.runnerMirror(anna.id)).toMatchObject({ inRace: true, pickedUpAt: null });
    expect(race.audit("pickup-undone")[0]).toMatchObject({ actor: desk.actor, device: desk.device });
    // An undo has no moment of its own: the runner simply has not picked up.
    expect(race.audit("pickup-undone")[0]!.data).not.toHaveProperty("at");

    const before = race.auditTypes();
    const nothing = undo(race, [bo.id]);
    expect(nothing.value).toMatchObject({ outcome: "unchanged", changed: [], already: [] });
    expect(nothing.owed.events).toEqual([]);
    expect(race.auditTypes()).toEqual(before);
  });

  it("a replayed action answers 'replayed' with the runners as they are now and changes nothing, even after an undo", () => {
    const race = newRoom();
    const anna = add(race);
    const first = tapId();
    const at = race.clock.now() - 60_000;
    pickUp(race, [anna.id], { actionId: first, at });
    undo(race, [anna.id]);

    // The first check-in arrives once more from a desk's queue: it was answered, so it is not done again.
    const replay = pickUp(race, [anna.id], { actionId: first, at });
    expect(replay.value).toMatchObject({ outcome: "replayed", changed: [], already: [] });
    expect(replay.value.runners[0]!.pickedUpAt).toBeUndefined();
    expect(replay.owed.events).toEqual([]);
    expect(race.auditTypes().filter((t) => t === "picked-up" || t === "pickup-undone")).toEqual([
      "picked-up",
      "pickup-undone",
    ]);
  });

  it("an undo replayed after a new pick-up does not take the new one back", () => {
    const race = newRoom();
    const anna = add(race);
    pickUp(race, [anna.id]);
    const undoId = tapId();
    undo(race, [anna.id], { actionId: undoId });
    const again = pickUp(race, [anna.id]).value.runners[0]!.pickedUpAt;
    expect(undo(race, [anna.id], { actionId: undoId }).value.outcome).toBe("replayed");
    expect(race.room.runner(anna.id)!.pickedUpAt).toBe(again);
  });

  it("refuses an action id used for something else (another kind or other runners) instead of taking it for a replay", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    const first = tapId();
    pickUp(race, [anna.id], { actionId: first });
    const before = race.auditTypes();
    const reused = "Åtgärdens id användes redan för något annat.";
    expect(refusal(() => undo(race, [anna.id], { actionId: first }))).toEqual({ status: 409, message: reused });
    expect(refusal(() => pickUp(race, [bo.id], { actionId: first }))).toEqual({ status: 409, message: reused });
    expect(refusal(() => pickUp(race, [anna.id, bo.id], { actionId: first }))).toEqual({
      status: 409,
      message: reused,
    });
    expect(race.auditTypes()).toEqual(before);
    expect(race.room.runner(anna.id)!.pickedUpAt).toBeDefined();
    expect(race.room.runner(bo.id)!.pickedUpAt).toBeUndefined();
  });

  it("a replay after a runner left the race answers the runners still in it", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    const action = tapId();
    pickUp(race, [anna.id, bo.id], { actionId: action });
    race.run({ type: "remove-runner", runnerId: bo.id });
    const replay = pickUp(race, [anna.id, bo.id], { actionId: action }).value;
    expect(replay.outcome).toBe("replayed");
    expect(replay.runners.map((r) => r.id)).toEqual([anna.id]);
  });
});

describe("two desks checking one family in at once", () => {
  // The race object takes one call at a time, so two desks at the same moment are two commands in a row: the
  // second finds the first's pick-up.
  it("make one pick-up: the second desk is told the family had picked up, and its action is still remembered", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    const firstAction = tapId();
    const secondAction = tapId();
    const first = race.apply(
      { type: "pick-up", runnerIds: [anna.id, bo.id], pickedUp: true, action: { actionId: firstAction } },
      desk,
    );
    race.clock.advance(200);
    const second = race.apply(
      { type: "pick-up", runnerIds: [bo.id, anna.id], pickedUp: true, action: { actionId: secondAction } },
      otherDesk,
    );
    expect([first.value.outcome, second.value.outcome]).toEqual(["picked-up", "unchanged"]);
    expect(second.value.already).toEqual([bo.id, anna.id]);
    expect(second.value.runners.map((r) => r.pickedUpAt)).toEqual([race.clock.now() - 200, race.clock.now() - 200]);
    expect(race.auditTypes().filter((t) => t === "picked-up")).toHaveLength(1);

    // The second desk's queue sends its action again: it answers as a replay, not as a fresh check-in.
    const replay = race.apply(
      { type: "pick-up", runnerIds: [bo.id, anna.id], pickedUp: true, action: { actionId: secondAction } },
      otherDesk,
    );
    expect(replay.value.outcome).toBe("replayed");
  });

  it("one desk's 'Hämtat' and another's 'Ångra' land in order: the later one stands", () => {
    const race = newRoom();
    const anna = add(race);
    pickUp(race, [anna.id]);
    race.apply({ type: "pick-up", runnerIds: [anna.id], pickedUp: false, action: { actionId: tapId() } }, otherDesk);
    expect(race.room.runner(anna.id)!.pickedUpAt).toBeUndefined();
    expect(race.auditTypes().filter((t) => t === "picked-up" || t === "pickup-undone")).toEqual([
      "picked-up",
      "pickup-undone",
    ]);
  });
});

describe("bad input at the desk", () => {
  it("is refused with a Swedish message, changing nothing and remembering no action id", () => {
    const race = newRoom();
    const anna = add(race);
    const before = race.auditTypes();
    const now = race.clock.now();
    const actionId = tapId();
    const cases: [() => unknown, number, string][] = [
      [() => pickUp(race, []), 400, "Välj en till 30 löpare."],
      [
        () =>
          pickUp(
            race,
            Array.from({ length: 31 }, () => anna.id),
          ),
        400,
        "Välj en till 30 löpare.",
      ],
      [() => pickUp(race, anna.id as unknown as string[]), 400, "Välj en till 30 löpare."],
      [() => pickUp(race, [anna.id, ""]), 400, "Ogiltigt deltagar-id."],
      [() => pickUp(race, [anna.id, "nobody"], { actionId }), 404, "Löparen finns inte i loppet."],
      [() => pickUp(race, [anna.id], { actionId: "x" }), 400, "Ogiltigt tryck-id."],
      [() => pickUp(race, [anna.id], { at: 1.5 }), 400, "Ogiltig tidpunkt."],
      [
        () => pickUp(race, [anna.id], { at: now + 10 * 60_000 }),
        422,
        "Tidpunkten ligger i framtiden. Kontrollera telefonens klocka och försök igen.",
      ],
      [() => pickUp(race, [anna.id], { at: now - MAX_TAP_AGE_MS - 1 }), 422, "Tidpunkten är för gammal."],
    ];
    for (const [call, status, message] of cases) expect(refusal(call)).toEqual({ status, message });
    expect(race.auditTypes()).toEqual(before);
    expect(race.room.runner(anna.id)!.pickedUpAt).toBeUndefined();
    // The refused action was not remembered: sent again for runners of the race, it is done, not replayed.
    expect(pickUp(race, [anna.id], { actionId }).value.outcome).toBe("picked-up");
  });

  it("a desk still showing a runner who is changing distance, or has left, is told the runner is not in the race", () => {
    const race = newRoom({ meters: 5600 });
    const anna = add(race);
    const bo = add(race);
    const target = "race-300601-28";
    race.room.beginMove(target, anna.id);
    expect(refusal(() => pickUp(race, [anna.id])).status).toBe(404);
    expect(refusal(() => race.run({ type: "bib-at-pickup", runnerId: anna.id, bib: "next" })).status).toBe(404);
    race.room.endMove(anna.id, target, { runner: anna, added: true });
    expect(refusal(() => pickUp(race, [anna.id]))).toEqual({ status: 404, message: "Löparen finns inte i loppet." });
    expect(race.room.runnersById([anna.id, bo.id]).map((r) => r.id)).toEqual([bo.id]);
  });
});

describe("a bib at pick-up", () => {
  it("gives the next free number once, keeps a runner's number on a repeat, and names the holder of a typed one", () => {
    const race = newRoom({ meters: 5600 });
    const anna = add(race, { firstname: "Anna", lastname: "Ek", bib: 600 });
    const bo = add(race, { firstname: "Bo" });
    const bib = (value: number | "next") => race.run({ type: "bib-at-pickup", runnerId: bo.id, bib: value }, desk);

    // 5.6 km's numbers start at 600 this season; Anna has it.
    expect(bib("next").bib).toBe(601);
    const before = race.auditTypes();
    // A replay, or a second desk, hands out nothing more.
    const repeat = race.apply({ type: "bib-at-pickup", runnerId: bo.id, bib: "next" }, otherDesk);
    expect(repeat.value.bib).toBe(601);
    expect(repeat.owed.events).toEqual([]);
    expect(race.auditTypes()).toEqual(before);

    expect(refusal(() => bib(600))).toEqual({ status: 409, message: "Startnummer 600 används redan av Anna Ek." });
    expect(bib(777).bib).toBe(777);
    expect(race.audit("runner-updated").at(-1)!.data).toEqual({ id: bo.id, changes: { bib: [601, 777] } });
    // The number is D1's too.
    expect(race.room.runnerMirror(bo.id)).toMatchObject({ bib: 777 });
    for (const bad of [0, -1, 2.5, 100_000]) {
      expect(refusal(() => bib(bad))).toEqual({
        status: 400,
        message: "Startnummer måste vara ett heltal från 1 till 99999.",
      });
    }
    expect(refusal(() => race.run({ type: "bib-at-pickup", runnerId: "nobody", bib: "next" })).status).toBe(404);
    expect(race.room.runner(anna.id)!.bib).toBe(600);
    expect(race.room.runner(bo.id)!.bib).toBe(777);
  });
});

describe("a reset", () => {
  it("keeps who picked up: it clears the race, not the desk", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    const at = race.clock.now() - 5_000;
    pickUp(race, [anna.id], { at });
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.run({ type: "dns-not-picked-up" });
    race.run({ type: "reset" });
    expect(race.room.runner(anna.id)!.pickedUpAt).toBe(at);
    expect(race.room.runner(bo.id)).not.toHaveProperty("dns");
    expect(race.room.runnerMirror(anna.id)).toMatchObject({ pickedUpAt: at });
  });
});

describe("'Markera ej hämtade som DNS'", () => {
  it("is refused before the start, marking nobody", () => {
    const race = newRoom();
    add(race);
    const before = race.auditTypes();
    expect(refusal(() => race.run({ type: "dns-not-picked-up" }, desk))).toEqual({
      status: 409,
      message: "Loppet har inte startat.",
    });
    expect(race.auditTypes()).toEqual(before);
    expect(race.room.runners().some((r) => r.dns)).toBe(false);
  });

  it("after the start marks every waiting runner who never picked up, in one audited action, undoable per runner", () => {
    const race = newRoom();
    const picked = add(race, { firstname: "Picked", bib: 650 });
    const absent = add(race, { firstname: "Absent", bib: 651 });
    const absent2 = add(race, { firstname: "Absent2", bib: 652 });
    const finisher = add(race, { firstname: "Finisher", bib: 653 });
    const dns = add(race, { firstname: "AlreadyDns", bib: 654 });
    const moving = add(race, { firstname: "Moving", bib: 655 });
    pickUp(race, [picked.id]);
    const started = race.clock.now();
    race.run({ type: "start", tap: { tapId: tapId(), at: started } });
    race.clock.advance(60_000);
    race.run({ type: "finish", runnerId: finisher.id, tap: { tapId: tapId() } });
    race.run({ type: "set-dns", runnerId: dns.id, dns: true });
    race.room.beginMove("race-300601-28", moving.id);

    const { value, owed } = race.apply({ type: "dns-not-picked-up" }, desk);
    expect(value.marked.map((r) => r.id)).toEqual([absent.id, absent2.id]);
    expect(value.marked.every((r) => r.dns === true)).toBe(true);
    // Every timing phone hears the marks as one change.
    expect(owed.events.map((e) => (e as RunnerRecord).id)).toEqual([absent.id, absent2.id]);
    expect(new Set(owed.events.map((e) => e.seq)).size).toBe(1);
    const audit = race.audit("dns-not-picked-up");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: desk.actor, device: desk.device });
    expect(audit[0]!.data).toEqual({
      runners: [
        { id: absent.id, bib: 651 },
        { id: absent2.id, bib: 652 },
      ],
    });

    // A second press finds nobody left to mark and writes nothing.
    const again = race.apply({ type: "dns-not-picked-up" }, desk);
    expect(again.value.marked).toEqual([]);
    expect(again.owed.events).toEqual([]);
    expect(race.audit("dns-not-picked-up")).toHaveLength(1);

    // Each mark is taken back on its own, with the ordinary DNS call.
    race.run({ type: "set-dns", runnerId: absent.id, dns: false });
    expect(race.room.runner(absent.id)!.dns).toBeUndefined();
    expect(race.room.runner(absent2.id)!.dns).toBe(true);
    expect(race.room.runner(picked.id)!.dns).toBeUndefined();
    expect(race.room.runner(finisher.id)!.dns).toBeUndefined();
  });
});

describe("'Markera ej hämtade som DNS' during rapid timing", () => {
  const timer = { actor: "tidtagare@example.se", device: "phone-t" };
  const bibPhone = { actor: "nummer@example.se", device: "phone-n" };

  /** A started race of runners with these bibs, none of whom picked up; 'Mål!' and typed bibs as the phones send them. */
  function rapidRace(bibs: number[]) {
    const race = newRoom();
    const runners = bibs.map((bib) => add(race, { firstname: `Löpare${bib}`, lastname: "Ek", bib }));
    const started = race.clock.now() - 20 * 60_000;
    race.run({ type: "start", tap: { tapId: tapId(), at: started } });
    const tap = (seconds: number) => {
      const answer = race.run({ type: "rapid-tap", tap: { tapId: tapId(), at: started + seconds * 1_000 } }, timer);
      if (answer.outcome === "review") throw new Error(`the tap went to the review list: ${answer.review.reason}`);
      return answer.key!;
    };
    const typeBib = (bib: number) => race.run({ type: "enter-bib", entryId: tapId(), bib }, bibPhone);
    const dnsOf = (bib: number) => race.room.runners().find((r) => r.bib === bib)!.dns === true;
    return { race, runners, tap, typeBib, dnsOf };
  }

  it("is refused while a 'Mål!' slot has no runner (its bib not typed yet), marking nobody; once every slot has its runner it marks the rest", () => {
    const { race, tap, typeBib, dnsOf } = rapidRace([671, 672, 673, 674]);
    tap(60);
    tap(70);
    const bulk = () => race.run({ type: "dns-not-picked-up" }, desk);
    const before = race.auditTypes();
    // 671 and 672 crossed the line: their slots wait for their bibs, so either of them may be 'not picked up'.
    expect(refusal(bulk)).toEqual({
      status: 409,
      message:
        "2 måltider har ännu ingen löpare: de som gick i mål då kan vara bland dem som inte hämtat nummerlappen. " +
        "Skriv in de startnummer som saknas i målordningen först (och ta bort måltider som inte är någon löpare).",
    });
    expect(race.auditTypes()).toEqual(before);
    typeBib(671);
    expect(refusal(bulk)).toEqual({
      status: 409,
      message:
        "1 måltid har ännu ingen löpare: den som gick i mål då kan vara en av dem som inte hämtat nummerlappen. " +
        "Skriv in de startnummer som saknas i målordningen först (och ta bort måltider som inte är någon löpare).",
    });
    expect(race.auditTypes().filter((t) => t === "dns-not-picked-up")).toEqual([]);
    expect([671, 672, 673, 674].some(dnsOf)).toBe(false);

    typeBib(672);
    expect(bulk().marked.map((r) => r.bib)).toEqual([673, 674]);
    expect([671, 672].some(dnsOf)).toBe(false);
  });

  it("a stray slot discarded is no runner: the action is taken again", () => {
    const { race, tap, typeBib, dnsOf } = rapidRace([675, 676]);
    tap(60);
    const stray = tap(61);
    typeBib(675);
    expect(refusal(() => race.run({ type: "dns-not-picked-up" }, desk)).status).toBe(409);
    race.run({ type: "discard-slot", tapId: stray });
    expect(race.run({ type: "dns-not-picked-up" }, desk).marked.map((r) => r.bib)).toEqual([676]);
    expect(dnsOf(675)).toBe(false);
  });

  it("leaves out a runner whose bib is typed while their 'Mål!' tap has not arrived: they crossed the line", () => {
    const { race, tap, typeBib, dnsOf } = rapidRace([681, 682, 683]);
    tap(60);
    // The bib phone runs ahead of the timer: 682 is typed before its slot has come.
    typeBib(681);
    typeBib(682);
    expect(race.room.reviews().map((r) => [r.kind, r.bib])).toEqual([["bib-unmatched", 682]]);

    const { value, owed } = race.apply({ type: "dns-not-picked-up" }, desk);
    expect(value.marked.map((r) => r.bib)).toEqual([683]);
    expect(owed.events.map((e) => (e as RunnerRecord).bib)).toEqual([683]);
    expect(race.audit("dns-not-picked-up")[0]!.data).toEqual({ runners: [{ id: value.marked[0]!.id, bib: 683 }] });
    expect(dnsOf(682)).toBe(false);

    // Its tap arrives: 682 gets its time, with nothing to decide on the review list.
    tap(65);
    expect(race.room.runners().find((r) => r.bib === 682)!.finished).not.toBeNull();
    expect(race.room.reviews()).toEqual([]);
  });
});

describe("a runner added after the start", () => {
  it("on the race screen counts as checked in as added, so the bulk DNS leaves them alone; any other way in does not", () => {
    const race = newRoom();
    const before = race.run({
      type: "add-runner",
      runner: runner({ firstname: "Before", bib: 660 }),
      options: { onSite: true },
    }).runner;
    // Added on the race screen before the start, a runner picks up at the desk like anyone.
    expect(before.pickedUpAt).toBeUndefined();
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.clock.advance(90_000);
    const atFinish = race.run({
      type: "add-runner",
      runner: runner({ firstname: "AtFinish", bib: 661 }),
      options: { onSite: true },
    }).runner;
    expect(atFinish.pickedUpAt).toBe(race.clock.now());
    expect(race.audit("runner-added").at(-1)!.data).toMatchObject({ id: atFinish.id, pickedUpAt: race.clock.now() });
    // A late payment is not at the race because it was paid.
    const paid = add(race, { firstname: "Paid" });
    expect(paid.pickedUpAt).toBeUndefined();

    const { marked } = race.run({ type: "dns-not-picked-up" }, desk);
    expect(marked.map((r) => r.id).sort()).toEqual([before.id, paid.id].sort());
    expect(race.room.runner(atFinish.id)!.dns).toBeUndefined();
  });

  it("keeps a pick-up it brings along (a box-office sale, a change of distance), and refuses a bad one", () => {
    const race = newRoom();
    const at = race.clock.now() - 30_000;
    const sold = race.run({ type: "add-runner", runner: runner({ pickedUpAt: at }) }).runner;
    expect(sold.pickedUpAt).toBe(at);
    for (const bad of [0, -5, 1.5, "1"]) {
      const input = { ...runner(), pickedUpAt: bad as number };
      expect(refusal(() => race.run({ type: "add-runner", runner: input }))).toEqual({
        status: 400,
        message: "Ogiltig tidpunkt.",
      });
    }
    expect(race.room.runners()).toHaveLength(1);
  });
});

/**
 * "Byt distans" in the race room (rules/move.ts): the steps the race object runs across two race objects, with no
 * transaction between them. checkMove refuses early; beginMove takes the runner out of this race's lists (checked
 * again, as a finish may land while the object reads D1); the target's add-runner takes it; endMove leaves a
 * tombstone, or cancelMove puts the runner back. The move between two real objects, through the route, stays in
 * test/durable (race-checkin.test.ts carries a pick-up across it).
 */
import { describe, expect, it } from "vitest";
import type { RunnerRecord } from "../../src/shared/race-protocol";
import type { RunnerInput } from "../../src/durable/race/types";
import { ADMIN, newRoom, refusal, runner, tapId, type TestRoom } from "./room-helpers";

const TARGET = "race-300601-28";
const OTHER_TARGET = "race-300601-16";

function add(race: TestRoom, fields: Partial<RunnerInput> = {}): RunnerRecord {
  return race.run({ type: "add-runner", runner: runner(fields) }).runner;
}

/** What the target race's add-runner answers (step 2), for endMove. */
function addedThere(record: RunnerRecord, droppedBib?: number) {
  return droppedBib === undefined ? { runner: record, added: true } : { runner: record, added: true, droppedBib };
}

describe("checkMove", () => {
  it("refuses an unknown runner, the same race, a bad target, a finished runner and one moving elsewhere; writes nothing", () => {
    const race = newRoom();
    const anna = add(race);
    const finisher = add(race);
    const moving = add(race);
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.clock.advance(60_000);
    race.run({ type: "finish", runnerId: finisher.id, tap: { tapId: tapId() } });
    race.room.beginMove(OTHER_TARGET, moving.id);
    const before = race.auditTypes();

    const check = (target: string, id: string) => refusal(() => race.room.checkMove(target, id));
    expect(check(TARGET, "nobody")).toEqual({ status: 404, message: "Löparen finns inte i loppet." });
    expect(check(TARGET, "")).toEqual({ status: 400, message: "Ogiltigt deltagar-id." });
    expect(check(race.part, anna.id)).toEqual({ status: 400, message: "Löparen är redan anmäld till det loppet." });
    expect(check("race-nonsense", anna.id)).toEqual({ status: 404, message: "Loppet finns inte" });
    expect(check(TARGET, finisher.id)).toEqual({
      status: 409,
      message: "Löparen har gått i mål; ångra målgången först.",
    });
    expect(check(TARGET, moving.id)).toEqual({
      status: 409,
      message: "Löparen håller redan på att flyttas till ett annat lopp.",
    });
    // The same move again is no refusal: a retry of a move half-way goes on.
    expect(() => race.room.checkMove(OTHER_TARGET, moving.id)).not.toThrow();
    expect(() => race.room.checkMove(TARGET, anna.id)).not.toThrow();
    expect(race.auditTypes()).toEqual(before);
  });
});

describe("beginMove", () => {
  it("takes the runner out of the race's lists, audited, with a removal for every phone; it is then on its way", () => {
    const race = newRoom();
    const at = race.clock.now() - 1_000;
    const anna = add(race, { firstname: "Anna", bib: 611, pickedUpAt: at });
    const bo = add(race);

    const { value, owed } = race.room.beginMove(TARGET, anna.id, ADMIN);
    expect(value).toMatchObject({ id: anna.id, moving_to: TARGET });
    expect(owed.events).toEqual([
      { type: "runner", part: race.part, sort: `runner-${anna.id}`, removed: true, seq: value.seq },
    ]);
    expect(race.room.runners().map((r) => r.id)).toEqual([bo.id]);
    expect(race.room.runner(anna.id)).toBeNull();
    expect(race.room.runnersById([anna.id])).toEqual([]);
    expect(race.room.catchUp(0).events.some((e) => e.sort === `runner-${anna.id}`)).toBe(false);
    expect(race.audit("runner-moving")).toEqual([
      expect.objectContaining({ actor: ADMIN.actor, device: ADMIN.device, data: { id: anna.id, to: TARGET } }),
    ]);

    // What the target's add-runner takes: the runner with its bib and its pick-up.
    expect(race.room.movingRunners()).toEqual([anna.id]);
    expect(race.room.movingRunner(anna.id)).toEqual({
      targetPart: TARGET,
      runner: {
        id: anna.id,
        firstname: "Anna",
        lastname: anna.lastname,
        age: anna.age,
        company: "",
        group: "Dam",
        bib: 611,
        pickedUpAt: at,
      },
    });
    expect(race.room.movingRunner(bo.id)).toBeNull();
    // On its way, D1 is the target's to link: this race mirrors nothing of it.
    expect(race.room.runnerMirror(anna.id)).toBeNull();
  });

  it("is idempotent: the same move again changes nothing, another target is refused", () => {
    const race = newRoom();
    const anna = add(race);
    race.room.beginMove(TARGET, anna.id);
    const before = race.auditTypes();
    const again = race.room.beginMove(TARGET, anna.id);
    expect(again.value.moving_to).toBe(TARGET);
    expect(again.owed.events).toEqual([]);
    expect(race.auditTypes()).toEqual(before);
    expect(refusal(() => race.room.beginMove(OTHER_TARGET, anna.id)).status).toBe(409);
    expect(race.room.movingRunner(anna.id)!.targetPart).toBe(TARGET);
  });

  it("checks again: a finish that landed after checkMove (while the object read D1) keeps the runner here", () => {
    const race = newRoom();
    const anna = add(race, { bib: 7 });
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.clock.advance(60_000);
    race.room.checkMove(TARGET, anna.id);
    race.run({ type: "finish", runnerId: anna.id, tap: { tapId: tapId() } });
    expect(refusal(() => race.room.beginMove(TARGET, anna.id))).toEqual({
      status: 409,
      message: "Löparen har gått i mål; ångra målgången först.",
    });
    expect(race.room.runner(anna.id)).toMatchObject({ finished: race.clock.now(), bib: 7 });
    expect(race.room.movingRunners()).toEqual([]);
    expect(race.auditTypes()).not.toContain("runner-moving");
  });
});

describe("endMove", () => {
  it("leaves a tombstone, audited with the bib it had and any the target dropped, and owes D1 the unlink", () => {
    const race = newRoom();
    const anna = add(race, { bib: 611 });
    race.room.beginMove(TARGET, anna.id);
    const there = { ...anna, part: TARGET, bib: null, distance: "2.8" as const };

    const { value, owed } = race.room.endMove(anna.id, TARGET, addedThere(there, 611), ADMIN);
    expect(value).toEqual({ runner: there, droppedBib: 611 });
    expect(owed.events).toEqual([
      { type: "runner", part: race.part, sort: `runner-${anna.id}`, removed: true, seq: expect.any(Number) },
    ]);
    expect(owed.mirror).toEqual([anna.id]);
    expect(race.room.pendingMirrors()).toContain(anna.id);
    expect(race.room.runnerMirror(anna.id)).toEqual({ inRace: false, part: race.part, seq: owed.events[0]!.seq });
    expect(race.audit("runner-moved")[0]).toMatchObject({
      actor: ADMIN.actor,
      data: { id: anna.id, to: TARGET, bib: 611, droppedBib: 611 },
    });
    expect(race.room.movingRunners()).toEqual([]);
    expect(race.room.movingRunner(anna.id)).toBeNull();
    // The number is free again here.
    expect(add(race, { bib: 611 }).bib).toBe(611);
  });

  it("answers the target's runner alone when the target kept the bib", () => {
    const race = newRoom();
    const anna = add(race, { bib: 611 });
    race.room.beginMove(TARGET, anna.id);
    const there = { ...anna, part: TARGET };
    expect(race.room.endMove(anna.id, TARGET, addedThere(there)).value).toEqual({ runner: there });
  });

  it("is refused for a runner not moving there, changing nothing", () => {
    const race = newRoom();
    const anna = add(race);
    const bo = add(race);
    race.room.beginMove(TARGET, anna.id);
    const before = race.auditTypes();
    expect(refusal(() => race.room.endMove(anna.id, OTHER_TARGET, addedThere(anna))).status).toBe(404);
    expect(refusal(() => race.room.endMove(bo.id, TARGET, addedThere(bo))).status).toBe(404);
    expect(refusal(() => race.room.endMove("nobody", TARGET, addedThere(bo))).status).toBe(404);
    expect(race.auditTypes()).toEqual(before);
    expect(race.room.runner(bo.id)).not.toBeNull();
  });
});

describe("cancelMove", () => {
  it("puts the runner back in the race's lists, audited with the target's reason", () => {
    const race = newRoom();
    const anna = add(race, { bib: 611 });
    race.room.beginMove(TARGET, anna.id);
    const reason = "Loppet är avslutat och tar inte emot fler löpare. Löparen ligger kvar i sitt lopp.";

    const { value, owed } = race.room.cancelMove(anna.id, TARGET, reason, ADMIN);
    expect(value).toBeNull();
    expect(owed.events).toEqual([{ ...race.room.runner(anna.id)!, seq: expect.any(Number) }]);
    expect(race.room.runners().map((r) => r.id)).toEqual([anna.id]);
    expect(race.room.runner(anna.id)!.bib).toBe(611);
    expect(race.room.movingRunner(anna.id)).toBeNull();
    expect(race.room.movingRunners()).toEqual([]);
    expect(race.audit("runner-move-cancelled")[0]!.data).toEqual({ id: anna.id, to: TARGET, reason });
    // Back in the race, it can be moved again, elsewhere.
    expect(race.room.beginMove(OTHER_TARGET, anna.id).value.moving_to).toBe(OTHER_TARGET);
  });

  it("a late refusal of a move already cancelled leaves the runner's newer move alone, and writes nothing", () => {
    // The alarm and the call both finish the move to TARGET; the first cancels it, the admin moves the runner to
    // OTHER_TARGET, and then the second's refusal of TARGET arrives.
    const race = newRoom();
    const anna = add(race);
    race.room.beginMove(TARGET, anna.id);
    race.room.cancelMove(anna.id, TARGET, "Loppet finns inte");
    race.room.beginMove(OTHER_TARGET, anna.id);
    const before = race.room.events();

    const late = race.room.cancelMove(anna.id, TARGET, "Loppet finns inte");
    expect(late.value).toBeNull();
    expect(late.owed.events).toEqual([]);
    expect(race.room.events()).toEqual(before);
    expect(race.room.movingRunner(anna.id)?.targetPart).toBe(OTHER_TARGET);
    // A runner that is not moving, or not in the race, is no move to cancel either.
    expect(race.room.cancelMove("nobody", TARGET, "x").owed.events).toEqual([]);
    expect(race.room.events()).toEqual(before);
  });
});

describe("a whole change of distance between two rooms", () => {
  // The object's completeMove, step by step: what the target's add-runner is given and answers.
  it("carries the runner with its pick-up; a bib the target has is dropped there and reported", () => {
    const source = newRoom({ meters: 5600 });
    const target = newRoom({ meters: 2800 });
    const at = source.clock.now() - 10_000;
    const anna = add(source, { firstname: "Anna", bib: 611 });
    source.run({ type: "pick-up", runnerIds: [anna.id], pickedUp: true, action: { at } });
    add(target, { bib: 611 });

    source.room.beginMove(target.part, anna.id);
    const moving = source.room.movingRunner(anna.id)!;
    expect(moving.targetPart).toBe(target.part);
    const added = target.run({
      type: "add-runner",
      runner: moving.runner,
      options: { dropTakenBib: true, move: true },
    });
    expect(added).toMatchObject({
      added: true,
      droppedBib: 611,
      runner: { bib: null, pickedUpAt: at, distance: "2.8" },
    });
    // The target links the runner in D1, with the pick-up; the source unlinks it from its tombstone.
    expect(target.room.runnerMirror(anna.id)).toMatchObject({ inRace: true, pickedUpAt: at, bib: null });

    const moved = source.room.endMove(anna.id, target.part, added);
    expect(moved.value).toEqual({ runner: added.runner, droppedBib: 611 });
    expect(source.room.runnerMirror(anna.id)).toMatchObject({ inRace: false });
    expect(target.room.runner(anna.id)!.pickedUpAt).toBe(at);

    // A retry of step 2 (the alarm) finds the runner there already and adds nothing.
    expect(target.run({ type: "add-runner", runner: moving.runner, options: { move: true } }).added).toBe(false);
  });

  it("an ended target refuses for good, and the runner is back in its race", () => {
    const source = newRoom();
    const target = newRoom({ meters: 2800, state: "ended", started: source.clock.now() - 3_600_000 });
    const anna = add(source);
    source.room.beginMove(target.part, anna.id);
    const refused = (() => {
      try {
        target.run({ type: "add-runner", runner: source.room.movingRunner(anna.id)!.runner, options: { move: true } });
      } catch (err) {
        return err as { status: number; final?: boolean; message: string };
      }
      throw new Error("expected the ended race to refuse");
    })();
    expect(refused).toMatchObject({ status: 409, final: true });
    expect(target.room.runners()).toEqual([]);
    source.room.cancelMove(anna.id, target.part, refused.message);
    expect(source.room.runner(anna.id)).not.toBeNull();
  });
});

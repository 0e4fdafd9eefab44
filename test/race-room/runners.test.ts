/**
 * Runners and bibs in the race room (rules/runners.ts, rules/bib.ts): adding (once per participant), editing, bibs
 * unique within the race, removing, and the order the race lists them in.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, newRoom, refusal, runner, tapId } from "./room-helpers";

describe("adding a runner", () => {
  it("answers the spec's runner record and audits who added it from which device", () => {
    const race = newRoom();
    const input = { ...runner({ bib: 612 }), firstname: "Anna", lastname: "Berg", age: 34, company: "IK Ymer" };
    const { runner: added, added: wasAdded } = race.run(
      { type: "add-runner", runner: input },
      { actor: "kassa@example.se", device: "ipad" },
    );
    expect(wasAdded).toBe(true);
    expect(added).toEqual({
      type: "runner",
      part: race.part,
      sort: `runner-${input.id}`,
      id: input.id,
      bib: 612,
      firstname: "Anna",
      lastname: "Berg",
      age: 34,
      company: "IK Ymer",
      group: "Dam",
      finished: null,
      distance: "5.6",
      seq: expect.any(Number),
    });
    expect(race.room.runners()).toEqual([added]);
    expect(race.room.runner(input.id)).toEqual(added);
    const [, event] = race.room.events();
    expect(event).toMatchObject({ type: "runner-added", actor: "kassa@example.se", device: "ipad" });
    expect(JSON.parse(event!.payload)).toMatchObject({ id: input.id, bib: 612 });
  });

  it("adds the same participant only once: a repeat answers the runner as it is", () => {
    const race = newRoom();
    const input = runner({ bib: 3, firstname: "Anna" });
    race.run({ type: "add-runner", runner: input });
    const again = race.run({ type: "add-runner", runner: { ...input, firstname: "Annika", bib: 4 } });
    expect(again.added).toBe(false);
    expect(again.runner).toMatchObject({ firstname: "Anna", bib: 3 });
    expect(race.room.runners()).toHaveLength(1);
    expect(race.auditTypes().filter((t) => t === "runner-added")).toHaveLength(1);
  });

  it("refuses bad input with a Swedish message and stores nothing", () => {
    const race = newRoom();
    const cases: [ReturnType<typeof runner>, string][] = [
      [{ ...runner(), age: -1 }, "felaktig ålder"],
      [{ ...runner(), age: 12.5 }, "felaktig ålder"],
      [{ ...runner(), firstname: "  " }, "Ange namn"],
      [{ ...runner(), group: "Barn" }, "Ogiltig grupp (Ingen, Dam eller Herr)."],
      [{ ...runner(), bib: -4 }, "Startnummer måste vara ett heltal från 1 till 99999."],
      [{ ...runner(), distance: "2.8" }, "Fel distans för loppet: 2.8 km (loppet är 5.6 km)."],
      [{ ...runner(), id: "" }, "Ogiltigt deltagar-id."],
    ];
    for (const [input, message] of cases) {
      expect(refusal(() => race.run({ type: "add-runner", runner: input }))).toEqual({ status: 400, message });
    }
    expect(race.room.runners()).toEqual([]);
    expect(race.auditTypes()).toEqual(["race-created"]);
  });

  it("a paid runner whose bib was taken meanwhile joins without it, when asked to", () => {
    const race = newRoom();
    race.run({ type: "add-runner", runner: runner({ bib: 5 }) });
    const second = runner({ bib: 5, firstname: "Per" });
    expect(refusal(() => race.run({ type: "add-runner", runner: second })).status).toBe(409);
    const result = race.run({ type: "add-runner", runner: second, options: { dropTakenBib: true } });
    expect(result).toMatchObject({ added: true, droppedBib: 5, runner: { bib: null, firstname: "Per" } });
    // The dropped number is owed to D1 too: its participant row must lose it.
    expect(race.room.pendingMirrors()).toContain(second.id);
  });
});

describe("editing a runner", () => {
  it("changes a bib, refuses one another runner uses, and audits each change with the old and new values", () => {
    const race = newRoom();
    const anna = runner({ bib: 12, firstname: "Anna", lastname: "Berg", company: "IK Ymer" });
    const per = runner({ firstname: "Per", lastname: "Holm", company: "IK Ymer" });
    race.run({ type: "add-runner", runner: anna });
    race.run({ type: "add-runner", runner: per });
    const update = (runnerId: string, patch: Record<string, unknown>) =>
      race.run({ type: "update-runner", runnerId, patch });

    expect(refusal(() => update(per.id, { bib: 12 }))).toEqual({
      status: 409,
      message: "Startnummer 12 används redan av Anna Berg.",
    });
    expect(race.room.runner(per.id)?.bib).toBeNull();
    expect(update(per.id, { bib: 13, company: "OK Ravinen" })).toMatchObject({ bib: 13, company: "OK Ravinen" });
    // Keeping one's own bib is no clash.
    expect(update(anna.id, { bib: 12, firstname: "Annika" }).firstname).toBe("Annika");
    for (const bib of [-1, 1.5, "14", 100_000]) expect(refusal(() => update(per.id, { bib })).status).toBe(400);
    // Spec: 0 or missing means no number.
    expect(update(per.id, { bib: 0 }).bib).toBeNull();
    expect(update(anna.id, { bib: null }).bib).toBeNull();
    expect(update(per.id, { bib: 12 }).bib).toBe(12);

    expect(race.audit("runner-updated")[0]!.data).toEqual({
      id: per.id,
      changes: { bib: [null, 13], company: ["IK Ymer", "OK Ravinen"] },
    });
    expect(refusal(() => update("finns-inte", { bib: 1 })).status).toBe(404);
  });

  it("'next' gives the next free number of the season's range for the distance, once", () => {
    const race = newRoom({ meters: 2800 });
    const ella = race.run({ type: "add-runner", runner: runner() }).runner;
    const first = race.run({ type: "register-bib", runnerId: ella.id, bib: "next" });
    expect(first.bib).toEqual(expect.any(Number));
    const other = race.run({ type: "add-runner", runner: runner() }).runner;
    const second = race.run({ type: "register-bib", runnerId: other.id, bib: "next" });
    expect(second.bib).not.toBe(first.bib);
    expect(refusal(() => race.run({ type: "register-bib", runnerId: other.id, bib: first.bib! })).status).toBe(409);
  });
});

describe("removing a runner", () => {
  it("leaves a tombstone and frees the bib; a second removal changes nothing", () => {
    const race = newRoom();
    const a = runner({ bib: 1 });
    const b = runner({ bib: 2 });
    race.run({ type: "add-runner", runner: a });
    race.run({ type: "add-runner", runner: b });
    const removed = race.apply({ type: "remove-runner", runnerId: a.id });
    expect(removed.value?.id).toBe(a.id);
    // Every phone hears of it as a removal, and D1 owes an unlink.
    expect(removed.owed.events).toEqual([
      { type: "runner", part: race.part, sort: `runner-${a.id}`, removed: true, seq: expect.any(Number) },
    ]);
    expect(removed.owed.mirror).toEqual([a.id]);
    expect(race.run({ type: "remove-runner", runnerId: a.id })).toBeNull();
    expect(race.room.runners().map((r) => r.id)).toEqual([b.id]);
    expect(race.auditTypes().filter((t) => t === "runner-removed")).toHaveLength(1);
    expect(race.run({ type: "add-runner", runner: runner({ bib: 1 }) }).runner.bib).toBe(1);
  });
});

describe("the race's list", () => {
  it("lists waiting runners by bib, unset bibs first, then finishers in finish order with their time", () => {
    const race = newRoom();
    const ids = {
      b30: runner({ bib: 30 }),
      none1: runner({ lastname: "Öberg" }),
      b5: runner({ bib: 5 }),
      none2: runner({ lastname: "Andersson" }),
      done1: runner({ bib: 2 }),
      done2: runner({ bib: 1 }),
    };
    for (const r of Object.values(ids)) race.run({ type: "add-runner", runner: r });
    const started = race.clock.now();
    race.run({ type: "start", tap: { tapId: tapId(), at: started } });
    race.clock.advance(1_234_567 + 1000);
    race.run({ type: "finish", runnerId: ids.done1.id, tap: { tapId: tapId(), at: started + 65_432 } });
    race.run({ type: "finish", runnerId: ids.done2.id, tap: { tapId: tapId(), at: started + 1_234_567 } });
    const list = race.room.runners();
    expect(list.map((r) => r.id)).toEqual([
      ids.none2.id,
      ids.none1.id,
      ids.b5.id,
      ids.b30.id,
      ids.done1.id,
      ids.done2.id,
    ]);
    expect(list.map((r) => r.time)).toEqual([undefined, undefined, undefined, undefined, "01:05.432", "20:34.567"]);
    expect(race.room.snapshot()).toEqual([race.room.race(), ...list]);
    expect(race.room.race()).toMatchObject({ state: "started", started });
  });
});

describe("the audit trail names who did it", () => {
  it("every change carries the actor and device it came from", () => {
    const race = newRoom();
    race.run({ type: "add-runner", runner: runner() }, ADMIN);
    expect(race.room.events().at(-1)).toMatchObject({ actor: ADMIN.actor, device: ADMIN.device });
  });
});

describe("whose runner it is", () => {
  it("the owner is kept, carried by a change of distance, and tells the D1 mirror which row is the runner's", () => {
    const race = newRoom();
    const family = race.run({ type: "add-runner", runner: runner({ owner: "registration:reg-1" }) }).runner;
    const desk = race.run({ type: "add-runner", runner: runner({ owner: "box-office" }) }).runner;
    const screen = race.run({ type: "add-runner", runner: runner({ owner: "race" }) }).runner;
    const unknown = race.run({ type: "add-runner", runner: { ...runner(), owner: "nobody" as never } }).runner;
    const owner = (id: string) => {
      const mirror = race.room.runnerMirror(id);
      return mirror?.inRace ? mirror.owner : undefined;
    };
    expect([family, desk, screen, unknown].map((r) => owner(r.id))).toEqual([
      "registration:reg-1",
      "box-office",
      "race",
      null,
    ]);
    race.room.beginMove("race-300601-28", family.id);
    expect(race.room.movingRunner(family.id)?.runner.owner).toBe("registration:reg-1");
    // A runner D1 places in a race when its object is made is its participants row's.
    const made = newRoom({
      known: [
        {
          id: "known-1",
          registration_id: "reg-9",
          firstname: "Ada",
          lastname: "Ek",
          age: 10,
          company: "",
          grp: "Ingen",
          bib: null,
          picked_up_at: null,
        },
        {
          id: "known-2",
          registration_id: null,
          firstname: "Bo",
          lastname: "Ek",
          age: 10,
          company: "",
          grp: "Ingen",
          bib: null,
          picked_up_at: null,
        },
      ],
    });
    expect(["known-1", "known-2"].map((id) => (made.room.runnerMirror(id) as { owner: string }).owner)).toEqual([
      "registration:reg-9",
      "box-office",
    ]);
  });
});

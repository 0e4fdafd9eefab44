/**
 * Making the race in the race room (rules/create.ts): the object makes itself from its row in D1's index, with the
 * runners D1 already places in it and the state D1 mirrors, and `init` on a race that exists only changes whether
 * registration is open. These tests make rooms by hand (not with room-helpers' `newRoom`) to see what `create`
 * answers and owes.
 */
import { describe, expect, it } from "vitest";
import type { MirroredState } from "../../src/durable/race/rules/create";
import { RaceRoom } from "../../src/durable/race/room";
import type { KnownParticipant, RaceInit } from "../../src/durable/race/types";
import { nodePorts } from "./node-ports";
import { ADMIN, newRoom, refusal, tapId, TestClock } from "./room-helpers";

const RACE: RaceInit = { part: "race-300907-56", date: "2030-09-07", distance: 5600, openForReg: false };

/** Storage that is no race yet, as an object's before it makes itself. */
function emptyRoom(clock = new TestClock()): RaceRoom {
  const ports = nodePorts();
  const room = new RaceRoom(ports.sql, ports.kv, clock);
  room.migrate();
  return room;
}

function known(fields: Partial<KnownParticipant> = {}): KnownParticipant {
  return {
    id: `p-${crypto.randomUUID()}`,
    firstname: "Ella",
    lastname: "Ek",
    age: 12,
    company: "",
    grp: "Dam",
    bib: null,
    picked_up_at: null,
    ...fields,
  };
}

function create(room: RaceRoom, state: MirroredState = {}, participants: KnownParticipant[] = []) {
  return room.create({ ...RACE, ...state }, participants, { actor: "system" });
}

describe("init on storage that is no race yet", () => {
  it("refuses a malformed race, or one whose id disagrees with its date or distance, and makes nothing", () => {
    // `init` asks `updateRace` first, so this check guards the create-race call; `create` itself trusts what it is
    // given (the object's own row in D1's index, or a race that passed here).
    const room = emptyRoom();
    const bad: RaceInit[] = [
      { ...RACE, part: "nonsense" },
      { ...RACE, distance: 2800 },
      { ...RACE, date: "2030-09-08" },
      { ...RACE, part: undefined as unknown as string },
    ];
    for (const race of bad) {
      expect(refusal(() => room.updateRace(race))).toEqual({ status: 400, message: "Ogiltigt lopp." });
    }
    expect(room.exists()).toBe(false);
    expect(room.part()).toBeNull();
  });

  it("answers null for a well-formed race: the object then makes it from D1's index", () => {
    const room = emptyRoom();
    expect(room.updateRace(RACE)).toBeNull();
    expect(room.exists()).toBe(false);
  });

  it("makes a new race, audited, that can be started", () => {
    const room = emptyRoom();
    const made = create(room);
    expect(made.value).toEqual({
      type: "race",
      part: RACE.part,
      sort: "race",
      state: "",
      started: null,
      date: RACE.date,
      distance: 5600,
      openForReg: false,
    });
    expect(room.exists()).toBe(true);
    expect(room.part()).toBe(RACE.part);
    expect(room.events().map((e) => [e.type, e.actor])).toEqual([["race-created", "system"]]);
    expect(room.apply({ type: "start", tap: { tapId: tapId() } }).value).toMatchObject({ outcome: "started" });
  });
});

describe("a race that exists", () => {
  it("refuses a second identity with 409, whether made again or updated", () => {
    const room = emptyRoom();
    create(room);
    const other: RaceInit = { part: "race-300907-28", date: "2030-09-07", distance: 2800 };
    const message = "Det här loppet har redan ett annat id.";
    expect(refusal(() => room.updateRace(other))).toEqual({ status: 409, message });
    expect(refusal(() => room.create(other, []))).toEqual({ status: 409, message });
    expect(room.race()).toMatchObject({ part: RACE.part, distance: 5600 });
  });

  it("made again by a call that read D1 meanwhile is answered as it is: no second race, no runner added twice", () => {
    const room = emptyRoom();
    const anna = known({ bib: 601 });
    create(room, {}, [anna]);
    room.apply({ type: "start", tap: { tapId: tapId() } });
    const again = create(room, { state: "ended", started: 1 }, [anna, known()]);
    expect(again.value).toMatchObject({ state: "started" });
    expect(again.owed.events).toEqual([]);
    expect(room.runners().map((r) => r.id)).toEqual([anna.id]);
    expect(room.events().filter((e) => e.type === "race-created")).toHaveLength(1);
  });

  it("changes whether registration is open through init, owing a race event only when it changed", () => {
    const room = emptyRoom();
    create(room);
    const opened = room.updateRace({ ...RACE, openForReg: true }, ADMIN)!;
    expect(opened.value.openForReg).toBe(true);
    // Every open phone hears of it, so none keeps showing the old value.
    expect(opened.owed.events).toEqual([{ ...room.race(), seq: expect.any(Number) }]);
    expect(opened.owed.spectators).toBe(true);
    expect(room.events().at(-1)).toMatchObject({ type: "race-updated", actor: ADMIN.actor, device: ADMIN.device });
    expect(JSON.parse(room.events().at(-1)!.payload)).toEqual({ openForReg: true });

    const count = room.events().length;
    const same = room.updateRace({ ...RACE, openForReg: true })!;
    expect(same.value.openForReg).toBe(true);
    expect(same.owed.events).toEqual([]);
    // Not saying leaves it as it is.
    const unsaid = room.updateRace({ part: RACE.part, date: RACE.date, distance: RACE.distance })!;
    expect(unsaid.value.openForReg).toBe(true);
    expect(unsaid.owed.events).toEqual([]);
    expect(room.events()).toHaveLength(count);

    const closed = room.updateRace({ ...RACE, openForReg: false })!;
    expect(closed.value.openForReg).toBe(false);
    expect(closed.owed.events).toHaveLength(1);
    expect(room.race().openForReg).toBe(false);
  });
});

describe("a race made from D1's mirrored state", () => {
  // A past season's race, or an object whose storage was cleared, comes back as D1 last knew it: never as a new
  // race that could be started again.
  it("an ended race comes back ended with its start, and a start goes to the review list", () => {
    const started = Date.UTC(2030, 4, 18, 9, 45);
    const race = newRoom({ state: "ended", started });
    expect(race.room.race()).toMatchObject({ state: "ended", started });
    expect(race.audit("race-created")[0]!.data).toMatchObject({ state: "ended", started });
    expect(refusal(() => race.run({ type: "start", tap: {} }))).toEqual({
      status: 409,
      message: "Loppet är avslutat. Återställ det för att starta om.",
    });
    expect(race.run({ type: "start", tap: { tapId: tapId() } })).toMatchObject({ outcome: "review" });
    expect(race.room.race()).toMatchObject({ state: "ended", started });
  });

  it("a started race comes back started at D1's start; another start is the same start or goes to review", () => {
    const started = Date.UTC(2030, 4, 18, 9, 45);
    const race = newRoom({ state: "started", started });
    expect(race.room.race()).toMatchObject({ state: "started", started });
    expect(refusal(() => race.run({ type: "start", tap: {} }))).toEqual({
      status: 409,
      message: "Loppet har redan startat.",
    });
    expect(race.run({ type: "start", tap: { tapId: tapId(), at: started } })).toMatchObject({ outcome: "same-start" });
    expect(race.run({ type: "start", tap: { tapId: tapId() } })).toMatchObject({ outcome: "review" });
    expect(race.room.race()).toMatchObject({ state: "started", started });
  });

  it("counts as new when D1's state cannot be trusted: started without a start time, an unknown state, or a start without a state", () => {
    for (const state of [
      { state: "started", started: null },
      { state: "ended" },
      { state: "paused", started: Date.UTC(2030, 4, 18, 9, 45) },
      { state: "", started: Date.UTC(2030, 4, 18, 9, 45) },
    ]) {
      const race = newRoom(state);
      expect(race.room.race(), JSON.stringify(state)).toMatchObject({ state: "", started: null });
      expect(race.run({ type: "start", tap: { tapId: tapId() } }).outcome).toBe("started");
    }
  });
});

describe("the runners D1 already places in the race", () => {
  it("join with their bibs and pick-ups; a taken or out-of-range bib is dropped and owed to D1's mirror", () => {
    const room = emptyRoom();
    const anna = known({ firstname: "Anna", bib: 601, picked_up_at: 1_900_000_000_000 });
    const taken = known({ firstname: "Taken", bib: 601 });
    const tooHigh = known({ firstname: "TooHigh", bib: 100_000 });
    const negative = known({ firstname: "Negative", bib: -3 });
    const none = known({ firstname: "None", bib: null });
    const zero = known({ firstname: "Zero", bib: 0 });
    const made = create(room, {}, [anna, taken, tooHigh, negative, none, zero]);

    const bibs = Object.fromEntries(room.runners().map((r) => [r.firstname, r.bib]));
    expect(bibs).toEqual({ Anna: 601, Taken: null, TooHigh: null, Negative: null, None: null, Zero: null });
    expect(room.runner(anna.id)).toMatchObject({ pickedUpAt: 1_900_000_000_000, group: "Dam", distance: "5.6" });
    // Only the runners whose number was dropped owe D1 anything: its participant row must lose the number too.
    const dropped = [taken.id, tooHigh.id, negative.id].sort();
    expect([...made.owed.mirror].sort()).toEqual(dropped);
    expect(room.pendingMirrors().sort()).toEqual(dropped);
    expect(room.runnerMirror(taken.id)).toMatchObject({ inRace: true, bib: null });
    // Each joins with an audit line saying it came from D1, with the number it got.
    const added = room.events().filter((e) => e.type === "runner-added");
    expect(added.map((e) => JSON.parse(e.payload))).toEqual(
      [anna, taken, tooHigh, negative, none, zero].map((p) => ({
        id: p.id,
        bib: p === anna ? 601 : null,
        from: "d1",
      })),
    );
  });

  it("join an ended race as D1 has it, waiting, and the race stays ended", () => {
    const room = emptyRoom();
    const anna = known();
    create(room, { state: "ended", started: Date.UTC(2030, 4, 18, 9, 45) }, [anna]);
    expect(room.race().state).toBe("ended");
    expect(room.runner(anna.id)).toMatchObject({ finished: null });
  });
});

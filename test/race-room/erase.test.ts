/**
 * Personal data in the race room (rules/erase.ts): erasure keeps no name or club in the runner's row, its audit
 * log lines or the review items about it, while times and bibs stay for the results; a race with nothing about the
 * runner writes nothing; a repeat changes nothing. `history` is what a person's export gets from one race. The
 * routes that ask every race of the season, and D1's side, are test/worker/personal-data's.
 */
import { describe, expect, it } from "vitest";
import { RaceRoom } from "../../src/durable/race/room";
import type { RunnerInput } from "../../src/durable/race/types";
import type { RunnerRecord } from "../../src/shared/race-protocol";
import { nodePorts } from "./node-ports";
import { ADMIN, newRoom, refusal, runner, tapId, TestClock, type TestRoom } from "./room-helpers";

const ANON = { firstname: "Anonym", lastname: "Löpare" };

function add(race: TestRoom, fields: Partial<RunnerInput> = {}): RunnerRecord {
  return race.run({ type: "add-runner", runner: runner(fields) }).runner;
}

/** Everything the race keeps that a name could be in: the runners, the audit log, the review items. */
function stored(race: TestRoom): string {
  const { db } = race.ports;
  return JSON.stringify([
    db.prepare("SELECT * FROM runners").all(),
    db.prepare("SELECT payload FROM events").all(),
    db.prepare("SELECT * FROM review").all(),
  ]);
}

/**
 * Anna Berg of IK Ymer, renamed Annika of OK Ravinen on the race screen (so the log has both names), with a tap
 * before the start on the review list under her name, then a finish; Per Holm beside her.
 */
function raceWithAnna() {
  const race = newRoom();
  const anna = add(race, { firstname: "Anna", lastname: "Berg", company: "IK Ymer", bib: 5, age: 34 });
  const per = add(race, { firstname: "Per", lastname: "Holm", company: "OK Ravinen", bib: 7 });
  race.run({ type: "update-runner", runnerId: anna.id, patch: { firstname: "Annika", company: "OK Ravinen" } });
  race.run({ type: "pick-up", runnerIds: [anna.id, per.id], pickedUp: true });
  const early = race.run({ type: "finish", runnerId: anna.id, tap: { tapId: tapId() } });
  expect(early).toMatchObject({ outcome: "review", review: { name: "Annika Berg" } });
  race.run({ type: "start", tap: { tapId: tapId() } });
  race.clock.advance(1_234_000);
  race.run({ type: "finish", runnerId: anna.id, tap: { tapId: tapId() } });
  return { race, anna: race.room.runner(anna.id)!, per: race.room.runner(per.id)! };
}

describe("anonymise", () => {
  it("keeps no name or club in the row, the audit log's name values or the review items; times, bibs, age stay", () => {
    const { race, anna, per } = raceWithAnna();
    expect(stored(race)).toContain("Annika");
    const count = race.room.events().length;

    const { value, owed } = race.room.anonymise(anna.id, ANON, ADMIN)!;
    expect(value!.runner).toEqual({
      ...anna,
      firstname: "Anonym",
      lastname: "Löpare",
      company: "",
      seq: expect.any(Number),
    });
    expect(value!.runner).toMatchObject({ bib: 5, age: 34, group: "Dam", finished: anna.finished, time: "20:34.000" });
    expect(value!.runner!.pickedUpAt).toBe(anna.pickedUpAt);

    // Nothing the race keeps has any of her names any more; Per's row keeps his (his club is the name she took).
    const after = stored(race);
    for (const name of ["Anna", "Annika", "Berg", "IK Ymer"]) expect(after).not.toContain(name);
    expect(race.room.runner(per.id)).toEqual(per);
    expect(race.audit("runner-added").find((e) => e.data.id === per.id)!.data).toMatchObject({
      firstname: "Per",
      lastname: "Holm",
      company: "OK Ravinen",
    });
    // An edit's old and new values are both replaced, keeping the line's shape.
    expect(race.audit("runner-updated")[0]!.data).toEqual({
      id: anna.id,
      changes: { firstname: ["Anonym", "Anonym"], company: ["", ""] },
    });
    expect(race.audit("runner-added").find((e) => e.data.id === anna.id)!.data).toMatchObject({
      firstname: "Anonym",
      lastname: "Löpare",
      company: "",
      bib: 5,
      age: 34,
    });
    expect(race.room.reviews()).toEqual([expect.objectContaining({ runnerId: anna.id, name: "Anonym Löpare" })]);

    // One new line, by id only; every phone hears of the runner and the review item; D1 gets the row again.
    expect(race.room.events()).toHaveLength(count + 1);
    expect(race.room.events().at(-1)).toMatchObject({ type: "runner-anonymised", actor: ADMIN.actor });
    expect(race.audit("runner-anonymised")[0]!.data).toEqual({ id: anna.id });
    expect(owed.events.map((e) => e.sort).sort()).toEqual([`runner-${anna.id}`, race.room.reviews()[0]!.sort].sort());
    expect(owed.mirror).toEqual([anna.id]);
    // Finish times in the log stay.
    expect(race.audit("finish").every((e) => typeof e.data.at === "number")).toBe(true);
  });

  it("renames rapid timing's items that name the runner in their sentence or suggest it for a mistyped bib", () => {
    const race = newRoom();
    const anna = add(race, { firstname: "Anna", lastname: "Berg", bib: 5 });
    const per = add(race, { firstname: "Per", lastname: "Holm", bib: 7 });
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.clock.advance(60_000);
    // Anna's bib typed twice: one item names her ('Startnummer 5 (Anna Berg) …') and suggests Per (a one-digit slip).
    race.run({ type: "enter-bib", entryId: tapId(), bib: 5 });
    race.run({ type: "enter-bib", entryId: tapId(), bib: 5 });
    const twice = () => race.room.reviews().find((r) => r.kind === "bib-twice")!;
    expect(twice()).toMatchObject({
      reason: expect.stringContaining("Anna Berg"),
      suggestions: [{ name: "Per Holm" }],
    });

    race.room.anonymise(per.id, { firstname: "Anonym", lastname: "Ett" });
    expect(twice().suggestions).toEqual([expect.objectContaining({ runnerId: per.id, name: "Anonym Ett" })]);
    expect(twice().reason).toContain("Anna Berg");

    race.room.anonymise(anna.id, ANON);
    expect(JSON.stringify(race.room.reviews())).not.toMatch(/Anna|Berg|Per|Holm/);
    expect(twice().reason).toBe("Startnummer 5 (Anonym Löpare) är inskrivet två gånger.");
    expect(stored(race)).not.toMatch(/Anna|Berg|Per |Holm/);
  });

  it("renames a runner who left the race: only its log lines were there, and it answers no runner", () => {
    const race = newRoom();
    const anna = add(race, { firstname: "Anna", lastname: "Berg", company: "IK Ymer" });
    race.run({ type: "remove-runner", runnerId: anna.id });
    const { value, owed } = race.room.anonymise(anna.id, ANON)!;
    expect(value).toEqual({ runner: null });
    expect(owed.mirror).toEqual([]);
    expect(stored(race)).not.toMatch(/Anna|Berg|IK Ymer/);
    expect(race.auditTypes().at(-1)).toBe("runner-anonymised");
  });

  it("writes nothing and answers null for a race with nothing about the runner, or storage that is no race", () => {
    const race = newRoom();
    add(race, { firstname: "Anna" });
    const before = race.auditTypes();
    const answer = race.room.anonymise("someone-else", ANON)!;
    expect(answer.value).toBeNull();
    expect(answer.owed.events).toEqual([]);
    expect(answer.owed.mirror).toEqual([]);
    expect(race.auditTypes()).toEqual(before);

    const ports = nodePorts();
    const empty = new RaceRoom(ports.sql, ports.kv, new TestClock());
    empty.migrate();
    expect(empty.anonymise("someone-else", ANON)).toBeNull();
    expect(empty.exists()).toBe(false);
  });

  it("a repeat changes nothing: no line, no event", () => {
    const { race, anna } = raceWithAnna();
    race.room.anonymise(anna.id, ANON);
    const before = race.room.events();
    const again = race.room.anonymise(anna.id, ANON)!;
    expect(again.value!.runner).toMatchObject({ id: anna.id, firstname: "Anonym", lastname: "Löpare" });
    expect(again.owed.events).toEqual([]);
    expect(again.owed.mirror).toEqual([]);
    expect(race.room.events()).toEqual(before);
  });

  it("refuses a replacement with no name, changing nothing", () => {
    const { race, anna } = raceWithAnna();
    const before = stored(race);
    expect(refusal(() => race.room.anonymise(anna.id, { firstname: " ", lastname: "Löpare" }))).toEqual({
      status: 400,
      message: "Ange namn",
    });
    expect(refusal(() => race.room.anonymise("", ANON)).status).toBe(400);
    expect(stored(race)).toBe(before);
  });
});

describe("history", () => {
  it("lists what the race has about a runner: the record, the log lines naming it, its review items", () => {
    const { race, anna, per } = raceWithAnna();
    const history = race.room.history(anna.id)!;
    expect(history.part).toBe(race.part);
    expect(history.runner).toEqual(anna);
    expect(history.events.map((e) => e.type)).toEqual(["runner-added", "runner-updated", "picked-up", "finish"]);
    expect(history.events.every((e) => e.payload.includes(JSON.stringify(anna.id)))).toBe(true);
    expect(history.reviews).toEqual([expect.objectContaining({ runnerId: anna.id, name: "Annika Berg" })]);
    // Per's export has his own lines, not Anna's edit or finish.
    const his = race.room.history(per.id)!.events.map((e) => e.type);
    expect(his).toContain("runner-added");
    expect(his).not.toContain("runner-updated");
    expect(his).not.toContain("finish");
  });

  it("after an erasure lists the same lines, with no name", () => {
    const { race, anna } = raceWithAnna();
    const before = race.room.history(anna.id)!;
    race.room.anonymise(anna.id, ANON);
    const after = race.room.history(anna.id)!;
    expect(after.events.map((e) => e.seq)).toEqual([...before.events.map((e) => e.seq), expect.any(Number)]);
    expect(JSON.stringify(after)).not.toMatch(/Anna|Annika|Berg|IK Ymer|OK Ravinen/);
  });

  it("after the runner left lists its lines and no runner", () => {
    const race = newRoom();
    const anna = add(race, { bib: 3 });
    race.room.beginMove("race-300601-28", anna.id);
    expect(race.room.history(anna.id)!.runner).toBeNull();
    race.room.endMove(anna.id, "race-300601-28", { runner: anna, added: true });
    const history = race.room.history(anna.id)!;
    expect(history.runner).toBeNull();
    expect(history.events.map((e) => e.type)).toEqual(["runner-added", "runner-moving", "runner-moved"]);
  });

  it("lists rapid timing's items that only suggest the runner", () => {
    const race = newRoom();
    add(race, { bib: 5 });
    const per = add(race, { bib: 7 });
    race.run({ type: "start", tap: { tapId: tapId() } });
    race.clock.advance(60_000);
    race.run({ type: "enter-bib", entryId: tapId(), bib: 5 });
    race.run({ type: "enter-bib", entryId: tapId(), bib: 5 });
    expect(race.room.history(per.id)!.reviews).toEqual([
      expect.objectContaining({ kind: "bib-twice", suggestions: [expect.objectContaining({ runnerId: per.id })] }),
    ]);
  });

  it("is null for a runner the race never had, or storage that is no race", () => {
    const race = newRoom();
    add(race);
    expect(race.room.history("someone-else")).toBeNull();
    const ports = nodePorts();
    const empty = new RaceRoom(ports.sql, ports.kv, new TestClock());
    empty.migrate();
    expect(empty.history("someone-else")).toBeNull();
  });
});

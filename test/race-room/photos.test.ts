/**
 * Målfoto's record in the race room (src/durable/race/rules/photos.ts), on Node's SQLite: which taps may have photos,
 * a resend, the race's bound on its photos' bytes with its Swedish message, the deletions, and the paired runner's
 * photos in its export and erasure. The R2 side and the routes are tested on workerd
 * (test/durable/race/finish-photos.test.ts).
 */
import { describe, expect, it } from "vitest";
import { FULL_MESSAGE } from "../../src/shared/finish-photos";
import { newRoom, refusal, runner, tapId } from "./room-helpers";

const MINUTE = 60_000;

function startedRace() {
  const race = newRoom();
  const ella = race.run({
    type: "add-runner",
    runner: runner({ firstname: "Ella", lastname: "Berg", bib: 12 }),
  }).runner;
  race.run({ type: "start", tap: { tapId: tapId(), at: race.clock.now() - 10 * MINUTE } });
  const rapid = (at = race.clock.now() - 1000) => {
    const tap = tapId();
    race.run({ type: "rapid-tap", tap: { tapId: tap, at } }, { actor: "a@example.se", device: "phone-a" });
    return tap;
  };
  return { race, ella, rapid };
}

describe("Målfoto in the race room", () => {
  it("records a frame once, only for a tap the race has, and audits each", () => {
    const { race, rapid } = startedRace();
    const tap = rapid();
    const first = race.apply({ type: "record-photo", tapId: tap, frame: 1, bytes: 1000 });
    expect(first.value.outcome).toBe("recorded");
    expect(first.owed.events).toMatchObject([{ sort: `photo-${tap}`, frames: [1], device: "phone-a" }]);
    const again = race.apply({ type: "record-photo", tapId: tap, frame: 1, bytes: 1000 });
    expect(again.value.outcome).toBe("replayed");
    expect(again.owed.events).toEqual([]);
    expect(race.audit("photo")).toHaveLength(1);
    expect(refusal(() => race.run({ type: "record-photo", tapId: tapId(), frame: 1, bytes: 10 }))).toMatchObject({
      status: 404,
    });
    expect(refusal(() => race.run({ type: "record-photo", tapId: tap, frame: 5, bytes: 10 }))).toMatchObject({
      status: 400,
    });
  });

  it("refuses a frame past the race's bound with a Swedish message, writing nothing", () => {
    const { race, rapid } = startedRace();
    const [a, b] = [rapid(), rapid()];
    race.run({ type: "record-photo", tapId: a, frame: 1, bytes: 600, limit: 1000 });
    const audit = race.auditTypes().length;
    expect(
      refusal(() => race.run({ type: "record-photo", tapId: b, frame: 1, bytes: 401, limit: 1000 })),
    ).toMatchObject({
      status: 409,
      message: FULL_MESSAGE,
    });
    expect(race.auditTypes()).toHaveLength(audit);
    // Exactly at the bound is still taken; deleting frees the room again.
    race.run({ type: "record-photo", tapId: b, frame: 1, bytes: 400, limit: 1000 });
    race.run({ type: "delete-photos", reason: "organiser" });
    race.clock.advance(1000);
    const c = rapid(race.clock.now());
    expect(race.run({ type: "record-photo", tapId: c, frame: 1, bytes: 900, limit: 1000 }).outcome).toBe("recorded");
  });

  it("a reset removes every photo, and a photo of a tap from before it is refused", () => {
    const { race, rapid } = startedRace();
    const tap = rapid();
    race.run({ type: "record-photo", tapId: tap, frame: 1, bytes: 10 });
    const reset = race.apply({ type: "reset" });
    expect(reset.owed.events.filter((e) => e.sort === `photo-${tap}`)).toMatchObject([{ removed: true, frames: [] }]);
    expect(race.room.hasPhoto(tap, 1)).toBe(false);
    expect(refusal(() => race.run({ type: "record-photo", tapId: tap, frame: 0, bytes: 10 }))).toMatchObject({
      status: 404,
    });
  });

  it("the photos of a runner's finish tap and of its paired slot are in its export and go with its erasure", () => {
    const { race, ella, rapid } = startedRace();
    const tile = tapId();
    race.run({ type: "finish", runnerId: ella.id, tap: { tapId: tile, at: race.clock.now() - 5000 } });
    const slot = rapid();
    const stray = rapid();
    for (const tap of [tile, slot, stray]) race.run({ type: "record-photo", tapId: tap, frame: 1, bytes: 10 });
    // The slot is paired with Ella by hand (her tile time is undone first: one finish each).
    race.run({ type: "undo-finish", runnerId: ella.id });
    race.run({ type: "assign-slot", tapId: slot, target: { runnerId: ella.id } });
    const history = race.room.history(ella.id)!;
    expect(history.photos.map((p) => p.id).sort()).toEqual([tile, slot].sort());
    const applied = race.room.anonymise(ella.id, { firstname: "Anonym", lastname: "Löpare" })!;
    expect(applied.value?.photos?.sort()).toEqual([tile, slot].sort());
    expect(race.room.hasPhoto(tile, 1)).toBe(false);
    expect(race.room.hasPhoto(slot, 1)).toBe(false);
    expect(race.room.hasPhoto(stray, 1)).toBe(true);
    // A second erasure finds nothing more.
    expect(race.room.anonymise(ella.id, { firstname: "Anonym", lastname: "Löpare" })!.value?.photos).toBeUndefined();
  });
});

/**
 * Målfoto's record in the race room (src/durable/race/rules/photos.ts), on Node's SQLite: which taps may have photos,
 * a resend, the race's bound on its photos' bytes with its Swedish message, the upload rate limit per admin session,
 * the deletions, and the paired runner's photos in its export and erasure (a frame sent after it refused). The R2 side and the routes are tested on workerd
 * (test/durable/race/finish-photos.test.ts).
 */
import { describe, expect, it } from "vitest";
import { FULL_MESSAGE } from "../../src/shared/finish-photos";
import { PHOTO_BURST, PHOTO_RATE_PER_S, RATE_MESSAGE } from "../../src/durable/race/rules/photo-uploads";
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
    // A phone that was offline during the erasure sends the other frames of her taps later: refused, nothing kept.
    for (const tap of [tile, slot]) {
      expect(refusal(() => race.run({ type: "record-photo", tapId: tap, frame: 0, bytes: 10 }))).toMatchObject({
        status: 409,
      });
    }
    expect(race.room.history(ella.id)!.photos.filter((p) => !p.removed)).toEqual([]);
    // A second erasure finds nothing more to remove, and still names the taps whose R2 objects must be gone.
    const second = race.room.anonymise(ella.id, { firstname: "Anonym", lastname: "Löpare" })!;
    expect(second.value?.photos).toBeUndefined();
    expect(second.value?.photoObjects?.sort()).toEqual([tile, slot].sort());
    expect(second.owed.events).toEqual([]);
    // Another runner's photos are untouched and still taken.
    expect(race.run({ type: "record-photo", tapId: stray, frame: 0, bytes: 10 }).outcome).toBe("recorded");
  });

  it("limits each admin session's uploads in the race, and a burst of real taps passes", () => {
    const { race, rapid } = startedRace();
    const send = (tap: string, frame: number, uploader = "session-a") =>
      race.run({ type: "record-photo", tapId: tap, frame, bytes: 10, uploader });
    // Ten 'Mål!' presses in three seconds, three frames each, every frame sent twice (a phone that lost the answers).
    const taps = Array.from({ length: 10 }, () => rapid());
    for (const [i, tap] of taps.entries()) {
      race.clock.advance(300);
      for (const frame of [0, 1, 2]) expect(send(tap, frame).outcome).toBe("recorded");
      if (i % 2 === 0) for (const frame of [0, 1, 2]) expect(send(tap, frame).outcome).toBe("replayed");
    }
    for (const tap of taps) for (const frame of [0, 1, 2]) send(tap, frame);
    // A client that keeps sending: the rest of the burst, then a 429 that writes nothing and says when to try again.
    const flood = rapid();
    const audited = race.audit("photo").length;
    let taken = 0;
    for (;;) {
      try {
        send(flood, taken % 3);
        taken++;
      } catch (err) {
        expect(err).toMatchObject({ name: "RaceError", status: 429, message: RATE_MESSAGE, retryAfter: 1 });
        break;
      }
      if (taken > PHOTO_BURST) throw new Error("the burst was not bounded");
    }
    // The taps' 30 frames, 15 of them resent at once and all 30 once more, took 75 of the burst; the 2.7 s they
    // took gave back 5.4 (PHOTO_RATE_PER_S): 50 more are taken, 3 of them recorded, then the 429.
    expect(PHOTO_RATE_PER_S).toBe(2);
    expect(taken).toBe(PHOTO_BURST - 75 + 5);
    expect(race.audit("photo")).toHaveLength(audited + 3);
    expect(refusal(() => send(flood, 0))).toMatchObject({ status: 429 });
    // Another session in the same race has its own bucket; a command without a session (no route sends one) has none.
    expect(send(rapid(), 1, "session-b").outcome).toBe("recorded");
    expect(race.run({ type: "record-photo", tapId: rapid(), frame: 1, bytes: 10 }).outcome).toBe("recorded");
    // After one token's time the session may send one more, then is refused again.
    race.clock.advance(1000 / PHOTO_RATE_PER_S);
    expect(send(rapid(), 1).outcome).toBe("recorded");
    expect(refusal(() => send(rapid(), 1))).toMatchObject({ status: 429 });
    // A minute's pause fills it again: a whole burst passes (a phone back online with 40 taps waiting).
    race.clock.advance(60_000);
    const after = rapid();
    for (let i = 0; i < PHOTO_BURST; i++) send(after, i % 3);
    expect(refusal(() => send(after, 0))).toMatchObject({ status: 429 });
  });
});

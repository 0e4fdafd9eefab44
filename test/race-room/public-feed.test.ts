/**
 * The race's public records for the spectators' fan-out (src/durable/race/public-feed.ts, the room's `publicSince`)
 * with child-safe publishing on (issue 38, item 3): while the race runs, a withheld child's finish, or a new time,
 * changes none of the public records; the end brings every withheld finisher at once, as 'Fullföljt', in an order
 * that is not their finish order, without a time, a finish moment or a correction.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PublicUpdate } from "../../src/shared/spectator-protocol";
import { runnerSort } from "../../src/shared/race-protocol";
import { SEASON } from "../../src/shared/season";
import { startedRace, tap } from "./race-day-helpers";
import { runner } from "./room-helpers";

let was: boolean;
beforeEach(() => {
  was = SEASON.childSafePublishing;
  SEASON.childSafePublishing = true;
});
afterEach(() => {
  SEASON.childSafePublishing = was;
});

/**
 * An adult (bib 601) and three children, 9 to 11 (Alva 602, Bo 603, Cia 604); their ids sort Alva, Bo, Cia. The
 * children finish in the order Cia, Alva, Bo: neither their numbers' nor their ids' order.
 */
function childrensRace() {
  const tag = Math.random().toString(36).slice(2, 8);
  const { race, started } = startedRace([
    runner({ id: `${tag}-vuxen`, firstname: "Vera", age: 40, bib: 601 }),
    runner({ id: `${tag}-kid-a`, firstname: "Alva", age: 9, bib: 602 }),
    runner({ id: `${tag}-kid-b`, firstname: "Bo", age: 10, bib: 603 }),
    runner({ id: `${tag}-kid-c`, firstname: "Cia", age: 11, bib: 604 }),
  ]);
  const id = (name: "vuxen" | "kid-a" | "kid-b" | "kid-c") => `${tag}-${name}`;
  const kids = [id("kid-a"), id("kid-b"), id("kid-c")].map(runnerSort);
  return { race, started, id, kids };
}

/** The public records of an update, by sort. */
function records(update: PublicUpdate): Map<string, unknown> {
  return new Map(update.runners.map((r) => [r.sort, r]));
}

describe("a withheld child's finish while the race runs", () => {
  it("changes no public record: the whole view and every update are as they were before the child finished", () => {
    const { race, started, id, kids } = childrensRace();
    const before = race.room.publicSince(0);
    const withoutSeq = ({ race: r, runners }: PublicUpdate) => ({ race: r, runners });

    let seq = before.seq;
    for (const [who, after] of [
      [id("kid-c"), 200_000],
      [id("kid-a"), 210_000],
    ] as const) {
      tap(race, who, { at: started + after });
      const update = race.room.publicSince(seq);
      // The race moved on (its own seq), but nothing the public sees did: the first finish of all is a child's.
      expect(update.seq).toBeGreaterThan(seq);
      expect(update.race).toEqual(before.race);
      expect(update.race).toMatchObject({ resultsStatus: null });
      expect(update.race).not.toHaveProperty("results");
      for (const [sort, record] of records(update)) expect(record, sort).toEqual(records(before).get(sort));
      expect(withoutSeq(race.room.publicSince(0))).toEqual(withoutSeq(before));
      seq = update.seq;
    }

    // A time re-recorded is a new time, and just as invisible.
    tap(race, id("kid-c"), { at: started + 205_000, rerecord: true });
    expect(withoutSeq(race.room.publicSince(0))).toEqual(withoutSeq(before));

    // The adult's finish is public at once, with the race's results status; the children are still as before.
    tap(race, id("vuxen"), { at: started + 220_000 });
    tap(race, id("kid-b"), { at: started + 230_000 });
    const now = race.room.publicSince(0);
    expect(now.race).toMatchObject({ results: "preliminary", resultsStatus: "preliminary" });
    expect(records(now).get(runnerSort(id("vuxen")))).toMatchObject({ time: "03:40.000" });
    for (const sort of kids) expect(records(now).get(sort), sort).toEqual(records(before).get(sort));
  });
});

describe("the end of the race", () => {
  it("brings every withheld finisher in one update, as 'Fullföljt', in an order that is not their finish order", () => {
    const { race, started, id, kids } = childrensRace();
    const start = race.room.publicSince(0);
    tap(race, id("kid-c"), { at: started + 200_000 });
    tap(race, id("vuxen"), { at: started + 205_000 });
    tap(race, id("kid-a"), { at: started + 210_000 });
    tap(race, id("kid-b"), { at: started + 220_000 });
    const beforeEnd = race.room.publicSince(0).seq;

    race.run({ type: "end" });
    const update = race.room.publicSince(beforeEnd);
    expect(update.race).toMatchObject({ state: "ended", resultsStatus: "preliminary" });
    // All three, though none of them changed with the end; listed by their ids (Alva, Bo, Cia), not as they finished.
    expect(update.runners.map((r) => r.sort)).toEqual(kids);
    for (const sort of kids) {
      expect(records(update).get(sort), sort).toEqual({
        ...(records(start).get(sort) as object),
        resultWithheld: true,
      });
    }
    // The whole view lists them in the same order (a page or a fan-out that starts afresh).
    const whole = race.room.publicSince(0);
    expect(whole.runners.map((r) => r.sort).filter((s) => kids.includes(s))).toEqual(kids);
    for (const sort of kids) expect(records(whole).get(sort)).toEqual(records(update).get(sort));

    // Official, then a child's time corrected: the child's public record stays exactly as it was.
    race.run({ type: "mark-official", confirm: false });
    const official = race.room.publicSince(0);
    tap(race, id("kid-a"), { at: started + 212_000, rerecord: true });
    expect(race.room.runner(id("kid-a"))).toMatchObject({ corrected: true });
    const corrected = race.room.publicSince(official.seq);
    expect(corrected.race).toMatchObject({ results: "corrected" });
    for (const [sort, record] of records(corrected)) expect(record, sort).toEqual(records(official).get(sort));
    expect(JSON.stringify(race.room.publicSince(0).runners)).not.toContain("corrected");
  });
});

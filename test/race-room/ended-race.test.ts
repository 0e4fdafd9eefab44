/**
 * An ended race stays ended (rules/end.ts lists what it takes): only a reset changes its state. It takes an admin's
 * corrections (a confirmed re-record, the spec's bare call, a restored time, DNS, a bib) and no plain tap; a start
 * for it goes to the review list; a runner arriving after the end comes in marked DNS; 'Officiella' is taken once,
 * not again after a correction. The object made from D1's index for an ended race, a race D1 lacks, and a move into
 * an ended race between two objects are tested on workerd (test/durable/race/race-trust.test.ts).
 */
import { describe, expect, it } from "vitest";
import { RaceError } from "../../src/shared/race-protocol";
import { bareFinish, reviewOf, startedRace, tap } from "./race-day-helpers";
import { newRoom, refusal, runner, tapId } from "./room-helpers";

/** A race run and ended: Ella finished, Olle marked DNS. */
function endedRace() {
  const { race, runners, started } = startedRace([670, 671]);
  const [ella, olle] = runners.map((r) => r.id) as [string, string];
  tap(race, ella, { at: started + 60_000 });
  race.run({ type: "set-dns", runnerId: olle, dns: true });
  race.run({ type: "end" });
  return { race, ella, olle, started };
}

describe("an ended race stays ended", () => {
  it("a race D1's index knew as ended is made ended with its start, and cannot be started again", () => {
    // A past season's race: in D1's index as ended, its object never made (or its storage cleared).
    const started = Date.UTC(2030, 3, 30, 10, 0);
    const race = newRoom({ state: "ended", started });
    expect(race.room.race()).toMatchObject({ state: "ended", started });
    expect(refusal(() => race.run({ type: "start", tap: {} }))).toEqual({
      status: 409,
      message: "Loppet är avslutat. Återställ det för att starta om.",
    });
    const start = race.run({ type: "start", tap: { tapId: tapId() } });
    expect(start).toMatchObject({
      outcome: "review",
      review: { kind: "start", reason: "Loppet var redan avslutat när starten kom fram.", started },
    });
    expect(race.room.race()).toMatchObject({ state: "ended", started });

    // Applied, the start moves (every result is measured from it) and the race stays ended.
    const moved = race.run({ type: "apply-review", reviewId: reviewOf(start).id });
    expect(moved.race).toMatchObject({ state: "ended", started: race.clock.now() });
  });

  it("a state D1's index gives without a start is not trusted: the race is made new", () => {
    expect(newRoom({ state: "ended", started: null }).room.race()).toMatchObject({ state: "", started: null });
    const started = Date.UTC(2030, 3, 30, 10, 0);
    expect(newRoom({ state: "started", started }).room.race()).toMatchObject({ state: "started", started });
  });

  it("takes an admin's corrections (a confirmed re-record, a bib, DNS) and no plain tap", () => {
    const { race, ella, olle, started } = endedRace();
    const corrected = tap(race, ella, { at: started + 90_000, rerecord: true });
    expect(corrected).toMatchObject({ outcome: "rerecorded", finished: started + 90_000 });
    expect(race.run({ type: "register-bib", runnerId: olle, bib: 672 }).bib).toBe(672);
    // Taking the mark back leaves Olle waiting in an ended race until a finish is applied or the mark set again.
    expect(race.run({ type: "set-dns", runnerId: olle, dns: false })).not.toHaveProperty("dns");
    expect(tap(race, olle, { at: started + 100_000 })).toMatchObject({
      outcome: "review",
      review: { reason: "Loppet är avslutat." },
    });
    expect(race.room.runner(olle)?.finished).toBeNull();
    expect(race.room.race().state).toBe("ended");
  });

  it("takes the spec's bare call and a restored time as corrections; undoing a finish is refused", () => {
    const { race, ella, olle, started } = endedRace();
    race.run({ type: "set-dns", runnerId: olle, dns: false });
    // The bare call (no tap id) is an admin's: it is recorded, at the server's now.
    expect(bareFinish(race, olle)).toMatchObject({ outcome: "recorded", finished: race.clock.now() });
    tap(race, ella, { at: started + 90_000, rerecord: true });
    const rerecord = race.audit("finish").at(-1)!;
    expect(race.run({ type: "restore-time", seq: rerecord.seq }).finished).toBe(started + 60_000);

    expect(refusal(() => race.run({ type: "undo-finish", runnerId: ella }))).toEqual({
      status: 409,
      message: "Loppet är avslutat.",
    });
    expect(race.room.runner(ella)?.finished).toBe(started + 60_000);
    expect(race.room.race().state).toBe("ended");
  });

  it("a reset is the one way back to not started", () => {
    const { race } = endedRace();
    expect(race.run({ type: "reset" })).toMatchObject({ state: "", started: null });
    expect(race.run({ type: "start", tap: { tapId: tapId() } })).toMatchObject({ outcome: "started" });
  });
});

describe("'Officiella' after a correction", () => {
  it("is refused on results corrected since they were official, as on official ones: one 'Officiella' per race", () => {
    const { race, ella, started } = endedRace();
    race.run({ type: "mark-official", confirm: false });
    const officialAt = race.room.race().officialAt;
    expect(officialAt).toBe(race.clock.now());
    race.clock.advance(60_000);
    tap(race, ella, { at: started + 90_000, rerecord: true });
    expect(race.room.race()).toMatchObject({ results: "corrected", officialAt });

    race.clock.advance(60_000);
    const before = race.auditTypes();
    for (const confirm of [false, true]) {
      expect(refusal(() => race.run({ type: "mark-official", confirm }))).toEqual({
        status: 409,
        message: "Resultaten är redan officiella.",
      });
    }
    expect(race.auditTypes()).toEqual(before);
    // Still corrected, official since the first 'Officiella'.
    expect(race.room.race()).toMatchObject({ results: "corrected", officialAt });
    expect(race.room.runner(ella)).toMatchObject({ finished: started + 90_000, corrected: true });
  });
});

describe("runners arriving after the end", () => {
  it("a late payment and an admin's add come in as DNS with an audit line; the race stays ended", () => {
    const { race } = startedRace([]);
    race.run({ type: "end" });

    const paid = race.run(
      {
        type: "add-runner",
        runner: runner({ firstname: "Sen", lastname: "Betalare", age: 30 }),
        options: { dropTakenBib: true },
      },
      { actor: "betalning" },
    );
    expect(paid.runner.dns).toBe(true);
    // Added on the race screen (as the admin's route adds): no pick-up moment in an ended race.
    const added = race.run({
      type: "add-runner",
      runner: runner({ firstname: "Admin", lastname: "Tillagd" }),
      options: { onSite: true },
    });
    expect(added.runner.dns).toBe(true);
    expect(added.runner).not.toHaveProperty("pickedUpAt");
    expect(race.room.race().state).toBe("ended");
    expect(race.room.runners().every((r) => r.dns)).toBe(true);
    expect(race.audit("runner-added").map((e) => e.data.lateForEndedRace)).toEqual([true, true]);
  });

  it("a runner changing distance into an ended race is refused for good and nothing is added", () => {
    const { race } = startedRace([]);
    race.run({ type: "end" });
    let refused: unknown;
    try {
      race.run({ type: "add-runner", runner: runner(), options: { move: true } });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(RaceError);
    // `final`: the source race's move cancels at once (rules/move.ts isPermanentRefusal) instead of retrying.
    expect(refused).toMatchObject({
      status: 409,
      final: true,
      message: "Loppet är avslutat och tar inte emot fler löpare. Löparen ligger kvar i sitt lopp.",
    });
    expect(race.room.runners()).toEqual([]);
  });
});

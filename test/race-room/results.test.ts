/**
 * Official results and their corrections in the race room (rules/results.ts): a result is a time from the start, a
 * bib and a DNS mark, so a start moved after 'Officiella' corrects every finisher; a result brought back to its
 * official value loses its mark, and the race is 'official' again once no result differs. The mail these changes
 * owe, and when: results-mail.test.ts. 'Officiella' itself with rapid timing: rapid-timing.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runnerSort, type RunnerRecord } from "../../src/shared/race-protocol";
import { reviewOf, startedRace, tap } from "./race-day-helpers";
import { tapId } from "./room-helpers";

/** An ended race whose results are official: Ella and Olle finished, Per marked DNS. */
function officialRace() {
  const { race, runners, started } = startedRace([701, 702, 703]);
  const [ella, olle, per] = runners.map((r) => r.id) as [string, string, string];
  tap(race, ella, { at: started + 60_000 });
  tap(race, olle, { at: started + 90_000 });
  race.run({ type: "set-dns", runnerId: per, dns: true });
  race.run({ type: "end" });
  race.run({ type: "mark-official", confirm: false });
  const runner = (id: string) => race.room.runner(id)!;
  return { race, ella, olle, per, started, runner };
}

describe("corrections after 'Officiella'", () => {
  it("a start moved from the review list changes every finisher's time: the race and those runners are corrected", () => {
    const { race, ella, olle, per, started, runner } = officialRace();
    const item = reviewOf(race.run({ type: "start", tap: { tapId: tapId(), at: started - 5_000 } }));

    const moved = race.apply({ type: "apply-review", reviewId: item.id });
    expect(race.room.race()).toMatchObject({ state: "ended", started: started - 5_000, results: "corrected" });
    expect(runner(ella)).toMatchObject({ time: "01:05.000", corrected: true });
    expect(runner(olle)).toMatchObject({ time: "01:35.000", corrected: true });
    // Per has no time: nothing of his changed.
    expect(runner(per)).not.toHaveProperty("corrected");
    // The phones, the spectators' feed and D1's index hear of it; the families are owed a mail.
    expect(moved.owed.events).toContainEqual(expect.objectContaining({ sort: "race", results: "corrected" }));
    expect(moved.owed.events).toContainEqual(
      expect.objectContaining({ sort: runnerSort(ella), corrected: true, time: "01:05.000" }),
    );
    expect(moved.owed).toMatchObject({ spectators: true, mirrorRace: true, resultsMail: true });
    expect(race.audit("results-corrected")[0]!.data.changes).toHaveLength(2);
    const feed = race.room.publicSince(0);
    expect(feed.race).toMatchObject({ resultsStatus: "corrected" });
    expect(feed.runners.find((r) => r.sort === runnerSort(olle))).toMatchObject({ time: "01:35.000", corrected: true });

    // Moved back to the start the results were made official with: nothing differs, nothing is marked.
    const back = reviewOf(race.run({ type: "start", tap: { tapId: tapId(), at: started } }));
    race.run({ type: "apply-review", reviewId: back.id });
    expect(race.room.race().results).toBe("official");
    expect(race.room.runners().filter((r) => r.corrected)).toEqual([]);
  });

  it("a result brought back to its official value loses its mark; the race is official again when none differs", () => {
    const { race, ella, olle, started, runner } = officialRace();
    tap(race, ella, { at: started + 62_000, rerecord: true });
    tap(race, olle, { at: started + 93_000, rerecord: true });
    expect(race.room.race().results).toBe("corrected");
    const [ellaRerecord, olleRerecord] = race.audit("finish").filter((e) => e.data.outcome === "rerecorded");

    // Ella's time restored: her mark goes, Olle's result still differs, so the race stays corrected.
    const restored = race.apply({ type: "restore-time", seq: ellaRerecord!.seq });
    expect(runner(ella)).toMatchObject({ time: "01:00.000" });
    expect(runner(ella)).not.toHaveProperty("corrected");
    expect(restored.owed.events).toContainEqual(expect.objectContaining({ sort: runnerSort(ella) }));
    expect((restored.owed.events.find((e) => e.sort === runnerSort(ella)) as RunnerRecord).corrected).toBeUndefined();
    expect(race.room.race().results).toBe("corrected");
    expect(runner(olle).corrected).toBe(true);

    // Olle's too: every result is official again, and so is the race (the phones and D1's index hear of it).
    const official = race.apply({ type: "restore-time", seq: olleRerecord!.seq });
    expect(race.room.race()).toMatchObject({ results: "official" });
    expect(official.owed).toMatchObject({ mirrorRace: true, spectators: true });
    expect(official.owed.events).toContainEqual(expect.objectContaining({ sort: "race", results: "official" }));
    expect(race.audit("results-restored").at(-1)!.data).toMatchObject({ restored: [olle], results: "official" });
    expect(race.room.publicSince(0).runners.some((r) => "corrected" in r)).toBe(false);
  });

  it("a bib changed and changed back, or a DNS mark taken and given back: the same", () => {
    const { race, ella, per, runner } = officialRace();
    race.run({ type: "register-bib", runnerId: ella, bib: 799 });
    expect(runner(ella).corrected).toBe(true);
    race.run({ type: "register-bib", runnerId: ella, bib: 701 });
    expect(runner(ella)).not.toHaveProperty("corrected");
    expect(race.room.race().results).toBe("official");

    race.run({ type: "set-dns", runnerId: per, dns: false });
    expect(race.room.race().results).toBe("corrected");
    race.run({ type: "set-dns", runnerId: per, dns: true });
    expect(race.room.race().results).toBe("official");
    expect(runner(per)).not.toHaveProperty("corrected");
  });

  it("a finisher who left the race keeps it corrected, though no runner in it is marked", () => {
    const { race, ella, olle, started, runner } = officialRace();
    race.run({ type: "remove-runner", runnerId: olle });
    expect(race.room.race().results).toBe("corrected");
    tap(race, ella, { at: started + 61_000, rerecord: true });
    const [rerecord] = race.audit("finish").filter((e) => e.data.outcome === "rerecorded");
    race.run({ type: "restore-time", seq: rerecord!.seq });
    expect(runner(ella)).not.toHaveProperty("corrected");
    expect(race.room.race().results).toBe("corrected");
  });
});

/**
 * The families' results mail owed by the race room (src/durable/race/results-mail.ts): once the results are
 * official, every change of the race or of a runner leaves a mail owed, in the change's own step; a run takes the
 * race as it is and the counter it started from, and clears it only when no change came in meanwhile. Sending is
 * the Worker's (object-services.ts; test/durable/race/results-mail.test.ts): here, what is owed and when: 'Officiella'
 * at once, a correction once the race has been still for RESULTS_MAIL_QUIET_MS (the object's alarm waits for that
 * moment: test/worker/registration/results-mails-paths.test.ts).
 */
import { describe, expect, it } from "vitest";
import { RESULTS_MAIL_OWED_KEY, RESULTS_MAIL_QUIET_MS, resultsMailAt } from "../../src/durable/race/results-mail";
import { RaceRoom } from "../../src/durable/race/room";
import type { RunnerRecord } from "../../src/shared/race-protocol";
import { newRoom, runner, tapId, type TestRoom } from "./room-helpers";

/** An ended race of two runners (one finished, one DNS) whose results are official. */
function officialRace(): { race: TestRoom; ella: string; per: string } {
  const race = newRoom({ meters: 800 });
  const ella = race.run({ type: "add-runner", runner: runner({ bib: 1 }) }).runner.id;
  const per = race.run({ type: "add-runner", runner: runner({ bib: 2 }) }).runner.id;
  const started = race.clock.now();
  race.run({ type: "start", tap: { tapId: tapId(), at: started } });
  race.clock.advance(300_000);
  race.run({ type: "finish", runnerId: ella, tap: { tapId: tapId(), at: started + 240_000 } });
  race.run({ type: "set-dns", runnerId: per, dns: true });
  race.run({ type: "end" });
  return { race, ella, per };
}

describe("the results mail a change leaves owed", () => {
  it("nothing is owed before 'Officiella'; 'Officiella' owes the mail, with the race as it is then", () => {
    const { race, ella } = officialRace();
    expect(race.room.resultsMailDue()).toBeNull();
    const official = race.apply({ type: "mark-official", confirm: false });
    expect(official.owed.resultsMail).toBe(true);
    const run = race.room.resultsMailDue()!;
    expect(run.mail!.race).toEqual(race.room.snapshot());
    expect(run.mail!.race.find((r) => r.type === "runner" && r.id === ella)).toMatchObject({ time: "04:00.000" });
    expect(run.mail!.gone).toEqual([]);
    race.room.resultsMailDone(run);
    expect(race.room.resultsMailDue()).toBeNull();
  });

  it("every later change of a runner owes another run, whoever made it; a run clears only what it saw", () => {
    const { race, ella, per } = officialRace();
    race.run({ type: "mark-official", confirm: false });
    race.room.resultsMailDone(race.room.resultsMailDue()!);

    const corrected = race.apply(
      {
        type: "finish",
        runnerId: ella,
        tap: { tapId: tapId(), at: race.room.race().started! + 230_000, rerecord: true },
      },
      { actor: "system" },
    );
    expect(corrected.owed.resultsMail).toBe(true);
    // A run is on its way (awaiting the Worker's mail) when another phone's correction lands.
    const run = race.room.resultsMailDue()!;
    race.run({ type: "set-dns", runnerId: per, dns: false });
    race.room.resultsMailDone(run);
    const next = race.room.resultsMailDue()!;
    expect(next).not.toBeNull();
    expect(next.mail!.race.find((r) => r.type === "runner" && r.id === per)).not.toHaveProperty("dns");
    race.room.resultsMailDone(next);
    expect(race.room.resultsMailDue()).toBeNull();
  });

  it("a runner taken out after 'Officiella' is in the run's gone list; a reset leaves a run that mails nobody", () => {
    const { race, per } = officialRace();
    race.run({ type: "mark-official", confirm: false });
    race.room.resultsMailDone(race.room.resultsMailDue()!);
    race.run({ type: "remove-runner", runnerId: per });
    expect(race.room.resultsMailDue()!.mail!.gone).toEqual([per]);

    race.run({ type: "reset" });
    const run = race.room.resultsMailDue()!;
    expect(run.mail).toBeNull();
    race.room.resultsMailDone(run);
    expect(race.room.resultsMailDue()).toBeNull();
  });

  it("what is owed is kept in storage: a new room over it (an evicted object woken) still owes the mail", () => {
    const { race } = officialRace();
    race.run({ type: "mark-official", confirm: false });
    const woken = new RaceRoom(race.ports.sql, race.ports.kv, race.clock);
    woken.migrate();
    expect(woken.resultsMailDue()?.mail?.race).toEqual(race.room.snapshot());
  });
});

describe("when the owed mail is due", () => {
  it("'Officiella' is due at once; each change after it pushes the mail on to the race's being still", () => {
    const { race, ella } = officialRace();
    const kv = race.ports.kv;
    expect(resultsMailAt(kv)).toBeNull();
    race.run({ type: "mark-official", confirm: false });
    expect(resultsMailAt(kv)).toBe(race.clock.now());

    // A correction ten seconds later: the mail (the official one too, not sent yet) waits for quiet.
    race.clock.advance(10_000);
    const started = race.room.race().started!;
    race.run({ type: "finish", runnerId: ella, tap: { tapId: tapId(), at: started + 230_000, rerecord: true } });
    expect(resultsMailAt(kv)).toBe(race.clock.now() + RESULTS_MAIL_QUIET_MS);
    // Another two minutes on, one more step: due three minutes after that one.
    race.clock.advance(120_000);
    race.run({ type: "finish", runnerId: ella, tap: { tapId: tapId(), at: started + 235_000, rerecord: true } });
    expect(resultsMailAt(kv)).toBe(race.clock.now() + RESULTS_MAIL_QUIET_MS);
    // One run then mails the race as the organiser left it.
    const run = race.room.resultsMailDue()!;
    expect(run.mail!.race.find((r) => r.type === "runner" && r.id === ella)).toMatchObject({ time: "03:55.000" });
    race.room.resultsMailDone(run);
    expect(resultsMailAt(kv)).toBeNull();
  });

  it("a correction in several steps (a bib swap: three edits) owes one mail, due after the last step", () => {
    const { race, ella, per } = officialRace();
    race.run({ type: "mark-official", confirm: false });
    race.room.resultsMailDone(race.room.resultsMailDue()!);

    // Ella and Per wore each other's bibs: one goes to a free number first, then each takes the other's.
    const steps = [
      () => race.run({ type: "register-bib", runnerId: ella, bib: 99 }),
      () => race.run({ type: "register-bib", runnerId: per, bib: 1 }),
      () => race.run({ type: "register-bib", runnerId: ella, bib: 2 }),
    ];
    for (const step of steps) {
      step();
      // Within the quiet after each step: nothing is due until RESULTS_MAIL_QUIET_MS after it.
      expect(resultsMailAt(race.ports.kv)).toBe(race.clock.now() + RESULTS_MAIL_QUIET_MS);
      race.clock.advance(30_000);
    }
    const run = race.room.resultsMailDue()!;
    const bibs = (run.mail!.race.slice(1) as RunnerRecord[]).map((r) => [r.id, r.bib]);
    expect(bibs).toEqual(
      expect.arrayContaining([
        [ella, 2],
        [per, 1],
      ]),
    );
    race.room.resultsMailDone(run);
    expect(race.room.resultsMailDue()).toBeNull();
  });

  it("a mail owed before mails waited for quiet (a bare count in storage) is due at once", () => {
    const { race } = officialRace();
    race.run({ type: "mark-official", confirm: false });
    race.ports.kv.put(RESULTS_MAIL_OWED_KEY, 3);
    expect(resultsMailAt(race.ports.kv)).toBe(0);
    const run = race.room.resultsMailDue()!;
    expect(run.owed).toBe(3);
    race.room.resultsMailDone(run);
    expect(resultsMailAt(race.ports.kv)).toBeNull();
  });
});

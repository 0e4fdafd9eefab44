/**
 * Making the object a race (`init`): the race row, and the runners D1 already placed in it, in one transaction.
 * Calling it again with the same race only updates whether registration is open.
 */
import { isRaceId, raceIdMatches } from "../../../shared/race-id";
import { metersToKm, RaceError, type RaceRecord } from "../../../shared/race-protocol";
import type { KnownParticipant } from "../d1";
import { raceRecord } from "../records";
import type { RaceInit } from "../types";
import { MAX_BIB } from "./checks";
import { decided, type Decision, type RuleContext } from "./decision";

export function checkRaceInit(race: RaceInit): void {
  if (!isRaceId(race?.part) || !raceIdMatches(race.part, race.date, race.distance)) {
    throw new RaceError(400, "Ogiltigt lopp.");
  }
}

/** The race as it exists: whether registration is open follows `race.openForReg` when given. Null before init. */
export function updateExistingRace({ store, by }: RuleContext, race: RaceInit): Decision<RaceRecord> | null {
  const existing = store.meta();
  if (!existing) return null;
  if (existing.part !== race.part) throw new RaceError(409, "Det här loppet har redan ett annat id.");
  const openForReg = race.openForReg === true;
  if (Boolean(existing.open_for_reg) !== openForReg && race.openForReg !== undefined) {
    store.write("race-updated", { openForReg }, by, (seq) => {
      store.sql("UPDATE meta SET open_for_reg = ?, seq = ? WHERE id = 1", openForReg ? 1 : 0, seq);
    });
  }
  return decided(raceRecord(store.requireMeta()));
}

/**
 * Creates the race with the runners D1 already places in it (a taken or bad bib is dropped: those runners are
 * mirrored back so D1 loses the number too). Does nothing when the race exists (another call made it while this
 * one read D1).
 */
export function createRace(
  { store, now, by }: RuleContext,
  race: RaceInit,
  known: readonly KnownParticipant[],
): Decision<RaceRecord> {
  const droppedBibs: string[] = [];
  if (!store.meta()) {
    const km = metersToKm(race.distance);
    const openForReg = race.openForReg === true;
    store.transaction(() => {
      store.sql(
        "INSERT INTO meta (id, part, date, distance, open_for_reg, state, started) VALUES (1, ?, ?, ?, ?, '', NULL)",
        race.part,
        race.date,
        race.distance,
        openForReg ? 1 : 0,
      );
      const seq = store.appendEvent(
        "race-created",
        { part: race.part, date: race.date, distance: race.distance, openForReg },
        by,
      );
      store.sql("UPDATE meta SET seq = ? WHERE id = 1", seq);
      for (const p of known) {
        const bib = p.bib && p.bib > 0 && p.bib <= MAX_BIB && !store.runnerWithBib(p.bib) ? p.bib : null;
        if (p.bib && bib === null) droppedBibs.push(p.id);
        const added = store.appendEvent("runner-added", { id: p.id, bib, from: "d1" }, by);
        store.sql(
          `INSERT OR IGNORE INTO runners
             (id, participant_id, bib, firstname, lastname, age, company, grp, distance, finished, added_at,
              updated_at, seq)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
          p.id,
          p.id,
          bib,
          p.firstname,
          p.lastname,
          p.age,
          p.company ?? "",
          p.grp ?? "Ingen",
          km,
          now,
          now,
          added,
        );
      }
    });
  }
  const meta = store.requireMeta();
  if (meta.part !== race.part) throw new RaceError(409, "Det här loppet har redan ett annat id.");
  return decided(raceRecord(meta), { mirror: droppedBibs });
}

/**
 * Making the object a race: the race row, and the runners D1 already placed in it, in one transaction. The
 * object makes itself from its row in D1's index the first time any call reaches it (or `init` from the
 * create-race call), with the state D1 mirrors: a past season's race, or an evicted object whose storage was
 * cleared, comes back ended (or started) as D1 last knew it, never as a new race that could be started again.
 * Calling `init` again with the same race only updates whether registration is open.
 */
import { isRaceId, raceIdMatches } from "../../../shared/race-id";
import { isRaceState, metersToKm, RaceError, type RaceRecord } from "../../../shared/race-protocol";
import type { KnownParticipant } from "../types";
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
  const changed = Boolean(existing.open_for_reg) !== openForReg && race.openForReg !== undefined;
  if (changed) {
    store.write("race-updated", { openForReg }, by, (seq) => {
      store.sql("UPDATE meta SET open_for_reg = ?, seq = ? WHERE id = 1", openForReg ? 1 : 0, seq);
    });
  }
  // Open phones hear of it, so none keeps showing the old value.
  return decided(raceRecord(store.requireMeta()), { race: changed });
}

/** The state D1 mirrors for a race whose object is being made (anything unknown is not started). */
export interface MirroredState {
  state?: string;
  started?: number | null;
}

/**
 * Creates the race with the runners D1 already places in it (a taken or bad bib is dropped: those runners are
 * mirrored back so D1 loses the number too). Does nothing when the race exists (another call made it while this
 * one read D1).
 */
export function createRace(
  { store, now, by }: RuleContext,
  race: RaceInit & MirroredState,
  known: readonly KnownParticipant[],
): Decision<RaceRecord> {
  const droppedBibs: string[] = [];
  if (!store.meta()) {
    const km = metersToKm(race.distance);
    const openForReg = race.openForReg === true;
    // A started or ended race needs its start; without one D1's state cannot be trusted, and the race is new.
    const mirrored = typeof race.started === "number" && isRaceState(race.state) && race.state !== "";
    const state = mirrored ? race.state! : "";
    const started = mirrored ? race.started! : null;
    store.transaction(() => {
      store.sql(
        "INSERT INTO meta (id, part, date, distance, open_for_reg, state, started) VALUES (1, ?, ?, ?, ?, ?, ?)",
        race.part,
        race.date,
        race.distance,
        openForReg ? 1 : 0,
        state,
        started,
      );
      const seq = store.appendEvent(
        "race-created",
        { part: race.part, date: race.date, distance: race.distance, openForReg, state, started },
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
              updated_at, seq, picked_up_at, owner)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
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
          p.picked_up_at ?? null,
          // D1 places the runner here: its participants row is the runner's, whoever owns it.
          p.registration_id ? `registration:${p.registration_id}` : "box-office",
        );
        if (p.bib && bib === null) store.owesMirror(p.id);
      }
    });
  }
  const meta = store.requireMeta();
  if (meta.part !== race.part) throw new RaceError(409, "Det här loppet har redan ett annat id.");
  return decided(raceRecord(meta), { mirror: droppedBibs });
}

/**
 * What the race object's calls take and answer (the Worker reaches them through `env.RACE.getByName(part)`; the
 * changes themselves are commands.ts).
 */
import type { RaceErrorStatus, Retime, RunnerRecord } from "../../shared/race-protocol";

/** Who made a change (the admin's e-mail, 'betalning', 'kassa' …) and from which device; kept in the audit trail. */
export interface ChangeAuthor {
  actor?: string;
  device?: string;
  /** Målfoto: the organiser decided with the finish photo open; the change's audit row carries `fromPhoto`. */
  fromPhoto?: boolean;
}

export interface RaceInit {
  part: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** Metres. */
  distance: number;
  openForReg?: boolean;
}

export interface RunnerInput {
  /** The participant id (D1 participants.id). */
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  company?: string;
  group?: string;
  /** km ('5.6'); when given it must be this race's distance. */
  distance?: string;
  /** Null, 0 or missing: no number yet. */
  bib?: number | null;
  /**
   * When the runner picked up the bib (epoch ms): a box-office runner is checked in at once, and a runner changing
   * distance keeps the mark (rules/checkin.ts).
   */
  pickedUpAt?: number | null;
  /**
   * Whose runner it is: 'registration:<id>' (a family's, its participants row owned by that registration),
   * 'box-office' (a participants row without a registration) or 'race' (made on the race screen: no participants
   * row). The race's D1 mirror writes only the participants row of that owner (d1.ts). Missing: an owner the caller
   * does not know (kept as unknown: the mirror then only updates a row already linked to this race).
   */
  owner?: RunnerOwner;
}

export type RunnerOwner = `registration:${string}` | "box-office" | "race";

export type RunnerPatch = Partial<{
  bib: number | null;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  group: string;
}>;

export interface AddRunnerOptions {
  /**
   * A paid runner must get into the race even when the bib they asked for was taken meanwhile: add them without
   * a number (and report it) instead of refusing.
   */
  dropTakenBib?: boolean;
  /** The runner comes from another race ("Byt distans"): an ended race refuses them for good. */
  move?: boolean;
  /**
   * An organiser added the runner on the race screen. Once the race has started the runner is at the race (added at
   * the finish to be timed, or at the start line), so they count as having picked up their bib at that moment, and
   * 'Markera ej hämtade som DNS' leaves them alone. Added before the start, they pick up at the desk like anyone.
   */
  onSite?: boolean;
}

export interface AddRunnerResult {
  runner: RunnerRecord;
  /** False when the runner was already in the race (the call changed nothing). */
  added: boolean;
  /** The bib asked for, when it was taken and dropped (AddRunnerOptions.dropTakenBib). */
  droppedBib?: number;
}

/** A start or finish tap. `at` is the tap's moment on the server's clock; without it the server's now is used. */
export interface TapInput {
  tapId?: string;
  at?: number;
}

/**
 * What every RPC method of the race object answers: its value, or the race's refusal (a 4xx with a Swedish
 * message; `final`: a distance move that no retry can complete; `retryAfter`: a 429's seconds to wait). Real errors
 * are thrown.
 */
export type RaceAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; status: RaceErrorStatus; error: string; final?: true; retimes?: Retime[]; retryAfter?: number };

/** A runner D1 already places in a race, read when the race's object is made (d1.ts) and joining it then. */
export type KnownParticipant = {
  id: string;
  /** Its registration (null or absent: sold at the box office). */
  registration_id?: string | null;
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  grp: string;
  bib: number | null;
  picked_up_at: number | null;
};

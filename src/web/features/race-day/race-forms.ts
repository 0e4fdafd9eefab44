/**
 * The checks of the race and runner forms (admin spec §5), done before anything is sent. The messages are the
 * spec's words; the server checks again and its message is shown when it disagrees.
 */
import { raceId } from "../../../shared/race-id";
import type { NewRace, RunnerBody } from "../../../shared/race-requests";
import { isIsoDate } from "../../../shared/stockholm";

export const RACE_FORM_ERRORS = {
  date: "felaktigt datum",
  distance: "felaktig sträcka",
  hundreds: "sträckan måste anges i hela hundra meter",
} as const;

export const AGE_ERROR = "felaktig ålder";

export interface RaceDraft {
  date: string;
  distance: string;
  openForReg: boolean;
}

/** Every message that applies, in the spec's order; a race only when there are none. */
export function checkRaceDraft(d: RaceDraft): { errors: string[]; race: NewRace | null } {
  const errors: string[] = [];
  const date = d.date.trim();
  // race ids carry a two-digit year, 20YY.
  if (!isIsoDate(date) || !date.startsWith("20")) errors.push(RACE_FORM_ERRORS.date);
  const text = d.distance.trim();
  const distance = text === "" ? NaN : Number(text);
  if (!Number.isFinite(distance) || distance <= 0 || distance > 999_900) errors.push(RACE_FORM_ERRORS.distance);
  else if (distance % 100 !== 0) errors.push(RACE_FORM_ERRORS.hundreds);
  if (errors.length > 0) return { errors, race: null };
  return { errors, race: { raceId: raceId(date, distance), date, distance, openForReg: d.openForReg } };
}

/** A positive whole number, or null (an empty field or 0: no number). Undefined when it is not a number at all. */
export function parseBib(text: string): number | null | undefined {
  const t = text.trim();
  if (t === "" || t === "0") return null;
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

export interface RunnerDraft {
  firstname: string;
  lastname: string;
  age: string;
  bib: string;
  group: string;
  company: string;
}

export const GROUPS = ["Ingen", "Dam", "Herr"] as const;

export const EMPTY_RUNNER: RunnerDraft = { firstname: "", lastname: "", age: "", bib: "", group: "Ingen", company: "" };

/** Spec: only the age is checked ("age must be a number"); the other fields go as typed. */
export function checkRunnerDraft(d: RunnerDraft): { errors: string[]; body: RunnerBody | null } {
  const ageText = d.age.trim();
  const age = ageText === "" ? NaN : Number(ageText.replace(",", "."));
  if (!Number.isFinite(age)) return { errors: [AGE_ERROR], body: null };
  return {
    errors: [],
    body: {
      firstname: d.firstname.trim(),
      lastname: d.lastname.trim(),
      age,
      bib: parseBib(d.bib) ?? null,
      group: d.group,
      company: d.company.trim(),
    },
  };
}

/**
 * The runner form's rules, shared by the browser (validation on submit) and the Worker (/update re-checks every
 * runner, DESIGN.md: validate at the edge). The bodies of POST /update and POST /code are declared here too. Plain checks instead of zod because src/shared imports nothing.
 *
 * Spec: first and last name required ('Ange namn'); age a number, a value above 1000 is a birth year ('Ange
 * ålder'); distance one of the open distances ('Välj en distans'); group Ingen, Dam or Herr; company optional.
 * Names are stored as typed but must never be rendered as HTML; we still refuse '<', '>' and control characters,
 * which no real name contains and which only serve to smuggle markup or spoof text into admin lists and e-mails.
 */
import { ageFromInput, isAdult, isValidAge } from "./age";
import { COMPANION_MESSAGES, companionErrors } from "./companion";
import { toDistance, toGroup, type DistanceKm, type Group } from "./distances";
import { SEASON, type Season } from "./season";
import { openDistances } from "./season-rules";

export const MAX_NAME_LENGTH = 60;
export const MAX_COMPANY_LENGTH = 80;
export const MAX_RUNNERS = 20;
export const MAX_RUNNER_ID_LENGTH = 60;

/** The texts the form shows; the first three are the spec's. */
export const RUNNER_MESSAGES = {
  name: "Ange namn",
  age: "Ange ålder",
  distance: "Välj en distans",
  nameTooLong: `Namnet får vara högst ${MAX_NAME_LENGTH} tecken`,
  nameMarkup: "Namnet får inte innehålla < eller >",
  nameControl: "Namnet innehåller otillåtna tecken",
  group: "Välj Ingen, Dam eller Herr",
  company: "Ange klubb/företag som text",
  companyTooLong: `Klubb/företag får vara högst ${MAX_COMPANY_LENGTH} tecken`,
  companyMarkup: "Klubb/företag får inte innehålla < eller >",
  companyControl: "Klubb/företag innehåller otillåtna tecken",
  runner: "Ogiltiga uppgifter om deltagaren",
  runnerId: "Ogiltigt deltagar-id",
  runners: "Ogiltig deltagarlista",
  tooMany: `Högst ${MAX_RUNNERS} deltagare per anmälan`,
  companion: "Ange om löparen springer med barn som ja eller nej",
} as const;

/** A runner as stored: the spec's fields in canonical form. */
export interface RunnerFields {
  firstname: string;
  lastname: string;
  age: number;
  company: string;
  distance: DistanceKm;
  group: Group;
  /**
   * An adult running with a child of the family without competing (shared/companion.ts); present (true) only for
   * such a runner, absent for every competing runner.
   */
  companion?: true;
}

/** The runner map as POST /update takes it: the spec's fields only (ids, bibs and prices are the server's). */
export type RunnerMap = Record<string, RunnerFields>;

/**
 * The body of POST /update: the whole runner map, based on the version the page last saw (a 409
 * `{error, registration}` when another tab saved first).
 */
export interface RunnerUpdate {
  runners: RunnerMap;
  version: number;
}

/** The body of POST /code: the e-mailed code traded for a session (the spec sends the code as text). */
export interface CodeConfirmation {
  email: string;
  codeId: string;
  code: string;
}

export type RunnerField = keyof RunnerFields;
export type RunnerErrors = Partial<Record<RunnerField, string>>;

export type Checked<T, E> = { ok: true; value: T } | { ok: false; errors: E };

/** Client-generated ids: letters, digits, '-' and '_' (a UUID or a short random string), at most 60 characters. */
const RUNNER_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_RUNNER_ID_LENGTH}}$`);

// C0/C1 control characters, and the bidirectional overrides and isolates that can make a name read backwards.
const FORBIDDEN_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const MARKUP = /[<>]/;

export function isRunnerId(id: unknown): boolean {
  return typeof id === "string" && RUNNER_ID.test(id);
}

type TextMessages = { missing?: string; tooLong: string; markup: string; control: string; notText: string };

/** A trimmed text, or the message explaining why not. `required` makes an empty text an error. */
function checkText(
  value: unknown,
  max: number,
  required: boolean,
  m: TextMessages,
): { text: string } | { error: string } {
  if (value === undefined || value === null) return required ? { error: m.missing ?? m.notText } : { text: "" };
  if (typeof value !== "string") return { error: m.notText };
  const text = value.trim();
  if (text === "") return required ? { error: m.missing ?? m.notText } : { text: "" };
  if (FORBIDDEN_CONTROL.test(text)) return { error: m.control };
  if (MARKUP.test(text)) return { error: m.markup };
  if ([...text].length > max) return { error: m.tooLong };
  return { text };
}

const NAME_MESSAGES: TextMessages = {
  missing: RUNNER_MESSAGES.name,
  notText: RUNNER_MESSAGES.name,
  tooLong: RUNNER_MESSAGES.nameTooLong,
  markup: RUNNER_MESSAGES.nameMarkup,
  control: RUNNER_MESSAGES.nameControl,
};

const COMPANY_MESSAGES: TextMessages = {
  notText: RUNNER_MESSAGES.company,
  tooLong: RUNNER_MESSAGES.companyTooLong,
  markup: RUNNER_MESSAGES.companyMarkup,
  control: RUNNER_MESSAGES.companyControl,
};

/**
 * The age in years from the form's value: a number, or digits as typed (the form field is text). Spec: above
 * 1000 is a birth year, converted with Stockholm's current year at `now`. Null when it is not a whole age 0–120.
 */
export function ageFromForm(value: unknown, now: number): number | null {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^\s*\d{1,4}\s*$/.test(value)) n = Number(value.trim());
  else return null;
  if (!Number.isInteger(n) || n < 0) return null;
  const age = ageFromInput(n, now);
  return isValidAge(age) ? age : null;
}

/** Checks one runner from the form or the wire; unknown extra fields (id, bib, price …) are ignored. */
export function checkRunner(input: unknown, now: number, season: Season = SEASON): Checked<RunnerFields, RunnerErrors> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: { firstname: RUNNER_MESSAGES.runner } };
  }
  const r = input as Record<string, unknown>;
  const errors: RunnerErrors = {};

  const firstname = checkText(r.firstname, MAX_NAME_LENGTH, true, NAME_MESSAGES);
  if ("error" in firstname) errors.firstname = firstname.error;
  const lastname = checkText(r.lastname, MAX_NAME_LENGTH, true, NAME_MESSAGES);
  if ("error" in lastname) errors.lastname = lastname.error;

  const age = ageFromForm(r.age, now);
  if (age === null) errors.age = RUNNER_MESSAGES.age;

  const distance = toDistance(r.distance);
  if (distance === null || !openDistances(season).includes(distance)) errors.distance = RUNNER_MESSAGES.distance;

  const group = toGroup(r.group);
  if (group === null) errors.group = RUNNER_MESSAGES.group;

  const company = checkText(r.company, MAX_COMPANY_LENGTH, false, COMPANY_MESSAGES);
  if ("error" in company) errors.company = company.error;

  // Absent, null or false: a competing runner. Only an adult can run with a child (the family's side of the rule,
  // a child on the same distance, is checkRunnerMap's and the Worker's).
  const companion = r.companion === true;
  if (r.companion !== undefined && r.companion !== null && typeof r.companion !== "boolean") {
    errors.companion = RUNNER_MESSAGES.companion;
  } else if (companion && age !== null && !isAdult(age, season)) {
    errors.companion = COMPANION_MESSAGES.notAdult(season);
  }

  if (
    Object.keys(errors).length > 0 ||
    "error" in firstname ||
    "error" in lastname ||
    "error" in company ||
    age === null ||
    distance === null ||
    group === null
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      firstname: firstname.text,
      lastname: lastname.text,
      age,
      company: company.text,
      distance,
      group,
      ...(companion ? { companion: true as const } : {}),
    },
  };
}

/**
 * Checks the full runner map of a registration (spec: runners keyed by a generated id). Errors are keyed
 * '<id>.<field>' for a runner's field, '<id>' for a bad id and '_' for the map itself. `familyRule: false` leaves
 * the companions' need of a child to the caller: the Worker's save knows what is stored (a child a refund took out,
 * a companion already left without one) and applies shared/companion.ts companionSaveErrors instead.
 */
export function checkRunnerMap(
  input: unknown,
  now: number,
  season: Season = SEASON,
  { familyRule = true }: { familyRule?: boolean } = {},
): Checked<Record<string, RunnerFields>, Record<string, string>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: { _: RUNNER_MESSAGES.runners } };
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_RUNNERS) return { ok: false, errors: { _: RUNNER_MESSAGES.tooMany } };
  // Pairs and Object.fromEntries, not `obj[id] = …`: an id such as '__proto__' must stay an ordinary key.
  const runners: [string, RunnerFields][] = [];
  const errors: [string, string][] = [];
  for (const [id, value] of entries) {
    if (!isRunnerId(id)) {
      errors.push([id.slice(0, MAX_RUNNER_ID_LENGTH) || "_", RUNNER_MESSAGES.runnerId]);
      continue;
    }
    const checked = checkRunner(value, now, season);
    if (checked.ok) runners.push([id, checked.value]);
    else for (const [field, message] of Object.entries(checked.errors)) errors.push([`${id}.${field}`, message]);
  }
  // A companion needs a child of the family on its distance (shared/companion.ts).
  if (errors.length === 0 && familyRule) {
    const family = runners.map(([id, r]) => ({ ...r, key: id }));
    for (const [id, message] of Object.entries(companionErrors(family, season))) {
      errors.push([`${id}.companion`, message as string]);
    }
  }
  return errors.length > 0
    ? { ok: false, errors: Object.fromEntries(errors) }
    : { ok: true, value: Object.fromEntries(runners) };
}

/**
 * The quick-registration form's checks (admin spec §5), run on submit only (lazy validation, spec §4). Every field
 * has the rule 'Obligatorisk': "text longer than 1 character", radio groups included. Taken literally that would
 * refuse age 5 and bib 7, so for age and bib one character is enough; every other field needs two. The Worker
 * checks the same rules again (src/worker/routes/box-office.ts), with the same messages.
 */
import type { BoxOfficeMethod } from "../../../../shared/box-office";
import type { DistanceKm } from "../../../../shared/distances";

export type BoxOfficeGroup = "Herr" | "Dam";

export const REQUIRED = "Obligatorisk";
export const MAX_NAME = 60;
export const MAX_BIB = 99_999;

export const RULE_MESSAGES = {
  nameTooLong: `Namnet får vara högst ${MAX_NAME} tecken`,
  nameChars: "Namnet innehåller otillåtna tecken",
  age: "Ange ålder 0–120 (eller födelseår)",
  phone: "Ange ett telefonnummer med siffror (minst 7)",
  bib: `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}`,
  kampanj: "Ange kampanjkoden",
} as const;

/** The spec's distance values, in its order, and its two groups. */
export const BOX_OFFICE_DISTANCES: readonly DistanceKm[] = ["5.6", "2.8", "1.6", "0.8"];
export const BOX_OFFICE_GROUPS: readonly BoxOfficeGroup[] = ["Herr", "Dam"];

export interface QuickRegDraft {
  firstname: string;
  lastname: string;
  age: string;
  distance: DistanceKm | "";
  group: BoxOfficeGroup | "";
  phone: string;
  bib: string;
  method: BoxOfficeMethod;
  kampanj: string;
}

export const EMPTY_DRAFT: QuickRegDraft = {
  firstname: "",
  lastname: "",
  age: "",
  distance: "",
  group: "",
  phone: "",
  bib: "",
  method: "swish",
  kampanj: "",
};

/** The spec's payload, plus how the fee is paid. */
export interface QuickRegBody {
  firstname: string;
  lastname: string;
  age: string;
  distance: DistanceKm;
  group: BoxOfficeGroup;
  phone: string;
  bib: string;
  method: BoxOfficeMethod;
  kampanj?: string;
}

export type QuickRegField = keyof QuickRegDraft;
export type QuickRegErrors = Partial<Record<QuickRegField | "_", string>>;

// Control characters, bidirectional overrides and markup: never part of a name.
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069<>]/;

/** Spec 'Obligatorisk': longer than one character (age and bib: at least one, see the module comment). */
function obligatorisk(value: string, min: 1 | 2): boolean {
  return [...value.trim()].length >= min;
}

function nameError(value: string): string | undefined {
  if (!obligatorisk(value, 2)) return REQUIRED;
  if ([...value.trim()].length > MAX_NAME) return RULE_MESSAGES.nameTooLong;
  if (NAME_FORBIDDEN.test(value)) return RULE_MESSAGES.nameChars;
  return undefined;
}

export function checkQuickReg(
  d: QuickRegDraft,
): { ok: true; body: QuickRegBody } | { ok: false; errors: QuickRegErrors } {
  const errors: QuickRegErrors = {};
  const firstname = nameError(d.firstname);
  if (firstname) errors.firstname = firstname;
  const lastname = nameError(d.lastname);
  if (lastname) errors.lastname = lastname;

  const age = d.age.trim();
  if (!obligatorisk(age, 1)) errors.age = REQUIRED;
  else if (!/^\d{1,4}$/.test(age) || (Number(age) > 120 && Number(age) <= 1000)) errors.age = RULE_MESSAGES.age;

  if (!obligatorisk(d.distance, 2)) errors.distance = REQUIRED;
  if (!obligatorisk(d.group, 2)) errors.group = REQUIRED;

  const phone = d.phone.trim();
  if (!obligatorisk(phone, 2)) errors.phone = REQUIRED;
  else if (!/^\+?[\d\s-]+$/.test(phone) || phone.replace(/\D/g, "").length < 7) errors.phone = RULE_MESSAGES.phone;

  const bib = d.bib.trim();
  if (!obligatorisk(bib, 1)) errors.bib = REQUIRED;
  else if (!/^\d{1,5}$/.test(bib) || Number(bib) < 1 || Number(bib) > MAX_BIB) errors.bib = RULE_MESSAGES.bib;

  if (d.method === "kampanj" && d.kampanj.trim() === "") errors.kampanj = RULE_MESSAGES.kampanj;

  if (Object.keys(errors).length > 0 || d.distance === "" || d.group === "") return { ok: false, errors };
  return {
    ok: true,
    body: {
      firstname: d.firstname.trim(),
      lastname: d.lastname.trim(),
      age,
      distance: d.distance,
      group: d.group,
      phone,
      bib,
      method: d.method,
      ...(d.method === "kampanj" ? { kampanj: d.kampanj.trim().toUpperCase() } : {}),
    },
  };
}

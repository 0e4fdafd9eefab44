/**
 * The quick-registration form's draft and its check on submit (lazy validation, spec §4): the Worker's own rules
 * and messages (src/shared/box-office.ts), run here before anything is sent.
 */
import {
  checkQuickReg as checkFields,
  type BoxOfficeGroup,
  type BoxOfficeMethod,
  type QuickRegBody,
  type QuickRegErrors,
} from "../../../../shared/box-office";
import type { DistanceKm } from "../../../../shared/distances";

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

export type QuickRegField = keyof QuickRegDraft;

/** The body to send, or the first message per field, exactly as the Worker would answer them. */
export function checkQuickReg(
  d: QuickRegDraft,
): { ok: true; body: QuickRegBody } | { ok: false; errors: QuickRegErrors } {
  const body: QuickRegBody = {
    firstname: d.firstname,
    lastname: d.lastname,
    age: d.age,
    distance: d.distance,
    group: d.group,
    phone: d.phone,
    bib: d.bib,
    method: d.method,
    ...(d.method === "kampanj" ? { kampanj: d.kampanj.trim().toUpperCase() } : {}),
  };
  const checked = checkFields(body);
  return checked.ok ? { ok: true, body } : checked;
}

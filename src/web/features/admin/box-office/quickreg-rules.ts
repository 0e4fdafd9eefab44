/**
 * The quick-registration form's draft and its check on submit (lazy validation, spec §4): the Worker's own rules
 * and messages (src/shared/box-office.ts), run here before anything is sent.
 */
import {
  checkQuickReg as checkFields,
  checkQuickRegSale,
  type BoxOfficeGroup,
  type BoxOfficeMethod,
  type QuickRegBody,
  type QuickRegErrors,
  type QuickRegSaleBody,
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
  /**
   * The first runner runs with a child of the sale without competing (shared/companion.ts): offered, and sent, only
   * while the sale has more runners than one (a companion alone has no child to run with).
   */
  companion?: boolean;
  /** More runners of the same family: one phone number and one payment for all ('Lägg till löpare'). */
  extra: RunnerDraft[];
}

/** One more runner of the family (the phone number and the payment are the sale's). */
export interface RunnerDraft {
  firstname: string;
  lastname: string;
  age: string;
  distance: DistanceKm | "";
  group: BoxOfficeGroup | "";
  bib: string;
  /** 'Springer med barn (ej tävlande)' (shared/companion.ts): no bib, the season's companion price. */
  companion?: boolean;
}

export const EMPTY_RUNNER: RunnerDraft = { firstname: "", lastname: "", age: "", distance: "", group: "", bib: "" };

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
  extra: [],
};

export type QuickRegField = Exclude<keyof QuickRegDraft, "extra">;

/**
 * The body to send, or the first message per field, exactly as the Worker would answer them: the spec's one-runner
 * body while the family has one runner, `{runners, phone, method, kampanj}` once it has more (errors of a later
 * runner under `runners.{i}.{field}`).
 */
export function checkQuickReg(
  d: QuickRegDraft,
):
  | { ok: true; body: QuickRegBody | QuickRegSaleBody }
  | { ok: false; errors: QuickRegErrors & Record<string, string | undefined> } {
  const kampanj = d.method === "kampanj" ? { kampanj: d.kampanj.trim().toUpperCase() } : {};
  if (d.extra.length > 0) {
    const body: QuickRegSaleBody = {
      runners: [d, ...d.extra].map((r) => ({
        firstname: r.firstname,
        lastname: r.lastname,
        age: r.age,
        distance: r.distance,
        group: r.group,
        bib: r.bib,
        ...("companion" in r && r.companion ? { companion: true } : {}),
      })),
      phone: d.phone,
      method: d.method,
      ...kampanj,
    };
    const checked = checkQuickRegSale(body);
    return checked.ok ? { ok: true, body } : checked;
  }
  const body: QuickRegBody = {
    firstname: d.firstname,
    lastname: d.lastname,
    age: d.age,
    distance: d.distance,
    group: d.group,
    phone: d.phone,
    bib: d.bib,
    method: d.method,
    ...kampanj,
  };
  const checked = checkFields(body);
  return checked.ok ? { ok: true, body } : checked;
}

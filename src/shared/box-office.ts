/**
 * The box office's sign-up rules and answers (src/worker/box-office/routes.ts), shared by the Worker, which checks
 * every call, and /admin/kassa, which checks the same on submit (lazy validation, spec §4) with the same messages.
 *
 * Spec §5: every field has the rule 'Obligatorisk' ("text longer than 1 character"), radio groups included. Taken
 * literally that refuses age 5 and bib 7, so for age and bib one character is enough; every other field needs two.
 *
 * A second kind of sale (issue 39, item 3): a companion place for a parent whose child registered online
 * (`POST /admin/api/quickreg/companion`, checkCompanionSale below): the child is named by its runner id, the
 * companion's fields are checked as a box-office runner's, and the sale carries an id the page makes once per sale
 * (`saleId`), so a retry of the same sale is answered with the sale already made.
 */
import { MAX_AGE } from "./age";
import { COMPANION_MESSAGES } from "./companion";
import { toDistance, type DistanceKm } from "./distances";
import type { PaymentStatus } from "./payment-protocol";
import { MAX_NAME_LENGTH } from "./registration-schema";

/** How a box-office sign-up was paid: recorded as such, never one as another. */
export const BOX_OFFICE_METHODS = ["swish", "kontant", "kampanj"] as const;
export type BoxOfficeMethod = (typeof BOX_OFFICE_METHODS)[number];

/** The spec's distance values, in its order, and its two groups. */
export const BOX_OFFICE_DISTANCES: readonly DistanceKm[] = ["5.6", "2.8", "1.6", "0.8"];
export const BOX_OFFICE_GROUPS = ["Herr", "Dam"] as const;
export type BoxOfficeGroup = (typeof BOX_OFFICE_GROUPS)[number];

/** The highest bib the race object takes (src/durable/race/rules/checks.ts). */
export const MAX_BIB = 99_999;
const MAX_PHONE_LENGTH = 20;
const MAX_CODE_LENGTH = 40;

export const QUICKREG_MSG = {
  required: "Obligatorisk",
  body: "Ogiltig registrering.",
  nameTooLong: `Namnet får vara högst ${MAX_NAME_LENGTH} tecken`,
  nameChars: "Namnet innehåller otillåtna tecken",
  age: `Ange ålder 0–${MAX_AGE} (eller födelseår)`,
  distance: "Välj 5.6, 2.8, 1.6 eller 0.8",
  group: "Välj Herr eller Dam",
  phone: "Ange ett telefonnummer med siffror (minst 7)",
  bib: `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}`,
  method: "Välj Swish, Kontant eller Kampanjkod",
  kampanj: "Ange kampanjkoden",
} as const;

/** A sign-up as checked: age as typed (whole years, or a birth year above 1000 that the server converts). */
export interface QuickRegFields {
  firstname: string;
  lastname: string;
  age: number;
  distance: DistanceKm;
  group: BoxOfficeGroup;
  phone: string;
  /** The bib typed; null only for a companion, who never has one. */
  bib: number | null;
  method: BoxOfficeMethod;
  /** The campaign code when `method` is 'kampanj'. */
  kampanj: string | null;
  /**
   * 'Springer med barn (ej tävlande)' (shared/companion.ts): an adult running with a child of the same sale. No bib
   * (one typed is refused), priced at the season's companionPrice, never added to a race.
   */
  companion?: true;
}

/** `POST /admin/api/quickreg`'s body as the page sends it: the fields as typed. */
export interface QuickRegBody {
  firstname: string;
  lastname: string;
  age: string;
  distance: string;
  group: string;
  phone: string;
  bib: string;
  method: BoxOfficeMethod;
  kampanj?: string;
  companion?: boolean;
}

export type QuickRegErrors = Partial<Record<keyof QuickRegFields | "_", string>>;

// C0/C1 control characters, bidirectional overrides and markup: never part of a name (as registration-schema.ts).
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069<>]/;

/** Text as typed (a number too, for fields a client may send as one), trimmed; '' when missing; null otherwise. */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return "";
  if (typeof value === "string" || typeof value === "number") return String(value).trim();
  return null;
}

/** Spec 'Obligatorisk': longer than 1 character (`min` 2), or at least 1 for age and bib (see the module comment). */
function obligatorisk(value: unknown, min: 1 | 2, max: number): { text: string } | { error: string } {
  const text = textOf(value);
  if (text === null || [...text].length < min) return { error: QUICKREG_MSG.required };
  if (text.length > max) return { error: QUICKREG_MSG.body };
  return { text };
}

function nameOf(value: unknown): { text: string } | { error: string } {
  const checked = obligatorisk(value, 2, 200);
  if ("error" in checked) return checked;
  if ([...checked.text].length > MAX_NAME_LENGTH) return { error: QUICKREG_MSG.nameTooLong };
  if (NAME_FORBIDDEN.test(checked.text)) return { error: QUICKREG_MSG.nameChars };
  return checked;
}

/**
 * Checks a sign-up from the form or the wire (the Worker checks every call, the page on submit): the fields, or the
 * first message per field ('_' for a body that is not an object).
 */
export function checkQuickReg(
  input: unknown,
): { ok: true; value: QuickRegFields } | { ok: false; errors: QuickRegErrors } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: { _: QUICKREG_MSG.body } };
  }
  const r = input as Record<string, unknown>;
  const errors: QuickRegErrors = {};
  const field = <T>(
    key: keyof QuickRegFields,
    checked: { text: string } | { error: string },
    ok: (s: string) => T | null,
    message: string,
  ): T | null => {
    if ("error" in checked) {
      errors[key] = checked.error;
      return null;
    }
    const value = ok(checked.text);
    if (value === null) errors[key] = message;
    return value;
  };

  const firstname = field("firstname", nameOf(r.firstname), (s) => s, QUICKREG_MSG.required);
  const lastname = field("lastname", nameOf(r.lastname), (s) => s, QUICKREG_MSG.required);
  const age = field(
    "age",
    obligatorisk(r.age, 1, 10),
    (s) => (/^\d{1,4}$/.test(s) && (Number(s) <= MAX_AGE || Number(s) > 1000) ? Number(s) : null),
    QUICKREG_MSG.age,
  );
  const distance = field("distance", obligatorisk(r.distance, 2, 10), toDistance, QUICKREG_MSG.distance);
  const group = field(
    "group",
    obligatorisk(r.group, 2, 10),
    (s) => BOX_OFFICE_GROUPS.find((g) => g === s) ?? null,
    QUICKREG_MSG.group,
  );
  const phone = field(
    "phone",
    obligatorisk(r.phone, 2, MAX_PHONE_LENGTH),
    (s) => (/^\+?[\d\s-]+$/.test(s) && s.replace(/\D/g, "").length >= 7 ? s : null),
    QUICKREG_MSG.phone,
  );
  // A companion runs with a child without competing: no bib, and one typed is refused rather than dropped.
  const companion = r.companion === true;
  if (r.companion !== undefined && r.companion !== null && typeof r.companion !== "boolean") {
    errors.companion = QUICKREG_MSG.body;
  }
  if (companion && textOf(r.bib) !== "") errors.bib = COMPANION_MESSAGES.companionNotAllowed;
  const bib = companion
    ? null
    : field(
        "bib",
        obligatorisk(r.bib, 1, 10),
        (s) => (/^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_BIB ? Number(s) : null),
        QUICKREG_MSG.bib,
      );
  const method = r.method === undefined ? "swish" : (BOX_OFFICE_METHODS.find((m) => m === r.method) ?? null);
  if (method === null) errors.method = QUICKREG_MSG.method;
  const kampanj = textOf(r.kampanj);
  if (kampanj === null || kampanj.length > MAX_CODE_LENGTH) errors.kampanj = QUICKREG_MSG.body;
  else if (method === "kampanj" && kampanj === "") errors.kampanj = QUICKREG_MSG.kampanj;

  if (
    firstname === null ||
    lastname === null ||
    age === null ||
    distance === null ||
    group === null ||
    phone === null ||
    (bib === null && !companion) ||
    method === null ||
    Object.keys(errors).length > 0
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      firstname,
      lastname,
      age,
      distance,
      group,
      phone,
      bib,
      method,
      kampanj: method === "kampanj" ? kampanj : null,
      ...(companion ? { companion: true as const } : {}),
    },
  };
}

/** `POST /admin/api/quickreg`: the sign-up's payment, started (Swish) or already paid (cash, a free code). */
export interface QuickRegStarted {
  payid: string;
  method: BoxOfficeMethod;
  /** Whole kronor: the season's on-site price (0 with a campaign code). */
  amount: number;
  raceId: string;
  /** Swish only: the m-commerce token (the QR at `/qr-v2?token=…`). */
  token?: string;
}

/** `GET /admin/api/quickreg/{payid}`: the payment and, once paid, the runner as the race has it. */
export interface QuickRegStatus {
  payid: string;
  method: BoxOfficeMethod;
  status: PaymentStatus;
  amount: number;
  errorCode: string | null;
  errorMessage: string | null;
  runner: { firstname: string; lastname: string; age: number; distance: string; group: string; phone: string | null };
  raceId: string;
  /** The bib asked for at the box office. */
  requestedBib: number | null;
  /** In the race now (PAID and added by the race object). */
  added: boolean;
  /** The runner's bib in the race once added (null: added without one, the asked-for bib was taken). */
  bib: number | null;
  /** Every runner of the sale (the first is `runner` above), each with its race and bib as above. */
  runners: QuickRegStatusRunner[];
}

export interface QuickRegStatusRunner {
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  raceId: string;
  requestedBib: number | null;
  added: boolean;
  bib: number | null;
  /** When the bib was handed over (a box-office runner is checked in as it joins the race). */
  pickedUpAt: number | null;
  /** An adult running with a child (shared/companion.ts): in no race, never a bib; `added` once paid. */
  companion?: true;
  /**
   * A companion sold for a child registered online: the child's family's e-mail. `joined` once the payment is
   * PAID and the companion is a runner of that family's registration.
   */
  family?: { email: string; joined: boolean };
}

// ——— a family at the box office: several runners, one phone number, one payment ———

/** At most this many runners in one box-office sale. */
export const MAX_SALE_RUNNERS = 10;

/** One runner of a sale (the phone number and the payment are the sale's). */
export type QuickRegRunner = Pick<
  QuickRegFields,
  "firstname" | "lastname" | "age" | "distance" | "group" | "bib" | "companion"
>;

export interface QuickRegSale {
  runners: QuickRegRunner[];
  phone: string;
  method: BoxOfficeMethod;
  kampanj: string | null;
}

/** `POST /admin/api/quickreg` with several runners: each runner's fields as typed, the rest the sale's. */
export interface QuickRegSaleBody {
  runners: Pick<QuickRegBody, "firstname" | "lastname" | "age" | "distance" | "group" | "bib" | "companion">[];
  phone: string;
  method: BoxOfficeMethod;
  kampanj?: string;
}

/** A field of runner `index` of a sale: the first runner's fields keep their plain names ('bib', 'runners.2.bib'). */
export function saleFieldKey(index: number, field: keyof QuickRegRunner): string {
  return index === 0 ? field : `runners.${index}.${field}`;
}

export const SALE_MSG = {
  runners: `Ange en till ${MAX_SALE_RUNNERS} löpare.`,
  sameBib: (bib: number) => `Startnummer ${bib} står redan på en annan löpare i samma köp.`,
} as const;

/**
 * Checks a sale: the spec's one-runner body (as checkQuickReg), or `{runners: [...], phone, method, kampanj}`, each
 * runner by the one-runner rules. Errors per field; a later runner's under `runners.{i}.{field}`. Two runners of
 * the sale with the same bib on the same distance are refused here, before anything else.
 */
export function checkQuickRegSale(
  input: unknown,
): { ok: true; value: QuickRegSale } | { ok: false; errors: Record<string, string> } {
  const r =
    typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  if (!r || !("runners" in r)) {
    const one = checkQuickReg(input);
    if (!one.ok) return { ok: false, errors: one.errors as Record<string, string> };
    const { phone, method, kampanj, ...runner } = one.value;
    return { ok: true, value: { runners: [runner], phone, method, kampanj } };
  }
  const list = r.runners;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_SALE_RUNNERS) {
    return { ok: false, errors: { _: SALE_MSG.runners } };
  }
  const errors: Record<string, string> = {};
  const runners: QuickRegRunner[] = [];
  let sale: Omit<QuickRegSale, "runners"> | null = null;
  list.forEach((entry: unknown, index) => {
    const fields = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    const checked = checkQuickReg({ ...fields, phone: r.phone, method: r.method, kampanj: r.kampanj });
    if (!checked.ok) {
      for (const [key, message] of Object.entries(checked.errors)) {
        const runnerField = ["firstname", "lastname", "age", "distance", "group", "bib", "companion"].includes(key);
        const name = runnerField ? saleFieldKey(index, key as keyof QuickRegRunner) : key;
        if (message) errors[name] ??= message;
      }
      return;
    }
    const { phone, method, kampanj, ...runner } = checked.value;
    sale = { phone, method, kampanj };
    const twin = runner.bib !== null && runners.find((o) => o.bib === runner.bib && o.distance === runner.distance);
    if (twin && runner.bib !== null) errors[saleFieldKey(index, "bib")] = SALE_MSG.sameBib(runner.bib);
    runners.push(runner);
  });
  if (Object.keys(errors).length > 0 || sale === null) return { ok: false, errors };
  return { ok: true, value: { ...(sale as Omit<QuickRegSale, "runners">), runners } };
}

/**
 * A phone number as digits, the way the personal-data lookup compares box-office numbers (typed as '070-123 45 67',
 * '0701234567' or '+46 70 123 45 67'): digits only, a Swedish country code (+46, 0046) read as the leading 0.
 * Null for text with fewer than 7 digits.
 */
export function phoneDigits(phone: string): string | null {
  const trimmed = phone.trim();
  let digits = trimmed.replace(/\D/g, "");
  if (trimmed.startsWith("+46")) digits = `0${digits.slice(2)}`;
  else if (digits.startsWith("0046")) digits = `0${digits.slice(4)}`;
  return digits.length >= 7 ? digits : null;
}

// ——— a companion place for a parent whose child registered online (issue 39, item 3) ———

/** `POST /admin/api/quickreg/companion`: the companion's fields as typed, the child's runner id and the sale's id. */
export interface CompanionSaleBody {
  /** Made by the page once per sale (a UUID): the same id again is the same sale. */
  saleId: string;
  /** The child's runner id (the bib desk's search and family calls name it). */
  childId: string;
  firstname: string;
  lastname: string;
  age: string;
  /** The child's distance as the page showed it: refused when the child runs another one now. */
  distance: string;
  group: string;
  method: BoxOfficeMethod;
  kampanj?: string;
}

export interface CompanionSale {
  saleId: string;
  childId: string;
  firstname: string;
  lastname: string;
  /** As typed: whole years, or a birth year the server converts. */
  age: number;
  distance: DistanceKm;
  group: BoxOfficeGroup;
  method: BoxOfficeMethod;
  kampanj: string | null;
}

const SALE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const COMPANION_SALE_MSG = {
  saleId: "Ogiltigt köp-id. Ladda om sidan och försök igen.",
  child: "Välj barnet som den vuxna springer med.",
  childMissing: "Barnet finns inte bland årets anmälningar på nätet. Sök fram barnet igen.",
  childUnpaid: (name: string) =>
    `Anmälan för ${name} är inte betald. Familjen betalar barnet först (i kassan eller på nätet).`,
  childDeregistered: (name: string) => `${name} är avregistrerad och springer inte i år.`,
  childAdult: (name: string, age: number, adultAge: number) =>
    `${name} är ${age} år och tävlar som vuxen. Bara ett barn (under ${adultAge} år) kan ha en vuxen som springer med.`,
  childCompanion: (name: string) => `${name} springer själv med barn och är inget barn att springa med.`,
  distance: (name: string, childKm: string, km: string) =>
    `${name} springer ${childKm}, inte ${km}. Den som springer med barn springer samma distans som barnet.`,
  inFamily: (name: string) => `${name} finns redan i familjens anmälan.`,
  pending: (name: string) =>
    `${name} säljs just nu i en annan kassa och väntar på betalningen. Vänta några minuter eller välj ett annat namn.`,
  campaign: "En kampanjkod ändrar inte priset för den som springer med barn. Betala med Swish eller kontant.",
  inFlight: "Köpet registreras redan. Vänta några sekunder och tryck igen.",
} as const;

/**
 * Checks a companion sale from the page or the wire, by the one-runner rules for the companion's own fields (a
 * phone number is not asked: the family's e-mail is its contact) and the sale's id and child: the fields, or the
 * first message per field.
 */
export function checkCompanionSale(
  input: unknown,
): { ok: true; value: CompanionSale } | { ok: false; errors: Record<string, string> } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: { _: QUICKREG_MSG.body } };
  }
  const r = input as Record<string, unknown>;
  // The companion's fields by the one-runner rules; the number stands in for the phone, which is not asked.
  const checked = checkQuickReg({ ...r, phone: "0000000", bib: "", companion: true });
  const errors: Record<string, string> = {};
  if (!checked.ok) {
    for (const [key, message] of Object.entries(checked.errors)) if (message) errors[key] = message;
  }
  const saleId = typeof r.saleId === "string" && SALE_ID.test(r.saleId) ? r.saleId : null;
  if (saleId === null) errors.saleId = COMPANION_SALE_MSG.saleId;
  const childId = typeof r.childId === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(r.childId) ? r.childId : null;
  if (childId === null) errors.childId = COMPANION_SALE_MSG.child;
  if (!checked.ok || saleId === null || childId === null || Object.keys(errors).length > 0) {
    return { ok: false, errors };
  }
  const { firstname, lastname, age, distance, group, method, kampanj } = checked.value;
  return { ok: true, value: { saleId, childId, firstname, lastname, age, distance, group, method, kampanj } };
}

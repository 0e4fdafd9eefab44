/**
 * The bib desk ('Nummerlappar', /admin/incheckning): the family's check-in code and what the desk's calls answer,
 * shared by the Worker (src/worker/checkin/) and the desk's page.
 *
 * The check-in code identifies one registration: 11 random characters of Crockford's base-32 alphabet (55 bits,
 * from a CSPRNG) and one check character, written in three groups of four ('K7QM-2XRT-94HA'). The QR on the
 * receipt and on the family's page holds exactly that text, so a volunteer can type it too: case, spaces and
 * dashes do not matter, and the letters people mistake for digits (O, I, L) are read as 0 and 1. A typo is caught
 * by the check character before anything is looked up. The code opens nothing by itself: only an admin's session
 * can look it up, and it belongs to the registration's season.
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CHECKIN_CODE_RANDOM_CHARS = 11;

function checkChar(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum = (sum * 7 + ALPHABET.indexOf(body[i]!) * (i + 3)) % 32;
  return ALPHABET[sum]!;
}

/** A new code from random bytes (at least 11; the Worker passes crypto.getRandomValues' output). */
export function makeCheckinCode(random: Uint8Array): string {
  if (random.length < CHECKIN_CODE_RANDOM_CHARS) throw new Error("too few random bytes");
  let body = "";
  for (let i = 0; i < CHECKIN_CODE_RANDOM_CHARS; i += 1) body += ALPHABET[random[i]! % 32];
  return body + checkChar(body);
}

/** The code as printed and shown: three groups of four. */
export function formatCheckinCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;
}

/** What a volunteer typed or a camera read, as a stored code; null when it cannot be one (a typo, or no code). */
export function parseCheckinCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const code = input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== CHECKIN_CODE_RANDOM_CHARS + 1) return null;
  if ([...code].some((ch) => !ALPHABET.includes(ch))) return null;
  return checkChar(code.slice(0, -1)) === code.slice(-1) ? code : null;
}

export const CHECKIN_MSG = {
  badCode: "Koden stämmer inte. Kontrollera att den är rätt inskriven (tolv tecken, t.ex. K7QM-2XRT-94HA).",
  unknownCode: "Ingen anmälan har den koden. Sök på namn, e-post eller startnummer i stället.",
  otherSeason: (season: number, current: number) =>
    `Koden hör till anmälan för ${season}, inte årets lopp (${current}). Sök på namn eller e-post i stället.`,
  noFamily: "Anmälan finns inte.",
  moved: (name: string, distance: string) =>
    `${name} har bytt till ${distance.replace(".", ",")} km sedan familjen visades. Listan är uppdaterad: tryck igen.`,
  notInRace: (name: string) => `${name} är inte med i något lopp (ej betald?).`,
  unpaid: "Anmälan är inte betald. Skicka familjen till kassan.",
  query: "Skriv minst två tecken, eller ett startnummer.",
} as const;

/** One runner as the desk shows it: the race object's state for runners in a race, D1's for the rest. */
export interface DeskRunner {
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  /** km as the spec writes it ('5.6'). */
  distance: string;
  group: string;
  /** The race the runner is in; null when in none (an unpaid registration, or not yet added). */
  raceId: string | null;
  bib: number | null;
  /** When the bib was picked up (epoch ms); null until then. */
  pickedUpAt: number | null;
  /** Paid by a payment of its own (a runner added after the family paid may not be). */
  paid: boolean;
  /** A refund took the runner out: nothing to pick up. */
  deregistered?: boolean;
  dns?: boolean;
  /**
   * An adult running with a child without competing (shared/companion.ts): shown with the family, in no race, no
   * bib; the desk has nothing to hand over from a race for them.
   */
  companion?: true;
}

/** A family at the desk: a registration ('anmalan'), or one box-office runner ('kassa'). */
export type DeskFamilyKind = "anmalan" | "kassa";

/** The path of `GET /admin/api/checkin/family/{kind}/{id}`: which family. */
export interface FamilyKey {
  kind: DeskFamilyKind;
  /** The registration's id, or the box-office participant's. */
  id: string;
}

export interface DeskFamily {
  kind: DeskFamilyKind;
  /** The registration's id, or the box-office participant's. */
  id: string;
  season: number;
  email: string | null;
  phone: string | null;
  /** Every runner still registered is paid (each runner is paid by the payment that booked it). */
  paid: boolean;
  /** That payment's status, or null when none was ever started. */
  paymentStatus: string | null;
  runners: DeskRunner[];
}

/** One search hit: enough to tell families apart in a list. */
export interface DeskSearchHit {
  kind: DeskFamilyKind;
  id: string;
  email: string | null;
  phone: string | null;
  paid: boolean;
  runners: Pick<DeskRunner, "id" | "firstname" | "lastname" | "distance" | "bib" | "pickedUpAt" | "paid">[];
}

/** `POST /admin/api/checkin/pickup`: 'Hämtat' or 'Ångra' for runners of one family (any of their races). */
export interface PickupRequest {
  /** Each runner with its race; null for an adult running with a child (in no race: the desk writes D1 itself). */
  runners: { id: string; raceId: string | null }[];
  pickedUp: boolean;
  /** Made on the device; a replay of the same id changes nothing (the desk's queue replays once). */
  actionId: string;
  /** When the volunteer pressed, on the server's clock (epoch ms). */
  at?: number;
  device?: string;
}

/** `POST /admin/api/checkin/bib`: the next free bib of the runner's distance, or a typed one. */
export interface GiveBib {
  raceId: string;
  runnerId: string;
  bib: number | "next";
  device?: string;
}

export interface PickupAnswer {
  /** 'replayed': this action was answered before; nothing changed now. */
  outcome: "picked-up" | "undone" | "unchanged" | "replayed";
  runners: DeskRunner[];
  /** Runners who had picked up already: 'Redan hämtat 10:42'. */
  already: string[];
}

/** The desk's limit on one action: a family, with room to spare (the race object's own limit). */
export const MAX_DESK_RUNNERS = 30;

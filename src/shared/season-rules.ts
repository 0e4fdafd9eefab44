/**
 * Rules that read the season config: when registration is open, when the top bar's button and the bib pick-up
 * banner show, race start instants, bib ranges, and the check that a season config is sound.
 */
import { DISTANCES, isDistance, type DistanceKm } from "./distances";
import { SEASON, type PriceTier, type Season, type SeasonRace } from "./season";
import { addDays, isIsoDate, parseStockholm, stockholmDate, stockholmDeadlineEnd, stockholmToEpoch } from "./stockholm";

/** Registration (new registrations and changes) is open up to and including season.lastRegistration. */
export function isRegistrationOpen(now: number, season: Season = SEASON): boolean {
  return now < stockholmDeadlineEnd(season.lastRegistration);
}

/** Spec: "The registration button shows only until 13 Sep 2025 12:00" — hidden from 12:00:00 on. */
export function showRegistrationButton(now: number, season: Season = SEASON): boolean {
  return now < stockholmToEpoch(season.registrationButtonUntil);
}

/**
 * Race morning with online registration closed: the day of the race (Stockholm), when the box office signs families
 * up on site from the bib pick-up's hour. The closed registration then points there, with the on-site price.
 */
/** Spec: 'Nummerlappshämtning sker från 10:00': the bib desk and the box office open then. */
export const BIB_PICKUP_FROM = "10:00";

/** What closed registration says on race morning: where, from when, and the season's on-site price. */
export function onSiteRegistrationText(season: Season = SEASON): string {
  const { adult, child } = season.onSitePrice;
  return `Anmälan på plats vid skolans matsal från ${BIB_PICKUP_FROM}: vuxen ${adult} kr, barn ${child} kr.`;
}

export function isOnSiteRegistrationDay(now: number, season: Season = SEASON): boolean {
  return !isRegistrationOpen(now, season) && stockholmDate(now) === season.raceDay;
}

/** Days before race day the bib pick-up banner appears (spec: "from 7 days before the event"). */
export const BIB_BANNER_DAYS_BEFORE = 7;

/**
 * Spec: the banner 'Nummerlappshämtning sker från 10:00' "shows from 7 days before the event until the end of the
 * day after the event": from 00:00 on race day − 7 to 23:59:59.999 on race day + 1, Stockholm.
 */
export function showBibPickupBanner(now: number, season: Season = SEASON): boolean {
  const from = stockholmToEpoch(addDays(season.raceDay, -BIB_BANNER_DAYS_BEFORE));
  const until = stockholmDeadlineEnd(addDays(season.raceDay, 1));
  return now >= from && now < until;
}

function seasonRace(distance: DistanceKm, season: Season): SeasonRace {
  const race = season.races.find((r) => r.distance === distance);
  if (!race) throw new RangeError(`Distansen ${distance} km finns inte i säsongen ${season.year}`);
  return race;
}

/** The planned start of a distance on race day (Stockholm), epoch ms. Throws for a distance not in the season. */
export function raceStartEpoch(distance: DistanceKm, season: Season = SEASON): number {
  return stockholmToEpoch(`${season.raceDay}T${seasonRace(distance, season).startTime}`);
}

/** Inclusive bib range of a distance, [first, last]. Throws for a distance not in the season. */
export function bibRange(distance: DistanceKm, season: Season = SEASON): [number, number] {
  const [first, last] = seasonRace(distance, season).bibRange;
  return [first, last];
}

/** The distance whose bib range holds `bib`, or null (0 and missing mean "no number" in the spec). */
export function distanceForBib(bib: number, season: Season = SEASON): DistanceKm | null {
  if (!Number.isInteger(bib)) return null;
  return season.races.find((r) => bib >= r.bibRange[0] && bib <= r.bibRange[1])?.distance ?? null;
}

/** Distances open for registration, ascending. */
export function openDistances(season: Season = SEASON): DistanceKm[] {
  return DISTANCES.filter((d) => season.races.some((r) => r.distance === d && r.openForReg));
}

const START_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function tierErrors(name: string, tier: PriceTier | undefined): string[] {
  if (!tier) return [`${name} saknas`];
  return (["adult", "child"] as const)
    .filter((k) => !Number.isSafeInteger(tier[k]) || tier[k] <= 0)
    .map((k) => `${name}.${k} måste vara ett positivt heltal (är ${tier[k]})`);
}

function momentErrors(season: Season): string[] {
  const errors: string[] = [];
  if (!isIsoDate(season.raceDay)) errors.push(`raceDay är inte ett datum ÅÅÅÅ-MM-DD: ${season.raceDay}`);
  else if (Number(season.raceDay.slice(0, 4)) !== season.year) errors.push(`raceDay ligger inte år ${season.year}`);
  for (const key of ["earlyPriceUntil", "lastRegistration", "registrationButtonUntil"] as const) {
    if (parseStockholm(season[key]) === null)
      errors.push(`${key} är inte en tidpunkt ÅÅÅÅ-MM-DDTHH:MM: ${season[key]}`);
  }
  if (errors.length > 0) return errors;
  if (stockholmDeadlineEnd(season.earlyPriceUntil) >= stockholmDeadlineEnd(season.lastRegistration)) {
    errors.push("earlyPriceUntil måste ligga före lastRegistration");
  }
  if (stockholmDeadlineEnd(season.lastRegistration) > stockholmToEpoch(addDays(season.raceDay, 1))) {
    errors.push("lastRegistration måste ligga senast på tävlingsdagen");
  }
  return errors;
}

function raceErrors(season: Season): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const race of season.races) {
    const name = `Loppet ${String(race.distance)} km`;
    if (!isDistance(race.distance) || typeof race.distance !== "string") {
      errors.push(`Ogiltig distans: ${String(race.distance)}`);
    } else if (seen.has(race.distance)) errors.push(`${name} finns två gånger`);
    seen.add(String(race.distance));
    if (!START_TIME.test(race.startTime)) errors.push(`${name}: starttiden måste vara HH:MM (är ${race.startTime})`);
    const [first, last] = race.bibRange;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 1 || first > last) {
      errors.push(`${name}: ogiltigt nummerlappsintervall ${first}–${last}`);
    }
  }
  const sorted = [...season.races].sort((a, b) => a.bibRange[0] - b.bibRange[0]);
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    if (cur.bibRange[0] <= prev.bibRange[1]) {
      errors.push(`Nummerlappsintervallen för ${prev.distance} km och ${cur.distance} km överlappar`);
    }
  }
  return errors;
}

/**
 * Every problem with a season config, in Swedish; empty when sound. Checked: dates and moments parse, race day
 * is in the season's year, early price cut-off before the last registration, registration closes by race day,
 * prices are positive integers, adult age sensible, the companion price a whole number of kronor (0 or more),
 * child-safe publishing true or false, races have valid unique distances, HH:MM start times and
 * non-overlapping bib ranges, a contact address and a site name. (The built-in campaign codes are checked where they
 * are read, in the Worker: campaigns/builtin-campaigns.ts.)
 */
export function validateSeason(season: Season): string[] {
  const errors: string[] = [];
  if (!Number.isInteger(season.year)) errors.push(`year måste vara ett heltal (är ${season.year})`);
  errors.push(...momentErrors(season));
  errors.push(...tierErrors("earlyPrice", season.earlyPrice));
  errors.push(...tierErrors("latePrice", season.latePrice));
  errors.push(...tierErrors("onSitePrice", season.onSitePrice));
  if (!Number.isInteger(season.adultAge) || season.adultAge < 1 || season.adultAge > 120) {
    errors.push(`adultAge måste vara ett heltal 1–120 (är ${season.adultAge})`);
  }
  if (!Number.isSafeInteger(season.companionPrice) || season.companionPrice < 0) {
    errors.push(`companionPrice måste vara ett heltal 0 eller mer (är ${season.companionPrice})`);
  }
  if (typeof season.childSafePublishing !== "boolean") {
    errors.push(`childSafePublishing måste vara true eller false (är ${String(season.childSafePublishing)})`);
  }
  if (typeof season.finishPhotos !== "boolean") {
    errors.push(`finishPhotos måste vara true eller false (är ${String(season.finishPhotos)})`);
  }
  if (season.races.length === 0) errors.push("Säsongen har inga lopp");
  errors.push(...raceErrors(season));
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(season.contactEmail)) {
    errors.push(`contactEmail är ingen e-postadress: ${season.contactEmail}`);
  }
  if (season.siteName.trim() === "") errors.push("siteName saknas");
  return errors;
}

/** Throws with every problem listed; call where the season is first used (seeding, tests). */
export function assertValidSeason(season: Season = SEASON): void {
  const errors = validateSeason(season);
  if (errors.length > 0) throw new Error(`Ogiltig säsongskonfiguration:\n- ${errors.join("\n- ")}`);
}

/**
 * Ages: the registration form takes an age or a birth year, and the price and the child/adult counts depend on
 * the age threshold of the season (spec: 16; under 16 is a child).
 */
import { SEASON, type Season } from "./season";
import { stockholmYear } from "./stockholm";

/** Oldest age we accept; anything above is a typo (or a birth year below 1001). */
export const MAX_AGE = 120;

/**
 * Spec: "A value above 1000 is treated as a birth year and converted to age as current year minus that value."
 * The current year is Stockholm's at `now` (so on New Year's Eve in UTC it is already the new year). The result
 * is not checked: a birth year in the future gives a negative age, which isValidAge rejects.
 */
export function ageFromInput(value: number, now: number): number {
  return value > 1000 ? stockholmYear(now) - value : value;
}

/** A whole number of years from 0 to MAX_AGE. */
export function isValidAge(age: unknown): age is number {
  return typeof age === "number" && Number.isInteger(age) && age >= 0 && age <= MAX_AGE;
}

/** Spec: adults are aged 16 or above (the season's adultAge). */
export function isAdult(age: number, season: Season = SEASON): boolean {
  return age >= season.adultAge;
}

export interface AgeCounts {
  barn: number;
  vuxna: number;
  /**
   * Adults running with a child without competing (shared/companion.ts), counted as neither: priced at the season's
   * companionPrice (shared/pricing.ts). Absent means none.
   */
  medBarn?: number;
}

/**
 * Spec: child count is runners with age below 16; adult count is runners aged 16 or above. A companion (an adult
 * running with a child, `companion` true) is counted apart, in `medBarn`.
 */
export function countAges(
  runners: readonly { age: number; companion?: boolean | null }[],
  season: Season = SEASON,
): AgeCounts {
  let vuxna = 0;
  let medBarn = 0;
  for (const r of runners) {
    if (r.companion === true) medBarn++;
    else if (isAdult(r.age, season)) vuxna++;
  }
  const counts: AgeCounts = { barn: runners.length - vuxna - medBarn, vuxna };
  return medBarn > 0 ? { ...counts, medBarn } : counts;
}

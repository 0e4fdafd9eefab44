/**
 * When /kvitto asks /verify again (spec §4, §9): first after 2 s, each further wait ×1.5, for about three minutes.
 * Pure, so the schedule can be tested without a browser.
 */
export const FIRST_DELAY_MS = 2000;
export const DELAY_FACTOR = 1.5;
export const GIVE_UP_AFTER_MS = 3 * 60_000;

/**
 * The waits before each check. The last one is cut to what is left of the total, so the final check happens at
 * the give-up moment itself instead of a whole (long) wait earlier.
 */
export function pollWaits(first = FIRST_DELAY_MS, factor = DELAY_FACTOR, total = GIVE_UP_AFTER_MS): number[] {
  const waits: number[] = [];
  let waited = 0;
  let delay = first;
  while (waited < total) {
    const wait = Math.min(delay, total - waited);
    waits.push(wait);
    waited += wait;
    delay *= factor;
  }
  return waits;
}

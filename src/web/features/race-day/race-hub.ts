/** The hub's choice of races (admin spec, "Race hub"): nothing from before yesterday, no ended race, by part. */
import type { RaceRecord } from "../../../shared/race-protocol";
import { addDays } from "../../../shared/stockholm";

/** `today`: Stockholm's date 'YYYY-MM-DD' by the server's clock. */
export function hubRaces(races: readonly RaceRecord[], today: string): RaceRecord[] {
  const yesterday = addDays(today, -1);
  return races
    .filter((r) => r.date >= yesterday && r.state !== "ended")
    .sort((a, b) => (a.part < b.part ? -1 : a.part > b.part ? 1 : 0));
}

/**
 * The race list (/admin/edit-races): the newest race day first, so this season's races lead and older seasons
 * follow; a day's races by part (its distances in order).
 */
export function raceListOrder(races: readonly RaceRecord[]): RaceRecord[] {
  return [...races].sort(
    (a, b) => (a.date > b.date ? -1 : a.date < b.date ? 1 : 0) || (a.part < b.part ? -1 : a.part > b.part ? 1 : 0),
  );
}

/** The other races of the same day, where a runner can be moved (spec: 'Byt distans'). */
export const FALLBACK_TARGET_RACES = ["race-250913-08", "race-250913-16", "race-250913-28", "race-250913-56"];

export function changeDistanceTargets(races: readonly RaceRecord[] | undefined, race: RaceRecord): string[] {
  const sameDay = (races ?? [])
    .filter((r) => r.date === race.date && r.part !== race.part && r.state !== "ended")
    .map((r) => r.part)
    .sort();
  // The spec's client offered a fixed list; it is still the answer when the race list says nothing useful.
  return sameDay.length > 0 ? sameDay : FALLBACK_TARGET_RACES.filter((p) => p !== race.part);
}

/** 800 → '800 m', 10000 → '10 000 m'. */
export function formatMeters(meters: number): string {
  return `${meters.toLocaleString("sv-SE")}\u00a0m`;
}

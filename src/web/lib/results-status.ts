import type { RaceRecord } from "../../shared/race-protocol";

/**
 * What the race's results are (issue 26): 'Preliminära' from the first finish until an admin marks them
 * 'Officiella'; a result changed after that is marked corrected on its row. Null before any finish.
 */
export function resultsStatusText(race: Pick<RaceRecord, "results">): string | null {
  switch (race.results) {
    case "preliminary":
      return "Resultaten är preliminära.";
    case "official":
      return "Resultaten är officiella.";
    case "corrected":
      return "Resultaten är officiella, med rättelser (markerade korrigerad).";
    default:
      return null;
  }
}

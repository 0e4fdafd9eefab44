/**
 * Adults running with a child without competing (shared/companion.ts) as a race's start list names them. They are
 * never runners of a race object, so they are read from D1: the season's paid, not deregistered companions of the
 * race's distance, listed on the race the season places that distance's runners in (race-id.ts raceIdForSeason).
 * Registration saves, payments and refunds change what this reads; it holds nothing between requests.
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { distanceFromMeters } from "../../shared/distances";
import { raceIdForSeason } from "../../shared/race-id";
import { SEASON, type Season } from "../../shared/season";
import type { Db } from "../db/client";
import { participants } from "../db/schema";
import { getRace } from "./races-db";

export interface CompanionRow {
  id: string;
  firstname: string;
  lastname: string;
  company: string;
  registrationId: string | null;
  pickedUpAt: number | null;
}

/** The companions listed with `part`; null when there is no such race. */
export async function companionsOfRace(db: Db, part: string, season: Season = SEASON): Promise<CompanionRow[] | null> {
  const race = await getRace(db, part);
  if (!race) return null;
  const distance = distanceFromMeters(race.distance);
  if (!distance || race.season !== season.year || raceIdForSeason(distance, season) !== part) return [];
  return db
    .select({
      id: participants.id,
      firstname: participants.firstname,
      lastname: participants.lastname,
      company: participants.company,
      registrationId: participants.registrationId,
      pickedUpAt: participants.pickedUpAt,
    })
    .from(participants)
    .where(
      and(
        eq(participants.companion, true),
        eq(participants.season, race.season),
        eq(participants.distance, distance),
        isNotNull(participants.paidBy),
        isNull(participants.deregisteredAt),
      ),
    )
    .all();
}

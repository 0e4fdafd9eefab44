/**
 * Historical results and course records (DESIGN.md §10: data the organiser imports, not code).
 * The results file format itself lives in src/shared/results-file.ts.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { resultAge, type PublishingRules } from "../../shared/child-safe";
import type { DistanceKm } from "../../shared/distances";
import type { ResultRow } from "../../shared/results-file";
import type { Db } from "../db/client";
import { courseRecords, results } from "../db/schema";

export interface CourseRecord {
  distance: DistanceKm;
  name: string;
  timeMs: number;
  year: number;
}

/** D1 binds at most 100 parameters per statement (also inside a batch); a results row binds 9. */
const D1_MAX_PARAMS = 100;
const PARAMS_PER_RESULT = 9;
export const RESULT_ROWS_PER_INSERT = Math.floor(D1_MAX_PARAMS / PARAMS_PER_RESULT);

/**
 * One year's results on one distance, in finishing order (ties keep their file order), each with the age stored
 * for child-safe publishing (never to be sent as is: shared/results-file.ts publishedResults).
 */
export async function listResults(db: Db, year: number, distance: DistanceKm): Promise<ResultRow[]> {
  return db
    .select({
      place: results.place,
      name: results.name,
      timeMs: results.timeMs,
      klass: results.klass,
      bib: results.bib,
      club: results.club,
      age: results.age,
    })
    .from(results)
    .where(and(eq(results.year, year), eq(results.distance, distance)))
    .orderBy(asc(results.place), asc(results.timeMs), asc(results.id))
    .all();
}

/** Which year/distance pairs have results, newest year first, with the number of runners. */
export async function listResultSets(db: Db): Promise<{ year: number; distance: DistanceKm; runners: number }[]> {
  const rows = await db
    .select({ year: results.year, distance: results.distance, runners: count() })
    .from(results)
    .groupBy(results.year, results.distance)
    .orderBy(sql`${results.year} DESC`, asc(results.distance))
    .all();
  return rows.map((r) => ({ ...r, distance: r.distance as DistanceKm }));
}

/**
 * Replaces one year's results on one distance in a single D1 batch (one transaction: either the whole new list
 * is stored or the old one stays). Inserts are chunked to stay under D1's bound-parameter limit. Each line's age
 * is the file's, or its age class's oldest age (child-safe.ts resultAge).
 */
export async function replaceResults(
  db: Db,
  year: number,
  distance: DistanceKm,
  rows: readonly ResultRow[],
): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [
    db.delete(results).where(and(eq(results.year, year), eq(results.distance, distance))),
  ];
  for (let i = 0; i < rows.length; i += RESULT_ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + RESULT_ROWS_PER_INSERT);
    statements.push(
      db.insert(results).values(
        chunk.map((r) => ({
          year,
          distance,
          place: r.place,
          name: r.name,
          timeMs: r.timeMs,
          klass: r.klass,
          bib: r.bib,
          club: r.club,
          age: resultAge(r),
        })),
      ),
    );
  }
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** How many rows one year's results on one distance has (what an import replaces). */
export async function countResults(db: Db, year: number, distance: DistanceKm): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(results)
    .where(and(eq(results.year, year), eq(results.distance, distance)))
    .get();
  return row?.n ?? 0;
}

/** True when any distance has results for `year` (the older-year page /resultat/{year} exists). */
export async function hasResultsForYear(db: Db, year: number): Promise<boolean> {
  const row = await db.select({ year: results.year }).from(results).where(eq(results.year, year)).limit(1).get();
  return row !== undefined;
}

/**
 * Replaces every stored course record with `records` in one D1 batch (the organiser's records file is the whole
 * list): either all of them are stored or the old list stays. Answers how many were there before.
 */
export async function replaceCourseRecords(db: Db, records: readonly CourseRecord[]): Promise<number> {
  const before = await db.select({ n: count() }).from(courseRecords).get();
  const statements: BatchItem<"sqlite">[] = [db.delete(courseRecords)];
  if (records.length > 0) statements.push(db.insert(courseRecords).values([...records]));
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return before?.n ?? 0;
}

/** Stores the organiser's record for a distance (e.g. one set before the imported results begin). */
export async function setCourseRecord(db: Db, record: CourseRecord): Promise<void> {
  await db
    .insert(courseRecords)
    .values(record)
    .onConflictDoUpdate({
      target: courseRecords.distance,
      set: { name: record.name, timeMs: record.timeMs, year: record.year },
    });
}

/**
 * The course record per distance (shortest distance first): the faster of the stored record and the best
 * imported result, so a new record in an imported year shows without anyone editing the records. On equal
 * times the earlier year holds the record.
 */
export async function listCourseRecords(db: Db, rules: PublishingRules): Promise<CourseRecord[]> {
  // Child-safe publishing: a withheld runner's time is nobody's record in public (the age stored at import).
  const below = rules.resultsHiddenBelowAge ?? -1;
  const [stored, best] = await Promise.all([
    db.select().from(courseRecords).all(),
    db.all<{ distance: string; name: string; timeMs: number; year: number }>(sql`
      SELECT distance, name, time_ms AS timeMs, year FROM (
        SELECT distance, name, time_ms, year,
               row_number() OVER (PARTITION BY distance ORDER BY time_ms, year, place, id) AS n
        FROM results WHERE age IS NULL OR age >= ${below}
      ) WHERE n = 1`),
  ]);
  const byDistance = new Map<string, CourseRecord>();
  for (const r of [...stored, ...best]) {
    const held = byDistance.get(r.distance);
    if (!held || r.timeMs < held.timeMs || (r.timeMs === held.timeMs && r.year < held.year)) {
      byDistance.set(r.distance, {
        distance: r.distance as DistanceKm,
        name: r.name,
        timeMs: r.timeMs,
        year: r.year,
      });
    }
  }
  return [...byDistance.values()].sort((a, b) => Number(a.distance) - Number(b.distance));
}

/**
 * The public results data as the routes answer it and as the pages' first HTML holds it (src/worker/site/): the
 * course records, which years and distances have a results file, and one file as its text and as the rows a
 * browser reads from that text (the same rows either way: they are read back from the text with the shared rules).
 */
import type { PublicCourseRecord, PublicResultSet } from "../../shared/page-render";
import { publishingRules } from "../../shared/child-safe";
import type { DistanceKm } from "../../shared/distances";
import {
  parsePublishedResults,
  publishedResults,
  resultsFileName,
  serializeResults,
  type PublishedRow,
} from "../../shared/results-file";
import { SEASON } from "../../shared/season";
import { formatResult } from "../../shared/time-format";
import type { Db } from "../db/client";
import { listCourseRecords, listResults, listResultSets } from "./results-db";

/** `GET /api/records`: [{distance, name, time (mm:ss.fff), timeMs, year}]. */
export async function publicCourseRecords(db: Db): Promise<PublicCourseRecord[]> {
  // Child-safe publishing (the season's setting): a withheld result never holds a record.
  const records = await listCourseRecords(db, publishingRules(SEASON));
  return records.map((r) => ({
    distance: r.distance,
    name: r.name,
    time: formatResult(r.timeMs),
    timeMs: r.timeMs,
    year: r.year,
  }));
}

/** `GET /api/results`: [{year, distance, runners, file}], newest year first. */
export async function publicResultSets(db: Db): Promise<PublicResultSet[]> {
  const sets = await listResultSets(db);
  return sets.map((s) => ({ ...s, file: resultsFileName(s.year, s.distance) }));
}

/**
 * One year's results on one distance as the file's text (without the byte order mark); null when there are none.
 * Child-safe publishing (the season's setting) decides whose time and placing are in it; no age leaves.
 */
export async function publicResultsText(db: Db, year: number, distance: DistanceKm): Promise<string | null> {
  const rows = await listResults(db, year, distance);
  return rows.length === 0 ? null : serializeResults(publishedResults(rows, publishingRules(SEASON)));
}

/** The rows a browser reads from that file (results page: api/get-results-file.ts); null when there are none. */
export async function publicResultsRows(db: Db, year: number, distance: DistanceKm): Promise<PublishedRow[] | null> {
  const text = await publicResultsText(db, year, distance);
  return text === null ? null : parsePublishedResults(text).rows;
}

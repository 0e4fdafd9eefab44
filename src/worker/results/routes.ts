/**
 * Public data that is not the app's (DESIGN.md §10): result files and course records, read from D1 where the
 * organiser imports them (the gallery's photo lists: src/worker/gallery/routes.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { DISTANCES, type DistanceKm } from "../../shared/distances";
import { publishingRules, WITHHELD_TEXT } from "../../shared/child-safe";
import { parseResultsFileName, publishedResults, type PublishedResultLine } from "../../shared/results-file";
import { SEASON } from "../../shared/season";
import { formatResult } from "../../shared/time-format";
import { database } from "../db/client";
import { listResults } from "./results-db";
import { publicCourseRecords, publicResultSets, publicResultsText } from "./public-results";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { validate } from "../middleware/validate";

/** Public data changes a few times a year; a short cache keeps a fresh import visible within minutes. */
const CACHE = "public, max-age=300";

const resultsParams = z.object({
  year: z
    .string()
    .regex(/^(19|2\d)\d\d$/, "Ange ett årtal med fyra siffror")
    .transform(Number),
  distance: z.enum(DISTANCES as [DistanceKm, ...DistanceKm[]], { message: "Välj en distans" }),
});

export const resultsRoutes = new Hono<AppEnv>();
export const resultFileRoutes = new Hono<AppEnv>();
export const recordsRoutes = new Hono<AppEnv>();

// Spec: "GET /resultat/{csvfile} — Semicolon-separated text".
resultFileRoutes.get("/:csvfile", validate("param", z.object({ csvfile: z.string().max(64) })), async (c) => {
  // An unknown or malformed name is a missing file (404), decided by the shared results-file rules.
  const file = parseResultsFileName(c.req.valid("param").csvfile);
  if (!file) throw notFound("Resultatfilen finns inte");
  const text = await publicResultsText(database(c.env.DB), file.year, file.distance);
  if (text === null) throw notFound("Resultatfilen finns inte");
  // The BOM lets a spreadsheet opened by the organiser read å, ä, ö; fetch().text() drops it.
  return c.body(`\uFEFF${text}`, 200, {
    "content-type": "text/csv; charset=utf-8",
    "cache-control": CACHE,
  });
});

/** Course records: [{distance, name, time (mm:ss.fff), year}] plus timeMs for sorting and maths. */
recordsRoutes.get("/", async (c) =>
  c.json(await publicCourseRecords(database(c.env.DB)), 200, { "cache-control": CACHE }),
);

/** Which years and distances have results: [{year, distance, runners, file}], newest year first. */
resultsRoutes.get("/", async (c) =>
  c.json(await publicResultSets(database(c.env.DB)), 200, { "cache-control": CACHE }),
);

/** One year's results on one distance as JSON rows (the results page's table), with time as mm:ss.fff. */
resultsRoutes.get("/:year/:distance", validate("param", resultsParams), async (c) => {
  const { year, distance } = c.req.valid("param");
  const rows = await listResults(database(c.env.DB), year, distance);
  if (rows.length === 0) throw notFound("Det finns inga resultat för det året och den distansen");
  // A withheld line (child-safe publishing) has no place, no time: 'Fullföljt'.
  return c.json(
    publishedResults(rows, publishingRules(SEASON)).map((r): PublishedResultLine => ({
      ...r,
      time: r.timeMs === null ? WITHHELD_TEXT : formatResult(r.timeMs),
    })),
    200,
    { "cache-control": CACHE },
  );
});

/**
 * Public data that is not the app's (DESIGN.md §10): result files, course records and gallery photo lists,
 * all read from D1 where the organiser imports them.
 */
import { Hono } from "hono";
import { z } from "zod";
import { DISTANCES, type DistanceKm } from "../../shared/distances";
import { publishingRules, WITHHELD_TEXT } from "../../shared/child-safe";
import { parseResultsFileName, publishedResults } from "../../shared/results-file";
import { SEASON } from "../../shared/season";
import { formatResult } from "../../shared/time-format";
import { database } from "../db/client";
import { listGallerySummaries, listGalleryUrls } from "../gallery/gallery-db";
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

export const dataRoutes = new Hono<AppEnv>();

// Spec: "GET /resultat/{csvfile} — Semicolon-separated text".
dataRoutes.get("/resultat/:csvfile", validate("param", z.object({ csvfile: z.string().max(64) })), async (c) => {
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

// Spec: "GET /img_{year}.txt — Newline-separated list of image URLs". The year sits inside the path segment.
dataRoutes.get("/:file{img_[0-9]{4}\\.txt}", async (c) => {
  const year = Number(c.req.param("file").slice("img_".length, "img_".length + 4));
  const urls = await listGalleryUrls(database(c.env.DB), year);
  if (urls.length === 0) throw notFound("Det finns inget galleri för det året");
  return c.body(urls.join("\n"), 200, { "content-type": "text/plain; charset=utf-8", "cache-control": CACHE });
});

/** Years with a gallery, newest first, and per year its photo count and first photo (the index's cards). */
dataRoutes.get("/api/gallery", async (c) => {
  const galleries = await listGallerySummaries(database(c.env.DB));
  return c.json({ years: galleries.map((g) => g.year), galleries }, 200, { "cache-control": CACHE });
});

/** Course records: [{distance, name, time (mm:ss.fff), year}] plus timeMs for sorting and maths. */
dataRoutes.get("/api/records", async (c) =>
  c.json(await publicCourseRecords(database(c.env.DB)), 200, { "cache-control": CACHE }),
);

/** Which years and distances have results: [{year, distance, runners, file}], newest year first. */
dataRoutes.get("/api/results", async (c) =>
  c.json(await publicResultSets(database(c.env.DB)), 200, { "cache-control": CACHE }),
);

/** One year's results on one distance as JSON rows (the results page's table), with time as mm:ss.fff. */
dataRoutes.get("/api/results/:year/:distance", validate("param", resultsParams), async (c) => {
  const { year, distance } = c.req.valid("param");
  const rows = await listResults(database(c.env.DB), year, distance);
  if (rows.length === 0) throw notFound("Det finns inga resultat för det året och den distansen");
  // A withheld line (child-safe publishing) has no place, no time: 'Fullföljt'.
  return c.json(
    publishedResults(rows, publishingRules(SEASON)).map((r) => ({
      ...r,
      time: r.timeMs === null ? WITHHELD_TEXT : formatResult(r.timeMs),
    })),
    200,
    { "cache-control": CACHE },
  );
});

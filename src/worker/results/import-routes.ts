/**
 * The organiser's results import (admin; the admin and same-origin guards in app.ts cover /admin/api/*):
 * one year's results file for one distance, or the course records file. Every line is checked with the shared
 * file rules first; a file with any bad line is refused (422) with each bad line named, and nothing is stored.
 * A good file is stored in one D1 batch that first deletes what it replaces, so an import is all or nothing and
 * importing the same year and distance again replaces it. `dryRun` checks without storing.
 *
 * The command-line twin (scripts/import-results.mjs) reads the same files with the same rules.
 */
import { Hono } from "hono";
import { z } from "zod";
import { DISTANCES, type DistanceKm } from "../../shared/distances";
import { parseRecords } from "../../shared/records-file";
import { parseResults } from "../../shared/results-file";
import { stockholmYear } from "../../shared/stockholm";
import { audit } from "../db/audit";
import { database } from "../db/client";
import { countResults, replaceCourseRecords, replaceResults } from "./results-db";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { validate, wireSchema } from "../middleware/validate";
import type { ImportAnswer, ImportRequest } from "../../shared/api-answers";

export const resultsImportRoutes = new Hono<AppEnv>();

const MSG = {
  kind: "Välj vad som importeras: results (en resultatfil) eller records (banrekord).",
  year: "Ange ett årtal med fyra siffror.",
  distance: "Välj en distans: 0.8, 1.6, 2.8 eller 5.6.",
  text: "Filens innehåll saknas.",
  empty: "Filen innehåller inga rader att importera.",
} as const;

/** The body limit (app.ts, 64 kB) bounds the text; a 500-runner results file is about 35 kB. */
const text = z.string({ error: MSG.text });
const dryRun = z.boolean({ error: "dryRun ska vara true eller false." }).optional().default(false);

const importBody = wireSchema<ImportRequest>()(
  z.discriminatedUnion(
    "kind",
    [
      z.object({
        kind: z.literal("results"),
        year: z.union(
          [
            z.number(),
            z
              .string()
              .regex(/^\d{4}$/, MSG.year)
              .transform(Number),
          ],
          { error: MSG.year },
        ),
        distance: z.enum(DISTANCES as [DistanceKm, ...DistanceKm[]], { error: MSG.distance }),
        text,
        dryRun,
      }),
      z.object({ kind: z.literal("records"), text, dryRun }),
    ],
    { error: MSG.kind },
  ),
);

/** The file's line errors as the `{error, errors}` body: one entry per bad line, keyed by its number. */
function refuse(errors: readonly { line: number; message: string }[]): ApiError {
  const n = errors.length;
  return new ApiError(
    422,
    `Filen har ${n} ${n === 1 ? "felaktig rad" : "felaktiga rader"}. Inget har sparats.`,
    Object.fromEntries(errors.map((e) => [String(e.line), e.message])),
  );
}

resultsImportRoutes.post("/import", validate("json", importBody), async (c) => {
  const body = c.req.valid("json");
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const actor = c.var.admin?.email ?? "okänd";

  if (body.kind === "records") {
    const { rows, errors } = parseRecords(body.text);
    if (errors.length > 0) throw refuse(errors);
    if (rows.length === 0) throw new ApiError(422, MSG.empty);
    if (body.dryRun) return c.json({ kind: body.kind, rows: rows.length, stored: false } satisfies ImportAnswer);
    const replaced = await replaceCourseRecords(db, rows);
    await audit(db, { actor, action: "results.import-records", detail: { rows: rows.length, replaced } }, now);
    return c.json({ kind: body.kind, rows: rows.length, replaced, stored: true } satisfies ImportAnswer);
  }

  // A results year is a season that has been run: from the first ever up to this year (a typo like 2205 is refused).
  const { year, distance } = body;
  if (!Number.isInteger(year) || year < 1900 || year > stockholmYear(now)) {
    throw new ApiError(400, MSG.year, { year: MSG.year });
  }
  const { rows, errors } = parseResults(body.text);
  if (errors.length > 0) throw refuse(errors);
  if (rows.length === 0) throw new ApiError(422, MSG.empty);
  const replaced = await countResults(db, year, distance);
  if (body.dryRun)
    return c.json({
      kind: body.kind,
      year,
      distance,
      rows: rows.length,
      replaced,
      stored: false,
    } satisfies ImportAnswer);
  await replaceResults(db, year, distance, rows);
  await audit(
    db,
    { actor, action: "results.import", subject: `${year}/${distance}`, detail: { rows: rows.length, replaced } },
    now,
  );
  return c.json({ kind: body.kind, year, distance, rows: rows.length, replaced, stored: true } satisfies ImportAnswer);
});

/**
 * The admin exports (admin guard in app.ts: /admin/api/*). Both are written cell by cell through src/shared/csv.ts,
 * so a value beginning with =, +, -, @, tab or CR is written as text (OWASP CSV injection).
 *
 * `GET /admin/api/export2racesplitter` (spec §7: "text response, shown in an alert"): the RaceSplitter participant
 * list of the current season. UTF-8 without a byte order mark (the timing app reads the file, not a person),
 * ',' between cells, CRLF line ends (RFC 4180), header exactly
 * `Wave number,Racer bib number,First name,Last name,Email,Compensation,Category,Team`, one line per PAID runner
 * (exports-db.ts says who counts; an adult running with a child without competing is not timed, so not listed), in
 * the order 5.6, 2.8, 1.6, 0.8, then bib.
 * - Wave number: a RaceSplitter wave is a group that starts together, so the season's start times are numbered in
 *   order from 1 and each distance gets the number of its start time (season.ts: 0.8 11:00 → 1, 1.6 11:15 → 2,
 *   2.8 and 5.6 both 11:45 → 3). Distances that start together share a wave; Category tells them apart.
 * - Racer bib number: the runner's bib, empty while it has none. Category: the distance as the spec writes it
 *   ('5.6'). Team: the runner's club or company. Compensation: empty (no handicap starts in this race).
 * `?download=1` adds `Content-Disposition: attachment` (racesplitter-{year}.csv) for the download button.
 *
 * `GET /admin/api/export/registrations.csv[?season=YYYY]`: every runner of every registration of a season (the
 * current one by default), paid or not, with the registration's e-mail and its selected payment, always as an
 * attachment (anmalningar-{year}.csv). Written for a spreadsheet in Swedish: UTF-8 with a byte order mark (without
 * it Excel reads å, ä, ö as an old code page), ';' between cells (Swedish Excel's list separator, since ',' is its
 * decimal sign), CRLF line ends, distances with a decimal comma ('5,6', read as a number), moments as
 * 'YYYY-MM-DD HH:MM' Stockholm time (read as a date and time). The payment's amount and refunded sum stand on the
 * registration's first runner only, so summing the column counts each payment once. The last column, 'Springer med
 * barn', says 'Med barn' for an adult running with a child without competing (shared/companion.ts).
 *
 * `GET /admin/api/export/friidrott.csv?race=race-YYMMDD-NN`: one ended race's results for the district or the
 * federation (src/shared/federation-export.ts has the columns), read from the race's object. A spreadsheet file like
 * the registrations export: UTF-8 with a byte order mark, ';', CRLF, formula-safe. A race not ended is a 409.
 *
 * Handing out any of the files as a download is written to the audit log (who took the personal data, when).
 */
import { Hono } from "hono";
import { z } from "zod";
import { csvDocument, type CsvValue } from "../../shared/csv";
import { FEDERATION_HEADER, federationRows } from "../../shared/federation-export";
import { isRaceId } from "../../shared/race-id";
import { answered, raceStub } from "../race-day/race-runners";
import { DISTANCES, type DistanceKm } from "../../shared/distances";
import { SEASON, type Season } from "../../shared/season";
import { stockholmParts } from "../../shared/stockholm";
import { audit } from "../db/audit";
import { database } from "../db/client";
import { paidRunners, registrationExportRows, type RegistrationExportRow } from "./exports-db";
import { COMPANION_MARK } from "../../shared/companion";
import type { AppEnv } from "../env";
import { conflict, notFound } from "../lib/errors";
import { validate } from "../middleware/validate";

export const adminExportRoutes = new Hono<AppEnv>();

export const RACESPLITTER_HEADER = [
  "Wave number",
  "Racer bib number",
  "First name",
  "Last name",
  "Email",
  "Compensation",
  "Category",
  "Team",
] as const;

export const REGISTRATIONS_HEADER = [
  "Säsong",
  "Anmäld",
  "E-post",
  "Förnamn",
  "Efternamn",
  "Ålder",
  "Distans (km)",
  "Grupp",
  "Förening",
  "Startnummer",
  "Betalning",
  "Status",
  "Belopp (kr)",
  "Återbetalt (kr)",
  "Kampanjkod",
  "Betalnings-id",
  "Betalning skapad",
  "Betald",
  "Nummerlapp hämtad",
  // 'Med barn' for an adult running with a child without competing (shared/companion.ts); empty for a runner.
  "Springer med barn",
] as const;

const MSG = {
  download: "download ska vara 1 eller 0.",
  season: "Ange säsongen som ett årtal med fyra siffror, till exempel 2025.",
} as const;

const download = z.enum(["0", "1"], { error: MSG.download }).optional();
const raceSplitterQuery = z.object({ download });
const federationQuery = z.object({
  race: z.string({ error: "Ange loppet (race=…)." }).max(64).refine(isRaceId, "Loppet finns inte"),
});
const registrationsQuery = z.object({
  season: z
    .string({ error: MSG.season })
    .regex(/^(19|20|21)\d\d$/, MSG.season)
    .transform(Number)
    .optional(),
});

/** Each distance's wave: its start time's place among the season's start times (see the module comment). */
function waveNumbers(season: Season): Map<DistanceKm, number> {
  const times = [...new Set(season.races.map((r) => r.startTime))].sort();
  return new Map(season.races.map((r) => [r.distance, times.indexOf(r.startTime) + 1]));
}

const CSV_HEADERS = { "content-type": "text/csv; charset=utf-8", "cache-control": "no-store" };

function attachment(filename: string) {
  return { "content-disposition": `attachment; filename="${filename}"` };
}

adminExportRoutes.get("/export2racesplitter", validate("query", raceSplitterQuery), async (c) => {
  const asFile = c.req.valid("query").download === "1";
  const db = database(c.env.DB);
  const runners = await paidRunners(db, SEASON.year);
  const waves = waveNumbers(SEASON);
  // Any distance missing from the config's races (never, by validateSeason) still gets a wave after the others.
  const fallbackWave = Math.max(0, ...waves.values()) + 1;
  const rows = runners.map((r): CsvValue[] => [
    waves.get(r.distance) ?? fallbackWave,
    r.bib,
    r.firstname,
    r.lastname,
    r.email,
    "",
    r.distance,
    r.company,
  ]);
  const text = csvDocument(RACESPLITTER_HEADER, rows, { separator: ",", lineEnd: "\r\n", bom: false });
  if (asFile) {
    await audit(
      db,
      {
        actor: c.var.admin?.email ?? "okänd",
        action: "export.racesplitter",
        subject: String(SEASON.year),
        detail: { runners: rows.length },
      },
      c.var.clock.now(),
    );
  }
  return c.body(text, 200, {
    ...CSV_HEADERS,
    ...(asFile ? attachment(`racesplitter-${SEASON.year}.csv`) : {}),
  });
});

/** 'YYYY-MM-DD HH:MM' in Stockholm time, which a Swedish spreadsheet reads as a date and time. */
function moment(ms: number | null): string {
  if (ms === null) return "";
  const p = stockholmParts(ms);
  return `${p.date} ${p.time}`;
}

function registrationCells(season: number, r: RegistrationExportRow): CsvValue[] {
  const first = r.position === 1;
  return [
    season,
    moment(r.registeredAt),
    r.email,
    r.firstname,
    r.lastname,
    r.age,
    (DISTANCES as readonly string[]).includes(r.distance) ? r.distance.replace(".", ",") : r.distance,
    r.group,
    r.company,
    r.bib,
    r.deregisteredAt !== null ? "Avregistrerad" : r.paid ? "Betald" : "Ej betald",
    r.status ?? "",
    first && r.amount !== null ? r.amount : "",
    first && r.refunded > 0 ? r.refunded : "",
    r.kampanj ?? "",
    r.payid ?? "",
    moment(r.dateCreated),
    moment(r.datePaid),
    moment(r.pickedUpAt),
    r.companion ? COMPANION_MARK : "",
  ];
}

adminExportRoutes.get("/export/registrations.csv", validate("query", registrationsQuery), async (c) => {
  const season = c.req.valid("query").season ?? SEASON.year;
  const db = database(c.env.DB);
  const rows = await registrationExportRows(db, season);
  const text = csvDocument(
    REGISTRATIONS_HEADER,
    rows.map((r) => registrationCells(season, r)),
    { separator: ";", lineEnd: "\r\n", bom: true },
  );
  await audit(
    db,
    {
      actor: c.var.admin?.email ?? "okänd",
      action: "export.registrations",
      subject: String(season),
      detail: { runners: rows.length },
    },
    c.var.clock.now(),
  );
  return c.body(text, 200, { ...CSV_HEADERS, ...attachment(`anmalningar-${season}.csv`) });
});

adminExportRoutes.get("/export/friidrott.csv", validate("query", federationQuery), async (c) => {
  const part = c.req.valid("query").race;
  const snapshot = await answered(raceStub(c.env, part).snapshot());
  if (!snapshot) throw notFound("Loppet finns inte");
  const [race, ...runners] = snapshot;
  if (race.state !== "ended") {
    throw conflict("Loppet är inte avslutat. Exportera resultaten när loppet har avslutats.");
  }
  const rows = federationRows(race.started, Number(race.date.slice(0, 4)), runners);
  const text = csvDocument(FEDERATION_HEADER, rows, { separator: ";", lineEnd: "\r\n", bom: true });
  await audit(
    database(c.env.DB),
    {
      actor: c.var.admin?.email ?? "okänd",
      action: "export.friidrott",
      subject: part,
      detail: { runners: rows.length },
    },
    c.var.clock.now(),
  );
  return c.body(text, 200, { ...CSV_HEADERS, ...attachment(`friidrott-${part}.csv`) });
});

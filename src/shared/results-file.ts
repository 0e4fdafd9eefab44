/**
 * The results file: one per year and distance, served at `GET /resultat/{csvfile}` and imported by the organiser.
 *
 * - Name: `resultat-{year}-{tenths}.csv`, the distance in tenths of a km padded to two digits like a race id's
 *   last piece: `resultat-2023-56.csv`, `resultat-2023-08.csv`.
 * - Text: UTF-8, one runner per line, fields separated by ';' (spec: "semicolon-separated with a time piece"),
 *   first line the header `Placering;Namn;Resultat;Klass;Startnummer;Förening`. A file to import may have a
 *   seventh column `Ålder` (the runner's age in that year; may be empty), which child-safe publishing reads
 *   (child-safe.ts); the site never publishes it.
 * - The file the site serves is published through child-safe publishing: with it on, a runner aged 11 or under
 *   (by the age the import stored: the file's, or its age class's) has an empty Placering and `Fullföljt` for
 *   Resultat, after the ranked runners (`publishedResults`; `parsePublishedResults` reads it back).
 * - Resultat is mm:ss.fff (admin spec: "Results are shown as mm:ss.fff"; time-format.ts), minutes may pass 59.
 *   Reading also accepts h:mm:ss(.f…), fewer decimals and a decimal comma, as a spreadsheet may write them.
 * - Startnummer and Förening may be empty. A field never contains ';' or a line break (they are replaced on
 *   writing), so a line with a stray ';' is reported as an error rather than guessed at.
 * - Cells are written through csv.ts (CSV injection): a name, class or club that begins with =, +, -, @ is written
 *   `"'=…"` and one with a '"' is quoted; reading undoes both. Placering, Resultat (mm:ss.fff of a positive time)
 *   and Startnummer are digits first, so the rule never touches them.
 */
import { publishesResult, rankPublished, WITHHELD_TEXT, type PublishingRules } from "./child-safe";
import { csvCell, readCsvCell, splitCsvLine } from "./csv";
import { DISTANCES, distanceTenths, type DistanceKm } from "./distances";
import { formatResult, parseResult } from "./time-format";

export interface ResultRow {
  place: number;
  name: string;
  timeMs: number;
  klass: string;
  bib: number | null;
  club: string;
  /** The runner's age that year, when the file gives one (the optional `Ålder` column); never published. */
  age?: number | null;
}

/** A line as the public sees it when its time and placing are withheld (child-safe publishing): 'Fullföljt'. */
export interface WithheldRow {
  place: null;
  name: string;
  timeMs: null;
  klass: string;
  bib: number | null;
  club: string;
  withheld: true;
}

/** A line of a published results list: ranked with its time, or withheld. */
export type PublishedRow = ResultRow | WithheldRow;

/**
 * A line of GET /api/results/{year}/{distance}: the published row with its time as text, mm:ss.fff, or
 * 'Fullföljt' for a withheld one.
 */
export type PublishedResultLine = PublishedRow & { time: string };

export function isWithheld(row: PublishedRow): row is WithheldRow {
  return "withheld" in row && row.withheld;
}

export interface ResultsFileError {
  /** 1-based line number in the file. */
  line: number;
  /** Swedish, starts with "Rad {line}: " so it can be listed as is. */
  message: string;
}

export const RESULTS_HEADER = ["Placering", "Namn", "Resultat", "Klass", "Startnummer", "Förening"] as const;
/** The optional seventh column of a file to import. */
export const AGE_HEADER = "Ålder";
const MAX_AGE = 120;

const FILE_NAME = /^resultat-(\d{4})-(\d{1,2})\.csv$/;
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;
/** Longer than any result on these distances by far; guards against a date or a typo read as a time. */
const MAX_TIME_MS = 24 * 3_600_000;
const MAX_TEXT = 200;

export function resultsFileName(year: number, distance: DistanceKm): string {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) throw new RangeError(`Ogiltigt år: ${year}`);
  return `resultat-${year}-${String(distanceTenths(distance)).padStart(2, "0")}.csv`;
}

/** The year and distance a results file name stands for, or null for any other name. Accepts '-8' for '-08'. */
export function parseResultsFileName(name: string): { year: number; distance: DistanceKm } | null {
  const m = FILE_NAME.exec(name);
  if (!m) return null;
  const year = Number(m[1]);
  const tenths = Number(m[2]);
  const distance = DISTANCES.find((d) => distanceTenths(d) === tenths);
  if (!distance || year < MIN_YEAR || year > MAX_YEAR) return null;
  return { year, distance };
}

/** '19:42.123' or the other forms parseResult reads → ms; null unless a plausible positive time. */
function parseTime(s: string): number | null {
  const ms = parseResult(s);
  return ms !== null && ms > 0 && ms <= MAX_TIME_MS ? ms : null;
}

/** There is no quoting, so a field must not break the line: ';' becomes ',' and a line break a space. */
function cleanText(s: string): string {
  return s
    .replace(/[\r\n]+/g, " ")
    .replaceAll(";", ",")
    .trim();
}

/** The results file's text: header plus one line per row, in the order given, ending with a line break. */
export function serializeResults(rows: readonly PublishedRow[]): string {
  const lines = [RESULTS_HEADER.join(";")];
  for (const r of rows) {
    const withheld = isWithheld(r);
    lines.push(
      [
        withheld ? "" : String(r.place),
        cleanText(r.name),
        withheld ? WITHHELD_TEXT : formatResult(r.timeMs),
        cleanText(r.klass),
        r.bib === null ? "" : String(r.bib),
        cleanText(r.club),
      ]
        .map((cell) => csvCell(cell, ";"))
        .join(";"),
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * A stored list as the public may see it. Everything published: the rows as they are, the file's own placings.
 * With child-safe publishing on and a runner withheld: the published runners placed among themselves by time
 * (equal times share a place), then the withheld ones as 'Fullföljt', by name. No age leaves here.
 */
export function publishedResults(rows: readonly ResultRow[], rules: PublishingRules): PublishedRow[] {
  const publishes = (r: ResultRow) => publishesResult(r.age, rules);
  const strip = ({ age: _age, ...row }: ResultRow): ResultRow => row;
  if (rows.every(publishes)) return rows.map(strip);
  const { ranked, withheld } = rankPublished(rows, publishes);
  return [
    ...ranked.map(({ line, place }) => ({ ...strip(line), place })),
    ...withheld.map((r): WithheldRow => ({
      place: null,
      name: r.name,
      timeMs: null,
      klass: r.klass,
      bib: r.bib,
      club: r.club,
      withheld: true,
    })),
  ];
}

type LineResult = { row: PublishedRow } | { error: string } | { header: true } | null;

/**
 * Reads a results file to import. Valid lines become rows, every other non-empty line one error with its line
 * number; nothing throws. A leading BOM, CRLF line ends, blank lines and spaces around fields are fine. The header
 * line is optional (a file pasted without it still reads), but a first line that starts like a header must be
 * it, with or without the `Ålder` column; without a header, a line of seven fields is read with an age.
 */
export function parseResults(text: string): { rows: ResultRow[]; errors: ResultsFileError[] } {
  const { rows, errors } = readLines(text, false);
  return { rows: rows as ResultRow[], errors };
}

/** Reads the file the site serves (publishedResults): a withheld line has no placing and 'Fullföljt'. */
export function parsePublishedResults(text: string): { rows: PublishedRow[]; errors: ResultsFileError[] } {
  return readLines(text, true);
}

function readLines(text: string, published: boolean): { rows: PublishedRow[]; errors: ResultsFileError[] } {
  const rows: PublishedRow[] = [];
  const errors: ResultsFileError[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  let first = true;
  let withAge: boolean | null = null;

  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    const fields = splitCsvLine(raw, ";").map((f) => readCsvCell(f.trim()));
    const result = readLine(fields, first, withAge, published);
    first = false;
    if (result === null) return;
    if ("header" in result) {
      withAge = fields.length === RESULTS_HEADER.length + 1;
      return;
    }
    if ("error" in result) errors.push({ line, message: `Rad ${line}: ${result.error}` });
    else rows.push(result.row);
  });

  return { rows, errors };
}

function readLine(fields: string[], first: boolean, withAge: boolean | null, published: boolean): LineResult {
  const base = RESULTS_HEADER.join(";");
  if (first && /^placering$/i.test(fields[0] ?? "")) {
    const given = fields.join(";").toLowerCase();
    const allowed = published ? [base] : [base, `${base};${AGE_HEADER}`];
    if (!allowed.some((h) => h.toLowerCase() === given)) {
      return {
        error: `rubrikraden ska vara "${base}"${published ? "" : ` (med ";${AGE_HEADER}" sist om filen har åldrar)`}.`,
      };
    }
    return { header: true };
  }

  const counts = withAge === true ? [7] : withAge === false || published ? [6] : [6, 7];
  if (!counts.includes(fields.length)) {
    return {
      error: `raden har ${fields.length} fält men ska ha ${counts.join(" eller ")}, avskilda med semikolon.`,
    };
  }
  const [placeText = "", name = "", timeText = "", klass = "", bibText = "", club = "", ageText = ""] = fields;

  const withheld = published && placeText === "" && timeText === WITHHELD_TEXT;
  const place = /^\d+$/.test(placeText) ? Number(placeText) : NaN;
  if (!withheld && (!Number.isSafeInteger(place) || place < 1)) {
    return { error: `Placering måste vara ett heltal från 1 och uppåt, inte "${placeText}".` };
  }
  if (name === "") return { error: "Namn saknas." };
  if (name.length > MAX_TEXT || klass.length > MAX_TEXT || club.length > MAX_TEXT) {
    return { error: `ett fält är längre än ${MAX_TEXT} tecken.` };
  }
  const timeMs = withheld ? null : parseTime(timeText);
  if (!withheld && timeMs === null) {
    return { error: `Resultat ska skrivas mm:ss.fff (till exempel 23:45.120), inte "${timeText}".` };
  }
  let bib: number | null = null;
  if (bibText !== "") {
    bib = /^\d+$/.test(bibText) ? Number(bibText) : NaN;
    if (!Number.isSafeInteger(bib))
      return { error: `Startnummer måste vara ett heltal eller tomt, inte "${bibText}".` };
    // Spec: bib 0 means "no number".
    if (bib === 0) bib = null;
  }
  if (withheld || timeMs === null)
    return { row: { place: null, name, timeMs: null, klass, bib, club, withheld: true } };
  const row: ResultRow = { place, name, timeMs, klass, bib, club };
  if (fields.length === 7) {
    if (ageText === "") row.age = null;
    else {
      const age = /^\d{1,3}$/.test(ageText) ? Number(ageText) : NaN;
      if (!(age >= 0 && age <= MAX_AGE))
        return { error: `Ålder måste vara ett heltal 0–${MAX_AGE} eller tom, inte "${ageText}".` };
      row.age = age;
    }
  }
  return { row };
}

/**
 * The results file: one per year and distance, served at `GET /resultat/{csvfile}` and imported by the organiser.
 *
 * - Name: `resultat-{year}-{tenths}.csv`, the distance in tenths of a km padded to two digits like a race id's
 *   last piece: `resultat-2023-56.csv`, `resultat-2023-08.csv`.
 * - Text: UTF-8, one runner per line, fields separated by ';' (spec: "semicolon-separated with a time piece"),
 *   first line the header `Placering;Namn;Resultat;Klass;Startnummer;Förening`.
 * - Resultat is mm:ss.fff (admin spec: "Results are shown as mm:ss.fff"; time-format.ts), minutes may pass 59.
 *   Reading also accepts h:mm:ss(.f…), fewer decimals and a decimal comma, as a spreadsheet may write them.
 * - Startnummer and Förening may be empty. A field never contains ';' or a line break (they are replaced on
 *   writing), so a line with a stray ';' is reported as an error rather than guessed at.
 * - Cells are written through csv.ts (CSV injection): a name, class or club that begins with =, +, -, @ is written
 *   `"'=…"` and one with a '"' is quoted; reading undoes both. Placering, Resultat (mm:ss.fff of a positive time)
 *   and Startnummer are digits first, so the rule never touches them.
 */
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
}

export interface ResultsFileError {
  /** 1-based line number in the file. */
  line: number;
  /** Swedish, starts with "Rad {line}: " so it can be listed as is. */
  message: string;
}

export const RESULTS_HEADER = ["Placering", "Namn", "Resultat", "Klass", "Startnummer", "Förening"] as const;

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
export function serializeResults(rows: readonly ResultRow[]): string {
  const lines = [RESULTS_HEADER.join(";")];
  for (const r of rows) {
    lines.push(
      [
        String(r.place),
        cleanText(r.name),
        formatResult(r.timeMs),
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
 * Reads a results file. Valid lines become rows, every other non-empty line one error with its line number;
 * nothing throws. A leading BOM, CRLF line ends, blank lines and spaces around fields are fine. The header line
 * is optional (a file pasted without it still reads), but a first line that starts like a header must be it.
 */
export function parseResults(text: string): { rows: ResultRow[]; errors: ResultsFileError[] } {
  const rows: ResultRow[] = [];
  const errors: ResultsFileError[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  let seenContent = false;

  lines.forEach((raw, index) => {
    const line = index + 1;
    const fail = (message: string) => errors.push({ line, message: `Rad ${line}: ${message}` });
    if (raw.trim() === "") return;
    const fields = splitCsvLine(raw, ";").map((f) => readCsvCell(f.trim()));

    if (!seenContent) {
      seenContent = true;
      if (/^placering$/i.test(fields[0] ?? "")) {
        const expected = RESULTS_HEADER.join(";");
        if (fields.join(";").toLowerCase() !== expected.toLowerCase()) {
          fail(`rubrikraden ska vara "${expected}".`);
        }
        return;
      }
    }

    if (fields.length !== RESULTS_HEADER.length) {
      fail(`raden har ${fields.length} fält men ska ha ${RESULTS_HEADER.length}, avskilda med semikolon.`);
      return;
    }
    const [placeText = "", name = "", timeText = "", klass = "", bibText = "", club = ""] = fields;

    const place = /^\d+$/.test(placeText) ? Number(placeText) : NaN;
    if (!Number.isSafeInteger(place) || place < 1) {
      fail(`Placering måste vara ett heltal från 1 och uppåt, inte "${placeText}".`);
      return;
    }
    if (name === "") {
      fail("Namn saknas.");
      return;
    }
    if (name.length > MAX_TEXT || klass.length > MAX_TEXT || club.length > MAX_TEXT) {
      fail(`ett fält är längre än ${MAX_TEXT} tecken.`);
      return;
    }
    const timeMs = parseTime(timeText);
    if (timeMs === null) {
      fail(`Resultat ska skrivas mm:ss.fff (till exempel 23:45.120), inte "${timeText}".`);
      return;
    }
    let bib: number | null = null;
    if (bibText !== "") {
      bib = /^\d+$/.test(bibText) ? Number(bibText) : NaN;
      if (!Number.isSafeInteger(bib)) {
        fail(`Startnummer måste vara ett heltal eller tomt, inte "${bibText}".`);
        return;
      }
      // Spec: bib 0 means "no number".
      if (bib === 0) bib = null;
    }
    rows.push({ place, name, timeMs, klass, bib, club });
  });

  return { rows, errors };
}

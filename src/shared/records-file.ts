/**
 * The course records file the organiser imports (spec: "Course record: distance, name, time, year"), in the same
 * manner as the results file (results-file.ts): UTF-8, fields separated by ';', no quoting, an optional header
 * `Distans;Namn;År;Tid`, one line per distance.
 *
 * - Distans: '5.6', '5,6', '5.6K' or '5,6 km' (one of the four distances; each at most once).
 * - År: four digits. Tid: mm:ss.fff (also h:mm:ss, fewer decimals, a decimal comma, as for results).
 *
 * The public list is the faster of this record and the best imported result per distance (src/worker/results/results-db.ts),
 * so the file is only needed for records set before the imported results begin.
 */
import { toDistance, type DistanceKm } from "./distances";
import { formatResult, parseResult } from "./time-format";

export interface CourseRecordRow {
  distance: DistanceKm;
  name: string;
  timeMs: number;
  year: number;
}

export interface RecordsFileError {
  /** 1-based line number in the file. */
  line: number;
  /** Swedish, starts with "Rad {line}: ". */
  message: string;
}

export const RECORDS_HEADER = ["Distans", "Namn", "År", "Tid"] as const;

const MIN_YEAR = 1900;
const MAX_YEAR = 2999;
const MAX_TIME_MS = 24 * 3_600_000;
const MAX_TEXT = 200;

/** '5.6', '5,6', '5.6K', '5,6 km' → '5.6'; null otherwise. */
function readDistance(s: string): DistanceKm | null {
  return toDistance(s.replace(/\s*k(m)?$/i, ""));
}

export function serializeRecords(records: readonly CourseRecordRow[]): string {
  const clean = (s: string) =>
    s
      .replace(/[\r\n]+/g, " ")
      .replaceAll(";", ",")
      .trim();
  const lines = [RECORDS_HEADER.join(";")];
  for (const r of records) lines.push([r.distance, clean(r.name), String(r.year), formatResult(r.timeMs)].join(";"));
  return lines.join("\n") + "\n";
}

/** Reads a records file: valid lines become rows, every other non-empty line one error with its number. */
export function parseRecords(text: string): { rows: CourseRecordRow[]; errors: RecordsFileError[] } {
  const rows: CourseRecordRow[] = [];
  const errors: RecordsFileError[] = [];
  const seen = new Map<DistanceKm, number>();
  let seenContent = false;

  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .forEach((raw, index) => {
      const line = index + 1;
      const fail = (message: string) => errors.push({ line, message: `Rad ${line}: ${message}` });
      if (raw.trim() === "") return;
      const fields = raw.split(";").map((f) => f.trim());

      if (!seenContent) {
        seenContent = true;
        if (/^distans$/i.test(fields[0] ?? "")) {
          const expected = RECORDS_HEADER.join(";");
          if (fields.join(";").toLowerCase() !== expected.toLowerCase()) fail(`rubrikraden ska vara "${expected}".`);
          return;
        }
      }

      if (fields.length !== RECORDS_HEADER.length) {
        fail(`raden har ${fields.length} fält men ska ha ${RECORDS_HEADER.length}, avskilda med semikolon.`);
        return;
      }
      const [distanceText = "", name = "", yearText = "", timeText = ""] = fields;
      const distance = readDistance(distanceText);
      if (!distance) {
        fail(`Distans ska vara 0.8, 1.6, 2.8 eller 5.6, inte "${distanceText}".`);
        return;
      }
      const earlier = seen.get(distance);
      if (earlier !== undefined) {
        fail(`distansen ${distance} finns redan på rad ${earlier}.`);
        return;
      }
      if (name === "") {
        fail("Namn saknas.");
        return;
      }
      if (name.length > MAX_TEXT) {
        fail(`Namn är längre än ${MAX_TEXT} tecken.`);
        return;
      }
      const year = /^\d{4}$/.test(yearText) ? Number(yearText) : NaN;
      if (!(year >= MIN_YEAR && year <= MAX_YEAR)) {
        fail(`År ska vara ett årtal med fyra siffror, inte "${yearText}".`);
        return;
      }
      const timeMs = parseResult(timeText);
      if (timeMs === null || timeMs <= 0 || timeMs > MAX_TIME_MS) {
        fail(`Tid ska skrivas mm:ss.fff (till exempel 18:02.500), inte "${timeText}".`);
        return;
      }
      seen.set(distance, line);
      rows.push({ distance, name, timeMs, year });
    });

  return { rows, errors };
}

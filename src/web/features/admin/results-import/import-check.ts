/**
 * The import form's check before anything is sent, with the same shared file rules the Worker applies
 * (results-file.ts, records-file.ts): the organiser sees every bad line at once, by number and reason.
 */
import type { DistanceKm } from "../../../../shared/distances";
import { parseRecords } from "../../../../shared/records-file";
import { parseResults, parseResultsFileName } from "../../../../shared/results-file";
import type { ImportRequest } from "./api/import-results";

export type ImportKind = ImportRequest["kind"];

export interface ImportDraft {
  kind: ImportKind;
  year: string;
  distance: DistanceKm | "";
  text: string;
}

export interface ImportCheck {
  request: ImportRequest | null;
  /** Lines the file rules refuse, in file order. */
  lineErrors: { line: number; message: string }[];
  fieldErrors: { year?: string; distance?: string; text?: string };
  rows: number;
}

export const FIRST_YEAR = 1900;
/** The Worker takes request bodies up to 64 kB (app.ts): about 900 runners. Larger files go by the command. */
export const MAX_REQUEST_BYTES = 64 * 1024;
export const TOO_LARGE =
  "Filen är för stor för att läsas in här (högst 64 kB, ungefär 900 löpare). Läs in den med kommandot node scripts/import-results.mjs i stället (se README).";

/** The request, unless its JSON body would be larger than the Worker takes. */
function fits(request: ImportRequest): boolean {
  return new TextEncoder().encode(JSON.stringify(request)).length <= MAX_REQUEST_BYTES;
}

export function checkImport(draft: ImportDraft, thisYear: number): ImportCheck {
  const fieldErrors: ImportCheck["fieldErrors"] = {};
  const parsed = draft.kind === "records" ? parseRecords(draft.text) : parseResults(draft.text);
  if (draft.text.trim() === "") fieldErrors.text = "Välj en fil eller klistra in raderna.";
  else if (parsed.errors.length === 0 && parsed.rows.length === 0)
    fieldErrors.text = "Filen har inga rader att importera.";

  if (draft.kind === "records") {
    let ok = Object.keys(fieldErrors).length === 0 && parsed.errors.length === 0;
    if (ok && !fits({ kind: "records", text: draft.text })) {
      fieldErrors.text = TOO_LARGE;
      ok = false;
    }
    return {
      request: ok ? { kind: "records", text: draft.text } : null,
      lineErrors: parsed.errors,
      fieldErrors,
      rows: parsed.rows.length,
    };
  }

  const year = /^\d{4}$/.test(draft.year.trim()) ? Number(draft.year.trim()) : NaN;
  if (!(year >= FIRST_YEAR && year <= thisYear))
    fieldErrors.year = `Ange ett årtal mellan ${FIRST_YEAR} och ${thisYear}.`;
  if (draft.distance === "") fieldErrors.distance = "Välj en distans.";
  const request: ImportRequest | null =
    Object.keys(fieldErrors).length === 0 && parsed.errors.length === 0 && draft.distance !== ""
      ? { kind: "results", year, distance: draft.distance, text: draft.text }
      : null;
  if (request && !fits(request)) fieldErrors.text = TOO_LARGE;
  return {
    request: request && !fieldErrors.text ? request : null,
    lineErrors: parsed.errors,
    fieldErrors,
    rows: parsed.rows.length,
  };
}

/**
 * What a picked file's name says: 'resultat-2019-56.csv' is a results file for 2019, 5.6 km; a name with
 * 'rekord' in it is the records file. Other names say nothing (the form keeps what is chosen).
 */
export function guessFromFileName(name: string): Partial<Pick<ImportDraft, "kind" | "year" | "distance">> {
  const file = parseResultsFileName(name.trim().toLowerCase());
  if (file) return { kind: "results", year: String(file.year), distance: file.distance };
  if (/rekord/i.test(name)) return { kind: "records" };
  return {};
}

/** The server's 422 body `{error, errors}` (errors keyed by line number) as a list in line order. */
export function lineErrorsFromServer(errors: unknown): { line: number; message: string }[] {
  if (typeof errors !== "object" || errors === null) return [];
  return Object.entries(errors as Record<string, unknown>)
    .filter((e): e is [string, string] => /^\d+$/.test(e[0]) && typeof e[1] === "string")
    .map(([line, message]) => ({ line: Number(line), message }))
    .sort((a, b) => a.line - b.line);
}

/**
 * Writing (and reading back) CSV cells: the one place every file the site hands out passes through, the admin
 * exports (RaceSplitter list, registrations) and the public results files (`/resultat/{csvfile}`).
 *
 * CSV injection (OWASP "CSV Injection"): a spreadsheet treats a cell that begins with `=`, `+`, `-` or `@` as a
 * formula, and tab or carriage return in first place can smuggle one past a filter. Such a cell is written as
 * text: a `'` in front (the spreadsheets' "this is text" mark) and the whole cell in double quotes, with every
 * `"` inside doubled. The full-width forms of the four characters (＝ ＋ － ＠), which some spreadsheets in East
 * Asian locales also read as formula starters, get the same treatment. The rule holds for every cell without
 * exception, numbers included: a real value that begins with '-' or '+' (a negative number, a '+46…' phone
 * number, '-0:05') comes out as `'-0:05` — still readable, but never evaluated. None of the files we write has a
 * column whose real values begin with those characters (see the callers), so in practice the rule only ever
 * touches free text such as names and clubs.
 *
 * Any other cell is quoted only when it has to be (RFC 4180): when it contains the separator, a `"`, CR or LF.
 * A cell that begins with `"` is therefore always quoted, so `"=1+1"` typed as a name cannot become a formula
 * through the spreadsheet's own unquoting either.
 *
 * Reading (`splitCsvLine`, `readCsvCell`) undoes exactly what writing did, so a file the site wrote reads back to
 * the same values: the results page reads the results files it serves, and the import reads files exported here.
 */

/** A value for one cell; null and undefined are an empty cell. */
export type CsvValue = string | number | null | undefined;

export type CsvSeparator = "," | ";";

/** The characters that make a spreadsheet read a cell as a formula when they come first (OWASP, plus full-width). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** True when a spreadsheet could read the text as a formula (it begins with =, +, -, @, tab or CR). */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text);
}

/** One cell as written to a file with this separator (see the module comment for the rules). */
export function csvCell(value: CsvValue, separator: CsvSeparator): string {
  const text = value === null || value === undefined ? "" : String(value);
  if (isFormulaLike(text)) return quote(`'${text}`);
  if (text.includes(separator) || /["\r\n]/.test(text)) return quote(text);
  return text;
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** One line of cells, without its line end. */
export function csvLine(values: readonly CsvValue[], separator: CsvSeparator): string {
  return values.map((v) => csvCell(v, separator)).join(separator);
}

export interface CsvFormat {
  separator: CsvSeparator;
  /** Written after every line, the last one included. */
  lineEnd: "\r\n" | "\n";
  /** A UTF-8 byte order mark first: Excel then reads å, ä, ö right instead of guessing an old code page. */
  bom: boolean;
}

/** A whole file: the header line, then one line per row. */
export function csvDocument(header: readonly string[], rows: Iterable<readonly CsvValue[]>, format: CsvFormat): string {
  const lines = [csvLine(header, format.separator)];
  for (const row of rows) lines.push(csvLine(row, format.separator));
  return (format.bom ? "\uFEFF" : "") + lines.map((l) => l + format.lineEnd).join("");
}

/**
 * Splits one line into its raw fields. A field that begins with `"` is read up to its closing quote (`""` inside
 * is one `"`), so a separator inside quotes belongs to the field; anything after the closing quote up to the next
 * separator is kept as it stands. A `"` inside a field that did not begin with one is an ordinary character (a
 * spreadsheet writes `Anna "Snabben" Berg` unquoted when its separator does not appear in it).
 */
export function splitCsvLine(line: string, separator: CsvSeparator): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    // Spaces before an opening quote (a hand-edited file) do not make the field unquoted.
    const start = line.slice(i).search(/[^ ]/);
    if (start >= 0 && line[i + start] === '"') {
      let j = i + start + 1;
      for (;;) {
        const close = line.indexOf('"', j);
        if (close < 0) {
          field += line.slice(j);
          j = line.length;
          break;
        }
        field += line.slice(j, close);
        if (line[close + 1] === '"') {
          field += '"';
          j = close + 2;
        } else {
          j = close + 1;
          break;
        }
      }
      const end = line.indexOf(separator, j);
      field += end < 0 ? line.slice(j) : line.slice(j, end);
      fields.push(field);
      if (end < 0) return fields;
      i = end + 1;
    } else {
      const end = line.indexOf(separator, i);
      fields.push(end < 0 ? line.slice(i) : line.slice(i, end));
      if (end < 0) return fields;
      i = end + 1;
    }
  }
}

/**
 * A field's value as `csvCell` had it: the `'` that marked a formula-like cell as text is taken off again. A `'`
 * in front of anything else is part of the value and stays.
 */
export function readCsvCell(field: string): string {
  return field.startsWith("'") && isFormulaLike(field.slice(1)) ? field.slice(1) : field;
}

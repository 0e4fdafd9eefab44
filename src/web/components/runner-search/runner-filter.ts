/**
 * 'Sök löpare' on the results and start lists, as plain functions: which rows of a list match what a visitor
 * typed, by name, club or bib.
 *
 * - The text is split at white space; every word must be found in the row (in the name, the club, or for a word
 *   of digits also at the start of the bib), so 'anna ek' finds Anna Berg of IK Ek and '61' the bibs 61, 610–619.
 * - Case, accents and the phone keyboard's typographic quotes and dashes do not matter ('bjorn' finds Björn,
 *   'O’Brien' finds O'Brien): both sides are folded the same way.
 * - Every character is taken literally (`String.includes`, never a RegExp made from the text): '.*' or '(' is a
 *   search for those characters, which simply matches nobody. Any length is fine: a word longer than the row's
 *   text fails at once, repeated words count once.
 *
 * The rows are folded once per list (`searchIndex`), so each keystroke only compares strings.
 */

export interface SearchFields {
  name: string;
  club: string;
  /** As the list shows it: '612', or 'TBD', 'DNS', '' for a runner without a number. */
  bib: string;
}

export interface IndexedRow {
  key: string;
  /** Name and club, folded. */
  text: string;
  /** The bib when it is a number, else ''. */
  bib: string;
}

/** How many characters of the query a status line repeats back ('Ingen löpare matchar "…"'). */
export const QUERY_ECHO_CHARS = 40;

const TYPOGRAPHIC: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u00B4": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
};
const TYPOGRAPHIC_CHARS = /[\u2018\u2019\u201A\u201B\u2032\u00B4\u201C\u201D\u201E\u2010-\u2014\u2212]/g;
const COMBINING_MARKS = /\p{M}+/gu;

/** Lower case, without accents (å → a, ö → o, é → e), typographic quotes and dashes as their plain forms. */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(COMBINING_MARKS, "")
    .replace(TYPOGRAPHIC_CHARS, (c) => TYPOGRAPHIC[c] ?? c)
    .toLowerCase();
}

/** The words to look for, folded, each once; [] for a blank query (no filter). */
export function queryWords(query: string): string[] {
  return [...new Set(fold(query).split(/\s+/u).filter(Boolean))];
}

/** True when the query filters at all (anything but white space). */
export function isSearching(query: string): boolean {
  return /\S/u.test(query);
}

export function indexRow(key: string, fields: SearchFields): IndexedRow {
  return {
    key,
    // A line break between the two, so a word never matches across the name's end and the club's start.
    text: `${fold(fields.name)}\n${fold(fields.club)}`,
    bib: /^\d+$/.test(fields.bib) ? fields.bib : "",
  };
}

/** A list's rows folded once, to be filtered keystroke by keystroke. */
export function searchIndex<Row>(
  rows: readonly Row[],
  key: (row: Row) => string,
  fields: (row: Row) => SearchFields,
): IndexedRow[] {
  return rows.map((row) => indexRow(key(row), fields(row)));
}

const DIGITS = /^#?(\d+)$/;

function wordMatches(word: string, row: IndexedRow): boolean {
  if (row.text.includes(word)) return true;
  // A number (with or without '#'): the bib it starts ('6' → 600–699 as you type '612').
  const digits = DIGITS.exec(word)?.[1];
  return digits !== undefined && row.bib.startsWith(digits);
}

export function rowMatches(words: readonly string[], row: IndexedRow): boolean {
  return words.every((word) => wordMatches(word, row));
}

/** The keys of the rows that match, or null when the query is blank (every row shows). */
export function matchingKeys(index: readonly IndexedRow[], query: string): Set<string> | null {
  const words = queryWords(query);
  if (words.length === 0) return null;
  // The longest word first: it is the likeliest to rule a row out at once.
  words.sort((a, b) => b.length - a.length);
  const keys = new Set<string>();
  for (const row of index) if (rowMatches(words, row)) keys.add(row.key);
  return keys;
}

/** The query as a status line repeats it: trimmed, white space collapsed, at most QUERY_ECHO_CHARS characters. */
export function queryEcho(query: string): string {
  const text = query.trim().replace(/\s+/gu, " ");
  const chars = [...text];
  return chars.length <= QUERY_ECHO_CHARS ? text : `${chars.slice(0, QUERY_ECHO_CHARS - 1).join("")}…`;
}

/**
 * What a list says about a search: null when there is none, else how many of its runners match
 * ('3 av 37 löpare matchar "anna".') or that none does.
 */
export function searchSummary(query: string, matches: number, total: number, noun = "löpare"): string | null {
  if (!isSearching(query)) return null;
  const echo = queryEcho(query);
  if (matches === 0) return `Ingen av ${total} ${noun} matchar "${echo}".`;
  return `${matches} av ${total} ${noun} matchar "${echo}".`;
}

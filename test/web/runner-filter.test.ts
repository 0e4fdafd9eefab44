/** 'Sök löpare': which rows match a query by name, club or bib, whatever the visitor types. */
import { describe, expect, it } from "vitest";
import {
  fold,
  isSearching,
  matchingKeys,
  queryEcho,
  queryWords,
  searchIndex,
  searchSummary,
  type SearchFields,
} from "../../src/web/components/runner-search/runner-filter";

interface Row extends SearchFields {
  key: string;
}

const ROWS: Row[] = [
  { key: "a", name: "Anna Berg", club: "IK Ek", bib: "612" },
  { key: "b", name: "Björn Åkerlund-Långnamnsson", club: "", bib: "61" },
  { key: "c", name: "Märta O'Brien", club: "Sjöviks LK", bib: "1612" },
  { key: "d", name: "Eva Ek", club: "Löparglädje Norrby", bib: "TBD" },
  { key: "e", name: "Per (Pelle) Ström", club: "IFK 2000", bib: "DNS" },
  { key: "f", name: "Anna-Karin Sandberg", club: "", bib: "" },
];
const INDEX = searchIndex(
  ROWS,
  (r) => r.key,
  (r) => r,
);
const find = (query: string) => {
  const keys = matchingKeys(INDEX, query);
  return keys === null ? null : [...keys].sort();
};

describe("matchingKeys", () => {
  it("a blank query filters nothing", () => {
    expect(find("")).toBeNull();
    expect(find("   \t ")).toBeNull();
    expect(isSearching(" \n")).toBe(false);
    expect(isSearching(" a")).toBe(true);
  });

  it("finds by part of the name, in any case", () => {
    expect(find("anna")).toEqual(["a", "f"]);
    expect(find("ANNA")).toEqual(["a", "f"]);
    expect(find("berg")).toEqual(["a", "f"]);
    expect(find("Sandb")).toEqual(["f"]);
  });

  it("finds by club", () => {
    expect(find("sjöviks")).toEqual(["c"]);
    expect(find("norrby")).toEqual(["d"]);
  });

  it("every word must match, each in the name or the club", () => {
    expect(find("anna ek")).toEqual(["a"]);
    expect(find("ek eva")).toEqual(["d"]);
    expect(find("anna  karin")).toEqual(["f"]);
    expect(find("anna norrby")).toEqual([]);
  });

  it("a word never matches across the end of the name and the start of the club", () => {
    // 'Berg' + 'IK': without a separator 'bergik' would be found in 'annabergik ek'.
    expect(find("bergik")).toEqual([]);
    expect(find("berg ik")).toEqual(["a"]);
  });

  it("a number finds the bibs it starts, as you type, and also names or clubs containing it", () => {
    expect(find("6")).toEqual(["a", "b"]);
    expect(find("61")).toEqual(["a", "b"]);
    expect(find("612")).toEqual(["a"]);
    expect(find("#612")).toEqual(["a"]);
    expect(find("1612")).toEqual(["c"]);
    expect(find("2000")).toEqual(["e"]);
    expect(find("612 anna")).toEqual(["a"]);
    expect(find("612 eva")).toEqual([]);
  });

  it("TBD and DNS are no numbers: they are not searched", () => {
    expect(find("tbd")).toEqual([]);
    expect(find("dns")).toEqual([]);
  });

  it("accents do not matter either way, nor the phone's typographic apostrophe and dashes", () => {
    expect(find("bjorn")).toEqual(["b"]);
    expect(find("BJÖRN")).toEqual(["b"]);
    expect(find("akerlund")).toEqual(["b"]);
    expect(find("marta")).toEqual(["c"]);
    expect(find("o’brien")).toEqual(["c"]);
    expect(find("o'brien")).toEqual(["c"]);
    expect(find("anna‐karin")).toEqual(["f"]);
    expect(find("anna–karin")).toEqual(["f"]);
    expect(find("åkerlund–långnamnsson")).toEqual(["b"]);
  });

  it("regular-expression characters are plain characters: never thrown, matching only themselves", () => {
    for (const q of [".*", "(", ")", "[", "[a-z]+", "\\", "^", "$", "a|b", "?", "+", "*", "{2}", "\\d+", "(?<x>"])
      expect(() => find(q)).not.toThrow();
    expect(find(".*")).toEqual([]);
    expect(find("[a-z]+")).toEqual([]);
    expect(find("a|b")).toEqual([]);
    expect(find("(pelle)")).toEqual(["e"]);
    expect(find("(")).toEqual(["e"]);
    expect(find("'")).toEqual(["c"]);
  });

  it("a query of 10,000 characters gives an answer at once: nobody matches, or the few it names", () => {
    const junk = "x".repeat(10_000);
    let started = performance.now();
    expect(find(junk)).toEqual([]);
    const spaced = Array.from({ length: 5_000 }, (_, i) => `w${i}`).join(" ");
    expect(find(spaced)).toEqual([]);
    // The same name pasted over and over: each word counts once, and Anna is found.
    expect(find("anna ".repeat(2_000))).toEqual(["a", "f"]);
    expect(performance.now() - started).toBeLessThan(200);

    // 500 rows, the long query: one keystroke's filtering stays far below a frame.
    const many = searchIndex(
      Array.from({ length: 500 }, (_, i) => ({
        key: String(i),
        name: `Löpare${i} Långnamnsson-Åkerlund`,
        club: "IK Ek",
        bib: String(600 + i),
      })),
      (r) => r.key,
      (r) => r,
    );
    started = performance.now();
    for (const q of [junk, spaced, "anna ".repeat(2_000), "l", "lö", "löp", "60"]) matchingKeys(many, q);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("works on rows with empty fields", () => {
    const index = searchIndex(
      [{ key: "x", name: "", club: "", bib: "" }],
      (r) => r.key,
      (r) => r,
    );
    expect(matchingKeys(index, "a")).toEqual(new Set());
  });
});

describe("fold and queryWords", () => {
  it("folds case, accents, quotes and dashes", () => {
    expect(fold("ÅÄÖ éü Ø")).toBe("aao eu ø");
    expect(fold("“Pelle” – O’Brien")).toBe('"pelle" - o\'brien');
  });

  it("splits at white space and keeps each word once", () => {
    expect(queryWords("  Anna anna\tEK\n")).toEqual(["anna", "ek"]);
    expect(queryWords("")).toEqual([]);
  });
});

describe("what the list says", () => {
  it("nothing without a search; else how many match, or that none does", () => {
    expect(searchSummary("", 0, 37)).toBeNull();
    expect(searchSummary("  ", 37, 37)).toBeNull();
    expect(searchSummary("anna", 3, 37)).toBe('3 av 37 löpare matchar "anna".');
    expect(searchSummary(" anna   ek ", 1, 37)).toBe('1 av 37 löpare matchar "anna ek".');
    expect(searchSummary("zzz", 0, 37)).toBe('Ingen av 37 löpare matchar "zzz".');
    expect(searchSummary("anna", 2, 12, "löpare i mål")).toBe('2 av 12 löpare i mål matchar "anna".');
  });

  it("a long query is repeated back shortened", () => {
    const long = "å".repeat(10_000);
    const echo = queryEcho(long);
    expect([...echo]).toHaveLength(40);
    expect(echo.endsWith("…")).toBe(true);
    expect(searchSummary(long, 0, 500)).toBe(`Ingen av 500 löpare matchar "${"å".repeat(39)}…".`);
    expect(queryEcho("kort")).toBe("kort");
  });
});

import { describe, expect, it } from "vitest";
import {
  RESULTS_HEADER,
  parseResults,
  parseResultsFileName,
  resultsFileName,
  serializeResults,
  type ResultRow,
} from "../../src/shared/results-file";

const HEADER = "Placering;Namn;Resultat;Klass;Startnummer;Förening";

const rows: ResultRow[] = [
  { place: 1, name: "Åsa Öberg", timeMs: 19 * 60_000 + 42_123, klass: "Dam", bib: 612, club: "IK Ekbacken" },
  { place: 2, name: "Erik Sjödal", timeMs: 20 * 60_000 + 5_000, klass: "Herr", bib: null, club: "" },
  { place: 2, name: "Linnea Granvik", timeMs: 20 * 60_000 + 5_000, klass: "", bib: 7, club: "Granholms Bygg AB" },
];

describe("results file names", () => {
  it("names a file per year and distance in tenths, padded like a race id", () => {
    expect(resultsFileName(2023, "5.6")).toBe("resultat-2023-56.csv");
    expect(resultsFileName(2019, "2.8")).toBe("resultat-2019-28.csv");
    expect(resultsFileName(2014, "1.6")).toBe("resultat-2014-16.csv");
    expect(resultsFileName(2014, "0.8")).toBe("resultat-2014-08.csv");
  });

  it("reads every name it writes back to the same year and distance", () => {
    for (const distance of ["0.8", "1.6", "2.8", "5.6"] as const) {
      for (const year of [2014, 2023, 2025]) {
        expect(parseResultsFileName(resultsFileName(year, distance))).toEqual({ year, distance });
      }
    }
    expect(parseResultsFileName("resultat-2023-8.csv")).toEqual({ year: 2023, distance: "0.8" });
  });

  it("refuses names that are not results files", () => {
    for (const name of [
      "resultat-2023-57.csv",
      "resultat-2023-560.csv",
      "resultat-23-56.csv",
      "resultat-2023-56.txt",
      "resultat-2023-56.csv.bak",
      "../resultat-2023-56.csv",
      "Resultat-2023-56.csv",
      "resultat-0999-56.csv",
      "resultat-2023-00.csv",
      "resultat-2023--5.csv",
      "",
    ]) {
      expect(parseResultsFileName(name), name).toBeNull();
    }
  });

  it("refuses an impossible year when naming", () => {
    expect(() => resultsFileName(23, "5.6")).toThrow(RangeError);
    expect(() => resultsFileName(2023.5, "5.6")).toThrow(RangeError);
  });
});

describe("serializeResults", () => {
  it("writes the header and one semicolon line per row with mm:ss.fff times", () => {
    expect(serializeResults(rows)).toBe(
      [
        HEADER,
        "1;Åsa Öberg;19:42.123;Dam;612;IK Ekbacken",
        "2;Erik Sjödal;20:05.000;Herr;;",
        "2;Linnea Granvik;20:05.000;;7;Granholms Bygg AB",
        "",
      ].join("\n"),
    );
    expect(RESULTS_HEADER.join(";")).toBe(HEADER);
  });

  it("writes minutes past an hour and pads short times", () => {
    const text = serializeResults([
      { place: 1, name: "A", timeMs: 75 * 60_000 + 2_310, klass: "", bib: null, club: "" },
      { place: 2, name: "B", timeMs: 2 * 60_000 + 40_000 + 7, klass: "", bib: null, club: "" },
    ]);
    expect(text.split("\n").slice(1, 3)).toEqual(["1;A;75:02.310;;;", "2;B;02:40.007;;;"]);
  });

  it("keeps the line format when a name carries a semicolon or line break", () => {
    const text = serializeResults([{ ...rows[0]!, name: "Anna;Bo\nCarlsson", club: "A;B" }]);
    const parsed = parseResults(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows[0]).toMatchObject({ name: "Anna,Bo Carlsson", club: "A,B" });
  });

  it("writes just the header for no rows", () => {
    expect(serializeResults([])).toBe(HEADER + "\n");
    expect(parseResults(serializeResults([]))).toEqual({ rows: [], errors: [] });
  });
});

describe("parseResults", () => {
  it("reads back what serializeResults writes", () => {
    expect(parseResults(serializeResults(rows))).toEqual({ rows, errors: [] });
  });

  it("accepts a BOM, CRLF, blank lines and spaces around fields", () => {
    const text = `\uFEFF${HEADER}\r\n\r\n 1 ; Åsa Öberg ; 19:42.123 ; Dam ; 612 ; IK Ekbacken \r\n\r\n2;Erik Sjödal;20:05.000;Herr;;\r\n`;
    const parsed = parseResults(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toEqual(rows.slice(0, 2));
  });

  it("reads a file without a header line", () => {
    const parsed = parseResults("1;Åsa Öberg;19:42.123;Dam;612;IK Ekbacken");
    expect(parsed).toEqual({ rows: [rows[0]], errors: [] });
  });

  it("accepts the time forms a spreadsheet writes", () => {
    const times = ["19:42.1", "19:42,123", "1:05:02", "0:19:42.123", "9:05"];
    const text = times.map((t, i) => `${i + 1};Namn ${i};${t};;;`).join("\n");
    const parsed = parseResults(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows.map((r) => r.timeMs)).toEqual([
      19 * 60_000 + 42_100,
      19 * 60_000 + 42_123,
      3_600_000 + 5 * 60_000 + 2_000,
      19 * 60_000 + 42_123,
      9 * 60_000 + 5_000,
    ]);
  });

  it("treats bib 0 as no number", () => {
    expect(parseResults("1;Bo Ek;10:00.000;;0;").rows[0]?.bib).toBeNull();
  });

  it("reports a stray semicolon as an error on its line and keeps the good lines", () => {
    const text = [HEADER, "1;Åsa Öberg;19:42.123;Dam;612;IK Ekbacken", "2;Erik;Sjödal;20:05.000;Herr;;", ""].join(
      "\r\n",
    );
    const parsed = parseResults(text);
    expect(parsed.rows).toEqual([rows[0]]);
    expect(parsed.errors).toEqual([
      { line: 3, message: "Rad 3: raden har 7 fält men ska ha 6, avskilda med semikolon." },
    ]);
  });

  it("reports each kind of bad field with its line number in Swedish", () => {
    const text = [
      HEADER,
      "x;Åsa;19:42.123;;;",
      "0;Åsa;19:42.123;;;",
      "3;;19:42.123;;;",
      "4;Åsa;19.42;;;",
      "5;Åsa;19:75.000;;;",
      "6;Åsa;00:00.000;;;",
      "7;Åsa;19:42.123;;12a;",
      "8;Åsa;19:42.123",
      `9;${"x".repeat(201)};19:42.123;;;`,
    ].join("\n");
    const parsed = parseResults(text);
    expect(parsed.rows).toEqual([]);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(parsed.errors[0]?.message).toBe('Rad 2: Placering måste vara ett heltal från 1 och uppåt, inte "x".');
    expect(parsed.errors[2]?.message).toBe("Rad 4: Namn saknas.");
    expect(parsed.errors[3]?.message).toBe(
      'Rad 5: Resultat ska skrivas mm:ss.fff (till exempel 23:45.120), inte "19.42".',
    );
    expect(parsed.errors[6]?.message).toBe('Rad 8: Startnummer måste vara ett heltal eller tomt, inte "12a".');
    expect(parsed.errors[7]?.message).toMatch(/^Rad 9: raden har 3 fält/);
    for (const e of parsed.errors) expect(e.message).toMatch(new RegExp(`^Rad ${e.line}: `));
  });

  it("reports a header with the wrong columns", () => {
    const parsed = parseResults("Placering;Namn;Tid;Klass;Startnummer;Förening\n1;Åsa;19:42.123;;;");
    expect(parsed.errors).toEqual([{ line: 1, message: `Rad 1: rubrikraden ska vara "${HEADER}".` }]);
    expect(parsed.rows).toHaveLength(1);
  });

  it("never throws on arbitrary text", () => {
    for (const text of ["", ";;;;;", "\n\n\n", "\uFEFF", ";", "a;b", "Placering", "1;a;1:00;b;c;d;e;f;g", "\u0000"]) {
      expect(() => parseResults(text)).not.toThrow();
    }
    expect(parseResults(";;;;;").errors).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { publishingRules } from "../../src/shared/child-safe";
import {
  RESULTS_HEADER,
  parsePublishedResults,
  parseResults,
  publishedResults,
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
    expect(parsed.errors).toEqual([
      { line: 1, message: `Rad 1: rubrikraden ska vara "${HEADER}" (med ";Ålder" sist om filen har åldrar).` },
    ]);
    expect(parsed.rows).toHaveLength(1);
  });

  it("reads an optional Ålder column (the age that year; may be empty), never written back", () => {
    const parsed = parseResults(`${HEADER};Ålder\n1;Åsa;19:42.123;Dam;;;34\n2;Vera;20:00.000;F10;;;\n3;Bo;21:00;;;;x`);
    expect(parsed.rows).toEqual([
      { place: 1, name: "Åsa", timeMs: 1_182_123, klass: "Dam", bib: null, club: "", age: 34 },
      { place: 2, name: "Vera", timeMs: 1_200_000, klass: "F10", bib: null, club: "", age: null },
    ]);
    expect(parsed.errors).toEqual([
      { line: 4, message: 'Rad 4: Ålder måste vara ett heltal 0–120 eller tom, inte "x".' },
    ]);
    // Without the column in the header, a seventh field is an error; without a header, seven fields are read.
    expect(parseResults(`${HEADER}\n1;Åsa;19:42.123;Dam;;;34`).errors[0]?.message).toMatch(/raden har 7 fält/);
    expect(parseResults("1;Åsa;19:42.123;Dam;;;34").rows[0]?.age).toBe(34);
    expect(serializeResults(parsed.rows)).not.toContain("34");
  });

  it("never throws on arbitrary text", () => {
    for (const text of ["", ";;;;;", "\n\n\n", "\uFEFF", ";", "a;b", "Placering", "1;a;1:00;b;c;d;e;f;g", "\u0000"]) {
      expect(() => parseResults(text)).not.toThrow();
    }
    expect(parseResults(";;;;;").errors).toHaveLength(1);
  });
});

describe("published results (child-safe publishing, issue 28)", () => {
  const stored: ResultRow[] = [
    { place: 1, name: "Alva Ek", timeMs: 180_000, klass: "F10", bib: 3, club: "", age: null },
    { place: 2, name: "Ada Berg", timeMs: 190_000, klass: "Dam", bib: 4, club: "IK Ek", age: 34 },
    { place: 3, name: "Vera Ek", timeMs: 195_000, klass: "", bib: 5, club: "", age: 9 },
    { place: 4, name: "Bo Al", timeMs: 200_000, klass: "Herr", bib: null, club: "", age: null },
  ];

  it("is the stored list without ages when the setting is off", () => {
    const off = publishedResults(stored, publishingRules({ childSafePublishing: false }));
    expect(off.map((r) => [r.place, r.name])).toEqual([
      [1, "Alva Ek"],
      [2, "Ada Berg"],
      [3, "Vera Ek"],
      [4, "Bo Al"],
    ]);
    expect(off.some((r) => "age" in r)).toBe(false);
  });

  it("withholds 11 and under (by the stored age) when on: the rest placed among themselves, then 'Fullföljt'", () => {
    // The import stores a line's age from its class when the file gives none (results-db.ts): F10 → 10.
    const withClassAges = stored.map((r) => (r.name === "Alva Ek" ? { ...r, age: 10 } : r));
    const on = publishedResults(withClassAges, publishingRules({ childSafePublishing: true }));
    expect(on).toEqual([
      { place: 1, name: "Ada Berg", timeMs: 190_000, klass: "Dam", bib: 4, club: "IK Ek" },
      { place: 2, name: "Bo Al", timeMs: 200_000, klass: "Herr", bib: null, club: "" },
      { place: null, name: "Alva Ek", timeMs: null, klass: "F10", bib: 3, club: "", withheld: true },
      { place: null, name: "Vera Ek", timeMs: null, klass: "", bib: 5, club: "", withheld: true },
    ]);
    const text = serializeResults(on);
    expect(text).toContain("\n;Alva Ek;Fullföljt;F10;3;\n");
    expect(text).not.toContain("03:00.000");
    expect(parsePublishedResults(text)).toEqual({ rows: on, errors: [] });
    // The import never takes a withheld line: a file to import needs times.
    expect(parseResults(text).errors.map((e) => e.line)).toEqual([4, 5]);
  });
});

import { DatabaseSync } from "node:sqlite";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordsSql, resultsSql, ROWS_PER_INSERT } from "../../scripts/lib/import-sql.mjs";
import { parseRecords, serializeRecords, type CourseRecordRow } from "../../src/shared/records-file";
import { parseResults, serializeResults, type ResultRow } from "../../src/shared/results-file";

describe("the course records file", () => {
  const records: CourseRecordRow[] = [
    { distance: "0.8", name: "Åsa Öberg", timeMs: 151_200, year: 2012 },
    { distance: "5.6", name: "Per Ek", timeMs: 1_101_050, year: 2019 },
  ];

  it("reads what it writes", () => {
    const text = serializeRecords(records);
    expect(text.split("\n")[0]).toBe("Distans;Namn;År;Tid");
    expect(text.split("\n")[1]).toBe("0.8;Åsa Öberg;2012;02:31.200");
    expect(parseRecords(text)).toEqual({ rows: records, errors: [] });
  });

  it("accepts a Swedish spreadsheet's spellings: BOM, CRLF, '5,6 km', '2,8K', a decimal comma, no header", () => {
    const text = "\uFEFF5,6 km;Per Ek;2019;18:21,05\r\n2,8K ; Lisa Berg ;2015; 10:02 \r\n\r\n";
    expect(parseRecords(text)).toEqual({
      rows: [
        { distance: "5.6", name: "Per Ek", timeMs: 1_101_050, year: 2019 },
        { distance: "2.8", name: "Lisa Berg", timeMs: 602_000, year: 2015 },
      ],
      errors: [],
    });
  });

  it("names every bad line by number and reason", () => {
    const text = [
      "Distans;Namn;Tid", // 1: wrong header
      "0.8;Anna;2010;02:40.000", // 2: fine
      "0.8;Anna igen;2011;02:39.000", // 3: second record for 0.8
      "3.0;Fel;2012;10:00.000", // 4: not a distance
      "1.6;;2012;05:00.000", // 5: no name
      "1.6;Bo;12;05:00.000", // 6: year
      "1.6;Bo;2012;fem minuter", // 7: time
      "1.6;Bo;2012", // 8: field count
    ].join("\n");
    const { rows, errors } = parseRecords(text);
    expect(rows).toEqual([{ distance: "0.8", name: "Anna", timeMs: 160_000, year: 2010 }]);
    expect(errors).toEqual([
      { line: 1, message: 'Rad 1: rubrikraden ska vara "Distans;Namn;År;Tid".' },
      { line: 3, message: "Rad 3: distansen 0.8 finns redan på rad 2." },
      { line: 4, message: 'Rad 4: Distans ska vara 0.8, 1.6, 2.8 eller 5.6, inte "3.0".' },
      { line: 5, message: "Rad 5: Namn saknas." },
      { line: 6, message: 'Rad 6: År ska vara ett årtal med fyra siffror, inte "12".' },
      { line: 7, message: 'Rad 7: Tid ska skrivas mm:ss.fff (till exempel 18:02.500), inte "fem minuter".' },
      { line: 8, message: "Rad 8: raden har 3 fält men ska ha 4, avskilda med semikolon." },
    ]);
  });
});

/** The command's SQL, run on SQLite with the real migrations: what it stores is what the file said. */
describe("the import command's SQL (scripts/lib/import-sql.mjs)", () => {
  function migratedDb() {
    const db = new DatabaseSync(":memory:");
    const dir = path.join(import.meta.dirname, "../../migrations");
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort()) {
      db.exec(readFileSync(path.join(dir, file), "utf8").replaceAll("--> statement-breakpoint", ""));
    }
    return db;
  }

  const rows: ResultRow[] = Array.from({ length: ROWS_PER_INSERT * 2 + 7 }, (_, i) => ({
    place: i + 1,
    name: i === 3 ? "Anne-Marie O'Brien -- Ek" : `Löpare ${i + 1}`,
    timeMs: 1_000_000 + i * 1_000,
    klass: i % 2 ? "Dam" : "",
    bib: i % 5 ? 600 + i : null,
    club: i === 4 ? "IK 'Snabba'" : "",
  }));

  it("replaces one year's distance with exactly the file's rows, quotes and all", () => {
    const db = migratedDb();
    db.exec(resultsSql(2019, "5.6", rows.slice(0, 3)));
    db.exec(resultsSql(2019, "2.8", rows.slice(0, 2)));
    db.exec(resultsSql(2019, "5.6", rows));
    const stored = db
      .prepare(
        "SELECT place, name, time_ms AS timeMs, klass, bib, club FROM results WHERE year = 2019 AND distance = '5.6' ORDER BY place",
      )
      .all();
    expect(stored).toEqual(rows.map((r) => ({ ...r })));
    expect(db.prepare("SELECT COUNT(*) AS n FROM results WHERE distance = '2.8'").get()).toEqual({ n: 2 });
    // The text a visitor gets back is the file that went in.
    expect(parseResults(serializeResults(rows)).rows).toEqual(rows);
  });

  it("replaces every course record", () => {
    const db = migratedDb();
    db.exec(recordsSql([{ distance: "0.8", name: "A", timeMs: 1, year: 2000 }]));
    db.exec(recordsSql([{ distance: "5.6", name: "Per O'Ek", timeMs: 1_100_000, year: 2019 }]));
    expect(db.prepare("SELECT * FROM course_records").all()).toEqual([
      { distance: "5.6", name: "Per O'Ek", time_ms: 1_100_000, year: 2019 },
    ]);
  });

  it("refuses a value that is not an integer where one belongs", () => {
    expect(() => resultsSql(2019, "5.6", [{ ...rows[0]!, place: 1.5 }])).toThrow(RangeError);
  });
});

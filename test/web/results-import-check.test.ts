/** The import screen's check before sending: the same line rules as the Worker, plus year and distance. */
import { describe, expect, it } from "vitest";
import {
  checkImport,
  guessFromFileName,
  lineErrorsFromServer,
  TOO_LARGE,
} from "../../src/web/features/admin/results-import/import-check";

const GOOD = "Placering;Namn;Resultat;Klass;Startnummer;Förening\n1;Anna Ek;19:58.001;Dam;601;\n";

describe("checkImport", () => {
  it("makes the request when every line, the year and the distance are right", () => {
    expect(checkImport({ kind: "results", year: "2019", distance: "5.6", text: GOOD }, 2025)).toEqual({
      request: { kind: "results", year: 2019, distance: "5.6", text: GOOD },
      lineErrors: [],
      fieldErrors: {},
      rows: 1,
    });
  });

  it("lists every bad line and sends nothing", () => {
    const check = checkImport(
      { kind: "results", year: "2019", distance: "5.6", text: `${GOOD}2;;20:00.000;;;\n3;Bo;20:0;;;\n` },
      2025,
    );
    expect(check.request).toBeNull();
    expect(check.lineErrors.map((e) => e.line)).toEqual([3, 4]);
    expect(check.lineErrors[0]!.message).toBe("Rad 3: Namn saknas.");
  });

  it("asks for a year up to this one, a distance and some rows", () => {
    expect(checkImport({ kind: "results", year: "2026", distance: "", text: "" }, 2025).fieldErrors).toEqual({
      year: "Ange ett årtal mellan 1900 och 2025.",
      distance: "Välj en distans.",
      text: "Välj en fil eller klistra in raderna.",
    });
  });

  it("refuses a file larger than the Worker takes, pointing to the command", () => {
    const line = "1;Anna Ek;19:58.001;Dam;601;Idrottsklubben Ekbacken\n";
    const check = checkImport({ kind: "results", year: "2019", distance: "5.6", text: line.repeat(1_500) }, 2025);
    expect(check.request).toBeNull();
    expect(check.rows).toBe(1_500);
    expect(check.fieldErrors.text).toBe(TOO_LARGE);
    expect(TOO_LARGE).toContain("node scripts/import-results.mjs");
  });

  it("checks a records file with the records rules and needs no year", () => {
    const check = checkImport({ kind: "records", year: "", distance: "", text: "5.6;Per Ek;2019;18:21.050\n" }, 2025);
    expect(check.request).toEqual({ kind: "records", text: "5.6;Per Ek;2019;18:21.050\n" });
    expect(
      checkImport({ kind: "records", year: "", distance: "", text: "5.6;Per Ek;19;18:21\n" }, 2025).lineErrors,
    ).toHaveLength(1);
  });
});

describe("guessFromFileName and lineErrorsFromServer", () => {
  it("reads year and distance from resultat-ÅÅÅÅ-DD.csv, and a records file by its name", () => {
    expect(guessFromFileName("resultat-2019-56.csv")).toEqual({ kind: "results", year: "2019", distance: "5.6" });
    expect(guessFromFileName("Resultat-2021-08.CSV")).toEqual({ kind: "results", year: "2021", distance: "0.8" });
    expect(guessFromFileName("banrekord.csv")).toEqual({ kind: "records" });
    expect(guessFromFileName("lopp.csv")).toEqual({});
  });

  it("turns the server's errors (keyed by line) into a list in line order", () => {
    expect(lineErrorsFromServer({ "12": "Rad 12: x", "3": "Rad 3: y", year: "z" })).toEqual([
      { line: 3, message: "Rad 3: y" },
      { line: 12, message: "Rad 12: x" },
    ]);
    expect(lineErrorsFromServer(undefined)).toEqual([]);
  });
});

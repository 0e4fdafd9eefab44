import { describe, expect, it } from "vitest";
import { csvCell, csvDocument, csvLine, isFormulaLike, readCsvCell, splitCsvLine } from "../../src/shared/csv";

describe("csvCell: OWASP CSV injection", () => {
  it("writes a cell beginning with =, +, -, @, tab or CR as quoted text with a ' in front", () => {
    expect(csvCell("=SUM(A1:A9)", ",")).toBe(`"'=SUM(A1:A9)"`);
    expect(csvCell("+46701234567", ";")).toBe(`"'+46701234567"`);
    expect(csvCell("-0:05", ";")).toBe(`"'-0:05"`);
    expect(csvCell("@SUM(1)", ",")).toBe(`"'@SUM(1)"`);
    expect(csvCell("\t=1+1", ",")).toBe(`"'\t=1+1"`);
    expect(csvCell("\r=1+1", ",")).toBe(`"'\r=1+1"`);
    // Full-width forms, which spreadsheets in some locales also read as formulas.
    expect(csvCell("＝1+1", ",")).toBe(`"'＝1+1"`);
    // A '"' inside is doubled, so the cell cannot be closed early.
    expect(csvCell('=HYPERLINK("http://x.se","klicka")', ",")).toBe(`"'=HYPERLINK(""http://x.se"",""klicka"")"`);
  });

  it("applies to numbers too: a negative number is text", () => {
    expect(csvCell(-5, ",")).toBe(`"'-5"`);
    expect(csvCell(5, ",")).toBe("5");
    expect(csvCell(0, ";")).toBe("0");
  });

  it("leaves ordinary text alone, the characters anywhere but first included", () => {
    for (const text of ["Åsa Öberg", "Lill-Ärla", "a=b", "1+1", "5.6", "info@example.se", "19:42.123", "'citat'"]) {
      expect(csvCell(text, ",")).toBe(text);
      expect(isFormulaLike(text)).toBe(false);
    }
    expect(csvCell(null, ",")).toBe("");
    expect(csvCell(undefined, ";")).toBe("");
    expect(csvCell("", ";")).toBe("");
  });

  it("quotes a cell holding the separator, a quote or a line break (RFC 4180), and only then", () => {
    expect(csvCell("Berg, d.y.", ",")).toBe(`"Berg, d.y."`);
    expect(csvCell("Berg, d.y.", ";")).toBe("Berg, d.y.");
    expect(csvCell("a;b", ";")).toBe(`"a;b"`);
    expect(csvCell('Anna "Snabben" Berg', ",")).toBe(`"Anna ""Snabben"" Berg"`);
    expect(csvCell('"=1+1"', ";")).toBe(`"""=1+1"""`);
    expect(csvCell("rad ett\nrad två", ",")).toBe(`"rad ett\nrad två"`);
  });
});

describe("csvLine and csvDocument", () => {
  it("joins cells with the separator", () => {
    expect(csvLine([1, "Åsa", null, "-", "x,y"], ",")).toBe(`1,Åsa,,"'-","x,y"`);
  });

  it("writes the header and rows with the chosen line end, and a BOM when asked", () => {
    expect(csvDocument(["A", "B"], [[1, "=x"]], { separator: ";", lineEnd: "\r\n", bom: true })).toBe(
      `\uFEFFA;B\r\n1;"'=x"\r\n`,
    );
    expect(csvDocument(["A", "B"], [], { separator: ",", lineEnd: "\n", bom: false })).toBe("A,B\n");
  });
});

describe("reading back", () => {
  it("splits a line, honouring quotes", () => {
    expect(splitCsvLine(`1;"a;b";"say ""hi""";;x`, ";")).toEqual(["1", "a;b", 'say "hi"', "", "x"]);
    expect(splitCsvLine("a,b,", ",")).toEqual(["a", "b", ""]);
    expect(splitCsvLine("", ",")).toEqual([""]);
    // A quote inside an unquoted field is an ordinary character.
    expect(splitCsvLine('Anna "S" Berg;2', ";")).toEqual(['Anna "S" Berg', "2"]);
    // Spaces before an opening quote; text after a closing quote is kept.
    expect(splitCsvLine(` "a;b" ;c`, ";")).toEqual(["a;b ", "c"]);
    // An unterminated quote runs to the end of the line.
    expect(splitCsvLine(`"a;b`, ";")).toEqual(["a;b"]);
  });

  it("takes off only the ' that marked a formula-like cell", () => {
    expect(readCsvCell("'=1+1")).toBe("=1+1");
    expect(readCsvCell("'-")).toBe("-");
    expect(readCsvCell("'citat'")).toBe("'citat'");
    expect(readCsvCell("Åsa")).toBe("Åsa");
  });

  it("reads every written cell back to its value", () => {
    const values = [
      "=1+1",
      "-",
      "+46 70",
      "@lag",
      '"=cmd"',
      'Anna "S" Berg',
      "a;b",
      "a,b",
      "Åsa Öberg",
      "'citat'",
      "",
      "\t=1",
    ];
    for (const separator of [",", ";"] as const) {
      const line = csvLine(values, separator);
      expect(splitCsvLine(line, separator).map(readCsvCell)).toEqual(values);
    }
  });
});

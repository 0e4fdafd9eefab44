import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PUBLISH_ALL } from "../../../src/shared/child-safe";
import { SEASON } from "../../../src/shared/season";
import { parseResults, resultsFileName, type ResultRow } from "../../../src/shared/results-file";
import { database } from "../../../src/worker/db/client";
import { listGalleryUrls, listGalleryYears, replaceGallery } from "../../../src/worker/gallery/gallery-db";
import {
  RESULT_ROWS_PER_INSERT,
  listCourseRecords,
  listResults,
  replaceResults,
  setCourseRecord,
} from "../../../src/worker/results/results-db";

const db = () => database(env.DB);
const get = (path: string) => exports.default.fetch(`http://localhost${path}`);

function runners(n: number, baseMs: number, prefix = "Löpare"): ResultRow[] {
  return Array.from({ length: n }, (_, i) => ({
    place: i + 1,
    name: `${prefix} ${i + 1} Åkesson`,
    timeMs: baseMs + i * 1_234,
    klass: i % 2 ? "Dam" : "Herr",
    bib: i % 5 === 0 ? null : 600 + i,
    club: i % 3 ? "" : "IK Ekbacken",
    age: null,
  }));
}

describe("results data", () => {
  it("replaces a year's results in chunks under D1's parameter limit, atomically", async () => {
    // More rows than one insert may carry, so the batch really is chunked.
    const many = runners(RESULT_ROWS_PER_INSERT * 4 + 3, 19 * 60_000);
    await replaceResults(db(), 2031, "5.6", many);
    expect(await listResults(db(), 2031, "5.6")).toEqual(many);

    const fewer = runners(3, 20 * 60_000, "Ny");
    await replaceResults(db(), 2031, "5.6", fewer);
    expect(await listResults(db(), 2031, "5.6")).toEqual(fewer);

    // A bad row (place 0 breaks the table's CHECK) rolls the whole batch back: the old list stays.
    await expect(
      replaceResults(db(), 2031, "5.6", [...many.slice(0, 20), { ...many[20]!, place: 0 }]),
    ).rejects.toThrow();
    expect(await listResults(db(), 2031, "5.6")).toEqual(fewer);
  });

  it("keeps other years and distances when replacing one", async () => {
    await replaceResults(db(), 2032, "0.8", runners(2, 3 * 60_000));
    await replaceResults(db(), 2032, "1.6", runners(4, 6 * 60_000));
    await replaceResults(db(), 2032, "0.8", []);
    expect(await listResults(db(), 2032, "0.8")).toEqual([]);
    expect(await listResults(db(), 2032, "1.6")).toHaveLength(4);
  });
});

describe("GET /resultat/:csvfile", () => {
  it("serves the semicolon file the results page reads", async () => {
    const rows = runners(25, 21 * 60_000);
    await replaceResults(db(), 2023, "5.6", rows);
    const res = await get(`/resultat/${resultsFileName(2023, "5.6")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await res.text();
    expect(text.split("\n")[0]).toBe("Placering;Namn;Resultat;Klass;Startnummer;Förening");
    expect(text.split("\n")[1]).toBe("1;Löpare 1 Åkesson;21:00.000;Herr;;IK Ekbacken");
    expect(parseResults(text)).toEqual({ rows: rows.map(({ age: _age, ...r }) => r), errors: [] });
  });

  it("answers 404 JSON for malformed names and for files with no results", async () => {
    await replaceResults(db(), 2023, "2.8", runners(3, 12 * 60_000));
    for (const name of [
      "resultat-2023-57.csv",
      "resultat-1999-28.csv",
      "resultat-2023-28.txt",
      "nonsense",
      "resultat-2023-28.csv%00",
    ]) {
      const res = await get(`/resultat/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.json()).toEqual({ error: "Resultatfilen finns inte" });
    }
    expect((await get("/resultat/resultat-2023-28.csv")).status).toBe(200);
  });
});

describe("GET /api/results", () => {
  it("lists result years and answers rows as JSON with mm:ss.fff times", async () => {
    await replaceResults(db(), 2040, "1.6", runners(2, 5 * 60_000 + 30_500));
    const sets = (await (await get("/api/results")).json()) as { year: number; distance: string; file: string }[];
    expect(sets).toContainEqual({ year: 2040, distance: "1.6", runners: 2, file: "resultat-2040-16.csv" });
    expect(sets[0]!.year).toBeGreaterThanOrEqual(sets[sets.length - 1]!.year);

    const res = await get("/api/results/2040/1.6");
    expect(res.status).toBe(200);
    const rows = (await res.json()) as { name: string; time: string; timeMs: number; bib: number | null }[];
    expect(rows.map((r) => r.time)).toEqual(["05:30.500", "05:31.734"]);
    expect(rows[0]).toMatchObject({ place: 1, name: "Löpare 1 Åkesson", timeMs: 330_500, bib: null });
  });

  it("answers 400 for a bad year or distance and 404 for an empty one", async () => {
    for (const path of [
      "/api/results/20x0/1.6",
      "/api/results/2040/1.7",
      "/api/results/99/5.6",
      "/api/results/2040/56",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: string };
      expect(body.error).toMatch(/Ange ett årtal med fyra siffror|Välj en distans/);
    }
    const res = await get("/api/results/2041/0.8");
    expect(res.status).toBe(404);
    expect(await res.json()).toHaveProperty("error");
  });
});

describe("GET /api/records", () => {
  it("gives the fastest of the stored record and the best imported result per distance", async () => {
    // Storage is per test file, so this file's earlier imports count too: compare against the real minimum.
    await replaceResults(db(), 2050, "0.8", [
      { place: 1, name: "Ebba Lindqvist", timeMs: 2 * 60_000 + 10_000, klass: "", bib: 3, club: "" },
    ]);
    await setCourseRecord(db(), {
      distance: "0.8",
      name: "Gammal Rekordsson",
      timeMs: 2 * 60_000 + 20_000,
      year: 2009,
    });
    await setCourseRecord(db(), { distance: "5.6", name: "Snabb Rekordsdotter", timeMs: 60_000, year: 2010 });

    const res = await get("/api/records");
    expect(res.status).toBe(200);
    const records = (await res.json()) as { distance: string; name: string; time: string; year: number }[];
    expect(records.map((r) => r.distance)).toEqual([...new Set(records.map((r) => r.distance))].sort());
    expect(records.find((r) => r.distance === "0.8")).toEqual({
      distance: "0.8",
      name: "Ebba Lindqvist",
      time: "02:10.000",
      timeMs: 130_000,
      year: 2050,
    });
    expect(records.find((r) => r.distance === "5.6")).toMatchObject({ name: "Snabb Rekordsdotter", time: "01:00.000" });
    expect(await listCourseRecords(db(), PUBLISH_ALL)).toHaveLength(records.length);
  });
});

describe("child-safe publishing of imported results (issue 28, item 5)", () => {
  const lines: ResultRow[] = [
    { place: 1, name: "Alva Barnsson", timeMs: 100_000, klass: "F10", bib: 3, club: "", age: null },
    { place: 2, name: "Ada Vuxensson", timeMs: 180_000, klass: "Dam", bib: 4, club: "IK Ek", age: 34 },
    { place: 3, name: "Vera Barnsson", timeMs: 185_000, klass: "", bib: 5, club: "", age: 11 },
    { place: 4, name: "Bo Tolvsson", timeMs: 190_000, klass: "Herr", bib: null, club: "", age: 12 },
  ];

  async function withChildSafe<T>(on: boolean, run: () => Promise<T>): Promise<T> {
    const was = SEASON.childSafePublishing;
    SEASON.childSafePublishing = on;
    try {
      return await run();
    } finally {
      SEASON.childSafePublishing = was;
    }
  }

  it("stores each line's age from the file or its age class, and publishes every time while the setting is off", async () => {
    await replaceResults(db(), 1961, "0.8", lines);
    expect((await listResults(db(), 1961, "0.8")).map((r) => r.age)).toEqual([10, 34, 11, 12]);
    const text = await (await get(`/resultat/${resultsFileName(1961, "0.8")}`)).text();
    expect(text).toContain("1;Alva Barnsson;01:40.000;F10;3;");
    expect(text).not.toContain("Fullföljt");
  });

  it("with the setting on: no time or placing of 11 and under in the file, the JSON or the records", async () => {
    await replaceResults(db(), 1962, "0.8", lines);
    await withChildSafe(true, async () => {
      const text = await (await get(`/resultat/${resultsFileName(1962, "0.8")}`)).text();
      expect(text.replace(/^\uFEFF/, "").split("\n")).toEqual([
        "Placering;Namn;Resultat;Klass;Startnummer;Förening",
        "1;Ada Vuxensson;03:00.000;Dam;4;IK Ek",
        "2;Bo Tolvsson;03:10.000;Herr;;",
        ";Alva Barnsson;Fullföljt;F10;3;",
        ";Vera Barnsson;Fullföljt;;5;",
        "",
      ]);
      const json = (await (await get("/api/results/1962/0.8")).json()) as Record<string, unknown>[];
      expect(json.map((r) => [r.place, r.name, r.time])).toEqual([
        [1, "Ada Vuxensson", "03:00.000"],
        [2, "Bo Tolvsson", "03:10.000"],
        [null, "Alva Barnsson", "Fullföljt"],
        [null, "Vera Barnsson", "Fullföljt"],
      ]);
      expect(JSON.stringify(json)).not.toMatch(/100000|185000|"age"/);
      // Alva's 1:40 is the fastest 0.8 km ever stored here, and nobody's record in public while she is withheld.
      const records = (await (await get("/api/records")).json()) as { distance: string; name: string }[];
      expect(records.find((r) => r.distance === "0.8")?.name).not.toBe("Alva Barnsson");
    });
    const records = (await (await get("/api/records")).json()) as { distance: string; name: string }[];
    expect(records.find((r) => r.distance === "0.8")?.name).toBe("Alva Barnsson");
  });
});

describe("GET /img_{year}.txt", () => {
  it("serves the year's image URLs one per line, in gallery order", async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `/demo-galleri/2019/${String(i + 1).padStart(2, "0")}.svg`);
    await replaceGallery(db(), 2019, urls);
    const res = await get("/img_2019.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect((await res.text()).split("\n")).toEqual(urls);

    await replaceGallery(db(), 2019, urls.slice(0, 2));
    expect(await listGalleryUrls(db(), 2019)).toEqual(urls.slice(0, 2));
    expect(await listGalleryYears(db())).toContain(2019);

    const years = (await (await get("/api/gallery")).json()) as { years: number[] };
    expect(years.years).toContain(2019);
  });

  it("answers 404 for a year without a gallery and for malformed names", async () => {
    for (const path of ["/img_1987.txt", "/img_19.txt", "/img_2019.txt.bak", "/img_abcd.txt", "/img_20199.txt"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toHaveProperty("error");
    }
  });
});

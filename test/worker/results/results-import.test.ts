/**
 * The organiser's results import, POST /admin/api/results/import, through the real Worker and D1: every bad line
 * named with its number and reason, nothing stored from a file with a bad line, a re-import of the same year and
 * distance replaces it (and nothing else), the records file, dry runs, and who may call it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PUBLISH_ALL } from "../../../src/shared/child-safe";
import { serializeRecords } from "../../../src/shared/records-file";
import { RESULTS_HEADER, serializeResults, type ResultRow } from "../../../src/shared/results-file";
import { database } from "../../../src/worker/db/client";
import { listCourseRecords, listResults, replaceResults } from "../../../src/worker/results/results-db";
import { call, get, loginAdmin, post, storedState } from "../helpers";

const db = () => database(env.DB);
const IMPORT = "/admin/api/results/import";
const HEADER = RESULTS_HEADER.join(";");

function runners(n: number, baseMs: number, prefix = "Löpare"): ResultRow[] {
  return Array.from({ length: n }, (_, i) => ({
    place: i + 1,
    name: `${prefix} ${i + 1} Öberg`,
    timeMs: baseMs + i * 2_345,
    klass: i % 2 ? "Dam" : "Herr",
    bib: i % 4 === 0 ? null : 600 + i,
    club: i % 3 ? "" : "IK Ekbacken",
  }));
}

interface ErrorBody {
  error: string;
  errors?: Record<string, string>;
}

/** The stored lines as the file gave them (no file here has an age or an age class: their age is null). */
async function storedRows(year: number, distance: "0.8" | "1.6" | "2.8" | "5.6") {
  const rows = await listResults(database(env.DB), year, distance);
  expect(rows.every((r) => r.age === null)).toBe(true);
  return rows.map(({ age: _age, ...row }) => row);
}

describe("POST /admin/api/results/import: who may call it", () => {
  it("answers 401 without an admin session and 403 from another site, and stores nothing", async () => {
    const before = await storedState();
    const body = { kind: "results", year: 2015, distance: "5.6", text: serializeResults(runners(3, 1_200_000)) };
    expect((await post(IMPORT, body)).status).toBe(401);
    const admin = await loginAdmin();
    const crossSite = await call(IMPORT, {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify(body),
    });
    expect(crossSite.status).toBe(403);
    const after = await storedState();
    // The admin session row is the only change (signing in); no results.
    expect(after.results).toBe(before.results);
  });
});

describe("POST /admin/api/results/import: a results file", () => {
  it("stores a good file in finishing order and answers what it stored", async () => {
    const jar = await loginAdmin();
    const rows = runners(120, 19 * 60_000);
    const res = await post(
      IMPORT,
      { kind: "results", year: 2016, distance: "5.6", text: serializeResults(rows) },
      { jar },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: "results",
      year: 2016,
      distance: "5.6",
      rows: 120,
      replaced: 0,
      stored: true,
    });
    expect(await storedRows(2016, "5.6")).toEqual(rows);
    // The public file now serves it.
    const csv = await get("/resultat/resultat-2016-56.csv");
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\n")).toHaveLength(122);
  });

  it("refuses a file with bad lines: 422 naming every bad line by number and reason, and nothing is stored", async () => {
    const jar = await loginAdmin();
    const old = runners(4, 10 * 60_000, "Gammal");
    await replaceResults(db(), 2017, "2.8", old);

    const good = serializeResults(runners(30, 11 * 60_000, "Ny"))
      .trimEnd()
      .split("\n");
    // Line numbers in the file (the header is line 1): 5, 12, 20 and 31 are broken in four different ways.
    good[4] = "4;Anna Ek;12:3x.000;Dam;604;";
    good[11] = ";Bo Ek;12:00.000;Herr;611;";
    good[19] = "19;;12:40.000;;;";
    good[30] = "30;Cecilia Ek;13:00.000;Dam;630";
    const res = await post(IMPORT, { kind: "results", year: 2017, distance: "2.8", text: good.join("\n") }, { jar });
    expect(res.status).toBe(422);
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toBe("Filen har 4 felaktiga rader. Inget har sparats.");
    expect(Object.keys(body.errors!)).toEqual(["5", "12", "20", "31"]);
    expect(body.errors!["5"]).toBe('Rad 5: Resultat ska skrivas mm:ss.fff (till exempel 23:45.120), inte "12:3x.000".');
    expect(body.errors!["12"]).toMatch(/^Rad 12: Placering måste vara ett heltal/);
    expect(body.errors!["20"]).toBe("Rad 20: Namn saknas.");
    expect(body.errors!["31"]).toBe("Rad 31: raden har 5 fält men ska ha 6, avskilda med semikolon.");

    // The year's earlier results are untouched: nothing of the new file was stored, not even its good lines.
    expect(await storedRows(2017, "2.8")).toEqual(old);
  });

  it("names a wrong header line", async () => {
    const jar = await loginAdmin();
    const text = "Placering;Namn;Tid\n1;Anna Ek;12:00.000;;;\n";
    const res = await post(IMPORT, { kind: "results", year: 2017, distance: "0.8", text }, { jar });
    expect(res.status).toBe(422);
    const body = (await res.json()) as ErrorBody;
    expect(body.errors).toEqual({
      "1": `Rad 1: rubrikraden ska vara "${RESULTS_HEADER.join(";")}" (med ";Ålder" sist om filen har åldrar).`,
    });
    expect(await storedRows(2017, "0.8")).toEqual([]);
  });

  it("a re-import of the same year and distance replaces it, and leaves other distances and years alone", async () => {
    const jar = await loginAdmin();
    const first = runners(40, 20 * 60_000, "Första");
    const second = runners(7, 21 * 60_000, "Andra");
    await replaceResults(db(), 2018, "1.6", runners(5, 6 * 60_000, "Kort"));
    await replaceResults(db(), 2019, "5.6", runners(6, 19 * 60_000, "Annat år"));

    const one = await post(
      IMPORT,
      { kind: "results", year: 2018, distance: "5.6", text: serializeResults(first) },
      { jar },
    );
    expect(await one.json()).toMatchObject({ rows: 40, replaced: 0 });
    const two = await post(
      IMPORT,
      // As a spreadsheet saves it: BOM, CRLF, a year as text.
      {
        kind: "results",
        year: "2018",
        distance: "5.6",
        text: `\uFEFF${serializeResults(second).replaceAll("\n", "\r\n")}`,
      },
      { jar },
    );
    expect(two.status).toBe(200);
    expect(await two.json()).toMatchObject({ year: 2018, rows: 7, replaced: 40, stored: true });

    expect(await storedRows(2018, "5.6")).toEqual(second);
    expect(await storedRows(2018, "1.6")).toHaveLength(5);
    expect(await storedRows(2019, "5.6")).toHaveLength(6);
    const audit = await env.DB.prepare(
      "SELECT actor, action, subject, detail FROM audit_log WHERE action = 'results.import' AND subject = '2018/5.6' ORDER BY id",
    ).all<{ actor: string; detail: string }>();
    expect(audit.results.map((r) => [r.actor, JSON.parse(r.detail)])).toEqual([
      ["arrangor@example.se", { rows: 40, replaced: 0 }],
      ["arrangor@example.se", { rows: 7, replaced: 40 }],
    ]);
  });

  it("checks without storing on a dry run", async () => {
    const jar = await loginAdmin();
    const res = await post(
      IMPORT,
      { kind: "results", year: 2014, distance: "0.8", text: serializeResults(runners(9, 3 * 60_000)), dryRun: true },
      { jar },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: "results",
      year: 2014,
      distance: "0.8",
      rows: 9,
      replaced: 0,
      stored: false,
    });
    expect(await storedRows(2014, "0.8")).toEqual([]);
  });

  it("answers 400 with a Swedish message for a bad year, distance or kind, and 422 for an empty file", async () => {
    const jar = await loginAdmin();
    const text = serializeResults(runners(2, 60_000));
    const cases: [unknown, RegExp][] = [
      [{ kind: "results", year: 1899, distance: "5.6", text }, /årtal med fyra siffror/],
      [{ kind: "results", year: 2209, distance: "5.6", text }, /årtal med fyra siffror/],
      [{ kind: "results", year: "20x9", distance: "5.6", text }, /årtal med fyra siffror/],
      [{ kind: "results", year: 2019, distance: "5.7", text }, /Välj en distans/],
      [{ kind: "results", year: 2019, text }, /Välj en distans/],
      [{ kind: "results", year: 2019, distance: "5.6" }, /Filens innehåll saknas/],
      [{ kind: "tider", text }, /Välj vad som importeras/],
      [{ text }, /Välj vad som importeras/],
    ];
    for (const [body, message] of cases) {
      const res = await post(IMPORT, body, { jar });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as ErrorBody).error, JSON.stringify(body)).toMatch(message);
    }
    const empty = await post(IMPORT, { kind: "results", year: 2019, distance: "5.6", text: `${HEADER}\n\n` }, { jar });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as ErrorBody).error).toBe("Filen innehåller inga rader att importera.");
  });
});

describe("POST /admin/api/results/import: the course records file", () => {
  it("refuses a bad line by number, then replaces every stored record with a good file", async () => {
    const jar = await loginAdmin();
    const good = serializeRecords([
      { distance: "0.8", name: "Rekord Åsa", timeMs: 150_000, year: 2008 },
      { distance: "5.6", name: "Rekord Per", timeMs: 61_000, year: 2009 },
    ]);
    const first = await post(IMPORT, { kind: "records", text: good }, { jar });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ kind: "records", rows: 2, stored: true });
    const stored = await env.DB.prepare(
      "SELECT distance, name, time_ms, year FROM course_records ORDER BY distance",
    ).all();
    expect(stored.results).toEqual([
      { distance: "0.8", name: "Rekord Åsa", time_ms: 150_000, year: 2008 },
      { distance: "5.6", name: "Rekord Per", time_ms: 61_000, year: 2009 },
    ]);
    // 61 s on 5.6 km is faster than any imported result: the public list shows it.
    expect((await listCourseRecords(db(), PUBLISH_ALL)).find((r) => r.distance === "5.6")).toMatchObject({
      name: "Rekord Per",
    });

    const bad =
      "Distans;Namn;År;Tid\n5,6 km;Ny Rekord;2010;01:00.000\n5.6;Dubbel;2011;01:00.500\n3.0;Fel;2012;10:00.000\n";
    const refused = await post(IMPORT, { kind: "records", text: bad }, { jar });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as ErrorBody).errors).toEqual({
      "3": "Rad 3: distansen 5.6 finns redan på rad 2.",
      "4": 'Rad 4: Distans ska vara 0.8, 1.6, 2.8 eller 5.6, inte "3.0".',
    });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM course_records").first<{ n: number }>())!.n).toBe(2);

    const replacing = await post(IMPORT, { kind: "records", text: "1,6K;Ny Rekordsdotter;2012;5:01,5\n" }, { jar });
    expect(await replacing.json()).toMatchObject({ rows: 1, replaced: 2, stored: true });
    const now = await env.DB.prepare("SELECT distance, name, time_ms FROM course_records").all();
    expect(now.results).toEqual([{ distance: "1.6", name: "Ny Rekordsdotter", time_ms: 301_500 }]);
  });
});

/**
 * The admin exports (RaceSplitter list, registrations spreadsheet) and the CSV-injection rule in every file the
 * site hands out, the public results files included. Fixture: the current season's registrations in every payment
 * state, a box-office sale, and a paid registration of last season that must not appear.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { parseResults, resultsFileName } from "../../../src/shared/results-file";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { replaceResults } from "../../../src/worker/results/results-db";
import { get, loginAdmin, storedState, visitorJar } from "../helpers";

const YEAR = SEASON.year;
const hex = (n: number) => n.toString(16).toUpperCase().padStart(32, "0");
const ms = (iso: string) => Date.parse(iso);

const RACESPLITTER = "/admin/api/export2racesplitter";
const REGISTRATIONS = "/admin/api/export/registrations.csv";

async function insertFixture() {
  const db = env.DB;
  const reg = (id: string, season: number, email: string, payid: string | null, created: string) =>
    db
      .prepare(
        "INSERT INTO registrations (id, season, email, payid, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)",
      )
      .bind(id, season, email, payid, ms(created), ms(created));
  const runner = (
    id: string,
    registrationId: string | null,
    season: number,
    [firstname, lastname]: [string, string],
    age: number,
    distance: string,
    company = "",
    bib: number | null = null,
  ) =>
    db
      .prepare(
        `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group", bib, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Ingen', ?, 0)`,
      )
      .bind(id, registrationId, season, firstname, lastname, age, company, distance, bib);
  const pay = (
    id: string,
    registrationId: string | null,
    season: number,
    status: string,
    amount: number,
    extra: { paid?: string; kampanj?: string; origin?: string; participants?: string[] } = {},
  ) =>
    db
      .prepare(
        `INSERT INTO payments (id, registration_id, season, origin, amount, status, date_created, date_paid, kampanj, participant_ids)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id,
        registrationId,
        season,
        extra.origin ?? "registration",
        amount,
        status,
        ms("2025-08-01T10:00:00+02:00"),
        extra.paid ? ms(extra.paid) : null,
        extra.kampanj ?? null,
        JSON.stringify(extra.participants ?? []),
      );
  await db.batch([
    db.prepare("DELETE FROM refunds"),
    db.prepare("DELETE FROM participants"),
    db.prepare("UPDATE registrations SET payid = NULL"),
    db.prepare("DELETE FROM payments"),
    db.prepare("DELETE FROM registrations"),
    // Paid by Swish, a family on three distances; 100 kr of it refunded.
    reg("fam", YEAR, "asa.oberg@example.se", hex(1), "2025-06-02T09:15:00+02:00"),
    runner("fam-1", "fam", YEAR, ["Åsa", "Öberg"], 41, "5.6", "IK Ekbacken", 612),
    runner("fam-2", "fam", YEAR, ["Örjan", "Öberg"], 9, "1.6", "", 0),
    runner("fam-3", "fam", YEAR, ["Lill-Ärla", "Öberg"], 6, "0.8"),
    // Her father runs 0.8 with her without competing (issue 28 item 6): in the registrations list marked, never in
    // the RaceSplitter start list.
    runner("fam-5", "fam", YEAR, ["Ola", "Öberg"], 43, "0.8"),
    db.prepare("UPDATE participants SET companion = 1 WHERE id = 'fam-5'"),
    pay(hex(1), "fam", YEAR, "PAID", 350, {
      paid: "2025-06-02T09:17:00+02:00",
      participants: ["fam-1", "fam-2", "fam-3", "fam-5"],
    }),
    // Free campaign order; a club that would be a formula and a name with a comma.
    reg("free", YEAR, "kalle@example.se", "kampanj_FRIBILJETT_1", "2025-07-01T12:00:00+02:00"),
    runner("free-1", "free", YEAR, ["Kalle", "Berg, d.y."], 30, "5.6", '=HYPERLINK("http://x.se")', 601),
    runner("free-2", "free", YEAR, ["Stina", "Berg"], 28, "2.8", "@lag", 401),
    pay("kampanj_FRIBILJETT_1", "free", YEAR, "PAID", 0, {
      paid: "2025-07-01T12:00:00+02:00",
      kampanj: "FRIBILJETT",
      participants: ["free-1", "free-2"],
    }),
    // Declined: in the registrations list, not in the start list.
    reg("nok", YEAR, "nok@example.se", hex(3), "2025-07-05T08:00:00+02:00"),
    runner("nok-1", "nok", YEAR, ["Nils", "Nekad"], 50, "5.6", "-"),
    pay(hex(3), "nok", YEAR, "DECLINED", 250),
    // No payment at all, and a registration without runners (in no list).
    reg("none", YEAR, "ingen@example.se", null, "2025-07-06T08:00:00+02:00"),
    runner("none-1", "none", YEAR, ["Ida", "Obetald"], 12, "2.8"),
    reg("empty", YEAR, "tom@example.se", null, "2025-07-07T08:00:00+02:00"),
    // A box-office sale (no registration).
    runner("kassa-1", null, YEAR, ["Bo", "Kassa"], 35, "2.8", "+46 Löparna", 450),
    pay(hex(5), null, YEAR, "PAID", 300, {
      origin: "kassa",
      paid: "2025-09-13T10:30:00+02:00",
      participants: ["kassa-1"],
    }),
    // Last season, paid: in neither of this season's lists.
    reg("old", YEAR - 1, "asa.oberg@example.se", hex(6), "2024-06-01T10:00:00+02:00"),
    runner("old-1", "old", YEAR - 1, ["Åsa", "Öberg"], 40, "5.6"),
    pay(hex(6), "old", YEAR - 1, "PAID", 250, { paid: "2024-06-01T10:05:00+02:00", participants: ["old-1"] }),
    db
      .prepare(
        `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by, created_at)
         VALUES (?, ?, ?, 100, 'PAID', 'k1', 'c1', 'arrangor@example.se', 0)`,
      )
      .bind(hex(0xf1), hex(1), YEAR),
  ]);
}

async function auditActions(action: string) {
  const { results } = await env.DB.prepare("SELECT actor, subject FROM audit_log WHERE action = ?")
    .bind(action)
    .all<{ actor: string; subject: string }>();
  return results;
}

describe("exports", () => {
  beforeEach(insertFixture);

  it("are for admins only", async () => {
    const visitor = await visitorJar("besokare@example.se");
    for (const path of [RACESPLITTER, `${RACESPLITTER}?download=1`, REGISTRATIONS]) {
      expect((await get(path)).status, path).toBe(401);
      expect((await get(path, { jar: visitor })).status, path).toBe(401);
    }
  });

  it("RaceSplitter: the header, one line per paid runner of the season, waves by start time", async () => {
    const res = await get(RACESPLITTER, { jar: await loginAdmin() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBeNull();
    const text = await res.text();
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text.split("\r\n")).toEqual([
      "Wave number,Racer bib number,First name,Last name,Email,Compensation,Category,Team",
      // 5.6 and 2.8 both start at 11:45: wave 3. Within a distance by bib.
      '3,601,Kalle,"Berg, d.y.",kalle@example.se,,5.6,"\'=HYPERLINK(""http://x.se"")"',
      "3,612,Åsa,Öberg,asa.oberg@example.se,,5.6,IK Ekbacken",
      '3,401,Stina,Berg,kalle@example.se,,2.8,"\'@lag"',
      '3,450,Bo,Kassa,,,2.8,"\'+46 Löparna"',
      "2,,Örjan,Öberg,asa.oberg@example.se,,1.6,", // bib 0 means none
      "1,,Lill-Ärla,Öberg,asa.oberg@example.se,,0.8,",
      "",
    ]);
    expect(await auditActions("export.racesplitter")).toEqual([]);
  });

  it("RaceSplitter: ?download=1 makes it a file and writes who took it to the audit log", async () => {
    const res = await get(`${RACESPLITTER}?download=1`, { jar: await loginAdmin() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="racesplitter-${YEAR}.csv"`);
    expect((await res.text()).split("\r\n")).toHaveLength(8);
    expect(await auditActions("export.racesplitter")).toEqual([
      { actor: "arrangor@example.se", subject: String(YEAR) },
    ]);
  });

  it("refuses a bad download or season value with a Swedish message and stores nothing", async () => {
    const jar = await loginAdmin();
    const before = await storedState();
    for (const [path, message] of [
      [`${RACESPLITTER}?download=ja`, "download ska vara 1 eller 0."],
      [`${REGISTRATIONS}?season=25`, "Ange säsongen som ett årtal med fyra siffror, till exempel 2025."],
      [`${REGISTRATIONS}?season=2025;DROP`, "Ange säsongen som ett årtal med fyra siffror, till exempel 2025."],
    ] as const) {
      const res = await get(path, { jar });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    expect(await storedState()).toEqual(before);
  });

  it("registrations: a Swedish spreadsheet file of every runner, paid or not", async () => {
    // Åsa picked up her bib at the desk on race morning (the race object mirrors it to D1).
    await env.DB.prepare("UPDATE participants SET picked_up_at = ? WHERE firstname = 'Åsa' AND lastname = 'Öberg'")
      .bind(Date.parse("2025-09-13T10:42:00+02:00"))
      .run();
    const res = await get(REGISTRATIONS, { jar: await loginAdmin() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="anmalningar-${YEAR}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 byte order mark, then UTF-8 (Å = C3 85).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).every((l) => !l.includes("\n"))).toBe(true);
    expect(lines).toEqual([
      "Säsong;Anmäld;E-post;Förnamn;Efternamn;Ålder;Distans (km);Grupp;Förening;Startnummer;Betalning;Status;" +
        "Belopp (kr);Återbetalt (kr);Kampanjkod;Betalnings-id;Betalning skapad;Betald;Nummerlapp hämtad;Springer med barn",
      // Runners within a registration by age; the amount and refund on the first row only.
      `2025;2025-06-02 09:15;asa.oberg@example.se;Lill-Ärla;Öberg;6;0,8;Ingen;;;Betald;PAID;350;100;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Örjan;Öberg;9;1,6;Ingen;;;Betald;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Åsa;Öberg;41;5,6;Ingen;IK Ekbacken;612;Betald;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;2025-09-13 10:42;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Ola;Öberg;43;0,8;Ingen;;;Betald;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;Med barn`,
      `2025;2025-07-01 12:00;kalle@example.se;Stina;Berg;28;2,8;Ingen;"'@lag";401;Betald;PAID;0;;FRIBILJETT;kampanj_FRIBILJETT_1;2025-08-01 10:00;2025-07-01 12:00;;`,
      `2025;2025-07-01 12:00;kalle@example.se;Kalle;Berg, d.y.;30;5,6;Ingen;"'=HYPERLINK(""http://x.se"")";601;Betald;PAID;;;FRIBILJETT;kampanj_FRIBILJETT_1;2025-08-01 10:00;2025-07-01 12:00;;`,
      `2025;2025-07-05 08:00;nok@example.se;Nils;Nekad;50;5,6;Ingen;"'-";;Ej betald;DECLINED;250;;;${hex(3)};2025-08-01 10:00;;;`,
      "2025;2025-07-06 08:00;ingen@example.se;Ida;Obetald;12;2,8;Ingen;;;Ej betald;;;;;;;;;",
      "",
    ]);
    expect(await auditActions("export.registrations")).toEqual([
      { actor: "arrangor@example.se", subject: String(YEAR) },
    ]);
  });

  it("a family that paid twice and had a runner deregistered: each payment's amount once, the runner marked", async () => {
    // The Öbergs add a fourth runner after paying and pay 150 kr for him; a refund then took Örjan out. (Each test's
    // writes are undone after it: Åsa's pick-up in the test before is not here, so the last column is empty.)
    const db = env.DB;
    await db.batch([
      db
        .prepare(
          `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, "group", created_at)
           VALUES ('fam-4', 'fam', ?, 'Olof', 'Öberg', 12, '2.8', 'Ingen', 1)`,
        )
        .bind(YEAR),
      db
        .prepare(
          `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, participant_ids)
           VALUES (?, 'fam', ?, 150, 'PAID', ?, ?, '["fam-4"]')`,
        )
        .bind(hex(7), YEAR, ms("2025-09-01T10:00:00+02:00"), ms("2025-09-01T10:01:00+02:00")),
      db.prepare("UPDATE registrations SET payid = ? WHERE id = 'fam'").bind(hex(7)),
      db.prepare("UPDATE participants SET deregistered_at = 1 WHERE id = 'fam-2'"),
    ]);
    const res = await get(REGISTRATIONS, { jar: await loginAdmin() });
    const lines = (await res.text()).split("\r\n").filter((l) => l.includes("asa.oberg@example.se"));
    expect(lines).toEqual([
      `2025;2025-06-02 09:15;asa.oberg@example.se;Lill-Ärla;Öberg;6;0,8;Ingen;;;Betald;PAID;350;100;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Örjan;Öberg;9;1,6;Ingen;;;Avregistrerad;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Olof;Öberg;12;2,8;Ingen;;;Betald;PAID;150;;;${hex(7)};2025-09-01 10:00;2025-09-01 10:01;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Åsa;Öberg;41;5,6;Ingen;IK Ekbacken;612;Betald;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;`,
      `2025;2025-06-02 09:15;asa.oberg@example.se;Ola;Öberg;43;0,8;Ingen;;;Betald;PAID;;;;${hex(1)};2025-08-01 10:00;2025-06-02 09:17;;Med barn`,
    ]);
    // The start list: the new runner in, the deregistered one out.
    const racesplitter = await (await get(RACESPLITTER, { jar: await loginAdmin() })).text();
    expect(racesplitter).toContain("Olof,Öberg");
    expect(racesplitter).not.toContain("Örjan");
    // Issue 28 item 6: the father who runs with Lill-Ärla is not timed, so not in the timing app's list.
    expect(racesplitter).not.toContain("Ola");
  });

  it("registrations: ?season picks another season", async () => {
    const res = await get(`${REGISTRATIONS}?season=${YEAR - 1}`, { jar: await loginAdmin() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="anmalningar-${YEAR - 1}.csv"`);
    const lines = (await res.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^2024;2024-06-01 10:00;asa\.oberg@example\.se;Åsa;Öberg;40;5,6;/);
  });
});

describe("the results files follow the same rule", () => {
  it("write a formula-like name, class or club as text and read back to the stored values", async () => {
    const rows = [
      { place: 1, name: "=1+1", timeMs: 19 * 60_000 + 42_123, klass: "-", bib: 612, club: '"=cmd"' },
      { place: 2, name: "Åsa Öberg", timeMs: 20 * 60_000, klass: "Dam", bib: null, club: "@Löparna" },
      { place: 3, name: "Erik Sjödal", timeMs: 21 * 60_000, klass: "Herr", bib: 7, club: "IK Ekbacken" },
    ];
    await replaceResults(database(env.DB), 2031, "5.6", rows);
    const res = await get(`/resultat/${resultsFileName(2031, "5.6")}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.replace(/^\uFEFF/, "").split("\n")).toEqual([
      "Placering;Namn;Resultat;Klass;Startnummer;Förening",
      `1;"'=1+1";19:42.123;"'-";612;"""=cmd"""`,
      `2;Åsa Öberg;20:00.000;Dam;;"'@Löparna"`,
      "3;Erik Sjödal;21:00.000;Herr;7;IK Ekbacken",
      "",
    ]);
    // The results page reads the file with the shared rules and shows what was stored.
    expect(parseResults(text)).toEqual({ rows, errors: [] });
  });
});

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { companionError } from "../../src/shared/companion";
import { describe, expect, it } from "vitest";
import { galleryImageSvg } from "../../scripts/gallery-images.mjs";
import { galleryPlan, galleryUrl } from "../../scripts/seed/gallery-plan.mjs";
import {
  ADULT_AGE,
  BIB_RANGES,
  BUILTIN_CAMPAIGNS,
  DEMO_NOW,
  DEMO_SEASON,
  PRICES,
  RACE_DAYS,
  START_TIMES,
  TIME_RANGES,
  buildDemoData,
  demoSql,
  raceId,
} from "../../scripts/seed/demo-data.mjs";
import { countAges } from "../../src/shared/age";
import { campaignTotal, listTotal } from "../../src/shared/pricing";
import { parseResults, serializeResults } from "../../src/shared/results-file";
import { SEASON, type CampaignRule } from "../../src/shared/season";
import { stockholmDeadlineEnd } from "../../src/shared/stockholm";
import { builtinMaxUses } from "../../src/worker/campaigns/builtin-campaigns";
import { DEMO_CAMPAIGNS } from "../../src/worker/dev/demo-campaigns";

const data = buildDemoData();
const sql = demoSql(data);

/** A fresh SQLite with the real migrations (the same SQL D1 runs), foreign keys on as in D1. */
function migratedDb(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  const dir = path.join(import.meta.dirname, "../../migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(path.join(dir, file), "utf8").split("--> statement-breakpoint")) {
      db.exec(statement);
    }
  }
  return db;
}

const count = (db: DatabaseSync, query: string) => (db.prepare(query).get() as { n: number }).n;

const bySeason = (season: number) => ({
  registrations: data.registrations.filter((r) => r.season === season),
  participants: data.participants.filter((p) => p.season === season),
  payments: data.payments.filter((p) => p.season === season),
});
const selectedPayment = (payid: string | null) => data.payments.find((p) => p.id === payid);

describe("demo seed", () => {
  it("is deterministic", () => {
    expect(buildDemoData()).toEqual(data);
    expect(demoSql(buildDemoData())).toBe(sql);
  });

  it("applies to the migrated schema (every CHECK and foreign key holds) and re-applies to the same state", () => {
    const db = migratedDb();
    db.exec(sql);
    const snapshot = () =>
      ["registrations", "participants", "payments", "races", "campaign_codes", "results", "gallery_images"].map((t) =>
        count(db, `SELECT count(*) AS n FROM ${t}`),
      );
    const first = snapshot();
    expect(first).toEqual([
      data.registrations.length,
      data.participants.length,
      data.payments.length,
      data.races.length,
      data.campaignCodes.length,
      data.results.length,
      data.galleryImages.length,
    ]);
    db.exec(sql);
    expect(snapshot()).toEqual(first);
    expect(
      count(
        db,
        "SELECT count(*) AS n FROM registrations WHERE payid IS NOT NULL AND payid NOT IN (SELECT id FROM payments)",
      ),
    ).toBe(0);
  });

  it("mirrors the season config: races, start times, bib ranges, prices and built-in campaign codes", () => {
    expect(RACE_DAYS[DEMO_SEASON]).toBe(SEASON.raceDay);
    expect(DEMO_SEASON).toBe(SEASON.year);
    expect(ADULT_AGE).toBe(SEASON.adultAge);
    expect(PRICES).toEqual({ early: SEASON.earlyPrice, late: SEASON.latePrice });
    for (const race of SEASON.races) {
      expect(START_TIMES[race.distance]).toBe(race.startTime);
      expect(BIB_RANGES[race.distance]).toEqual(race.bibRange);
    }
    const races2025 = data.races.filter((r) => r.season === DEMO_SEASON);
    expect(races2025.map((r) => r.part)).toEqual([
      "race-250913-08",
      "race-250913-16",
      "race-250913-28",
      "race-250913-56",
    ]);
    expect(races2025.map((r) => [r.start_time, r.open_for_reg, r.state, r.date])).toEqual(
      SEASON.races.map((r) => [r.startTime, 1, "", "2025-09-13"]),
    );
    // Earlier seasons were timed before the site's own race timing: their results are imported files, and no
    // race of theirs stands in the start lists as ended with nobody in the finish (issue 28).
    expect(data.races.filter((r) => r.season < DEMO_SEASON)).toEqual([]);

    expect(BUILTIN_CAMPAIGNS.map((c) => [c.code, c.rule])).toEqual(DEMO_CAMPAIGNS.map((c) => [c.code, c.rule]));
    for (const c of DEMO_CAMPAIGNS) {
      const row = data.campaignCodes.find((r) => r.code === c.code);
      expect(row?.builtin).toBe(1);
      // Stored as the last valid millisecond of the inclusive Stockholm deadline, with the cap the Worker applies.
      expect(row?.valid_until).toBe(c.validUntil ? stockholmDeadlineEnd(c.validUntil) - 1 : null);
      expect(row?.max_uses).toBe(builtinMaxUses(c));
    }
    expect(data.campaignCodes.filter((c) => c.builtin === 0)).toHaveLength(1);
  });

  it("has 60+ registrations this season, families of 1–4 runners, mostly paid, some unpaid or by code", () => {
    const s = bySeason(DEMO_SEASON);
    const withRunners = s.registrations.filter((r) => s.participants.some((p) => p.registration_id === r.id));
    expect(withRunners.length).toBeGreaterThanOrEqual(60);
    for (const r of withRunners) {
      const n = s.participants.filter((p) => p.registration_id === r.id).length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(4);
    }
    const statuses = withRunners.map((r) => selectedPayment(r.payid)?.status ?? "none");
    expect(statuses.filter((x) => x === "PAID").length).toBeGreaterThan(withRunners.length * 0.7);
    for (const st of ["CREATED", "none"]) expect(statuses).toContain(st);
    expect(statuses.some((x) => x === "DECLINED" || x === "ERROR")).toBe(true);
    const failed = s.payments.filter((p) => p.status === "DECLINED" || p.status === "ERROR");
    expect(failed.every((p) => p.error_code && p.error_message)).toBe(true);
    expect(failed.map((p) => p.error_code)).toContain("RF07");

    const ages = s.participants.map((p) => p.age);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(4);
    expect(ages.some((a) => a < 16) && ages.some((a) => a >= 25)).toBe(true);
    expect(new Set(s.participants.map((p) => p.group))).toEqual(new Set(["Ingen", "Dam", "Herr"]));
    expect(s.participants.some((p) => p.company !== "")).toBe(true);

    const free = s.payments.filter((p) => p.id.startsWith("kampanj_"));
    expect(free.length).toBeGreaterThan(0);
    expect(
      free.every((p) => p.amount === 0 && p.status === "PAID" && /^kampanj_FRIBILJETT_[0-9a-f]+$/.test(p.id)),
    ).toBe(true);
  });

  it("has two parents running with a child without competing (issue 28 item 6): paid, no bib, no race", () => {
    const companions = bySeason(DEMO_SEASON).participants.filter((p) => p.companion === 1);
    expect(companions).toHaveLength(2);
    for (const c of companions) {
      const family = data.participants.filter((p) => p.registration_id === c.registration_id);
      expect(
        companionError(
          { ...c, companion: true },
          family.map((p) => ({ ...p, companion: p.companion === 1 })),
        ),
      ).toBeNull();
      expect([c.bib, c.race_id]).toEqual([null, null]);
    }
    // Nobody else of any season is one.
    expect(data.participants.filter((p) => p.companion === 1)).toHaveLength(2);
  });

  it("prices every payment of this season as the shared pricing rules do", () => {
    const rules = Object.fromEntries(data.campaignCodes.map((c) => [c.code, c.rule as CampaignRule]));
    for (const p of bySeason(DEMO_SEASON).payments) {
      const ids = JSON.parse(p.participant_ids) as string[];
      const runners = data.participants.filter((r) => ids.includes(r.id));
      expect(runners).toHaveLength(ids.length);
      const counts = countAges(runners.map((r) => ({ ...r, companion: r.companion === 1 })));
      expect({ barn: p.barn, vuxna: p.vuxna }).toEqual({ barn: counts.barn, vuxna: counts.vuxna });
      const expected = p.kampanj
        ? campaignTotal(rules[p.kampanj]!, counts, p.date_created)
        : listTotal(counts, p.date_created);
      expect(p.amount, p.id).toBe(expected);
    }
  });

  it("gives payments the shape of the spec's payment record", () => {
    for (const p of data.payments) {
      expect(p.id).toMatch(/^([0-9A-F]{32}|kampanj_[A-Z0-9]+_[0-9a-f]+)$/);
      expect(p.currency).toBe("SEK");
      if (p.status === "PAID") {
        expect(p.date_paid).toBeGreaterThanOrEqual(p.date_created);
        if (!p.id.startsWith("kampanj_")) {
          expect(p.payment_reference).toMatch(/^[0-9A-F]{32}$/);
          expect(p.payer_alias).toMatch(/^467\d{8}$/);
          expect(p.token).toMatch(/^[0-9a-f]{32}$/);
        }
      } else {
        expect(p.date_paid).toBeNull();
      }
    }
    const paid2025 = bySeason(DEMO_SEASON).payments.filter((p) => p.status === "PAID");
    for (const p of paid2025) {
      expect(p.date_paid! >= Date.parse("2025-06-01T00:00:00+02:00")).toBe(true);
      expect(p.date_paid! < Date.parse("2025-09-13T00:00:00+02:00")).toBe(true);
    }
  });

  it("puts paid runners in their race with a unique bib from their distance's range, and no one else", () => {
    for (const season of Object.keys(RACE_DAYS).map(Number)) {
      const s = bySeason(season);
      const paidRegs = new Set(
        s.registrations.filter((r) => selectedPayment(r.payid)?.status === "PAID").map((r) => r.id),
      );
      const seen = new Set<string>();
      for (const p of s.participants) {
        if (paidRegs.has(p.registration_id) && p.companion !== 1) {
          const [low, high] = BIB_RANGES[p.distance as keyof typeof BIB_RANGES];
          expect(p.bib).toBeGreaterThanOrEqual(low);
          expect(p.bib).toBeLessThanOrEqual(high);
          expect(p.race_id).toBe(
            season === DEMO_SEASON ? raceId(RACE_DAYS[season as keyof typeof RACE_DAYS], p.distance) : null,
          );
          const key = `${p.distance}/${p.bib}`;
          expect(seen.has(key), key).toBe(false);
          seen.add(key);
        } else {
          expect([p.bib, p.race_id]).toEqual([null, null]);
        }
      }
    }
  });

  it("has earlier seasons with returning families and registrations spread over months", () => {
    for (const season of [2022, 2023, 2024]) {
      const s = bySeason(season);
      const paid = s.registrations.filter((r) => selectedPayment(r.payid)?.status === "PAID");
      expect(paid.length).toBeGreaterThanOrEqual(30);
      const months = new Set(s.registrations.map((r) => new Date(r.created_at).getUTCMonth()));
      expect(months.size).toBeGreaterThanOrEqual(4);
    }
    for (const season of [2023, 2024, 2025]) {
      const before = new Set(bySeason(season - 1).registrations.map((r) => r.email));
      const regs = bySeason(season).registrations;
      expect(regs.filter((r) => before.has(r.email)).length).toBeGreaterThan(regs.length * 0.4);
    }
    for (const season of Object.keys(RACE_DAYS).map(Number)) {
      const emails = bySeason(season).registrations.map((r) => r.email);
      expect(new Set(emails).size).toBe(emails.length);
    }
    for (const r of data.registrations) expect(r.email).toMatch(/^[a-z0-9.]+@example\.se$/);
  });

  it("has results 2014–2024 for every distance that the results file reads back, and records as the best times", () => {
    for (let year = 2014; year <= 2024; year++) {
      for (const distance of ["0.8", "1.6", "2.8", "5.6"] as const) {
        const rows = data.results.filter((r) => r.year === year && r.distance === distance);
        expect(rows.length, `${year} ${distance}`).toBeGreaterThanOrEqual(20);
        expect(rows.length, `${year} ${distance}`).toBeLessThanOrEqual(60);
        const [min, max] = TIME_RANGES[distance];
        expect(rows.every((r) => r.time_ms >= min && r.time_ms <= max)).toBe(true);
        expect(rows.map((r) => r.place)).toEqual(rows.map((_, i) => i + 1));
        expect(rows.map((r) => r.time_ms)).toEqual(rows.map((r) => r.time_ms).sort((a, b) => a - b));
        const asRows = rows.map((r) => ({
          place: r.place,
          name: r.name,
          timeMs: r.time_ms,
          klass: r.klass,
          bib: r.bib,
          club: r.club,
        }));
        expect(parseResults(serializeResults(asRows))).toEqual({ rows: asRows, errors: [] });
      }
    }
    for (const record of data.courseRecords) {
      const best = Math.min(...data.results.filter((r) => r.distance === record.distance).map((r) => r.time_ms));
      expect(record.time_ms).toBe(best);
    }
  });

  it("has results for every season before the demo's that has registrations, and none for the demo season", () => {
    for (const season of Object.keys(RACE_DAYS).map(Number)) {
      const has = data.results.some((r) => r.year === season);
      expect(has, String(season)).toBe(season < DEMO_SEASON);
    }
  });

  it("stores each result's age that year (child-safe publishing reads it; the site never shows it)", () => {
    expect(data.results.every((r) => Number.isInteger(r.age) && r.age >= 4 && r.age <= 80)).toBe(true);
    expect(data.results.some((r) => r.age <= 11)).toBe(true);
  });

  it("dates everything before the demo's clock (npm start's default NOW)", async () => {
    const { DEFAULT_NOW } = (await import("../../scripts/lib/settings.mjs")) as { DEFAULT_NOW: string };
    expect(Date.parse(DEFAULT_NOW)).toBe(Date.parse(`${DEMO_NOW}+02:00`));
    const now = Date.parse(DEFAULT_NOW);
    const late = (what: string, values: (number | null | undefined)[]) =>
      values
        .filter((v): v is number => typeof v === "number" && v > now)
        .map((v) => `${what} ${new Date(v).toISOString()}`);
    expect([
      ...late(
        "registration",
        data.registrations.flatMap((r) => [r.created_at, r.updated_at]),
      ),
      ...late(
        "participant",
        data.participants.map((p) => p.created_at),
      ),
      ...late(
        "payment",
        data.payments.flatMap((p) => [p.date_created, p.date_paid, p.settled_at]),
      ),
      ...late(
        "campaign",
        data.campaignCodes.map((c) => c.created_at),
      ),
      ...late(
        "unsubscribe",
        data.unsubscribes.map((u) => u.at),
      ),
    ]).toEqual([]);
  });

  it("has no name twice in one race: a season's runners on a distance, a year's results on a distance", () => {
    const twice = (names: string[]) => names.filter((n, i) => names.indexOf(n) !== i);
    for (const season of Object.keys(RACE_DAYS).map(Number)) {
      for (const distance of ["0.8", "1.6", "2.8", "5.6"]) {
        const names = bySeason(season)
          .participants.filter((p) => p.distance === distance)
          .map((p) => `${p.firstname} ${p.lastname}`);
        expect(twice(names), `${season} ${distance}`).toEqual([]);
      }
    }
    for (let year = 2014; year <= 2024; year++) {
      for (const distance of ["0.8", "1.6", "2.8", "5.6"]) {
        const names = data.results.filter((r) => r.year === year && r.distance === distance).map((r) => r.name);
        expect(twice(names), `${year} ${distance}`).toEqual([]);
      }
    }
  });

  it("lists 8–20 gallery images a year for 2014–2024, matching the generated files", () => {
    const plan = galleryPlan();
    expect(plan.map((p) => p.year)).toEqual(Array.from({ length: 11 }, (_, i) => 2014 + i));
    for (const { year, files } of plan) {
      expect(files.length).toBeGreaterThanOrEqual(8);
      expect(files.length).toBeLessThanOrEqual(20);
      const urls = data.galleryImages.filter((g) => g.year === year).map((g) => g.url);
      expect(urls).toEqual(files.map((f) => galleryUrl(year, f)));
    }
    const svg = galleryImageSvg(2019, 7);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 640 427"/);
    expect(svg).toContain(">2019</text>");
    expect(galleryImageSvg(2019, 7)).toBe(svg);
    expect(galleryImageSvg(2019, 8)).not.toBe(svg);
  });
});

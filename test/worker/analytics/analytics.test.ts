/**
 * GET /admin/api/registration-analytics against a small fixture whose every figure was worked out by hand below
 * (three seasons; paid by Swish, free and discounted campaign orders, declined, failed, pending and missing
 * payments; a registration without runners; a partial refund and a refused one; moments on both sides of a
 * Stockholm month end in summer and in winter time).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { RegistrationAnalytics } from "../../../src/shared/analytics";
import { stockholmParts } from "../../../src/shared/stockholm";
import { stockholmMonthSql } from "../../../src/worker/analytics/analytics-db";
import { get, loginAdmin, visitorJar } from "../helpers";

const ms = (iso: string) => Date.parse(iso);

interface Runner {
  name: string;
  age: number;
  distance: string;
  company?: string;
}
interface Registration {
  id: string;
  season: number;
  email: string;
  created: string;
  runners: Runner[];
  /** Every payment of the registration; the last one is its payid. */
  payments: {
    id: string;
    status: string;
    amount: number;
    paid?: string;
    kampanj?: string;
    /** The runner ids it covers; all of the registration's when not given. */
    runners?: string[];
  }[];
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(32, "0");

/**
 * The fixture. Months are Stockholm months: 2023-08-31T22:30Z is 1 September 00:30 (summer time) and
 * 2024-10-31T22:30Z is 31 October 23:30 (winter time, after the switch on 27 October).
 */
const FIXTURE: Registration[] = [
  // 2023
  {
    id: "r1",
    season: 2023,
    email: "a@example.se",
    created: "2023-05-10T12:00:00+02:00", // May
    runners: [
      { name: "Anna", age: 35, distance: "5.6", company: "IK Ekbacken" },
      { name: "Bo", age: 8, distance: "0.8" },
    ],
    payments: [{ id: hex(1), status: "PAID", amount: 250, paid: "2023-05-10T12:05:00+02:00" }], // May
  },
  {
    id: "r2",
    season: 2023,
    email: "b@example.se",
    created: "2023-08-31T22:30:00Z", // September in Stockholm
    runners: [{ name: "Cia", age: 40, distance: "2.8", company: "Acme AB" }],
    payments: [{ id: hex(2), status: "DECLINED", amount: 150 }],
  },
  {
    id: "r3",
    season: 2023,
    email: "c@example.se",
    created: "2023-05-31T22:30:00Z", // June in Stockholm
    runners: [{ name: "Dan", age: 30, distance: "5.6", company: " ik ekbacken " }],
    payments: [
      { id: "kampanj_FRIBILJETT_r3", status: "PAID", amount: 0, paid: "2023-05-31T22:31:00Z", kampanj: "FRIBILJETT" },
    ],
  },
  // No runners: not counted anywhere.
  { id: "r4", season: 2023, email: "tom@example.se", created: "2023-07-01T10:00:00+02:00", runners: [], payments: [] },
  // 2024
  {
    id: "r5",
    season: 2024,
    email: "a@example.se",
    created: "2024-06-30T22:30:00Z", // July in Stockholm
    runners: [
      { name: "Anna", age: 36, distance: "5.6", company: "IK Ekbacken" },
      { name: "Bo", age: 9, distance: "1.6" },
      { name: "Eva", age: 12, distance: "1.6" },
    ],
    payments: [{ id: hex(5), status: "PAID", amount: 400, paid: "2024-06-30T22:35:00Z" }], // July; 100 refunded
  },
  {
    id: "r6",
    season: 2024,
    email: "d@example.se",
    created: "2024-08-15T10:00:00+02:00", // August
    runners: [{ name: "Fia", age: 45, distance: "2.8", company: "Acme AB" }],
    payments: [
      { id: hex(0x6a), status: "ERROR", amount: 250 },
      { id: hex(0x6b), status: "PAID", amount: 250, paid: "2024-10-31T22:30:00Z" }, // October in Stockholm
    ],
  },
  {
    id: "r7",
    season: 2024,
    email: "e@example.se",
    created: "2024-08-20T10:00:00+02:00", // August
    runners: [{ name: "Gus", age: 50, distance: "5.6" }],
    payments: [{ id: hex(7), status: "CREATED", amount: 250 }],
  },
  {
    id: "r8",
    season: 2024,
    email: "f@example.se",
    created: "2024-09-01T09:00:00+02:00", // September
    runners: [{ name: "Hugo", age: 20, distance: "0.8" }],
    payments: [],
  },
  // 2025
  {
    id: "r9",
    season: 2025,
    email: "a@example.se",
    created: "2025-05-05T10:00:00+02:00", // May
    runners: [
      { name: "Anna", age: 37, distance: "5.6", company: "IK Ekbacken" },
      { name: "Bo", age: 10, distance: "1.6" },
    ],
    payments: [
      {
        id: "kampanj_VANLOPP50_r9",
        status: "PAID",
        amount: 100,
        paid: "2025-05-05T10:01:00+02:00",
        kampanj: "VANLOPP50",
      },
    ],
  },
  {
    id: "r10",
    season: 2025,
    email: "g@example.se",
    created: "2025-01-15T12:00:00+01:00", // January
    runners: [{ name: "Ivar", age: 16, distance: "2.8", company: '=HYPERLINK("http://x")' }],
    payments: [{ id: hex(10), status: "PAID", amount: 250, paid: "2025-01-15T12:03:00+01:00" }],
  },
  {
    id: "r11",
    season: 2025,
    email: "h@example.se",
    created: "2025-08-01T10:00:00+02:00", // August
    runners: [{ name: "Jon", age: 33, distance: "5.6", company: "-" }],
    payments: [{ id: hex(11), status: "ERROR", amount: 250 }],
  },
];

async function insertFixture() {
  const db = env.DB;
  const statements: D1PreparedStatement[] = [
    db.prepare("DELETE FROM refunds"),
    db.prepare("DELETE FROM participants"),
    db.prepare("UPDATE registrations SET payid = NULL"),
    db.prepare("DELETE FROM payments"),
    db.prepare("DELETE FROM registrations"),
  ];
  for (const r of FIXTURE) {
    const created = ms(r.created);
    statements.push(
      db
        .prepare(
          "INSERT INTO registrations (id, season, email, payid, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)",
        )
        .bind(r.id, r.season, r.email, r.payments.at(-1)?.id ?? null, created, created),
    );
    r.runners.forEach((p, i) =>
      statements.push(
        db
          .prepare(
            `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group", created_at)
             VALUES (?, ?, ?, ?, 'Test', ?, ?, ?, 'Ingen', ?)`,
          )
          .bind(`${r.id}-${i}`, r.id, r.season, p.name, p.age, p.company ?? "", p.distance, created + i),
      ),
    );
    for (const p of r.payments) {
      statements.push(
        db
          .prepare(
            `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, kampanj,
               participant_ids)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            p.id,
            r.id,
            r.season,
            p.amount,
            p.status,
            created,
            p.paid ? ms(p.paid) : null,
            p.kampanj ?? null,
            JSON.stringify(p.runners ?? r.runners.map((_, i) => `${r.id}-${i}`)),
          ),
      );
    }
  }
  const refund = (id: number, payid: string, amount: number, status: string) =>
    db
      .prepare(
        `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by, created_at)
         VALUES (?, ?, 2024, ?, ?, ?, ?, 'arrangor@example.se', ?)`,
      )
      .bind(hex(id), payid, amount, status, `key-${id}`, `cb-${id}`, ms("2024-08-01T10:00:00+02:00"));
  // A refund that went through (taken off) and one Swish refused (not taken off).
  statements.push(refund(0xf1, hex(5), 100, "PAID"), refund(0xf2, hex(5), 50, "ERROR"));
  await db.batch(statements);
}

async function analytics(): Promise<RegistrationAnalytics> {
  const res = await get("/admin/api/registration-analytics", { jar: await loginAdmin() });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as RegistrationAnalytics;
}

const months = (entries: Record<number, [number, number, number]>) =>
  Array.from({ length: 12 }, (_, i) => {
    const [registrations, participants, revenue] = entries[i + 1] ?? [0, 0, 0];
    return { month: i + 1, registrations, participants, revenue };
  });

describe("registration analytics", () => {
  beforeEach(insertFixture);

  it("is for admins only", async () => {
    expect((await get("/admin/api/registration-analytics")).status).toBe(401);
    const visitor = await visitorJar("besokare@example.se");
    const res = await get("/admin/api/registration-analytics", { jar: visitor });
    expect(res.status).toBe(401);
    expect(await res.json()).toHaveProperty("error");
  });

  it("sums every season: registrations with runners, paid by payid status, revenue less refunds", async () => {
    const { summary } = await analytics();
    expect(summary).toEqual({
      totalRegistrations: 10, // r4 has no runners
      paidRegistrations: 6, // r1, r3, r5, r6, r9, r10
      totalParticipants: 14,
      paidParticipants: 10,
      totalRevenue: 1150, // 250 + 0 | 300 + 250 | 100 + 250
      paymentRate: 60,
      yearsActive: 3,
      totalRefunded: 100,
    });
  });

  it("compares each season with the one before", async () => {
    const { yearComparison } = await analytics();
    expect(yearComparison.map((y) => y.year)).toEqual([2023, 2024, 2025]);
    const [y2023, y2024, y2025] = yearComparison;
    expect(y2023).toEqual({
      year: 2023,
      totalRegistrations: 3,
      paidRegistrations: 2,
      paymentRate: 66.7,
      totalParticipants: 4,
      paidParticipants: 3,
      totalAmount: 250,
      distanceBreakdown: { "5.6": 2, "2.8": 1, "1.6": 0, "0.8": 1 },
      monthlyBreakdown: months({ 5: [1, 2, 250], 6: [1, 1, 0], 9: [1, 1, 0] }),
      previousYear: null,
      registrationGrowth: null,
      revenueGrowth: null,
    });
    expect(y2024).toEqual({
      year: 2024,
      totalRegistrations: 4,
      paidRegistrations: 2,
      paymentRate: 50,
      totalParticipants: 6,
      paidParticipants: 4,
      totalAmount: 550, // 400 − 100 refunded + 250
      distanceBreakdown: { "5.6": 2, "2.8": 1, "1.6": 2, "0.8": 1 },
      monthlyBreakdown: months({ 7: [1, 3, 300], 8: [2, 2, 0], 9: [1, 1, 0], 10: [0, 0, 250] }),
      previousYear: { year: 2023, totalRegistrations: 3, totalParticipants: 4, totalAmount: 250 },
      registrationGrowth: 33.3,
      revenueGrowth: 120,
    });
    expect(y2025).toMatchObject({
      year: 2025,
      totalRegistrations: 3,
      paidRegistrations: 2,
      paymentRate: 66.7,
      totalParticipants: 4,
      paidParticipants: 3,
      totalAmount: 350,
      distanceBreakdown: { "5.6": 2, "2.8": 1, "1.6": 1, "0.8": 0 },
      monthlyBreakdown: months({ 1: [1, 1, 250], 5: [1, 2, 100], 8: [1, 1, 0] }),
      previousYear: { year: 2024, totalRegistrations: 4, totalParticipants: 6, totalAmount: 550 },
      registrationGrowth: -25,
      revenueGrowth: -36.4,
    });
  });

  it("describes each distance over every season", async () => {
    const { distanceAnalysis } = await analytics();
    expect(Object.keys(distanceAnalysis)).toEqual(["5.6", "2.8", "1.6", "0.8"]);
    expect(distanceAnalysis["5.6"]).toEqual({
      distance: "5.6",
      count: 6,
      companyCount: 5, // all but Gus
      distinctCompanies: 2, // 'IK Ekbacken' (any case, spaces) and '-'
      avgAge: 36.8, // 221 / 6
      minAge: 30,
      maxAge: 50,
    });
    expect(distanceAnalysis["2.8"]).toEqual({
      distance: "2.8",
      count: 3,
      companyCount: 3,
      distinctCompanies: 2,
      avgAge: 33.7, // 101 / 3
      minAge: 16,
      maxAge: 45,
    });
    expect(distanceAnalysis["1.6"]).toEqual({
      distance: "1.6",
      count: 3,
      companyCount: 0,
      distinctCompanies: 0,
      avgAge: 10.3, // 31 / 3
      minAge: 9,
      maxAge: 12,
    });
    expect(distanceAnalysis["0.8"]).toEqual({
      distance: "0.8",
      count: 2,
      companyCount: 0,
      distinctCompanies: 0,
      avgAge: 14,
      minAge: 8,
      maxAge: 20,
    });
  });

  it("counts registrations and revenue per Stockholm month and season", async () => {
    const { monthlyTrends, monthlyRevenue } = await analytics();
    expect(monthlyTrends).toEqual([
      { year: 2023, month: 5, registrations: 1, participants: 2 },
      { year: 2023, month: 6, registrations: 1, participants: 1 },
      { year: 2023, month: 9, registrations: 1, participants: 1 },
      { year: 2024, month: 7, registrations: 1, participants: 3 },
      { year: 2024, month: 8, registrations: 2, participants: 2 },
      { year: 2024, month: 9, registrations: 1, participants: 1 },
      { year: 2025, month: 1, registrations: 1, participants: 1 },
      { year: 2025, month: 5, registrations: 1, participants: 2 },
      { year: 2025, month: 8, registrations: 1, participants: 1 },
    ]);
    expect(monthlyRevenue).toEqual([
      { year: 2023, month: 5, revenue: 250, payments: 1 },
      { year: 2023, month: 6, revenue: 0, payments: 1 },
      { year: 2024, month: 7, revenue: 300, payments: 1 },
      { year: 2024, month: 10, revenue: 250, payments: 1 },
      { year: 2025, month: 1, revenue: 250, payments: 1 },
      { year: 2025, month: 5, revenue: 100, payments: 1 },
    ]);
  });

  it("a family that paid twice counts once, its payments each in their month; a deregistered runner is not paid", async () => {
    // 2026: a mother and a son paid 250 kr in May; a daughter added and paid 100 kr in June; the son left with a
    // 100 kr refund.
    const db = env.DB;
    const created = ms("2026-05-10T10:00:00+02:00");
    await db.batch([
      db
        .prepare(
          "INSERT INTO registrations (id, season, email, payid, version, created_at, updated_at) VALUES ('r20', 2026, 'x@example.se', ?, 2, ?, ?)",
        )
        .bind(hex(0x202), created, created),
      ...[
        ["r20-0", "Mor", 40, "5.6"],
        ["r20-1", "Son", 9, "1.6"],
        ["r20-2", "Dotter", 7, "0.8"],
        // Issue 28 item 6: the father runs 0.8 with her without competing, 0 kr: no runner in the figures.
        ["r20-3", "Far", 44, "0.8"],
      ].map(([id, name, age, distance]) =>
        db
          .prepare(
            `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, created_at)
             VALUES (?, 'r20', 2026, ?, 'Test', ?, ?, ?)`,
          )
          .bind(id, name, age, distance, created),
      ),
      db
        .prepare(
          `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, participant_ids)
           VALUES (?, 'r20', 2026, 250, 'PAID', ?, ?, '["r20-0","r20-1"]')`,
        )
        .bind(hex(0x201), created, created),
      db
        .prepare(
          `INSERT INTO payments (id, registration_id, season, amount, status, date_created, date_paid, participant_ids)
           VALUES (?, 'r20', 2026, 100, 'PAID', ?, ?, '["r20-2","r20-3"]')`,
        )
        .bind(hex(0x202), ms("2026-06-15T10:00:00+02:00"), ms("2026-06-15T10:00:00+02:00")),
      db
        .prepare(
          `INSERT INTO refunds (id, payid, season, amount, status, idempotency_key, callback_identifier, created_by, created_at)
           VALUES (?, ?, 2026, 100, 'PAID', 'key-r20', 'cb-r20', 'arrangor@example.se', ?)`,
        )
        .bind(hex(0xf20), hex(0x201), created),
      db.prepare("UPDATE participants SET deregistered_at = ? WHERE id = 'r20-1'").bind(created),
      db.prepare("UPDATE participants SET companion = 1 WHERE id = 'r20-3'"),
    ]);
    const y2026 = (await analytics()).yearComparison.find((y) => y.year === 2026)!;
    expect(y2026).toMatchObject({
      totalRegistrations: 1,
      paidRegistrations: 1,
      paymentRate: 100,
      totalParticipants: 3,
      paidParticipants: 2,
      totalAmount: 250, // 250 + 100 − 100
    });
    expect(y2026.monthlyBreakdown.filter((m) => m.registrations || m.revenue)).toEqual([
      { month: 5, registrations: 1, participants: 3, revenue: 150 },
      { month: 6, registrations: 0, participants: 0, revenue: 100 },
    ]);
  });

  it("answers zeros, not an error, when there are no registrations", async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM refunds"),
      env.DB.prepare("DELETE FROM participants"),
      env.DB.prepare("UPDATE registrations SET payid = NULL"),
      env.DB.prepare("DELETE FROM payments"),
    ]);
    const body = await analytics();
    expect(body.summary).toEqual({
      totalRegistrations: 0,
      paidRegistrations: 0,
      totalParticipants: 0,
      paidParticipants: 0,
      totalRevenue: 0,
      paymentRate: 0,
      yearsActive: 0,
      totalRefunded: 0,
    });
    expect(body.yearComparison).toEqual([]);
    expect(body.monthlyTrends).toEqual([]);
    expect(body.distanceAnalysis["5.6"]).toMatchObject({ count: 0, avgAge: null, minAge: null, maxAge: null });
  });

  it("answers 500 with an error field when the figures cannot be computed", async () => {
    const jar = await loginAdmin();
    await env.DB.prepare("ALTER TABLE refunds RENAME TO refunds_away").run();
    try {
      const res = await get("/admin/api/registration-analytics", { jar });
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error?: string };
      expect(body.error).toMatch(/Statistiken kunde inte räknas fram/);
    } finally {
      await env.DB.prepare("ALTER TABLE refunds_away RENAME TO refunds").run();
    }
  });
});

describe("Stockholm months in SQL", () => {
  it("agrees with the Intl-based Stockholm time around every switch and month end of 2019–2031", async () => {
    const moments: number[] = [];
    for (let year = 2019; year <= 2031; year++) {
      for (let m = 0; m < 12; m++) {
        // Around each month's first midnight in Stockholm (22:00–23:59 UTC the day before).
        const firstUtc = Date.UTC(year, m, 1);
        for (const minutes of [-150, -121, -120, -119, -61, -60, -59, -1, 0]) moments.push(firstUtc + minutes * 60_000);
      }
      // Around the summer-time switches (01:00 UTC on the last Sunday of March and October).
      for (const month of [2, 9]) {
        const last = new Date(Date.UTC(year, month + 1, 0));
        const sunday = Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
        for (const delta of [-3_600_001, -1, 0, 1, 3_600_000]) moments.push(sunday + delta);
      }
    }
    const expression = stockholmMonthSql("value");
    const rows = await env.DB.batch(
      moments.map((t) => env.DB.prepare(`SELECT ${expression} AS ym FROM (SELECT ?1 AS value)`).bind(t)),
    );
    const fromSql = rows.map((r) => (r.results[0] as { ym: string }).ym);
    const expected = moments.map((t) => {
      const p = stockholmParts(t);
      return `${p.year}-${String(p.month).padStart(2, "0")}`;
    });
    expect(fromSql).toEqual(expected);
  });
});

/**
 * The registration analytics, computed in SQL over every season (what counts: src/shared/analytics.ts): two
 * statements in one D1 batch (one round trip, one consistent read) whose aggregates are the totals, per season,
 * per season and Stockholm month for registrations and for payments, per season and distance, and per distance. Only growth
 * between seasons and the zero-filling of months and distances happen here in TypeScript, on the aggregated rows.
 *
 * Stockholm months in SQL: SQLite has no time zones, so `stockholmMonthSql` applies the EU summer-time rule that
 * Sweden follows (UTC+2 from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October,
 * UTC+1 otherwise; src/shared/stockholm.ts gives the same answers through Intl, and the tests compare the two on
 * the switch moments).
 */
import {
  growthPercent,
  type AnalyticsSummary,
  type DistanceAnalysis,
  type DistanceBreakdown,
  type MonthFigures,
  type MonthlyRevenue,
  type MonthlyTrend,
  type RegistrationAnalytics,
  type YearComparison,
} from "../../shared/analytics";
import { DISTANCES_DESC, toDistance, type DistanceKm } from "../../shared/distances";
import type { Db } from "../db/client";

/**
 * SQL for the Stockholm calendar month 'YYYY-MM' of an epoch-ms column. The last Sunday of a month is the first
 * Sunday on or after the 1st of the next month, minus 7 days.
 */
export function stockholmMonthSql(ms: string): string {
  const s = `(${ms}) / 1000`;
  const year = `strftime('%Y', ${s}, 'unixepoch')`;
  const switchAt = (nextMonth: string) =>
    `(unixepoch(date(${year} || '-${nextMonth}-01', 'weekday 0', '-7 days')) + 3600)`;
  const summer = `${s} >= ${switchAt("04")} AND ${s} < ${switchAt("11")}`;
  return `strftime('%Y-%m', ${s}, 'unixepoch', CASE WHEN ${summer} THEN '+2 hours' ELSE '+1 hours' END)`;
}

/**
 * The registration figures as one statement. `reg` is one row per registration that has runners: its season, its
 * runners and paid runners (paid by their payment, not deregistered), whether it has a PAID payment, what its PAID
 * payments brought in less their PAID refunds, and the Stockholm month it was made in. `paid_payment` is one row
 * per PAID payment of those registrations (a family that added a runner after paying has two), with its revenue and
 * the month it was paid in. Both are materialized once; every figure is a GROUP BY over one of them, the results
 * stacked with UNION ALL and told apart by `kind`.
 */
const ANALYTICS_SQL = `
  WITH refunded AS MATERIALIZED (
    SELECT payid, sum(amount) AS refunded FROM refunds WHERE status = 'PAID' GROUP BY payid
  ),
  runners AS MATERIALIZED (
    SELECT registration_id, sum(companion = 0) AS runners,
           sum(companion = 0 AND paid_by IS NOT NULL AND deregistered_at IS NULL) AS paid_runners
      FROM participants WHERE registration_id IS NOT NULL GROUP BY registration_id
  ),
  paid_payment AS MATERIALIZED (
    SELECT pay.registration_id, r.season, pay.amount - coalesce(rf.refunded, 0) AS revenue,
           coalesce(rf.refunded, 0) AS refunded,
           ${stockholmMonthSql("coalesce(pay.date_paid, pay.date_created)")} AS paid_ym
      FROM payments pay
      JOIN registrations r ON r.id = pay.registration_id
      JOIN runners n ON n.registration_id = r.id
      LEFT JOIN refunded rf ON rf.payid = pay.id
     WHERE pay.status = 'PAID'
  ),
  reg AS MATERIALIZED (
    SELECT r.id, r.season, n.runners, n.paid_runners,
           m.registration_id IS NOT NULL AS paid,
           coalesce(m.revenue, 0) AS revenue, coalesce(m.refunded, 0) AS refunded,
           ${stockholmMonthSql("r.created_at")} AS created_ym
      FROM registrations r
      JOIN runners n ON n.registration_id = r.id
      LEFT JOIN (SELECT registration_id, sum(revenue) AS revenue, sum(refunded) AS refunded FROM paid_payment
                  GROUP BY registration_id) m ON m.registration_id = r.id
  )
  SELECT 'total' AS kind, NULL AS season, NULL AS k, count(*) AS n, coalesce(sum(paid), 0) AS paid,
         coalesce(sum(runners), 0) AS runners, coalesce(sum(paid_runners), 0) AS paid_runners,
         coalesce(sum(revenue), 0) AS revenue, coalesce(sum(refunded), 0) AS refunded,
         coalesce(round(100.0 * sum(paid) / count(*), 1), 0) AS rate, count(DISTINCT season) AS seasons,
         NULL AS with_company, NULL AS companies, NULL AS avg_age, NULL AS min_age, NULL AS max_age
    FROM reg
  UNION ALL
  SELECT 'season', season, NULL, count(*), sum(paid), sum(runners), coalesce(sum(paid_runners), 0),
         sum(revenue), sum(refunded), round(100.0 * sum(paid) / count(*), 1), NULL, NULL, NULL, NULL, NULL, NULL
    FROM reg GROUP BY season
  UNION ALL
  SELECT 'month', season, created_ym, count(*), NULL, sum(runners), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL
    FROM reg GROUP BY season, created_ym
  UNION ALL
  SELECT 'revenue-month', season, paid_ym, count(*), NULL, NULL, NULL, sum(revenue), NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL
    FROM paid_payment GROUP BY season, paid_ym
  ORDER BY kind, season, k`;

/**
 * The runner figures (kinds 'season-distance' and 'distance', the same columns): every runner of a registration
 * (a runner makes its registration count), under the registration's season. An adult running with a child without
 * competing (shared/companion.ts) is no runner here, nor in the registrations' runner counts above: the figures
 * (ages per distance included) are the competing runners'.
 */
const RUNNERS_SQL = `
  WITH runner AS MATERIALIZED (
    SELECT r.season, p.distance, p.age, trim(p.company) AS company
      FROM participants p JOIN registrations r ON r.id = p.registration_id
     WHERE p.companion = 0
  )
  SELECT 'season-distance' AS kind, season, distance AS k, NULL AS n, NULL AS paid, count(*) AS runners,
         NULL AS paid_runners, NULL AS revenue, NULL AS refunded, NULL AS rate, NULL AS seasons, NULL AS with_company,
         NULL AS companies, NULL AS avg_age, NULL AS min_age, NULL AS max_age
    FROM runner GROUP BY season, distance
  UNION ALL
  SELECT 'distance', NULL, distance, NULL, NULL, count(*), NULL, NULL, NULL, NULL, NULL, sum(company <> ''),
         count(DISTINCT nullif(lower(company), '')), round(avg(age), 1), min(age), max(age)
    FROM runner GROUP BY distance
  ORDER BY kind, season, k`;

type Kind = "total" | "season" | "month" | "revenue-month" | "season-distance" | "distance";

/** One row of ANALYTICS_SQL or RUNNERS_SQL; which columns are filled depends on `kind`. */
interface Row {
  kind: Kind;
  season: number | null;
  /** 'YYYY-MM' for the month kinds, the distance for the distance kinds. */
  k: string | null;
  /** Registrations (for the month kinds: registrations made / payments made in the month). */
  n: number | null;
  paid: number | null;
  runners: number | null;
  paid_runners: number | null;
  revenue: number | null;
  refunded: number | null;
  rate: number | null;
  seasons: number | null;
  with_company: number | null;
  companies: number | null;
  avg_age: number | null;
  min_age: number | null;
  max_age: number | null;
}

const month = (ym: string) => Number(ym.slice(5, 7));

function emptyBreakdown(): DistanceBreakdown {
  return Object.fromEntries(DISTANCES_DESC.map((d) => [d, 0])) as DistanceBreakdown;
}

export async function registrationAnalytics(db: Db, now: number): Promise<RegistrationAnalytics> {
  const d1 = db.$client;
  const [registrationRows, runnerRows] = await d1.batch<Row>([d1.prepare(ANALYTICS_SQL), d1.prepare(RUNNERS_SQL)]);
  const results = [...registrationRows!.results, ...runnerRows!.results];
  const rows = (kind: Kind) => results.filter((r) => r.kind === kind);
  const num = (x: number | null) => x ?? 0;

  const t = rows("total")[0];
  const summary: AnalyticsSummary = {
    totalRegistrations: num(t?.n ?? null),
    paidRegistrations: num(t?.paid ?? null),
    totalParticipants: num(t?.runners ?? null),
    paidParticipants: num(t?.paid_runners ?? null),
    totalRevenue: num(t?.revenue ?? null),
    paymentRate: num(t?.rate ?? null),
    yearsActive: num(t?.seasons ?? null),
    totalRefunded: num(t?.refunded ?? null),
  };

  const breakdowns = new Map<number, DistanceBreakdown>();
  for (const row of rows("season-distance")) {
    const distance = toDistance(row.k);
    if (!distance || row.season === null) continue; // the participants CHECK allows only the four distances
    const breakdown = breakdowns.get(row.season) ?? emptyBreakdown();
    breakdown[distance] += num(row.runners);
    breakdowns.set(row.season, breakdown);
  }

  const monthFigures = new Map<number, MonthFigures[]>();
  const monthsOf = (season: number) => {
    let list = monthFigures.get(season);
    if (!list) {
      list = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, registrations: 0, participants: 0, revenue: 0 }));
      monthFigures.set(season, list);
    }
    return list;
  };
  const monthlyTrends: MonthlyTrend[] = [];
  for (const row of rows("month")) {
    if (row.season === null || row.k === null) continue;
    const m = month(row.k);
    const figures = monthsOf(row.season)[m - 1]!;
    figures.registrations += num(row.n);
    figures.participants += num(row.runners);
    monthlyTrends.push({ year: row.season, month: m, registrations: num(row.n), participants: num(row.runners) });
  }
  const monthlyRevenue: MonthlyRevenue[] = [];
  for (const row of rows("revenue-month")) {
    if (row.season === null || row.k === null) continue;
    const m = month(row.k);
    monthsOf(row.season)[m - 1]!.revenue += num(row.revenue);
    monthlyRevenue.push({ year: row.season, month: m, revenue: num(row.revenue), payments: num(row.n) });
  }

  const yearComparison: YearComparison[] = [];
  let previous: YearComparison | null = null;
  for (const row of rows("season")) {
    if (row.season === null) continue;
    const entry: YearComparison = {
      year: row.season,
      totalRegistrations: num(row.n),
      paidRegistrations: num(row.paid),
      paymentRate: num(row.rate),
      totalParticipants: num(row.runners),
      paidParticipants: num(row.paid_runners),
      totalAmount: num(row.revenue),
      distanceBreakdown: breakdowns.get(row.season) ?? emptyBreakdown(),
      monthlyBreakdown: monthsOf(row.season),
      previousYear: previous && {
        year: previous.year,
        totalRegistrations: previous.totalRegistrations,
        totalParticipants: previous.totalParticipants,
        totalAmount: previous.totalAmount,
      },
      registrationGrowth: growthPercent(num(row.n), previous?.totalRegistrations),
      revenueGrowth: growthPercent(num(row.revenue), previous?.totalAmount),
    };
    yearComparison.push(entry);
    previous = entry;
  }

  const byDistance = new Map<DistanceKm, Row>();
  for (const row of rows("distance")) {
    const distance = toDistance(row.k);
    if (distance) byDistance.set(distance, row);
  }
  const distanceAnalysis = Object.fromEntries(
    DISTANCES_DESC.map((distance): [DistanceKm, DistanceAnalysis] => {
      const row = byDistance.get(distance);
      return [
        distance,
        {
          distance,
          count: num(row?.runners ?? null),
          companyCount: num(row?.with_company ?? null),
          distinctCompanies: num(row?.companies ?? null),
          avgAge: row?.avg_age ?? null,
          minAge: row?.min_age ?? null,
          maxAge: row?.max_age ?? null,
        },
      ];
    }),
  ) as Record<DistanceKm, DistanceAnalysis>;

  return { summary, yearComparison, distanceAnalysis, monthlyTrends, monthlyRevenue, generatedAt: now };
}

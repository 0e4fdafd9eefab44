/**
 * `GET /admin/api/registration-analytics` (admin spec §3 "Analytics data"): the answer's shape, shared by the
 * Worker (src/worker/analytics/analytics-db.ts computes it in SQL) and the analytics page, plus the few pure rules both use.
 *
 * What the figures count (the spec names the fields; these readings are ours):
 * - A registration counts once it has at least one runner (registrations without participants are dropped from
 *   every admin list, spec §4). It belongs to its season ("year").
 * - Paid: the registration has a PAID payment (a family that added a runner after paying has two; a free campaign
 *   order is paid with amount 0). One without (no payment, CREATED, DECLINED, ERROR, CANCELLED) is unpaid.
 * - Revenue: the amounts of the registrations' PAID payments minus what was refunded of them through Swish
 *   (refunds with status PAID), whole kronor. Box-office sales are not registrations and are not counted here.
 * - Participants: the runners of the counted registrations, paid or not; `paid…` fields count the runners paid by
 *   their payment and not deregistered by a refund.
 * - Months are calendar months in Europe/Stockholm: a registration's month is when it was made, a payment's month
 *   when it was paid (its refunds are taken off in that same month, so months add up to the year).
 * - paymentRate and growth are percentages with one decimal; growth compares with the closest earlier season that
 *   has registrations (a season without a race leaves no gap of zeros) and is null when there is none or it had 0.
 */
import type { DistanceKm } from "./distances";

export interface AnalyticsSummary {
  totalRegistrations: number;
  paidRegistrations: number;
  totalParticipants: number;
  paidParticipants: number;
  /** kr, refunds taken off. */
  totalRevenue: number;
  /** Percentage of registrations that are paid, one decimal (0 when there are none). */
  paymentRate: number;
  /** Seasons with at least one registration. */
  yearsActive: number;
  /** kr refunded of paid registrations (already taken off totalRevenue). */
  totalRefunded: number;
}

/** Runners per distance, every distance present. */
export type DistanceBreakdown = Record<DistanceKm, number>;

export interface MonthFigures {
  /** 1–12 */
  month: number;
  registrations: number;
  participants: number;
  /** kr paid in the month (refunds taken off). */
  revenue: number;
}

export interface PreviousYear {
  year: number;
  totalRegistrations: number;
  totalParticipants: number;
  totalAmount: number;
}

export interface YearComparison {
  year: number;
  totalRegistrations: number;
  paidRegistrations: number;
  paymentRate: number;
  totalParticipants: number;
  paidParticipants: number;
  /** Revenue of the season, kr. */
  totalAmount: number;
  distanceBreakdown: DistanceBreakdown;
  /** The twelve months January–December. */
  monthlyBreakdown: MonthFigures[];
  previousYear: PreviousYear | null;
  /** Percent change of totalRegistrations from previousYear, one decimal; null without one. */
  registrationGrowth: number | null;
  /** Percent change of totalAmount from previousYear, one decimal; null without one. */
  revenueGrowth: number | null;
}

export interface DistanceAnalysis {
  distance: DistanceKm;
  /** Runners on the distance over every season. */
  count: number;
  /** Of them, runners who gave a club or company. */
  companyCount: number;
  /** Different clubs and companies among them (compared without case and surrounding spaces). */
  distinctCompanies: number;
  /** One decimal; null when nobody ran the distance. */
  avgAge: number | null;
  minAge: number | null;
  maxAge: number | null;
}

export interface MonthlyTrend {
  year: number;
  month: number;
  registrations: number;
  participants: number;
}

export interface MonthlyRevenue {
  year: number;
  month: number;
  revenue: number;
  /** Paid registrations whose payment fell in the month. */
  payments: number;
}

export interface RegistrationAnalytics {
  summary: AnalyticsSummary;
  /** One entry per season with registrations, oldest first. */
  yearComparison: YearComparison[];
  /** Keyed by distance, in the spec's order 5.6, 2.8, 1.6, 0.8. */
  distanceAnalysis: Record<DistanceKm, DistanceAnalysis>;
  /** Months with registrations, by year then month. */
  monthlyTrends: MonthlyTrend[];
  /** Months with payments, by year then month. */
  monthlyRevenue: MonthlyRevenue[];
  /** Epoch ms on the server's clock when the figures were computed. */
  generatedAt: number;
}

/** Percent change from `previous` to `current`, one decimal; null when there is nothing to compare with. */
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;

/**
 * Whether an answer is the analytics data (rather than an error or a proxy's page): its parts are there with
 * their kinds (the figures inside are the Worker's, built typed with this shape).
 */
export function isRegistrationAnalytics(x: unknown): x is RegistrationAnalytics {
  return (
    isRecord(x) &&
    isRecord(x.summary) &&
    typeof x.summary.totalRegistrations === "number" &&
    Array.isArray(x.yearComparison) &&
    isRecord(x.distanceAnalysis) &&
    Array.isArray(x.monthlyTrends) &&
    Array.isArray(x.monthlyRevenue) &&
    typeof x.generatedAt === "number"
  );
}

export function growthPercent(current: number, previous: number | null | undefined): number | null {
  if (previous === null || previous === undefined || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** Spec §9: green at 90 % or more, warning at 70 % or more, otherwise red. */
export type RateLevel = "success" | "warning" | "error";

export function paymentRateLevel(percent: number): RateLevel {
  if (percent >= 90) return "success";
  if (percent >= 70) return "warning";
  return "error";
}

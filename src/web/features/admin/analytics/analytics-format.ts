/** How the analytics page writes its figures: Swedish number formats, SEK (spec §9: "Currency SEK in analytics"). */
import { SWEDISH_MONTHS } from "../../../../shared/stockholm";

const sek = new Intl.NumberFormat("sv-SE", { style: "currency", currency: "SEK", maximumFractionDigits: 0 });
const whole = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 12 345 kr as '12 345 kr' (sv-SE writes SEK as 'kr'). */
export function formatSek(amount: number): string {
  return sek.format(amount);
}

export function formatCount(n: number): string {
  return whole.format(n);
}

/** 66.7 → '66,7 %'. */
export function formatPercent(percent: number): string {
  return `${oneDecimal.format(percent)} %`;
}

/** 33.3 → '+33,3 %', −25 → '−25,0 %', null → null (nothing to compare with). */
export function formatGrowth(percent: number | null): string | null {
  if (percent === null) return null;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "±";
  return `${sign}${oneDecimal.format(Math.abs(percent))} %`;
}

export function formatAge(age: number | null): string {
  return age === null ? "–" : oneDecimal.format(age);
}

/** 1 → 'jan', 12 → 'dec'. */
export function shortMonth(month: number): string {
  return (SWEDISH_MONTHS[month - 1] ?? "").slice(0, 3);
}

export function monthName(month: number): string {
  return SWEDISH_MONTHS[month - 1] ?? "";
}

interface MonthlyYear {
  monthlyBreakdown: readonly { registrations: number; revenue: number }[];
}

/**
 * The month numbers (1–12) from the first to the last with any registration or payment in any season, so the tables
 * and charts do not open with a winter of zeros; all twelve when nothing has happened yet.
 */
export function usedMonths(years: readonly MonthlyYear[]): number[] {
  const used = (m: number) =>
    years.some((y) => y.monthlyBreakdown[m - 1]!.registrations > 0 || y.monthlyBreakdown[m - 1]!.revenue !== 0);
  const all = Array.from({ length: 12 }, (_, i) => i + 1);
  const first = all.find(used);
  const last = all.findLast(used);
  return first === undefined || last === undefined ? all : all.slice(first - 1, last);
}

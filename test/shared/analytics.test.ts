import { describe, expect, it } from "vitest";
import { isRegistrationAnalytics, type RegistrationAnalytics } from "../../src/shared/analytics";
import { DISTANCES } from "../../src/shared/distances";

const none = { count: 0, companyCount: 0, distinctCompanies: 0, avgAge: null, minAge: null, maxAge: null };

const analytics: RegistrationAnalytics = {
  summary: {
    totalRegistrations: 0,
    paidRegistrations: 0,
    totalParticipants: 0,
    paidParticipants: 0,
    totalRevenue: 0,
    paymentRate: 0,
    yearsActive: 0,
    totalRefunded: 0,
  },
  yearComparison: [],
  distanceAnalysis: Object.fromEntries(
    DISTANCES.map((distance) => [distance, { distance, ...none }]),
  ) as RegistrationAnalytics["distanceAnalysis"],
  monthlyTrends: [],
  monthlyRevenue: [],
  generatedAt: 1_757_750_400_000,
};

describe("isRegistrationAnalytics", () => {
  it("accepts the analytics answer", () => {
    expect(isRegistrationAnalytics(analytics)).toBe(true);
  });

  it("refuses an error answer, a page and an answer missing a part", () => {
    expect(isRegistrationAnalytics({ error: "Databasen svarar inte." })).toBe(false);
    expect(isRegistrationAnalytics("<html>")).toBe(false);
    expect(isRegistrationAnalytics(null)).toBe(false);
    for (const part of Object.keys(analytics)) {
      const { [part as keyof RegistrationAnalytics]: _dropped, ...rest } = analytics;
      expect(isRegistrationAnalytics(rest), part).toBe(false);
    }
    expect(isRegistrationAnalytics({ ...analytics, summary: {} })).toBe(false);
    expect(isRegistrationAnalytics({ ...analytics, yearComparison: {} })).toBe(false);
  });
});

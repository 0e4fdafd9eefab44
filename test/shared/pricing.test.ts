import { describe, expect, it } from "vitest";
import {
  campaignTotal,
  isEarlyPrice,
  listTotal,
  onSitePrice,
  onSiteTotal,
  orderPrices,
  priceTier,
  runnerPrice,
} from "../../src/shared/pricing";
import { SEASON } from "../../src/shared/season";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const LAST_EARLY_SECOND = stockholmToEpoch("2025-09-06T23:59:59");
const FIRST_LATE = stockholmToEpoch("2025-09-07T00:00:00");
const EARLY = stockholmToEpoch("2025-06-01T12:00");
const LATE = stockholmToEpoch("2025-09-10T12:00");

describe("price tier", () => {
  it("is early up to and including 6 Sep 2025 23:59:59 Stockholm", () => {
    expect(priceTier(LAST_EARLY_SECOND)).toEqual({ adult: 150, child: 100 });
    expect(priceTier(LAST_EARLY_SECOND + 999)).toEqual({ adult: 150, child: 100 });
    expect(isEarlyPrice(EARLY)).toBe(true);
  });

  it("is late from 7 Sep 2025 00:00:00 Stockholm", () => {
    expect(priceTier(FIRST_LATE)).toEqual({ adult: 250, child: 150 });
    expect(isEarlyPrice(FIRST_LATE)).toBe(false);
  });

  it("switches at Stockholm midnight, not UTC midnight", () => {
    // 22:30 UTC on 6 Sep is 00:30 on 7 Sep in Stockholm.
    expect(isEarlyPrice(Date.parse("2025-09-06T22:30:00Z"))).toBe(false);
    expect(isEarlyPrice(Date.parse("2025-09-06T21:59:59Z"))).toBe(true);
  });

  it("follows the season config", () => {
    const season = { ...SEASON, earlyPriceUntil: "2025-08-31T23:59:59" };
    expect(isEarlyPrice(stockholmToEpoch("2025-09-01T00:00"), season)).toBe(false);
  });
});

describe("runner price and list total", () => {
  it("prices a runner by age and tier", () => {
    expect(runnerPrice(15, LAST_EARLY_SECOND)).toBe(100);
    expect(runnerPrice(16, LAST_EARLY_SECOND)).toBe(150);
    expect(runnerPrice(15, FIRST_LATE)).toBe(150);
    expect(runnerPrice(16, FIRST_LATE)).toBe(250);
  });

  it("total = children × child price + adults × adult price", () => {
    expect(listTotal({ barn: 2, vuxna: 3 }, EARLY)).toBe(2 * 100 + 3 * 150);
    expect(listTotal({ barn: 2, vuxna: 3 }, LATE)).toBe(2 * 150 + 3 * 250);
    expect(listTotal({ barn: 0, vuxna: 0 }, LATE)).toBe(0);
  });

  it("refuses bad counts instead of pricing them", () => {
    expect(() => listTotal({ barn: -1, vuxna: 2 }, EARLY)).toThrow(RangeError);
    expect(() => listTotal({ barn: 1.5, vuxna: 2 }, EARLY)).toThrow(RangeError);
    expect(() => campaignTotal("free", { barn: NaN, vuxna: 0 }, EARLY)).toThrow(RangeError);
  });
});

describe("campaign totals", () => {
  const mixed = { barn: 3, vuxna: 2 };

  it("flat50: 50 per person whatever the tier", () => {
    expect(campaignTotal("flat50", mixed, EARLY)).toBe(250);
    expect(campaignTotal("flat50", mixed, LATE)).toBe(250);
    expect(campaignTotal("flat50", { barn: 0, vuxna: 1 }, LATE)).toBe(50);
  });

  it("free: 0", () => {
    expect(campaignTotal("free", mixed, EARLY)).toBe(0);
    expect(campaignTotal("free", mixed, LATE)).toBe(0);
  });

  it("minus50: 50 off each price of the current tier", () => {
    expect(campaignTotal("minus50", mixed, EARLY)).toBe(3 * 50 + 2 * 100);
    expect(campaignTotal("minus50", mixed, LATE)).toBe(3 * 100 + 2 * 200);
    expect(campaignTotal("minus50", mixed, LAST_EARLY_SECOND)).toBe(350);
    expect(campaignTotal("minus50", mixed, FIRST_LATE)).toBe(700);
  });

  it("minus50 never prices a runner below 0", () => {
    const cheap = { ...SEASON, earlyPrice: { adult: 40, child: 20 } };
    expect(campaignTotal("minus50", mixed, EARLY, cheap)).toBe(0);
  });

  it("epassi: one runner's fee waived, the most expensive one of the order, in the current tier", () => {
    // 3 children + 2 adults: one adult's fee off.
    expect(campaignTotal("epassi", mixed, EARLY)).toBe(3 * 100 + 150);
    expect(campaignTotal("epassi", mixed, LATE)).toBe(3 * 150 + 250);
    expect(campaignTotal("epassi", mixed, LAST_EARLY_SECOND)).toBe(450);
    expect(campaignTotal("epassi", mixed, FIRST_LATE)).toBe(700);
    // Children only: one child's fee off.
    expect(campaignTotal("epassi", { barn: 2, vuxna: 0 }, EARLY)).toBe(100);
    // One runner: free.
    expect(campaignTotal("epassi", { barn: 0, vuxna: 1 }, LATE)).toBe(0);
    expect(campaignTotal("epassi", { barn: 1, vuxna: 0 }, LATE)).toBe(0);
    expect(campaignTotal("epassi", { barn: 0, vuxna: 0 }, LATE)).toBe(0);
  });

  it("epassi waives the dearer fee even if a season priced children above adults", () => {
    const odd = { ...SEASON, earlyPrice: { adult: 80, child: 120 } };
    expect(campaignTotal("epassi", { barn: 1, vuxna: 1 }, EARLY, odd)).toBe(80);
    expect(campaignTotal("epassi", { barn: 0, vuxna: 2 }, EARLY, odd)).toBe(80);
  });

  it("epassi refuses bad counts like every rule", () => {
    expect(() => campaignTotal("epassi", { barn: -1, vuxna: 1 }, EARLY)).toThrow(RangeError);
  });
});

describe("on-site price", () => {
  it("uses the season's box-office price", () => {
    expect(onSitePrice(15)).toBe(SEASON.onSitePrice.child);
    expect(onSitePrice(16)).toBe(SEASON.onSitePrice.adult);
    expect(onSiteTotal({ barn: 1, vuxna: 2 })).toBe(200 + 2 * 300);
  });
});

describe("each runner's share of an order (orderPrices)", () => {
  const family = [
    { id: "barn1", age: 8 },
    { id: "mamma", age: 41 },
    { id: "barn2", age: 15 },
    { id: "pappa", age: 16 },
  ];
  const counts = { barn: 2, vuxna: 2 };

  it("adds up to the order's total under every rule, in both tiers", () => {
    for (const now of [EARLY, LATE]) {
      const sum = (prices: Record<string, number>) => Object.values(prices).reduce((a, b) => a + b, 0);
      expect(sum(orderPrices(family, null, now))).toBe(listTotal(counts, now));
      for (const rule of ["flat50", "free", "minus50", "epassi"] as const) {
        expect(sum(orderPrices(family, rule, now)), rule).toBe(campaignTotal(rule, counts, now));
      }
    }
  });

  it("prices a child and an adult by age at the tier of the day; Epassi waives the first adult", () => {
    expect(orderPrices(family, null, EARLY)).toEqual({ barn1: 100, mamma: 150, barn2: 100, pappa: 150 });
    expect(orderPrices([{ id: "syster", age: 6 }], null, LATE)).toEqual({ syster: 150 });
    expect(orderPrices(family, "minus50", EARLY)).toEqual({ barn1: 50, mamma: 100, barn2: 50, pappa: 100 });
    expect(orderPrices(family, "epassi", EARLY)).toEqual({ barn1: 100, mamma: 0, barn2: 100, pappa: 150 });
    expect(
      orderPrices(
        [
          { id: "a", age: 5 },
          { id: "b", age: 9 },
        ],
        "epassi",
        EARLY,
      ),
    ).toEqual({ a: 0, b: 100 });
  });
});

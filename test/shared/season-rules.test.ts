import { describe, expect, it } from "vitest";
import { SEASON, type Season } from "../../src/shared/season";
import {
  assertValidSeason,
  bibRange,
  distanceForBib,
  isOnSiteRegistrationDay,
  isRegistrationOpen,
  onSiteRegistrationText,
  openDistances,
  raceStartEpoch,
  showBibPickupBanner,
  showRegistrationButton,
  validateSeason,
} from "../../src/shared/season-rules";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const at = stockholmToEpoch;

describe("registration on site (race morning)", () => {
  it("is race day with online registration closed, and says where, from when and the on-site price", () => {
    expect(isOnSiteRegistrationDay(at("2025-09-12T23:59:59"))).toBe(false);
    expect(isOnSiteRegistrationDay(at("2025-09-13T00:00:00"))).toBe(true);
    expect(isOnSiteRegistrationDay(at("2025-09-13T23:59:59"))).toBe(true);
    expect(isOnSiteRegistrationDay(at("2025-09-14T00:00:00"))).toBe(false);
    expect(onSiteRegistrationText()).toBe("Anmälan på plats vid skolans matsal från 10:00: vuxen 300 kr, barn 200 kr.");
  });
});

describe("registration window", () => {
  it("is open up to and including lastRegistration 2025-09-12 23:59:59", () => {
    expect(isRegistrationOpen(at("2025-06-01T00:00"))).toBe(true);
    expect(isRegistrationOpen(at("2025-09-12T23:59:59"))).toBe(true);
    expect(isRegistrationOpen(at("2025-09-12T23:59:59") + 999)).toBe(true);
    expect(isRegistrationOpen(at("2025-09-13T00:00:00"))).toBe(false);
  });

  it("shows the registration button until 13 Sep 2025 12:00 (exclusive)", () => {
    expect(showRegistrationButton(at("2025-09-13T11:59:59"))).toBe(true);
    expect(showRegistrationButton(at("2025-09-13T12:00:00") - 1)).toBe(true);
    expect(showRegistrationButton(at("2025-09-13T12:00:00"))).toBe(false);
  });
});

describe("bib pick-up banner", () => {
  it("appears at 00:00 seven days before race day", () => {
    expect(showBibPickupBanner(at("2025-09-05T23:59:59"))).toBe(false);
    expect(showBibPickupBanner(at("2025-09-06T00:00:00"))).toBe(true);
  });

  it("shows on race day", () => {
    expect(showBibPickupBanner(at("2025-09-13T10:00"))).toBe(true);
  });

  it("disappears after the end of the day after race day", () => {
    expect(showBibPickupBanner(at("2025-09-14T23:59:59"))).toBe(true);
    expect(showBibPickupBanner(at("2025-09-14T23:59:59") + 999)).toBe(true);
    expect(showBibPickupBanner(at("2025-09-15T00:00:00"))).toBe(false);
  });

  it("uses Stockholm midnight (22:00 UTC in September)", () => {
    expect(showBibPickupBanner(Date.parse("2025-09-05T22:00:00Z"))).toBe(true);
    expect(showBibPickupBanner(Date.parse("2025-09-05T21:59:59Z"))).toBe(false);
  });
});

describe("races", () => {
  it("starts each distance at its time on race day", () => {
    expect(raceStartEpoch("0.8")).toBe(Date.parse("2025-09-13T09:00:00Z"));
    expect(raceStartEpoch("1.6")).toBe(Date.parse("2025-09-13T09:15:00Z"));
    expect(raceStartEpoch("2.8")).toBe(Date.parse("2025-09-13T09:45:00Z"));
    expect(raceStartEpoch("5.6")).toBe(Date.parse("2025-09-13T09:45:00Z"));
  });

  it("throws for a distance the season does not run", () => {
    const season = { ...SEASON, races: SEASON.races.filter((r) => r.distance !== "5.6") };
    expect(() => raceStartEpoch("5.6", season)).toThrow(RangeError);
    expect(() => bibRange("5.6", season)).toThrow(RangeError);
  });

  it("maps bibs to distances by range, inclusive at both ends", () => {
    expect(bibRange("0.8")).toEqual([1, 199]);
    expect(distanceForBib(1)).toBe("0.8");
    expect(distanceForBib(199)).toBe("0.8");
    expect(distanceForBib(200)).toBe("1.6");
    expect(distanceForBib(599)).toBe("2.8");
    expect(distanceForBib(600)).toBe("5.6");
    expect(distanceForBib(999)).toBe("5.6");
    expect(distanceForBib(0)).toBeNull();
    expect(distanceForBib(1000)).toBeNull();
    expect(distanceForBib(12.5)).toBeNull();
  });

  it("lists distances open for registration, ascending", () => {
    expect(openDistances()).toEqual(["0.8", "1.6", "2.8", "5.6"]);
    const season = { ...SEASON, races: SEASON.races.map((r) => ({ ...r, openForReg: r.distance !== "1.6" })) };
    expect(openDistances(season)).toEqual(["0.8", "2.8", "5.6"]);
  });
});

describe("validateSeason", () => {
  it("accepts the configured season", () => {
    expect(validateSeason(SEASON)).toEqual([]);
    expect(() => assertValidSeason(SEASON)).not.toThrow();
  });

  const broken = (change: Partial<Season>): string[] => validateSeason({ ...SEASON, ...change });

  it("defaults to the spec's behaviour: companions free, every result published", () => {
    expect(SEASON.companionPrice).toBe(0);
    expect(SEASON.childSafePublishing).toBe(false);
  });

  it("rejects a companion price that is not whole kronor, and a child-safe setting that is not a boolean", () => {
    expect(broken({ companionPrice: -1 })).toEqual([expect.stringContaining("companionPrice")]);
    expect(broken({ companionPrice: 12.5 })).toEqual([expect.stringContaining("companionPrice")]);
    expect(broken({ companionPrice: 50 })).toEqual([]);
    expect(broken({ childSafePublishing: "ja" as unknown as boolean })).toEqual([
      expect.stringContaining("childSafePublishing"),
    ]);
  });

  it("rejects a badly written moment or race day", () => {
    expect(broken({ raceDay: "2025-09-31" })).toHaveLength(1);
    expect(broken({ raceDay: "2024-09-13" })).toHaveLength(1);
    expect(broken({ earlyPriceUntil: "6 sep 2025" })).toHaveLength(1);
    expect(broken({ lastRegistration: "2025-09-12T25:00" })).toHaveLength(1);
  });

  it("rejects an early-price cut-off after registration closes, and registration after race day", () => {
    expect(broken({ earlyPriceUntil: "2025-09-13T00:00" })).toEqual([expect.stringContaining("earlyPriceUntil")]);
    expect(broken({ lastRegistration: "2025-09-14T00:00" })).toEqual([expect.stringContaining("lastRegistration")]);
  });

  it("rejects non-positive or fractional prices", () => {
    expect(broken({ earlyPrice: { adult: 0, child: 100 } })).toHaveLength(1);
    expect(broken({ latePrice: { adult: 250, child: -5 } })).toHaveLength(1);
    expect(broken({ onSitePrice: { adult: 299.5, child: 200 } })).toHaveLength(1);
  });

  it("rejects overlapping bib ranges, a bad range, a bad start time and a bad or repeated distance", () => {
    const races = (f: (r: Season["races"][number], i: number) => Partial<Season["races"][number]>) =>
      SEASON.races.map((r, i) => ({ ...r, ...f(r, i) }));
    expect(broken({ races: races((r) => (r.distance === "1.6" ? { bibRange: [199, 399] } : {})) })).toEqual([
      expect.stringContaining("överlappar"),
    ]);
    expect(broken({ races: races((r) => (r.distance === "1.6" ? { bibRange: [399, 200] } : {})) })).not.toEqual([]);
    expect(broken({ races: races((r) => (r.distance === "1.6" ? { startTime: "11.15" } : {})) })).toHaveLength(1);
    expect(broken({ races: races((r) => (r.distance === "1.6" ? { startTime: "24:00" } : {})) })).toHaveLength(1);
    const badDistance = races((r) => (r.distance === "1.6" ? { distance: "1.0" as never } : {}));
    expect(broken({ races: badDistance })).toHaveLength(1);
    const twice = races((r) => (r.distance === "1.6" ? { distance: "0.8" } : {}));
    expect(broken({ races: twice })).toEqual([expect.stringContaining("två gånger")]);
    expect(broken({ races: [] })).toHaveLength(1);
  });

  it("rejects a bad adult age and contact address", () => {
    expect(broken({ adultAge: 0 })).toHaveLength(1);
    expect(broken({ adultAge: 15.5 })).toHaveLength(1);
    expect(broken({ contactEmail: "info" })).toHaveLength(1);
  });

  it("assertValidSeason lists every problem", () => {
    expect(() => assertValidSeason({ ...SEASON, adultAge: -1, contactEmail: "x" })).toThrow(
      /adultAge[\s\S]*contactEmail/,
    );
  });
});

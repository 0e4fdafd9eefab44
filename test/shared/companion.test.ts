/**
 * Issue 28, item 6: the companion rule (shared/companion.ts), its place in the runner form and in the prices; issue 39:
 * what a save and a refund may leave.
 */
import { describe, expect, it } from "vitest";
import { countAges } from "../../src/shared/age";
import {
  childDistances,
  companionError,
  COMPANION_MESSAGES,
  companionErrors,
  companionSaveErrors,
  companionsLeftWithoutChild,
  strandedCompanions,
} from "../../src/shared/companion";
import { campaignTotal, listTotal, onSitePrice, onSiteTotal, orderPrices } from "../../src/shared/pricing";
import { checkRunner, checkRunnerMap } from "../../src/shared/registration-schema";
import { changesPriceClass } from "../../src/shared/registration-view";
import { SEASON, type Season } from "../../src/shared/season";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const EARLY = stockholmToEpoch("2025-06-01T12:00");
const NOW = stockholmToEpoch("2025-08-25T10:00");
const child = { age: 7, distance: "0.8" };
const parent = { age: 40, distance: "0.8", companion: true };
const paying: Season = { ...SEASON, companionPrice: 50 };

describe("the companion rule", () => {
  it("an adult on a distance a child of the family runs", () => {
    expect(companionError(parent, [child, parent])).toBeNull();
    expect(companionError({ ...parent, age: SEASON.adultAge }, [child])).toBeNull();
  });

  it("refuses a child, and a distance no competing child of the family runs", () => {
    expect(companionError({ ...parent, age: SEASON.adultAge - 1 }, [child])).toBe(COMPANION_MESSAGES.notAdult());
    expect(companionError({ ...parent, distance: "1.6" }, [child])).toBe(COMPANION_MESSAGES.noChild("1.6"));
    // Another companion, an adult, a deregistered child: none of them carries a companion.
    expect(companionError(parent, [parent, { age: 30, distance: "0.8" }])).toBe(COMPANION_MESSAGES.noChild("0.8"));
    expect(companionError(parent, [{ ...child, deregistered: "2025-09-01T10:00:00.000Z" }])).not.toBeNull();
    expect(childDistances([child, { age: 9, distance: "1.6", companion: true }])).toEqual(new Set(["0.8"]));
  });

  it("a competing runner is never asked", () => {
    expect(companionError({ age: 40, distance: "5.6" }, [])).toBeNull();
    expect(
      companionErrors([
        { ...parent, key: "p" },
        { ...child, key: "c" },
      ]),
    ).toEqual({});
    expect(companionErrors([{ ...parent, key: "p" }])).toEqual({ p: COMPANION_MESSAGES.noChild("0.8") });
  });
});

describe("the runner form", () => {
  const fields = { firstname: "Per", lastname: "Ek", age: 40, distance: "0.8", group: "Ingen" };

  it("keeps the flag only on a companion; a competing runner's form is as before", () => {
    expect(checkRunner({ ...fields, companion: true }, NOW)).toEqual({
      ok: true,
      value: { ...fields, company: "", companion: true },
    });
    expect(checkRunner({ ...fields, companion: false }, NOW)).toEqual({ ok: true, value: { ...fields, company: "" } });
    expect(checkRunner(fields, NOW)).toEqual({ ok: true, value: { ...fields, company: "" } });
  });

  it("refuses a child as companion and a flag that is not a boolean", () => {
    expect(checkRunner({ ...fields, age: 10, companion: true }, NOW)).toEqual({
      ok: false,
      errors: { companion: COMPANION_MESSAGES.notAdult() },
    });
    expect(checkRunner({ ...fields, companion: "ja" }, NOW).ok).toBe(false);
  });

  it("the map needs a child on each companion's distance", () => {
    const map = { p: { ...fields, companion: true }, c: { ...fields, firstname: "Lo", age: 6 } };
    expect(checkRunnerMap(map, NOW).ok).toBe(true);
    expect(checkRunnerMap({ p: map.p }, NOW)).toEqual({
      ok: false,
      errors: { "p.companion": COMPANION_MESSAGES.noChild("0.8") },
    });
    expect(checkRunnerMap({ ...map, c: { ...map.c, distance: "1.6" } }, NOW).ok).toBe(false);
  });

  it("becoming or ceasing to be a companion changes the price class", () => {
    expect(changesPriceClass(40, 40, SEASON, { before: true, after: false })).toBe(true);
    expect(changesPriceClass(40, 40, SEASON, { before: false, after: true })).toBe(true);
    expect(changesPriceClass(40, 41, SEASON, { before: true, after: true })).toBe(false);
  });
});

describe("prices: companions counted apart at the season's companionPrice", () => {
  const runners = [
    { id: "a", age: 40 },
    { id: "c", age: 7 },
    { id: "p", age: 42, companion: true },
  ];

  it("are neither children nor adults in the counts", () => {
    expect(countAges(runners)).toEqual({ barn: 1, vuxna: 1, medBarn: 1 });
    expect(countAges([{ age: 40 }])).toEqual({ barn: 0, vuxna: 1 });
  });

  it("cost 0 kr by default, companionPrice each when the season says so, in every tier and at the box office", () => {
    const counts = countAges(runners);
    expect(listTotal(counts, EARLY)).toBe(250);
    expect(listTotal(counts, EARLY, paying)).toBe(300);
    expect(listTotal({ barn: 0, vuxna: 0, medBarn: 2 }, EARLY, paying)).toBe(100);
    expect(onSiteTotal(counts, paying)).toBe(300 + 200 + 50);
    expect(onSitePrice(42, paying, true)).toBe(50);
    expect(onSitePrice(42, paying)).toBe(300);
  });

  it("a campaign code does not change the companions' price", () => {
    const counts = countAges(runners);
    expect(campaignTotal("free", counts, EARLY, paying)).toBe(50);
    expect(campaignTotal("flat50", counts, EARLY, paying)).toBe(150);
    expect(campaignTotal("minus50", counts, EARLY, paying)).toBe(100 + 50 + 50);
    // Epassi waives the most expensive competing fee, never a companion's.
    expect(campaignTotal("epassi", counts, EARLY, paying)).toBe(100 + 50);
  });

  it("each runner's share adds up to the total, the companion's share its price", () => {
    for (const rule of [null, "flat50", "free", "minus50", "epassi"] as const) {
      const shares = orderPrices(runners, rule, EARLY, paying);
      expect(shares.p).toBe(50);
      const total =
        rule === null
          ? listTotal(countAges(runners), EARLY, paying)
          : campaignTotal(rule, countAges(runners), EARLY, paying);
      expect(Object.values(shares).reduce((a, b) => a + b, 0)).toBe(total);
    }
    // Epassi's waived fee is the first competing adult's, never the companion listed first.
    expect(orderPrices([runners[2]!, runners[0]!, runners[1]!], "epassi", EARLY, paying)).toEqual({
      p: 50,
      a: 0,
      c: 100,
    });
  });
});

describe("issue 39: a save, a refund and the companions they leave", () => {
  const lo = { key: "lo", firstname: "Lo", lastname: "Ek", age: 6, distance: "0.8" };
  const per = { key: "per", firstname: "Per", lastname: "Ek", age: 43, distance: "0.8", companion: true };
  const siv = { key: "siv", firstname: "Siv", lastname: "Ek", age: 9, distance: "1.6" };
  const none = () => false;

  it("a refund's stranded companion, unchanged, never refuses the save; changed, it is checked and named", () => {
    const before = [
      { ...lo, deregistered: 1 },
      { ...per, paid: true },
    ];
    expect(strandedCompanions(before).map((r) => r.key)).toEqual(["per"]);
    // A sibling added beside him: valid, he is left as he is.
    expect(companionSaveErrors([...before, siv], before, (k) => k !== "siv")).toEqual({});
    // Renamed, he is a change: he needs a child, and the message says where one runs.
    expect(companionSaveErrors([...before, siv], before, (k) => k === "lo")).toEqual({
      per: "Inget barn i anmälan springer 0,8 km. Per Ek springer med barn och måste välja samma distans som ett barn (1,6 km).",
    });
    expect(companionSaveErrors([before[0]!, { ...per, distance: "1.6", paid: true }, siv], before, none)).toEqual({});
  });

  it("a save cannot strand a companion: the child moved or removed names what makes it valid", () => {
    const before = [lo, per];
    expect(companionSaveErrors([{ ...lo, distance: "1.6" }, per], before, (k) => k === "per")).toEqual({
      per: "Inget barn i anmälan springer 0,8 km efter ändringen, och Per Ek springer med barn där. Flytta Per med till 1,6 km i samma ändring, eller ta bort Per.",
    });
    expect(companionSaveErrors([per, siv], before, (k) => k === "per")).toEqual({
      per: "Inget barn i anmälan springer 0,8 km efter ändringen, och Per Ek springer med barn där. Ta bort Per i samma ändring, eller flytta Per till 1,6 km.",
    });
    expect(companionSaveErrors([{ ...per, paid: true }], [lo, { ...per, paid: true }], (k) => k === "per")).toEqual({
      per: `Inget barn i anmälan springer 0,8 km efter ändringen, och Per Ek springer med barn där. Per är betald och kan inte tas bort här: behåll barnet, eller skriv till ${SEASON.contactEmail}.`,
    });
    expect(
      companionSaveErrors(
        [
          { ...lo, distance: "1.6" },
          { ...per, distance: "1.6" },
        ],
        before,
        none,
      ),
    ).toEqual({});
    expect(companionSaveErrors([per], [], none)).toEqual({
      per: "Inget barn i anmälan springer 0,8 km. Per Ek springer med barn och måste välja samma distans som ett barn: lägg till barnet först.",
    });
  });

  it("who a leaving child leaves without any child: not those with another child there, not one leaving too", () => {
    const family = [lo, per, siv, { ...per, key: "eva", distance: "1.6" }];
    expect(companionsLeftWithoutChild(new Set(["lo"]), family).map((r) => r.key)).toEqual(["per"]);
    expect(companionsLeftWithoutChild(new Set(["lo", "per"]), family)).toEqual([]);
    expect(companionsLeftWithoutChild(new Set(["lo"]), [...family, { ...lo, key: "bo" }])).toEqual([]);
    expect(companionsLeftWithoutChild(new Set(["siv", "lo"]), family).map((r) => r.key)).toEqual(["per", "eva"]);
  });
});

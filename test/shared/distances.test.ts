import { describe, expect, it } from "vitest";
import {
  DISTANCES,
  DISTANCES_DESC,
  GROUPS,
  distanceFromMeters,
  distanceLabel,
  distanceMeters,
  distanceTabLabel,
  distanceTenths,
  isDistance,
  isGroup,
  toDistance,
  toGroup,
} from "../../src/shared/distances";

describe("distances", () => {
  it("lists the four distances ascending and descending", () => {
    expect(DISTANCES).toEqual(["0.8", "1.6", "2.8", "5.6"]);
    expect(DISTANCES_DESC).toEqual(["5.6", "2.8", "1.6", "0.8"]);
  });

  it("accepts the wire forms as numbers or strings", () => {
    for (const d of DISTANCES) {
      expect(isDistance(d)).toBe(true);
      expect(isDistance(Number(d))).toBe(true);
      expect(toDistance(Number(d))).toBe(d);
      expect(toDistance(d)).toBe(d);
    }
  });

  it("normalises a comma, spaces and a trailing zero", () => {
    expect(toDistance("5,6")).toBe("5.6");
    expect(toDistance(" 2.8 ")).toBe("2.8");
    expect(toDistance("0.80")).toBe("0.8");
    // isDistance is the strict wire check; looser spellings only through toDistance.
    expect(isDistance("5,6")).toBe(false);
  });

  it.each([5, 5.7, 0, -5.6, "5", "5.6km", "abc", "", " ", "0x10", "5.6.1", null, undefined, true, {}, ["5.6"], NaN])(
    "rejects %j",
    (bad) => {
      expect(isDistance(bad)).toBe(false);
      expect(toDistance(bad)).toBeNull();
    },
  );

  it("labels distances as the spec quotes them", () => {
    expect(DISTANCES_DESC.map(distanceLabel)).toEqual(["5,6km", "2,8km", "1,6km", "0,8km"]);
    expect(DISTANCES.map(distanceTabLabel)).toEqual(["0.8K", "1.6K", "2.8K", "5.6K"]);
  });

  it("converts to and from tenths and metres", () => {
    expect(DISTANCES.map(distanceTenths)).toEqual([8, 16, 28, 56]);
    expect(DISTANCES.map(distanceMeters)).toEqual([800, 1600, 2800, 5600]);
    for (const d of DISTANCES) expect(distanceFromMeters(distanceMeters(d))).toBe(d);
    expect(distanceFromMeters(1000)).toBeNull();
    expect(distanceFromMeters(5600.5)).toBeNull();
  });
});

describe("groups", () => {
  it("has Ingen, Dam, Herr", () => {
    expect(GROUPS).toEqual(["Ingen", "Dam", "Herr"]);
    for (const g of GROUPS) expect(isGroup(g)).toBe(true);
  });

  it("isGroup is exact", () => {
    for (const bad of ["herr", "Herr ", "", "Barn", null, 1]) expect(isGroup(bad)).toBe(false);
  });

  it("toGroup normalises case and treats empty as Ingen", () => {
    expect(toGroup(" herr ")).toBe("Herr");
    expect(toGroup("DAM")).toBe("Dam");
    expect(toGroup("")).toBe("Ingen");
    expect(toGroup(undefined)).toBe("Ingen");
    expect(toGroup("Barn")).toBeNull();
    expect(toGroup(3)).toBeNull();
  });
});

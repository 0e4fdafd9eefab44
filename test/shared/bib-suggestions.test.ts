import { describe, expect, it } from "vitest";
import { likelyBibs } from "../../src/shared/bib-suggestions";

describe("likelyBibs", () => {
  it("finds each slip among the waiting runners' bibs", () => {
    expect(likelyBibs(615, [651, 700])).toEqual([{ bib: 651, reason: "swapped" }]);
    expect(likelyBibs(652, [651, 700])).toEqual([{ bib: 651, reason: "one-digit" }]);
    expect(likelyBibs(61, [611, 700])).toEqual([{ bib: 611, reason: "missing" }]);
    expect(likelyBibs(51, [651, 700])).toEqual([{ bib: 651, reason: "missing" }]);
    expect(likelyBibs(6511, [651, 700])).toEqual([{ bib: 651, reason: "doubled" }]);
    expect(likelyBibs(156, [651])).toEqual([{ bib: 651, reason: "swapped" }]);
  });

  it("ranks a neighbour swap before one wrong digit, then a missing and a doubled digit, nearest first", () => {
    expect(likelyBibs(612, [612, 999, 216, 6121, 1612, 622, 621], 10)).toEqual([
      { bib: 621, reason: "swapped" },
      { bib: 622, reason: "one-digit" },
      { bib: 1612, reason: "missing" },
      { bib: 6121, reason: "missing" },
      { bib: 216, reason: "swapped" },
    ]);
    expect(likelyBibs(6112, [612, 16112, 6113, 6121])).toEqual([
      { bib: 6121, reason: "swapped" },
      { bib: 6113, reason: "one-digit" },
      { bib: 16112, reason: "missing" },
      { bib: 612, reason: "doubled" },
    ]);
  });

  it("is empty for a bib no slip explains, never suggests the typed bib, and keeps to the limit", () => {
    expect(likelyBibs(612, [999, 5, 612])).toEqual([]);
    expect(likelyBibs(10, [11, 12, 13, 14, 15, 16, 17], 3).map((s) => s.bib)).toEqual([11, 12, 13]);
    expect(likelyBibs(Number.NaN, [1])).toEqual([]);
  });

  it("a doubled digit only where two equal digits sit side by side", () => {
    expect(likelyBibs(6151, [651])).toEqual([]);
    expect(likelyBibs(6551, [651])).toEqual([{ bib: 651, reason: "doubled" }]);
  });
});

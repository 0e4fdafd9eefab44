import { describe, expect, it } from "vitest";
import { matchBibs, type MatchRunner, type MatchSlot } from "../../src/shared/bib-matching";

function slots(n: number): MatchSlot[] {
  return Array.from({ length: n }, (_, i) => ({ key: `s${i + 1}`, at: 1_000 * (i + 1), taps: [{ id: `s${i + 1}` }] }));
}

function runners(bibs: number[], status: MatchRunner["status"] = "waiting"): MatchRunner[] {
  return bibs.map((bib) => ({ id: `r${bib}`, bib, status }));
}

const entries = (bibs: number[]) => bibs.map((bib, i) => ({ id: `e${i + 1}`, bib }));

describe("matchBibs", () => {
  it("pairs the bibs typed in order with the slots in order", () => {
    const m = matchBibs(slots(3), [], entries([12, 15, 11]), runners([11, 12, 15]));
    expect(m.pairs).toEqual([
      { runnerId: "r12", slot: "s1", at: 1_000, claim: "e1" },
      { runnerId: "r15", slot: "s2", at: 2_000, claim: "e2" },
      { runnerId: "r11", slot: "s3", at: 3_000, claim: "e3" },
    ]);
    expect(m.problems).toEqual([]);
  });

  it("slots waiting for their bibs at the end are no problem until the race is settled", () => {
    expect(matchBibs(slots(3), [], entries([12]), runners([11, 12])).problems).toEqual([]);
    const settled = matchBibs(slots(3), [], entries([12]), runners([11, 12]), { settled: true });
    expect(settled.problems.map((p) => (p.kind === "slot-unmatched" ? p.slot.key : p.kind))).toEqual(["s2", "s3"]);
  });

  it("a bib not in the race holds its slot and suggests the likely meant waiting runners", () => {
    const m = matchBibs(slots(3), [], entries([12, 51, 11]), runners([11, 12, 15]));
    expect(m.pairs.map((p) => [p.runnerId, p.slot])).toEqual([
      ["r12", "s1"],
      ["r11", "s3"],
    ]);
    expect(m.problems).toEqual([
      {
        kind: "bib-unknown",
        claim: { id: "e2", kind: "entry", bib: 51, slot: "s2", runnerId: null },
        suggestions: [{ bib: 15, reason: "swapped" }],
      },
    ]);
  });

  it("a bib typed twice: the first keeps the runner, the second holds its slot", () => {
    const m = matchBibs(slots(3), [], entries([12, 12, 11]), runners([11, 12, 13]));
    expect(m.pairs.map((p) => [p.runnerId, p.slot])).toEqual([
      ["r12", "s1"],
      ["r11", "s3"],
    ]);
    expect(m.problems).toHaveLength(1);
    expect(m.problems[0]).toMatchObject({
      kind: "bib-twice",
      claim: { id: "e2", slot: "s2" },
      first: { id: "e1" },
      suggestions: [{ bib: 13, reason: "one-digit" }],
    });
  });

  it("a bib of a runner timed elsewhere or marked DNS is 'bib-finished'; more bibs than slots are 'bib-unmatched'", () => {
    const rs = [
      ...runners([11, 12]),
      { id: "r13", bib: 13, status: "timed" as const },
      { id: "r14", bib: 14, status: "dns" as const },
    ];
    const m = matchBibs(slots(2), [], entries([13, 14, 11, 12]), rs);
    expect(m.pairs).toEqual([]);
    expect(m.problems.map((p) => [p.kind, "claim" in p ? p.claim.id : ""])).toEqual([
      ["bib-finished", "e1"],
      ["bib-finished", "e2"],
      ["bib-unmatched", "e3"],
      ["bib-unmatched", "e4"],
    ]);
  });

  it("a runner whose time came from a slot is matched again (a removed entry moves every later bib back)", () => {
    const rs = runners([11, 12, 13], "slot");
    const m = matchBibs(slots(3), [], entries([11, 13]), rs);
    expect(m.pairs.map((p) => [p.runnerId, p.slot])).toEqual([
      ["r11", "s1"],
      ["r13", "s2"],
    ]);
  });

  it("a pinned slot is taken out of the order: the typed bibs go round it", () => {
    // The volunteer forgot runner 14, who finished third; the organiser assigns slot 3 to them by hand.
    const m = matchBibs(slots(4), [{ tapId: "s3", runnerId: "r14" }], entries([11, 12, 13]), runners([11, 12, 13, 14]));
    expect(m.pairs.map((p) => [p.runnerId, p.slot])).toEqual([
      ["r14", "s3"],
      ["r11", "s1"],
      ["r12", "s2"],
      ["r13", "s4"],
    ]);
    expect(m.claims[0]).toEqual({ id: "pin-s3", kind: "pin", bib: 14, slot: "s3", runnerId: "r14", tapId: "s3" });
  });

  it("a pin reaches the slot holding its tap, and a pin's runner typed in order too is 'bib-twice'", () => {
    const paired: MatchSlot[] = [
      { key: "a1", at: 1_000, taps: [{ id: "a1" }, { id: "b1" }] },
      ...slots(1).map((s) => ({ ...s, at: 2_000 })),
    ];
    const m = matchBibs(paired, [{ tapId: "b1", runnerId: "r11" }], entries([11, 12]), runners([11, 12]));
    expect(m.pairs.map((p) => [p.runnerId, p.slot])).toEqual([["r11", "a1"]]);
    expect(m.problems.map((p) => p.kind)).toEqual(["bib-twice", "bib-unmatched"]);
  });

  it("a gap before a claimed slot is flagged even while the race runs", () => {
    const m = matchBibs(slots(3), [{ tapId: "s3", runnerId: "r13" }], [], runners([13]));
    expect(m.problems.map((p) => (p.kind === "slot-unmatched" ? p.slot.key : p.kind))).toEqual(["s1", "s2"]);
  });
});

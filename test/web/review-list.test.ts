/**
 * 'Att granska' names each item's buttons by what they do, and offers 'apply' only for the kinds the race object
 * can apply as they stand (src/durable/race/rules/review.ts refuses it for a time without a bib and a bib without a
 * time: the button would only ever show an error).
 */
import { describe, expect, it } from "vitest";
import type { ReviewKind, ReviewRecord } from "../../src/shared/race-protocol";
import { reviewActions } from "../../src/web/features/race-day/review-list";

const item = (kind: ReviewKind): ReviewRecord => ({
  type: "review",
  part: "race-310101-28",
  sort: "review-x",
  id: "x",
  kind,
  status: "open",
  reason: "",
  at: 0,
  actor: "a@example.se",
  device: null,
  createdAt: 0,
});

describe("reviewActions", () => {
  it("keeps 'Använd' and 'Kasta' for taps and starts", () => {
    expect(reviewActions(item("tap"))).toEqual({ apply: "Använd", discard: "Kasta" });
    expect(reviewActions(item("start"))).toEqual({ apply: "Använd", discard: "Kasta" });
  });

  it("offers no 'apply' where the race would refuse it, and names the removal", () => {
    expect(reviewActions(item("slot-unmatched"))).toEqual({ apply: null, discard: "Kasta tiden" });
    expect(reviewActions(item("bib-unmatched"))).toEqual({ apply: null, discard: "Ta bort numret" });
    expect(reviewActions(item("bib-unknown")).apply).toBeNull();
    expect(reviewActions(item("bib-twice")).apply).toBeNull();
  });

  it("says which time stays for a bib that already has one, and keeps a one-phone time by name", () => {
    expect(reviewActions(item("bib-finished"))).toEqual({ apply: "Använd nya tiden", discard: "Behåll gamla tiden" });
    expect(reviewActions(item("slot-single"))).toEqual({ apply: "Behåll tiden", discard: "Kasta tiden" });
  });
});

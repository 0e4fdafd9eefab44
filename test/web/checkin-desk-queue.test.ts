/** The bib desk's queue (src/web/features/admin/check-in/desk-queue.ts): what an action shows, what keeps it queued. */
import { describe, expect, it } from "vitest";
import type { DeskFamily } from "../../src/shared/checkin";
import { ApiError } from "../../src/web/lib/api";
import {
  loadQueue,
  makeActionId,
  outcomeOfError,
  saveQueue,
  withPickup,
  withRunners,
  type PendingPickup,
} from "../../src/web/features/admin/check-in/desk-queue";
import { isTapId } from "../../src/shared/race-protocol";

const runner = (id: string, pickedUpAt: number | null = null) => ({
  id,
  firstname: id,
  lastname: "Ek",
  age: 30,
  distance: "5.6",
  group: "Dam",
  raceId: "race-250913-56",
  bib: null,
  pickedUpAt,
  paid: true,
});

const family: DeskFamily = {
  kind: "anmalan",
  id: "r1",
  season: 2025,
  email: "ek@example.se",
  phone: null,
  paid: true,
  paymentStatus: "PAID",
  runners: [runner("a"), runner("b", 5)],
};

describe("the desk's queue", () => {
  it("makes action ids the race object takes", () => {
    expect(isTapId(makeActionId())).toBe(true);
    expect(makeActionId()).not.toBe(makeActionId());
  });

  it("shows a check-in at once without moving an earlier pick-up, and an undo clears it", () => {
    const picked = withPickup(family, ["a", "b"], 10);
    expect(picked.runners.map((r) => r.pickedUpAt)).toEqual([10, 5]);
    expect(withPickup(picked, ["b"], null).runners.map((r) => r.pickedUpAt)).toEqual([10, null]);
    expect(withRunners(family, [{ ...runner("a", 7), bib: 601 }]).runners[0]).toMatchObject({
      bib: 601,
      pickedUpAt: 7,
    });
  });

  it("keeps an action through no network, server trouble, a lost sign-in, 408 and 429; drops it on a refusal", () => {
    for (const status of [0, 500, 502, 401, 403, 408, 429]) {
      expect(outcomeOfError(new ApiError(status, {})), String(status)).toBe("retry");
    }
    for (const status of [400, 404, 409, 422]) expect(outcomeOfError(new ApiError(status, {}))).toBe("rejected");
    expect(outcomeOfError(new Error("boom"))).toBe("retry");
  });

  it("survives the page: stored and read back, and a broken store reads as empty", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    };
    const action: PendingPickup = {
      family: { kind: "anmalan", id: "r1" },
      runners: [{ id: "a", raceId: "race-250913-56" }],
      pickedUp: true,
      actionId: makeActionId(),
      at: 10,
    };
    saveQueue([action], storage);
    expect(loadQueue(storage)).toEqual([action]);
    store.set("checkin:queue", "{not json");
    expect(loadQueue(storage)).toEqual([]);
  });
});

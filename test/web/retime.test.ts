/**
 * The phone's side of the confirmation an action that re-times other runners needs
 * (src/web/features/race-day/retime.ts): the refusal read, the rows shown, what is sent back.
 */
import { describe, expect, it } from "vitest";
import type { Retime } from "../../src/shared/race-protocol";
import { ApiError } from "../../src/web/lib/api";
import { confirmationOf, retimeRows, retimesOf } from "../../src/web/features/race-day/retime";

const STARTED = Date.UTC(2025, 8, 13, 8, 0);
const RETIMES: Retime[] = [
  {
    runnerId: "r733",
    sort: "runner-r733",
    bib: 733,
    name: "Ella Ek",
    from: STARTED + 240_000,
    to: STARTED + 230_500,
    started: STARTED,
  },
  {
    runnerId: "r734",
    sort: "runner-r734",
    bib: null,
    name: "Bo Berg",
    from: null,
    to: STARTED + 250_000,
    started: STARTED,
  },
  {
    runnerId: "r735",
    sort: "runner-r735",
    bib: 735,
    name: "Cia Dahl",
    from: STARTED + 260_000,
    to: null,
    started: STARTED,
  },
];

describe("the confirmation of other runners' new times", () => {
  it("reads the list only from the race's 409 that carries one", () => {
    expect(retimesOf(new ApiError(409, { error: "Nr 733 får en ny tid.", retimes: RETIMES }))).toEqual(RETIMES);
    expect(retimesOf(new ApiError(409, { error: "Den är redan avgjord." }))).toBeNull();
    expect(retimesOf(new ApiError(409, { error: "x", retimes: [] }))).toBeNull();
    expect(retimesOf(new ApiError(400, { error: "x", retimes: RETIMES }))).toBeNull();
    expect(retimesOf(new Error("nätet"))).toBeNull();
  });

  it("shows each runner with the time now and the new time, 'ingen tid' where there is none", () => {
    expect(retimeRows(RETIMES)).toEqual([
      { key: "r733", who: "Nr 733 Ella Ek", from: "04:00.000", to: "03:50.500" },
      { key: "r734", who: "Bo Berg", from: "ingen tid", to: "04:10.000" },
      { key: "r735", who: "Nr 735 Cia Dahl", from: "04:20.000", to: "ingen tid" },
    ]);
  });

  it("sends back each runner with the finish it was shown", () => {
    expect(confirmationOf(RETIMES)).toEqual([
      { runnerId: "r733", to: STARTED + 230_500 },
      { runnerId: "r734", to: STARTED + 250_000 },
      { runnerId: "r735", to: null },
    ]);
  });
});

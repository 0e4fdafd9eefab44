/** The offline finish-tap queue: ids, ordering, what keeps a tap and what drops it, and what survives storage. */
import { describe, expect, it } from "vitest";
import { isTapId } from "../../src/shared/race-protocol";
import { ApiError } from "../../src/web/lib/api";
import {
  enqueueTap,
  flushTaps,
  makeTapId,
  parseStoredTaps,
  resultOfError,
  withoutRunner,
  withoutTap,
  type PendingTap,
  type SendResult,
} from "../../src/web/features/race-day/tap-queue";

const tap = (n: number, sort = `runner-${n}`): PendingTap => ({
  tap: `tap0000${n}`,
  sort: sort as PendingTap["sort"],
  at: 1_000 + n,
  rerecord: false,
});

describe("tap ids", () => {
  it("are UUIDs without dashes, which the server's pattern accepts", () => {
    const id = makeTapId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(isTapId(id)).toBe(true);
    expect(makeTapId()).not.toBe(id);
  });
});

describe("queue changes", () => {
  it("appends in order and never holds one tap id twice", () => {
    const q = enqueueTap(enqueueTap(enqueueTap([], tap(1)), tap(2)), tap(1));
    expect(q.map((t) => t.tap)).toEqual(["tap00001", "tap00002"]);
  });

  it("removes one tap, or every tap of a runner", () => {
    const q = [tap(1), tap(2, "runner-x"), tap(3, "runner-x")];
    expect(withoutTap(q, "tap00002").map((t) => t.tap)).toEqual(["tap00001", "tap00003"]);
    expect(withoutRunner(q, "runner-x").map((t) => t.tap)).toEqual(["tap00001"]);
  });
});

describe("resultOfError", () => {
  it("keeps the tap when the network or the server failed, or the session ran out", () => {
    for (const status of [0, 500, 502, 503, 401, 403, 408, 429]) {
      expect(resultOfError(new ApiError(status, { error: "x" })).kind).toBe("retry");
    }
    expect(resultOfError(new TypeError("boom")).kind).toBe("retry");
  });

  it("drops it with the server's own words on any other 4xx", () => {
    expect(resultOfError(new ApiError(409, { error: "Loppet har inte startat." }))).toEqual({
      kind: "rejected",
      message: "Loppet har inte startat.",
    });
    for (const status of [400, 404, 422]) expect(resultOfError(new ApiError(status, {})).kind).toBe("rejected");
  });
});

describe("flushTaps", () => {
  function run(queue: PendingTap[], answers: Record<string, SendResult["kind"]>) {
    const sent: string[] = [];
    const settled: [string, string][] = [];
    let live = [...queue];
    const promise = flushTaps(
      () => live,
      async (t) => {
        sent.push(t.tap);
        const kind = answers[t.tap] ?? "sent";
        return kind === "sent" ? { kind, runner: null } : { kind, message: kind };
      },
      (t, result) => {
        settled.push([t.tap, result.kind]);
        if (result.kind !== "retry") live = withoutTap(live, t.tap);
      },
    );
    return { promise, sent, settled, live: () => live };
  }

  it("sends in order and empties the queue", async () => {
    const r = run([tap(1), tap(2), tap(3)], {});
    expect(await r.promise).toBe("done");
    expect(r.sent).toEqual(["tap00001", "tap00002", "tap00003"]);
    expect(r.live()).toEqual([]);
  });

  it("stops at the first tap that must wait and keeps it and those after it", async () => {
    const r = run([tap(1), tap(2), tap(3)], { tap00002: "retry" });
    expect(await r.promise).toBe("paused");
    expect(r.sent).toEqual(["tap00001", "tap00002"]);
    expect(r.live().map((t) => t.tap)).toEqual(["tap00002", "tap00003"]);
  });

  it("drops a refused tap and goes on with the rest", async () => {
    const r = run([tap(1), tap(2), tap(3)], { tap00001: "rejected" });
    expect(await r.promise).toBe("done");
    expect(r.settled).toEqual([
      ["tap00001", "rejected"],
      ["tap00002", "sent"],
      ["tap00003", "sent"],
    ]);
    expect(r.live()).toEqual([]);
  });

  it("picks up a tap made while it was sending", async () => {
    let live: PendingTap[] = [tap(1)];
    const sent: string[] = [];
    await flushTaps(
      () => live,
      async (t) => {
        sent.push(t.tap);
        if (t.tap === "tap00001") live = enqueueTap(live, tap(2));
        return { kind: "sent", runner: null };
      },
      (t) => (live = withoutTap(live, t.tap)),
    );
    expect(sent).toEqual(["tap00001", "tap00002"]);
  });
});

describe("stored queue", () => {
  it("reads back what was stored and drops what is not a tap", () => {
    const stored = JSON.stringify([tap(1), { ...tap(2), tap: "bad id!" }, { ...tap(3), at: "soon" }, null, tap(4)]);
    expect(parseStoredTaps(stored).map((t) => t.tap)).toEqual(["tap00001", "tap00004"]);
    expect(parseStoredTaps(null)).toEqual([]);
    expect(parseStoredTaps("{not json")).toEqual([]);
    expect(parseStoredTaps('{"a":1}')).toEqual([]);
  });
});

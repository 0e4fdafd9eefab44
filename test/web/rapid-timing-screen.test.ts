/**
 * Rapid timing on the phone (issue 26): 'Mål!' presses in the tap queue (kind 'rapid', kept across versions and
 * tabs, sent and settled like finish taps), and the numbered slots every phone computes from every device's taps.
 */
import { describe, expect, it } from "vitest";
import type { RaceRecord, RunnerRecord, SlotRecord } from "../../src/shared/race-protocol";
import { rapidResult } from "../../src/web/features/race-day/send-press";
import { liveBibs, slotRows, slotText, slotTime } from "../../src/web/features/race-day/rapid-view";
import {
  complete,
  EMPTY_QUEUE,
  enqueue,
  flushQueue,
  knownItems,
  mergeQueues,
  parseQueue,
  serializeQueue,
  type KnownItem,
  type RapidItem,
  type SendResult,
} from "../../src/web/features/race-day/tap-queue";

const PART = "race-310101-28";
const START = Date.UTC(2031, 0, 1, 10, 0, 0);
const TAP = (n: number) => n.toString(16).padStart(32, "a");

const rapidItem = (n: number, at: number, device = "phone-a"): RapidItem => ({
  kind: "rapid",
  tap: TAP(n),
  at,
  device,
  err: 40,
});

function slot(n: number, at: number, device: string, over: Partial<SlotRecord> = {}): SlotRecord & { seq: number } {
  return {
    type: "slot",
    part: PART,
    sort: `slot-${TAP(n)}`,
    id: TAP(n),
    device,
    at,
    actor: "a@example.se",
    createdAt: at,
    seq: n,
    ...over,
  };
}

function runner(id: string, bib: number, over: Partial<RunnerRecord> = {}): RunnerRecord {
  return {
    type: "runner",
    part: PART,
    sort: `runner-${id}`,
    id,
    bib,
    firstname: "Ella",
    lastname: "Berg",
    age: 9,
    company: "",
    group: "Ingen",
    finished: null,
    distance: "2.8",
    ...over,
  };
}

const race: Pick<RaceRecord, "state" | "mainTimer"> = { state: "started" };

describe("'Mål!' in the tap queue", () => {
  it("a rapid press is stored, read back and merged across tabs as itself, not as an item kept unread", () => {
    const q = enqueue(EMPTY_QUEUE, rapidItem(1, START + 60_000), START);
    const read = parseQueue(serializeQueue(q));
    expect(knownItems(read)).toEqual([rapidItem(1, START + 60_000)]);
    const otherTab = enqueue(EMPTY_QUEUE, rapidItem(2, START + 61_000), START);
    expect(knownItems(mergeQueues(read, otherTab, START)).map((i) => i.tap)).toEqual([TAP(1), TAP(2)]);
  });

  it("sent in press order; the server's answer (or its review list) takes it out, a network failure keeps it", async () => {
    let q = enqueue(enqueue(EMPTY_QUEUE, rapidItem(2, START + 2_000), START), rapidItem(1, START + 1_000), START);
    const sent: string[] = [];
    const outcome = await flushQueue(
      () => q,
      async (item: KnownItem): Promise<SendResult> => {
        sent.push(item.tap);
        if (item.tap === TAP(2)) return { kind: "retry", message: "Ingen anslutning" };
        return rapidResult({ outcome: "recorded", slot: slot(1, item.at, "phone-a"), number: 1, key: item.tap });
      },
      (item, result) => {
        if (result.kind === "sent") q = complete(q, item.tap, START);
      },
    );
    expect(sent).toEqual([TAP(1), TAP(2)]);
    expect(outcome).toBe("paused");
    expect(knownItems(q).map((i) => i.tap)).toEqual([TAP(2)]);
  });
});

describe("the slots on every phone", () => {
  it("two phones' taps are one numbered sequence; this phone's unsent press counts at once; a slot shows its runner", () => {
    // Phone B runs 300 ms behind phone A; both timed three finishers, A's third press not sent yet.
    const rapid = {
      slots: [
        slot(1, START + 60_000, "phone-a"),
        slot(2, START + 60_300, "phone-b"),
        slot(3, START + 63_400, "phone-a"),
        slot(4, START + 63_700, "phone-b"),
        slot(6, START + 70_300, "phone-b"),
      ],
      bibs: [],
    };
    const queue = [rapidItem(5, START + 70_000)];
    const runners = [runner("r1", 12, { slot: TAP(1), finished: START + 60_000 })];
    const rows = slotRows(race, rapid, runners, queue, "phone-a");
    expect(rows.map((r) => [r.number, r.key, r.devices, r.pending])).toEqual([
      [1, TAP(1), ["phone-a", "phone-b"], false],
      [2, TAP(3), ["phone-a", "phone-b"], false],
      [3, TAP(5), ["phone-a", "phone-b"], true],
    ]);
    expect(slotText(rows[0]!, START)).toBe("#1 01:00.0 – 12 Ella Berg");
    expect(slotText(rows[1]!, START)).toBe("#2 01:03.4 – ?");
  });

  it("a discarded or reset tap is not a slot; the main timer's time is taken for a paired finish", () => {
    const rapid = {
      slots: [
        slot(1, START + 60_000, "phone-a"),
        slot(2, START + 60_300, "phone-b"),
        slot(3, START + 65_000, "phone-a", { discarded: true }),
        slot(4, START + 66_000, "phone-a", { removed: true }),
      ],
      bibs: [],
    };
    const rows = slotRows({ state: "started", mainTimer: "phone-b" }, rapid, [], [], "phone-c");
    expect(rows.map((r) => [r.key, r.at])).toEqual([[TAP(2), START + 60_300]]);
  });

  it("each slot knows the typed bib that reaches it, paired or not, as the race matches them", () => {
    const typed = (n: number, bib: number, position: number) => ({
      type: "bib" as const,
      part: PART,
      sort: `bib-${TAP(n)}` as `bib-${string}`,
      id: TAP(n),
      bib,
      position,
      device: "phone-c",
      actor: "c@example.se",
      at: START + 90_000,
      seq: 10 + n,
    });
    const rapid = {
      slots: [
        slot(1, START + 60_000, "phone-a"),
        slot(2, START + 63_000, "phone-a"),
        slot(3, START + 66_000, "phone-a"),
      ],
      // 12 pairs slot 1; 99 (nobody's) holds slot 2; slot 3 has no bib yet.
      bibs: [typed(21, 12, 1), typed(22, 99, 2)],
    };
    const runners = [runner("r1", 12, { slot: TAP(1), finished: START + 60_000 }), runner("r2", 13)];
    const rows = slotRows(race, rapid, runners, [], "phone-a");
    expect(rows.map((r) => r.entry)).toEqual([{ id: TAP(21), bib: 12 }, { id: TAP(22), bib: 99 }, null]);
  });

  it("times since the start in tenths, rounded down; typed bibs in finish order without removed ones", () => {
    expect(slotTime(START + 723_499, START)).toBe("12:03.4");
    expect(slotTime(START + 59, START)).toBe("00:00.0");
    const bib = (id: string, position: number, removed?: true) => ({
      type: "bib" as const,
      part: PART,
      sort: `bib-${id}` as const,
      id,
      bib: position * 10,
      position,
      device: null,
      actor: "a",
      at: 0,
      ...(removed ? { removed } : {}),
    });
    expect(liveBibs({ slots: [], bibs: [bib("c", 3), bib("a", 1), bib("b", 2, true)] }).map((b) => b.id)).toEqual([
      "a",
      "c",
    ]);
  });
});

describe("a call's answer and the socket, in either order", () => {
  it("an answer older than what the socket brought is not written over it; a newer one is", async () => {
    const { QueryClient } = await import("@tanstack/react-query");
    const { cacheRapidRecord, rapidQueryOptions } = await import("../../src/web/features/race-day/api/rapid-timing");
    const { noteLiveSeq } = await import("../../src/web/features/race-day/race-cache");
    const client = new QueryClient();
    const key = rapidQueryOptions(PART).queryKey;
    // The socket brought tap 1 discarded (seq 20) before this phone's answer for it (seq 3) arrived.
    client.setQueryData(key, { slots: [slot(1, START, "phone-a", { discarded: true, seq: 20 } as object)], bibs: [] });
    noteLiveSeq(client, PART, 20);
    cacheRapidRecord(client, PART, slot(1, START, "phone-a", { seq: 3 } as object));
    expect(client.getQueryData(key)!.slots).toEqual([{ ...slot(1, START, "phone-a"), discarded: true, seq: 20 }]);
    // An answer the socket has not brought yet (seq 21) is shown at once.
    cacheRapidRecord(client, PART, slot(2, START + 1_000, "phone-a", { seq: 21 } as object));
    expect(client.getQueryData(key)!.slots.map((s) => s.id)).toEqual([TAP(1), TAP(2)]);
  });
});

/**
 * Bibs typed in finish order go through the phone's tap queue (issue 26 follow-up): kind 'bib-entry', stored and
 * read back (a reload, a dropped tab), kept untouched when it cannot be read, sent in the order typed after the
 * 'Mål!' taps made before it, a refused bib holding the bibs typed after it (never dropped), two tabs sharing
 * one queue, and a resend after a lost answer being the same entry.
 */
import { describe, expect, it } from "vitest";
import type { BibEntryRecord, ReviewRecord, RunnerRecord } from "../../src/shared/race-protocol";
import { TapQueueStore, queueKey, type KeyValueStorage } from "../../src/web/features/race-day/queue-store";
import { unsentBibs } from "../../src/web/features/race-day/rapid-view";
import { bibEntryResult } from "../../src/web/features/race-day/send-press";
import {
  bibEntryAt,
  complete,
  EMPTY_QUEUE,
  enqueue,
  flushQueue,
  foreignCount,
  hasSendable,
  knownItems,
  markRefused,
  parseQueue,
  sendOrder,
  serializeQueue,
  typedBibNumber,
  type BibEntryItem,
  type KnownItem,
  type RapidItem,
  type SendResult,
  type TapQueue,
} from "../../src/web/features/race-day/tap-queue";
import { TapSender } from "../../src/web/features/race-day/tap-sender";

const NOW = 1_900_000_000_000;
const RACE = "race-310101-28";
const ID = (n: number) => n.toString(16).padStart(32, "b");

const bibItem = (n: number, bib: number, at = NOW + n * 1000): BibEntryItem => ({
  kind: "bib-entry",
  tap: ID(n),
  at,
  device: "phone-c",
  err: 30,
  bib,
});

const rapidItem = (n: number, at: number): RapidItem => ({
  kind: "rapid",
  tap: n.toString(16).padStart(32, "a"),
  at,
  device: "phone-c",
  err: 30,
});

const queueOf = (...items: KnownItem[]): TapQueue => items.reduce((q, i) => enqueue(q, i, NOW), EMPTY_QUEUE);
const refuse = (q: TapQueue, tap: string, message = "nej") => markRefused(q, tap, { status: 400, message, at: NOW });

class FakeStorage implements KeyValueStorage {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  key(i: number) {
    return [...this.data.keys()][i] ?? null;
  }
  get length() {
    return this.data.size;
  }
}

/** The race's bib call as the server answers it: by entry id, a replay the first answer, in order of arrival. */
class FakeRace {
  readonly entries: { id: string; bib: number }[] = [];
  calls = 0;
  enter(item: KnownItem): SendResult {
    this.calls++;
    if (item.kind !== "bib-entry") return { kind: "sent", outcome: "recorded" };
    const known = this.entries.find((e) => e.id === item.tap);
    if (known) return { kind: "sent", outcome: "replayed" };
    this.entries.push({ id: item.tap, bib: item.bib });
    return { kind: "sent", outcome: "recorded" };
  }
}

describe("the stored form of a typed bib", () => {
  it("round-trips with its entry id, moment, device, clock uncertainty, bib and refusal", () => {
    const item = { ...bibItem(1, 42), refused: { status: 400, message: "nej", at: NOW } };
    const q = parseQueue(serializeQueue(queueOf(item)));
    expect(knownItems(q)).toEqual([item]);
    expect(foreignCount(q)).toBe(0);
    expect(JSON.parse(serializeQueue(q)!)).toEqual({ v: 2, items: [item], done: [] });
  });

  it("one this code cannot read (a bib out of range, not a number, a field it does not know) is kept untouched", () => {
    const odd = [
      { ...bibItem(1, 0) },
      { ...bibItem(2, 100_000) },
      { ...bibItem(3, 1), bib: "17" },
      { ...bibItem(4, 1), bib: 1.5 },
      { ...bibItem(5, 7), slot: "newer code" },
    ];
    const text = JSON.stringify({ v: 2, items: odd, done: [] });
    const q = parseQueue(text);
    expect(knownItems(q)).toEqual([]);
    expect(foreignCount(q)).toBe(5);
    expect(serializeQueue(q)).toBe(text);
    expect(hasSendable(q)).toBe(false);
  });

  it("the keypad takes whole numbers from 1 to 99999", () => {
    expect(["1", "42", "99999", "007"].map(typedBibNumber)).toEqual([1, 42, 99999, 7]);
    expect(["", "0", "00", "123456", "1a", "-1"].map(typedBibNumber)).toEqual([null, null, null, null, null, null]);
  });
});

describe("the order bibs are sent in", () => {
  it("after the 'Mål!' taps made before them, before those made after", () => {
    const q = queueOf(bibItem(1, 11, NOW + 500), rapidItem(1, NOW), rapidItem(2, NOW + 900), bibItem(2, 12, NOW + 600));
    expect(sendOrder(q).map((i) => (i.kind === "bib-entry" ? `bib ${i.bib}` : i.kind))).toEqual([
      "rapid",
      "bib 11",
      "bib 12",
      "rapid",
    ]);
  });

  it("a bib typed while the clock's offset moved back still goes after the one typed before it", () => {
    const q = queueOf(bibItem(1, 11, NOW + 1000));
    const at = bibEntryAt(q, NOW + 400);
    expect(at).toBe(NOW + 1001);
    expect(bibEntryAt(EMPTY_QUEUE, NOW)).toBe(NOW);
    expect(bibEntryAt(queueOf(rapidItem(1, NOW + 5000)), NOW)).toBe(NOW);
    const next = enqueue(q, bibItem(2, 12, at), NOW);
    expect(sendOrder(next).map((i) => i.tap)).toEqual([ID(1), ID(2)]);
  });
});

describe("sending typed bibs", () => {
  function run(initial: TapQueue, answers: Record<string, SendResult["kind"]>, includeRefused = false) {
    const sent: string[] = [];
    let live = initial;
    const promise = flushQueue(
      () => live,
      async (item) => {
        sent.push(item.tap);
        const kind = answers[item.tap] ?? "sent";
        if (kind === "sent") return { kind, outcome: "recorded" };
        if (kind === "refused") return { kind, status: 409, message: "nej" };
        if (kind === "review") return { kind, review: {} as ReviewRecord, message: "Till granskning: x" };
        return { kind, message: "offline" };
      },
      (item, result) => {
        if (result.kind === "sent" || result.kind === "review") live = complete(live, item.tap, NOW);
        if (result.kind === "refused") live = refuse(live, item.tap);
      },
      { includeRefused },
    );
    return { promise, sent, live: () => live };
  }

  it("a refused bib stays, shown, and holds the bibs typed after it; taps are not held", async () => {
    const q = queueOf(bibItem(1, 11), bibItem(2, 12), rapidItem(9, NOW + 2500), bibItem(3, 13));
    const r = run(q, { [ID(2)]: "refused" });
    expect(await r.promise).toBe("done");
    // Bib 13 is not sent past bib 12: the race would number it 2nd.
    expect(r.sent).toEqual([ID(1), ID(2), rapidItem(9, 0).tap]);
    expect(knownItems(r.live()).map((i) => i.tap)).toEqual([ID(2), ID(3)]);
    expect(knownItems(r.live())[0]?.refused?.message).toBe("nej");
    // The 5 s timer does not send the held bib either; a new page (refused ones tried again) sends both, in order.
    expect(hasSendable(r.live())).toBe(false);
    const quiet = run(r.live(), {});
    await quiet.promise;
    expect(quiet.sent).toEqual([]);
    const again = run(r.live(), {}, true);
    expect(await again.promise).toBe("done");
    expect(again.sent).toEqual([ID(2), ID(3)]);
    expect(again.live().items).toEqual([]);
  });

  it("refused again on a new page: still held behind it; taken out by a person, the next one goes", async () => {
    const q = refuse(queueOf(bibItem(1, 11), bibItem(2, 12)), ID(1));
    const again = run(q, { [ID(1)]: "refused" }, true);
    await again.promise;
    expect(again.sent).toEqual([ID(1)]);
    const out = complete(again.live(), ID(1), NOW);
    expect(hasSendable(out)).toBe(true);
    const r = run(out, {});
    await r.promise;
    expect(r.sent).toEqual([ID(2)]);
  });

  it("no network: the send pauses at the first bib and keeps it and every later one", async () => {
    const r = run(queueOf(bibItem(1, 11), bibItem(2, 12), bibItem(3, 13)), { [ID(1)]: "retry" });
    expect(await r.promise).toBe("paused");
    expect(r.sent).toEqual([ID(1)]);
    expect(knownItems(r.live()).map((i) => i.tap)).toEqual([ID(1), ID(2), ID(3)]);
  });

  it("the answer's entry and runner go to the cache; a review answer takes it out like any press", () => {
    const entry = { type: "bib", id: ID(1), bib: 11, seq: 7 } as BibEntryRecord & { seq: number };
    const runner = { id: "r1", seq: 7 } as unknown as RunnerRecord & { seq: number };
    expect(bibEntryResult({ outcome: "recorded", entry, slot: "x", number: 1, runner })).toEqual({
      kind: "sent",
      outcome: "recorded",
      entry,
      runner,
    });
    expect(bibEntryResult({ outcome: "replayed", entry, slot: null, number: null })).toEqual({
      kind: "sent",
      outcome: "replayed",
      entry,
    });
    const review = { reason: "Okänt startnummer." } as ReviewRecord;
    expect(bibEntryResult({ outcome: "review", review } as never)).toMatchObject({ kind: "review", review });
  });
});

describe("the keypad's list", () => {
  it("bibs not sent follow the server's, in the order typed; one the server lists already is shown once", () => {
    const rapid = {
      slots: [],
      bibs: [{ type: "bib", id: ID(1), bib: 11, position: 1, seq: 3 } as BibEntryRecord & { seq: number }],
    };
    const queue = queueOf(bibItem(3, 13), bibItem(1, 11), bibItem(2, 12), rapidItem(1, NOW)).items;
    expect(unsentBibs(rapid, queue).map((i) => i.bib)).toEqual([12, 13]);
  });
});

describe("a reload, two tabs and a lost answer", () => {
  it("bibs typed offline survive a reload in their order and reach the race once each, in that order", async () => {
    const storage = new FakeStorage();
    const before = new TapQueueStore(storage, () => NOW);
    for (const [n, bib] of [
      [1, 31],
      [2, 32],
      [3, 33],
    ] as const) {
      before.update(RACE, (q) => enqueue(q, bibItem(n, bib, bibEntryAt(q, NOW)), NOW));
    }
    // The page is reloaded (or the browser dropped the tab): a new store reads what the old one wrote.
    const after = new TapQueueStore(storage, () => NOW);
    expect(knownItems(after.get(RACE)).map((i) => (i as BibEntryItem).bib)).toEqual([31, 32, 33]);

    const race = new FakeRace();
    let online = false;
    const sender = new TapSender({
      store: after,
      send: async (_race, item) => (online ? race.enter(item) : { kind: "retry", message: "offline" }),
      lock: (_name, fn) => fn(),
      now: () => NOW,
    });
    expect(await sender.flush(RACE)).toBe("paused");
    online = true;
    expect(await sender.flush(RACE)).toBe("done");
    expect(race.entries.map((e) => e.bib)).toEqual([31, 32, 33]);
    expect(after.get(RACE).items).toEqual([]);
    expect(storage.getItem(queueKey(RACE))).not.toBeNull();
    expect(knownItems(parseQueue(storage.getItem(queueKey(RACE))))).toEqual([]);
  });

  it("two tabs: a bib typed in each is kept by both; one tab sends, the other's copy does not bring it back", async () => {
    const storage = new FakeStorage();
    const a = new TapQueueStore(storage, () => NOW);
    const b = new TapQueueStore(storage, () => NOW);
    a.update(RACE, (q) => enqueue(q, bibItem(1, 11), NOW));
    b.update(RACE, (q) => enqueue(q, bibItem(2, 12), NOW));
    a.external(queueKey(RACE));
    expect(knownItems(a.get(RACE)).map((i) => i.tap)).toEqual([ID(1), ID(2)]);

    const race = new FakeRace();
    const sender = new TapSender({
      store: a,
      send: async (_race, item) => race.enter(item),
      lock: (_name, fn) => fn(),
      now: () => NOW,
    });
    await sender.flush(RACE);
    // Tab B writes its old copy afterwards: the done marks keep both bibs out.
    b.update(RACE, (q) => q);
    expect(knownItems(b.get(RACE))).toEqual([]);
    a.external(queueKey(RACE));
    expect(knownItems(a.get(RACE))).toEqual([]);
    expect(race.entries.map((e) => e.bib)).toEqual([11, 12]);
  });

  it("an answer lost on the way back: the bib is sent again with the same entry id, one entry at the race", async () => {
    const store = new TapQueueStore(new FakeStorage(), () => NOW);
    store.update(RACE, (q) => enqueue(q, bibItem(1, 11), NOW));
    const race = new FakeRace();
    let lose = true;
    const sender = new TapSender({
      store,
      send: async (_race, item) => {
        const result = race.enter(item);
        if (!lose) return result;
        lose = false;
        return { kind: "retry", message: "Ingen kontakt med servern." };
      },
      lock: (_name, fn) => fn(),
      now: () => NOW,
    });
    expect(await sender.flush(RACE)).toBe("paused");
    expect(knownItems(store.get(RACE))).toHaveLength(1);
    expect(await sender.flush(RACE)).toBe("done");
    expect(race.calls).toBe(2);
    expect(race.entries).toEqual([{ id: ID(1), bib: 11 }]);
  });
});

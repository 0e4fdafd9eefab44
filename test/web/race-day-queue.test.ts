/**
 * The race-day tap queue: its stored form (versions, unknown items kept, v1 read), what keeps an item and what
 * takes it out (never a refusal: only the server having it, the review list, or a person), the send loop, and two
 * tabs sharing one stored queue (read-modify-write, crossing writes merged, a press sent once and counted once).
 */
import { describe, expect, it } from "vitest";
import { isTapId, type ReviewRecord } from "../../src/shared/race-protocol";
import { ApiError } from "../../src/web/lib/api";
import { TapQueueStore, queueKey, type KeyValueStorage } from "../../src/web/features/race-day/queue-store";
import { finishResult, startResult } from "../../src/web/features/race-day/send-press";
import {
  complete,
  DONE_KEEP_MS,
  EMPTY_QUEUE,
  enqueue,
  flushQueue,
  foreignCount,
  knownItems,
  makeTapId,
  markRefused,
  mergeQueues,
  parseQueue,
  resultOfError,
  sendOrder,
  serializeQueue,
  withoutRunner,
  type FinishItem,
  type KnownItem,
  type SendResult,
  type StartItem,
  type TapQueue,
} from "../../src/web/features/race-day/tap-queue";
import { TapSender } from "../../src/web/features/race-day/tap-sender";

const NOW = 1_900_000_000_000;
const RACE = "race-310101-28";

const finish = (n: number, over: Partial<FinishItem> = {}): FinishItem => ({
  kind: "finish",
  tap: `tap0000${n}`,
  sort: `runner-${n}`,
  at: NOW + n,
  device: "dev-aaaa",
  rerecord: false,
  ...over,
});

const start = (over: Partial<StartItem> = {}): StartItem => ({
  kind: "start",
  tap: "tapstart1",
  at: NOW,
  device: "dev-aaaa",
  ...over,
});

const taps = (q: TapQueue) => knownItems(q).map((i) => i.tap);
const queueOf = (...items: KnownItem[]): TapQueue => items.reduce((q, i) => enqueue(q, i, NOW), EMPTY_QUEUE);

function review(over: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    type: "review",
    part: RACE,
    sort: "review-tap00001",
    id: "tap00001",
    kind: "tap",
    status: "open",
    reason: "Loppet har inte startat.",
    at: NOW,
    actor: "arrangor@example.se",
    device: "dev-aaaa",
    createdAt: NOW + 5,
    ...over,
  };
}

describe("tap ids", () => {
  it("are UUIDs without dashes, which the server's pattern accepts", () => {
    const id = makeTapId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(isTapId(id)).toBe(true);
    expect(makeTapId()).not.toBe(id);
  });
});

describe("the stored form", () => {
  it("round-trips finish and start items with their device, moment and clock uncertainty", () => {
    const q = queueOf(start({ err: 40 }), finish(1, { err: 12 }), finish(2, { rerecord: true }));
    const text = serializeQueue(q)!;
    expect(JSON.parse(text)).toMatchObject({ v: 2, items: [{ kind: "start", err: 40 }, { kind: "finish" }, {}] });
    expect(parseQueue(text)).toEqual(q);
    expect(serializeQueue(EMPTY_QUEUE)).toBeNull();
  });

  it("reads today's v1 array of finish taps", () => {
    const v1 = JSON.stringify([
      { tap: "tap00001", sort: "runner-1", at: NOW + 1, rerecord: false },
      { tap: "tap00002", sort: "runner-2", at: NOW + 2, rerecord: true },
    ]);
    const q = parseQueue(v1);
    expect(knownItems(q)).toEqual([
      { kind: "finish", tap: "tap00001", sort: "runner-1", at: NOW + 1, rerecord: false },
      { kind: "finish", tap: "tap00002", sort: "runner-2", at: NOW + 2, rerecord: true },
    ]);
  });

  it("keeps what it cannot read in a v1 array instead of dropping it", () => {
    const odd = [{ tap: "bad id!", sort: "runner-2", at: 1, rerecord: false }, { at: "soon" }, null, "x"];
    const q = parseQueue(JSON.stringify([{ tap: "tap00001", sort: "runner-1", at: 5, rerecord: false }, ...odd]));
    expect(taps(q)).toEqual(["tap00001"]);
    expect(foreignCount(q)).toBe(4);
    expect((JSON.parse(serializeQueue(q)!) as { items: unknown[] }).items.slice(1)).toEqual(odd);
  });

  it("keeps items of kinds it does not know, untouched, and writes them back as they were", () => {
    const rapid = { kind: "rapid", tap: "taprapid1", at: NOW, device: "dev-bbbb", place: 3, extra: { a: [1, 2] } };
    const desk = { kind: "bib-desk", id: 7 };
    const stored = JSON.stringify({ v: 2, items: [rapid, finish(1), desk], done: [] });
    const q = parseQueue(stored);
    expect(taps(q)).toEqual(["tap00001"]);
    expect(foreignCount(q)).toBe(2);
    // Written back after a change of its own: the unknown items are there, byte for byte.
    const after = JSON.parse(serializeQueue(enqueue(q, finish(2), NOW))!) as { items: unknown[] };
    expect(after.items).toEqual([rapid, finish(1), desk, finish(2)]);
  });

  it("keeps a known kind with fields it does not know (newer code wrote it) as it was", () => {
    const newer = { ...finish(1), lane: 4 };
    const q = parseQueue(JSON.stringify({ v: 2, items: [newer] }));
    expect(knownItems(q)).toEqual([]);
    expect(JSON.parse(serializeQueue(q)!).items).toEqual([newer]);
  });

  it("keeps a whole document of another version untouched, beside its own items", () => {
    const v3 = { v: 3, entries: [{ what: "finish", tap: "tapv3aaaa1" }] };
    const q = parseQueue(JSON.stringify(v3));
    expect(foreignCount(q)).toBe(1);
    const written = JSON.parse(serializeQueue(enqueue(q, finish(1), NOW))!) as { v: number; items: unknown[] };
    expect(written.v).toBe(2);
    expect(written.items).toEqual([v3, finish(1)]);
  });

  it("keeps text that is not JSON at all", () => {
    const q = parseQueue("{half a wri");
    expect(foreignCount(q)).toBe(1);
    expect(JSON.parse(serializeQueue(q)!).items).toEqual(["{half a wri"]);
    expect(parseQueue(null)).toEqual(EMPTY_QUEUE);
    expect(parseQueue("null")).toEqual(EMPTY_QUEUE);
  });
});

describe("what takes an item out", () => {
  it("enqueue never holds one tap id twice", () => {
    expect(taps(queueOf(finish(1), finish(2), finish(1)))).toEqual(["tap00001", "tap00002"]);
  });

  it("complete takes it out and remembers it, so another copy does not bring it back", () => {
    const q = complete(queueOf(finish(1), finish(2)), "tap00001", NOW);
    expect(taps(q)).toEqual(["tap00002"]);
    expect(taps(mergeQueues(q, queueOf(finish(1), finish(2)), NOW))).toEqual(["tap00002"]);
  });

  it("a refusal keeps the item, with the server's words", () => {
    const q = markRefused(queueOf(finish(1)), "tap00001", { status: 400, message: "Ogiltig tid.", at: NOW });
    expect(knownItems(q)[0]?.refused).toEqual({ status: 400, message: "Ogiltig tid.", at: NOW });
    expect(parseQueue(serializeQueue(q))).toEqual(q);
  });

  it("an undo before sending takes out that runner's finish taps only", () => {
    const q = withoutRunner(queueOf(finish(1), finish(2), finish(3, { sort: "runner-1" }), start()), "runner-1", NOW);
    expect(taps(q)).toEqual(["tap00002", "tapstart1"]);
  });
});

describe("answers", () => {
  it("keeps the item when the network or the server failed, or the session ran out", () => {
    for (const status of [0, 500, 502, 503, 401, 403, 408, 429]) {
      expect(resultOfError(new ApiError(status, { error: "x" })).kind).toBe("retry");
    }
    expect(resultOfError(new TypeError("boom")).kind).toBe("retry");
  });

  it("any other 4xx is a refusal that keeps the item with the server's words (never dropped)", () => {
    expect(resultOfError(new ApiError(409, { error: "Tap-id används redan." }))).toEqual({
      kind: "refused",
      status: 409,
      message: "Tap-id används redan.",
    });
    for (const status of [400, 404, 409, 422]) expect(resultOfError(new ApiError(status, {})).kind).toBe("refused");
  });

  it("202 review: out of the queue, 'Till granskning: …' on screen", () => {
    const r = review();
    expect(finishResult({ outcome: "review", review: r })).toEqual({
      kind: "review",
      review: r,
      message: "Till granskning: Loppet har inte startat.",
    });
    expect(
      startResult({ outcome: "review", review: { ...r, kind: "start", reason: "En start finns redan." } }),
    ).toMatchObject({ kind: "review", message: "Till granskning: En start finns redan." });
  });

  it("a start for the same gun as another phone's says so", () => {
    const race = {
      type: "race" as const,
      part: RACE,
      sort: "race" as const,
      state: "started" as const,
      started: Date.UTC(2030, 8, 13, 8, 0, 0),
      date: "2030-09-13",
      distance: 2800,
      openForReg: false,
    };
    expect(startResult({ started: race.started, race, outcome: "same-start" })).toMatchObject({
      kind: "sent",
      race,
      message: "Samma start som en annan telefon: starten 10:00:00 gäller.",
    });
    expect(startResult({ started: race.started, race, outcome: "started" }).kind).toBe("sent");
    expect("message" in startResult({ started: race.started, race, outcome: "started" })).toBe(false);
  });
});

describe("flushQueue", () => {
  function run(initial: TapQueue, answers: Record<string, SendResult["kind"]>, includeRefused = false) {
    const sent: string[] = [];
    let live = initial;
    const promise = flushQueue(
      () => live,
      async (item) => {
        sent.push(item.tap);
        const kind = answers[item.tap] ?? "sent";
        if (kind === "sent") return { kind, outcome: "recorded" };
        if (kind === "review") return { kind, review: review({ id: item.tap }), message: "Till granskning: x" };
        if (kind === "refused") return { kind, status: 400, message: "nej" };
        return { kind, message: "offline" };
      },
      (item, result) => {
        if (result.kind === "sent" || result.kind === "review") live = complete(live, item.tap, NOW);
        if (result.kind === "refused") live = markRefused(live, item.tap, { status: 400, message: "nej", at: NOW });
      },
      { includeRefused },
    );
    return { promise, sent, live: () => live };
  }

  it("sends by moment, so an offline start goes before the finishes timed from it", async () => {
    const q = queueOf(finish(2), start({ at: NOW - 1000 }), finish(1));
    expect(sendOrder(q).map((i) => i.tap)).toEqual(["tapstart1", "tap00001", "tap00002"]);
    const r = run(q, {});
    expect(await r.promise).toBe("done");
    expect(r.sent).toEqual(["tapstart1", "tap00001", "tap00002"]);
    expect(r.live().items).toEqual([]);
  });

  it("stops at the first item that must wait and keeps it and those after it", async () => {
    const r = run(queueOf(finish(1), finish(2), finish(3)), { tap00002: "retry" });
    expect(await r.promise).toBe("paused");
    expect(r.sent).toEqual(["tap00001", "tap00002"]);
    expect(taps(r.live())).toEqual(["tap00002", "tap00003"]);
  });

  it("a refused item stays queued, the rest go on; a review takes it out", async () => {
    const r = run(queueOf(finish(1), finish(2), finish(3)), { tap00001: "refused", tap00002: "review" });
    expect(await r.promise).toBe("done");
    expect(r.sent).toEqual(["tap00001", "tap00002", "tap00003"]);
    expect(taps(r.live())).toEqual(["tap00001"]);
    expect(knownItems(r.live())[0]?.refused?.message).toBe("nej");
  });

  it("skips refused items unless asked to try them again", async () => {
    const q = markRefused(queueOf(finish(1), finish(2)), "tap00001", { status: 400, message: "nej", at: NOW });
    const quiet = run(q, {});
    await quiet.promise;
    expect(quiet.sent).toEqual(["tap00002"]);
    const again = run(q, {}, true);
    await again.promise;
    expect(again.sent).toEqual(["tap00001", "tap00002"]);
    expect(again.live().items).toEqual([]);
  });

  it("picks up an item made while it was sending, and never sends a foreign one", async () => {
    let live = parseQueue(JSON.stringify({ v: 2, items: [finish(1), { kind: "rapid", tap: "taprapid1" }] }));
    const sent: string[] = [];
    await flushQueue(
      () => live,
      async (item) => {
        sent.push(item.tap);
        if (item.tap === "tap00001") live = enqueue(live, finish(2), NOW);
        return { kind: "sent", outcome: "recorded" };
      },
      (item) => (live = complete(live, item.tap, NOW)),
    );
    expect(sent).toEqual(["tap00001", "tap00002"]);
    expect(foreignCount(live)).toBe(1);
  });
});

/** localStorage as two tabs of one phone see it: one store, each tab told of the other's writes. */
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

describe("two tabs of one race share one queue", () => {
  it("a press in each tab: both kept (read-modify-write), each tab sees both", () => {
    const storage = new FakeStorage();
    const a = new TapQueueStore(storage, () => NOW);
    const b = new TapQueueStore(storage, () => NOW);
    a.update(RACE, (q) => enqueue(q, finish(1), NOW));
    b.update(RACE, (q) => enqueue(q, finish(2), NOW));
    a.external(queueKey(RACE));
    expect(taps(a.get(RACE))).toEqual(["tap00001", "tap00002"]);
    expect(taps(b.get(RACE))).toEqual(["tap00001", "tap00002"]);
  });

  it("writes that crossed (one tab wrote over the other's press): the press comes back, nothing doubles", () => {
    const storage = new FakeStorage();
    const a = new TapQueueStore(storage, () => NOW);
    const b = new TapQueueStore(storage, () => NOW);
    a.update(RACE, (q) => enqueue(q, finish(1), NOW));
    b.external(queueKey(RACE));
    // Tab B's press; then tab A, which has not yet seen it, writes its own copy over it.
    b.update(RACE, (q) => enqueue(q, finish(2), NOW));
    storage.setItem(queueKey(RACE), serializeQueue(enqueue(a.get(RACE), finish(3), NOW))!);
    // B hears A's write: its press is missing from storage, so it writes it back.
    b.external(queueKey(RACE));
    a.external(queueKey(RACE));
    const stored = parseQueue(storage.getItem(queueKey(RACE)));
    expect(taps(stored).sort()).toEqual(["tap00001", "tap00002", "tap00003"]);
    expect(taps(a.get(RACE)).sort()).toEqual(taps(stored).sort());
    expect(taps(b.get(RACE)).sort()).toEqual(taps(stored).sort());
  });

  it("a press one tab sent leaves the other tab too, even when the other wrote an old copy after", () => {
    const storage = new FakeStorage();
    const a = new TapQueueStore(storage, () => NOW);
    const b = new TapQueueStore(storage, () => NOW);
    a.update(RACE, (q) => enqueue(enqueue(q, finish(1), NOW), finish(2), NOW));
    b.external(queueKey(RACE));
    const old = storage.getItem(queueKey(RACE))!;
    a.update(RACE, (q) => complete(q, "tap00001", NOW));
    // B never heard that and writes its older copy back.
    storage.setItem(queueKey(RACE), old);
    a.external(queueKey(RACE));
    b.external(queueKey(RACE));
    expect(taps(a.get(RACE))).toEqual(["tap00002"]);
    expect(taps(b.get(RACE))).toEqual(["tap00002"]);
    expect(taps(parseQueue(storage.getItem(queueKey(RACE))))).toEqual(["tap00002"]);
  });

  it("merging is the same whatever the order, and a second merge changes nothing (no ping-pong)", () => {
    const x = complete(queueOf(finish(1), finish(2)), "tap00001", NOW);
    const y = queueOf(finish(1), finish(3));
    const xy = mergeQueues(x, y, NOW);
    const yx = mergeQueues(y, x, NOW);
    expect(taps(xy).sort()).toEqual(taps(yx).sort());
    expect(serializeQueue(mergeQueues(xy, y, NOW))).toBe(serializeQueue(xy));
    expect(serializeQueue(mergeQueues(xy, x, NOW))).toBe(serializeQueue(xy));
  });

  it("done marks are forgotten after a while, so the stored queue does not grow for ever", () => {
    const q = complete(EMPTY_QUEUE, "tap00001", NOW);
    expect(mergeQueues(q, EMPTY_QUEUE, NOW + DONE_KEEP_MS - 1).done).toHaveLength(1);
    expect(mergeQueues(q, EMPTY_QUEUE, NOW + DONE_KEEP_MS).done).toHaveLength(0);
  });

  it("two tabs sending at once: each press reaches the server, is marked done once, and the count is right", async () => {
    const storage = new FakeStorage();
    const a = new TapQueueStore(storage, () => NOW);
    const b = new TapQueueStore(storage, () => NOW);
    a.update(RACE, (q) => enqueue(enqueue(q, finish(1), NOW), finish(2), NOW));
    b.external(queueKey(RACE));
    const serverSaw: string[] = [];
    // One lock for both tabs, as Web Locks give it across tabs of one origin.
    let held: Promise<unknown> = Promise.resolve();
    const lock = <T>(_name: string, fn: () => Promise<T>): Promise<T> => {
      const run = held.then(fn);
      held = run.catch(() => undefined);
      return run;
    };
    const send = async (_race: string, item: KnownItem): Promise<SendResult> => {
      serverSaw.push(item.tap);
      await Promise.resolve();
      return { kind: "sent", outcome: "recorded" };
    };
    const senderA = new TapSender({ store: a, send, lock, now: () => NOW });
    const senderB = new TapSender({ store: b, send, lock, now: () => NOW });
    // B's storage events are delivered as A writes.
    a.subscribe(() => b.external(queueKey(RACE)));
    b.subscribe(() => a.external(queueKey(RACE)));
    await Promise.all([senderA.flush(RACE), senderB.flush(RACE)]);
    expect(serverSaw).toEqual(["tap00001", "tap00002"]);
    expect(knownItems(a.get(RACE))).toEqual([]);
    expect(knownItems(b.get(RACE))).toEqual([]);
  });

  it("without storage the queue lives in the tab", () => {
    const s = new TapQueueStore(null, () => NOW);
    s.update(RACE, (q) => enqueue(q, finish(1), NOW));
    expect(taps(s.get(RACE))).toEqual(["tap00001"]);
    expect(s.raceIds()).toEqual([RACE]);
  });

  it("lists every race with a stored queue, also ones this tab never opened", () => {
    const storage = new FakeStorage();
    storage.setItem(
      queueKey("race-310101-56"),
      JSON.stringify([{ tap: "tap00009", sort: "runner-9", at: 1, rerecord: false }]),
    );
    storage.setItem("race-day:device", "dev-aaaa");
    const s = new TapQueueStore(storage, () => NOW);
    expect(s.raceIds()).toEqual(["race-310101-56"]);
    expect(taps(s.get("race-310101-56"))).toEqual(["tap00009"]);
  });
});

describe("the sender", () => {
  it("a refusal marks the item and tells the listeners; a later flush with includeRefused sends it", async () => {
    const storage = new FakeStorage();
    const store = new TapQueueStore(storage, () => NOW);
    store.update(RACE, (q) => enqueue(q, finish(1), NOW));
    let refuse = true;
    const heard: string[] = [];
    const sender = new TapSender({
      store,
      send: async () =>
        refuse ? { kind: "refused", status: 400, message: "Ogiltig." } : { kind: "sent", outcome: "recorded" },
      lock: (_n, fn) => fn(),
      now: () => NOW,
    });
    sender.onResult((_race, item, result) => heard.push(`${item.tap}:${result.kind}`));
    expect(await sender.flush(RACE)).toBe("done");
    expect(knownItems(store.get(RACE))[0]?.refused?.message).toBe("Ogiltig.");
    refuse = false;
    await sender.flush(RACE);
    expect(taps(store.get(RACE))).toEqual(["tap00001"]);
    await sender.flush(RACE, { includeRefused: true });
    expect(store.get(RACE).items).toEqual([]);
    expect(heard).toEqual(["tap00001:refused", "tap00001:sent"]);
  });

  it("a flush asked for while one runs runs once more after it (a press made meanwhile is sent)", async () => {
    const store = new TapQueueStore(null, () => NOW);
    store.update(RACE, (q) => enqueue(q, finish(1), NOW));
    const sent: string[] = [];
    const sender = new TapSender({
      store,
      send: async (_r, item) => {
        sent.push(item.tap);
        if (item.tap === "tap00001") {
          store.update(RACE, (q) => enqueue(q, finish(2), NOW));
          void sender.flush(RACE);
        }
        return { kind: "sent", outcome: "recorded" };
      },
      lock: (_n, fn) => fn(),
      now: () => NOW,
    });
    await sender.flush(RACE);
    await sender.flush(RACE);
    expect(sent).toEqual(["tap00001", "tap00002"]);
  });
});

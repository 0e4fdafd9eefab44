/**
 * The race object's store keeps rows in memory (src/durable/race/storage.ts): the race row until a write to `meta`,
 * rapid timing's rows until a write to their tables. Every way a write can reach the storage must show in the next
 * read: a write to the table, a statement the store cannot name one table of, a rolled-back transaction.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RaceStore } from "../../src/durable/race/storage";
import { newRoom, runner, tapId, type TestRoom } from "./room-helpers";

const by = { actor: "test@example.se", device: "test" };

let race: TestRoom;

beforeAll(() => {
  race = newRoom();
  race.run({ type: "add-runner", runner: runner({ bib: 7 }) });
  race.run({ type: "start", tap: { tapId: tapId(), at: race.clock.now() - 60_000 } });
  for (const device of ["phone-a", "phone-b"]) {
    race.run({ type: "rapid-tap", tap: { tapId: tapId() } }, { actor: "a", device });
  }
});

/** A store of its own over the race's storage, as a woken object makes one. */
function inRace<T>(fn: (store: RaceStore) => T): T {
  return fn(new RaceStore(race.ports.sql, race.clock));
}

describe("the race store's rows in memory", () => {
  it("reads rapid taps again after a write to them, and not otherwise", () => {
    inRace((store) => {
      const taps = store.rapidTaps();
      expect(taps).toHaveLength(2);
      // No write since: the very same list, nothing read again.
      expect(store.rapidTaps()).toBe(taps);
      const moved = taps[0]!;
      store.write("test-move", {}, by, (seq) => {
        store.sql("UPDATE rapid_taps SET at = at + 5, seq = ? WHERE tap_id = ?", seq, moved.tap_id);
      });
      expect(store.rapidTap(moved.tap_id)!.at).toBe(moved.at + 5);
      expect(store.rapidTaps().find((t) => t.tap_id === moved.tap_id)!.at).toBe(moved.at + 5);
    });
  });

  it("sees a second write of the same change made after a read (rows of the latest seq are read again)", () => {
    inRace((store) => {
      const [first, second] = store.rapidTaps();
      store.write("test-two-steps", {}, by, (seq) => {
        store.sql("UPDATE rapid_taps SET at = at + 1, seq = ? WHERE tap_id = ?", seq, first!.tap_id);
        expect(store.rapidTap(first!.tap_id)!.at).toBe(first!.at + 1);
        store.sql("UPDATE rapid_taps SET at = at + 1, seq = ? WHERE tap_id = ?", seq, second!.tap_id);
      });
      expect(store.rapidTap(second!.tap_id)!.at).toBe(second!.at + 1);
    });
  });

  it("takes a statement it cannot name one table of as a write to every table", () => {
    inRace((store) => {
      const before = store.rapidTaps()[0]!;
      const meta = store.requireMeta();
      store.write("test-cte", {}, by, (seq) => {
        store.sql(
          "WITH moved AS (SELECT ? AS id) UPDATE rapid_taps SET at = at + 2, seq = ? WHERE tap_id IN (SELECT id FROM moved)",
          before.tap_id,
          seq,
        );
        store.sql("WITH s AS (SELECT ? AS seq) UPDATE meta SET seq = (SELECT seq FROM s) WHERE id = 1", seq);
      });
      expect(store.rapidTap(before.tap_id)!.at).toBe(before.at + 2);
      expect(store.requireMeta().seq).toBeGreaterThan(meta.seq);
    });
  });

  it("reads the race row again after a write to meta", () => {
    inRace((store) => {
      const meta = store.requireMeta();
      expect(store.requireMeta()).toBe(meta);
      store.write("test-main", {}, by, (seq) => {
        store.sql("UPDATE meta SET main_timer = 'phone-b', seq = ? WHERE id = 1", seq);
      });
      expect(store.requireMeta().main_timer).toBe("phone-b");
      store.write("test-main", {}, by, (seq) => {
        store.sql("UPDATE meta SET main_timer = NULL, seq = ? WHERE id = 1", seq);
      });
      expect(store.requireMeta().main_timer).toBeNull();
    });
  });

  it("forgets what a rolled-back transaction read", () => {
    inRace((store) => {
      const before = store.rapidTaps()[0]!;
      expect(() =>
        store.write("test-rollback", {}, by, (seq) => {
          store.sql("UPDATE rapid_taps SET at = at + 100, seq = ? WHERE tap_id = ?", seq, before.tap_id);
          expect(store.rapidTap(before.tap_id)!.at).toBe(before.at + 100);
          throw new Error("rolled back");
        }),
      ).toThrow("rolled back");
      expect(store.rapidTap(before.tap_id)!.at).toBe(before.at);
      expect(store.rapidTaps().find((t) => t.tap_id === before.tap_id)!.at).toBe(before.at);
    });
  });
});

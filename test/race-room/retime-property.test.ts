/**
 * The rule of issue 37 as a property, over random race days: no review action, slot action or typed-bib action
 * changes the time of a runner it does not name, unless the organiser confirmed the list the race gave (who gets
 * which time). Each day has two timing phones that miss taps and disagree a little, tile taps mixed with 'Mål!',
 * runners marked DNS, and a typist who mistypes, types a bib twice and forgets one; then the covered actions are
 * applied in random order, each first without a confirmation:
 * - taken: every runner whose time changed is one the action names (as the phone showed it);
 * - refused for a confirmation: nothing changed, and sent again with the list, every runner whose time changed is
 *   named or listed, each listed runner with the time the list said;
 * - refused otherwise: nothing changed.
 * What an action names is read from what the phones see (the slots with their runners, the typed bibs, the review
 * list), not from the rule's own code.
 */
import { describe, expect, it } from "vitest";
import type { RaceCommand } from "../../src/durable/race/commands";
import type { BibEntryRecord, Retime, ReviewRecord, SlotRecord } from "../../src/shared/race-protocol";
import { confirmationOf, newRoom, runner, type TestRoom } from "./room-helpers";

const SECOND = 1_000;

/** A seeded random source (mulberry32), so a failing day can be run again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PHONE_A = { actor: "a@example.se", device: "phone-a" };
const PHONE_B = { actor: "b@example.se", device: "phone-b" };
const PHONE_C = { actor: "c@example.se", device: "phone-c" };

/** A random race day, run through the room as the phones would: the race as it stands before anyone decides. */
function raceDay(random: () => number): { race: TestRoom; bibs: number[] } {
  const race = newRoom();
  const count = 6 + Math.floor(random() * 10);
  const bibs = Array.from({ length: count }, (_, i) => 100 + i);
  const ids = new Map<number, string>();
  for (const bib of bibs) {
    ids.set(
      bib,
      race.run({ type: "add-runner", runner: runner({ firstname: `L${bib}`, lastname: "Ek", bib }) }).runner.id,
    );
  }
  const started = race.clock.now();
  race.run({ type: "start", tap: { tapId: `start-${started}`, at: started } });
  // Everything below happens within the next few minutes; the clock stands at their end.
  race.clock.advance(30 * 60 * SECOND);

  const order = [...bibs].sort(() => random() - 0.5);
  const dns = new Set(order.filter(() => random() < 0.1));
  const lagB = Math.round((random() - 0.5) * 1_600);
  let at = started + 60 * SECOND;
  const typed: number[] = [];
  let n = 0;
  for (const bib of order) {
    if (dns.has(bib)) continue;
    at += 2 * SECOND + Math.floor(random() * 6 * SECOND);
    const tap = (by: typeof PHONE_A, moment: number) =>
      race.run({ type: "rapid-tap", tap: { tapId: `tap-${by.device}-${n++}-${moment}`, at: moment } }, by);
    if (random() < 0.88) tap(PHONE_A, at + Math.round((random() - 0.5) * 300));
    if (random() < 0.8) tap(PHONE_B, at + lagB + Math.round((random() - 0.5) * 300));
    // A tile tapped for this runner too, on a third phone (mixed with 'Mål!').
    if (random() < 0.15) {
      race.run(
        { type: "finish", runnerId: ids.get(bib)!, tap: { tapId: `tile-${n++}-${bib}`, at: at + 200 } },
        PHONE_B,
      );
    }
    const r = random();
    if (r < 0.05) continue; // forgotten
    if (r < 0.12)
      typed.push(900 + Math.floor(random() * 90)); // a typo nobody has
    else if (r < 0.17)
      typed.push(bibs[Math.floor(random() * bibs.length)]!); // another runner's bib
    else typed.push(bib);
    if (random() < 0.07) typed.push(typed.at(-1)!); // typed twice
  }
  for (const bib of dns) race.run({ type: "set-dns", runnerId: ids.get(bib)!, dns: true });
  typed.forEach((bib, i) => race.run({ type: "enter-bib", entryId: `entry-${i}-${bib}-x`, bib }, PHONE_C));
  return { race, bibs };
}

/** What the phones see of rapid timing: slots (with their runner and claim), taps, typed bibs, the review list. */
function seen(race: TestRoom) {
  const events = race.room.catchUp(0).events;
  const taps = events.filter((e): e is SlotRecord & { seq: number } => e.type === "slot");
  const entries = events.filter((e): e is BibEntryRecord & { seq: number } => e.type === "bib");
  return { slots: race.room.rapidTiming().slots, taps, entries, reviews: race.room.reviews() };
}

/** The runners an action names, as the phone showed them when the organiser chose it. */
function named(race: TestRoom, command: RaceCommand): Set<string> {
  const { slots, taps, entries, reviews } = seen(race);
  const out = new Set<string>();
  const add = (id: string | null | undefined) => id && out.add(id);
  const ofBib = (bib: number | null | undefined) => add(race.room.runners().find((r) => r.bib === bib)?.id);
  const ofTap = (tapId: string | undefined) => {
    const slot = slots.find((s) => s.taps.some((t) => t.id === tapId) || s.key === tapId);
    add(slot?.runnerId);
    for (const t of slot?.taps ?? []) add(taps.find((x) => x.id === t.id)?.pin);
    add(taps.find((x) => x.id === tapId)?.pin);
  };
  const ofClaim = (claim: string | undefined) => add(slots.find((s) => s.claim === claim)?.runnerId);
  const ofEntry = (entryId: string | undefined) => {
    ofClaim(entryId);
    const entry = entries.find((e) => e.id === entryId);
    ofBib(entry?.bib);
    ofBib(entry?.typed);
  };
  switch (command.type) {
    case "assign-slot":
      ofTap(command.tapId);
      add(command.target.runnerId);
      ofBib(command.target.bib);
      break;
    case "unassign-slot":
    case "discard-slot":
    case "restore-slot":
      ofTap(command.tapId);
      break;
    case "change-bib-entry":
      ofEntry(command.entryId);
      ofBib(command.bib);
      break;
    case "remove-bib-entry":
    case "restore-bib-entry":
      ofEntry(command.entryId);
      break;
    case "apply-review":
    case "discard-review": {
      const item = reviews.find((r) => r.id === command.reviewId) as ReviewRecord;
      add(item.runnerId);
      ofBib(item.bib);
      for (const s of item.suggestions ?? []) add(s.runnerId);
      ofTap(item.slot);
      ofTap(item.pin);
      ofEntry(item.entry);
      if (item.other) {
        ofClaim(item.other);
        if (item.other.startsWith("pin-")) ofTap(item.other.slice(4));
        else ofEntry(item.other);
      }
      break;
    }
    default:
      throw new Error(`not a covered action: ${command.type}`);
  }
  return out;
}

/** One covered action on what the race has now, its arguments picked at random. */
function randomAction(race: TestRoom, bibs: number[], random: () => number): RaceCommand | null {
  const { taps, entries, reviews } = seen(race);
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
  const runners = race.room.runners();
  const tap = pick(taps)?.id;
  const entry = pick(entries)?.id;
  const item = pick(reviews.filter((r) => r.kind !== "start" && r.kind !== "rapid"))?.id;
  const bib = random() < 0.8 ? pick(bibs)! : 900 + Math.floor(random() * 90);
  switch (Math.floor(random() * 9)) {
    case 0:
      return item ? { type: "apply-review", reviewId: item } : null;
    case 1:
      return item ? { type: "discard-review", reviewId: item } : null;
    case 2:
      return tap
        ? {
            type: "assign-slot",
            tapId: tap,
            target: random() < 0.5 ? { bib } : { runnerId: pick(runners)!.id },
          }
        : null;
    case 3:
      return tap ? { type: "unassign-slot", tapId: tap } : null;
    case 4:
      return tap ? { type: "discard-slot", tapId: tap } : null;
    case 5:
      return tap ? { type: "restore-slot", tapId: tap } : null;
    case 6:
      return entry ? { type: "change-bib-entry", entryId: entry, bib } : null;
    case 7:
      return entry ? { type: "remove-bib-entry", entryId: entry } : null;
    default:
      return entry ? { type: "restore-bib-entry", entryId: entry } : null;
  }
}

function times(race: TestRoom): Map<string, number | null> {
  return new Map(race.room.runners().map((r) => [r.id, r.finished]));
}

function changedBetween(before: Map<string, number | null>, after: Map<string, number | null>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => (before.get(id) ?? null) !== (after.get(id) ?? null));
}

/** The call's outcome: its answer, or the race's refusal (with the list, when it asks for a confirmation). */
function attempt(race: TestRoom, command: RaceCommand): { ok: true } | { ok: false; retimes?: Retime[] } {
  try {
    race.room.apply(command, PHONE_C);
    return { ok: true };
  } catch (err) {
    const e = err as { name?: string; retimes?: Retime[] };
    if (e.name !== "RaceError") throw err;
    return { ok: false, retimes: e.retimes };
  }
}

describe("no action re-times a runner it does not name unless the organiser confirmed it", () => {
  it("holds over 80 random race days of 25 actions each", () => {
    const stats = { taken: 0, confirmed: 0, refused: 0 };
    for (let seed = 1; seed <= 80; seed++) {
      const random = seeded(seed);
      const { race, bibs } = raceDay(random);
      for (let step = 0; step < 25; step++) {
        const command = randomAction(race, bibs, random);
        if (!command) continue;
        const where = `seed ${seed}, step ${step}: ${JSON.stringify(command)}`;
        const names = named(race, command);
        const before = times(race);
        const events = race.room.events().length;
        const first = attempt(race, command);
        if (first.ok) {
          stats.taken++;
          const moved = changedBetween(before, times(race)).filter((id) => !names.has(id));
          expect(moved, where).toEqual([]);
          continue;
        }
        // Refused: nothing changed.
        expect(times(race), where).toEqual(before);
        expect(race.room.events(), where).toHaveLength(events);
        if (!first.retimes) {
          stats.refused++;
          continue;
        }
        const listed = new Set(first.retimes.map((r) => r.runnerId));
        expect(
          [...listed].some((id) => names.has(id)),
          `${where}: a named runner is not listed`,
        ).toBe(false);
        const second = attempt(race, { ...command, confirm: confirmationOf(first.retimes) } as RaceCommand);
        expect(second, where).toEqual({ ok: true });
        stats.confirmed++;
        const after = times(race);
        const moved = changedBetween(before, after).filter((id) => !names.has(id) && !listed.has(id));
        expect(moved, where).toEqual([]);
        for (const r of first.retimes) expect(after.get(r.runnerId) ?? null, where).toBe(r.to);
      }
    }
    // The days exercise every path: taken at once, taken after a confirmation, refused.
    expect(stats.taken).toBeGreaterThan(100);
    expect(stats.confirmed).toBeGreaterThan(20);
    expect(stats.refused).toBeGreaterThan(20);
    // Some seconds of work (2,000 actions, each compared whole before and after): not a timing.
  }, 60_000);
});

/**
 * No tap gives a runner the wrong time (issue 37): an action on a slot, a typed bib or the review list changes the
 * time of no runner it does not name, unless the organiser has seen who gets which time and confirmed it
 * (src/durable/race/rules/retime.ts); and the defects that moved other runners' times silently.
 */
import { describe, expect, it } from "vitest";
import type { ChangeAuthor } from "../../src/durable/race/types";
import type { ReviewRecord } from "../../src/shared/race-protocol";
import { confirmationOf, confirmed, newRoom, refusal, retimesOf, runner, tapId, type TestRoom } from "./room-helpers";
import type { SentToReview, BibEntryResult } from "../../src/shared/race-answers";

const SECOND = 1_000;
const MINUTE = 60_000;
const PHONE_A: ChangeAuthor = { actor: "tidtagare-a@example.se", device: "phone-a" };
const PHONE_B: ChangeAuthor = { actor: "tidtagare-b@example.se", device: "phone-b" };
const PHONE_C: ChangeAuthor = { actor: "nummer@example.se", device: "phone-c" };

/** A started race of runners with these bibs, started 20 minutes before the clock's now. */
function race(bibs: number[]) {
  const room = newRoom();
  const ids = new Map<number, string>();
  for (const bib of bibs) {
    const added = room.run({ type: "add-runner", runner: runner({ firstname: `Löpare${bib}`, lastname: "Ek", bib }) });
    ids.set(bib, added.runner.id);
  }
  const started = room.clock.now() - 20 * MINUTE;
  room.run({ type: "start", tap: { tapId: tapId(), at: started } });
  const id = (bib: number) => ids.get(bib)!;
  return {
    room,
    started,
    id,
    /** 'Mål!' on a phone at start + `s` seconds; the slot's key. */
    tap: (s: number, by: ChangeAuthor = PHONE_A) => {
      const answer = room.run({ type: "rapid-tap", tap: { tapId: tapId(), at: started + s * SECOND } }, by);
      if (answer.outcome === "review") throw new Error(answer.review.reason);
      return answer.slot.id;
    },
    /** A finish tile tapped at start + `s` seconds. */
    tile: (bib: number, s: number, by: ChangeAuthor = PHONE_B) =>
      room.run({ type: "finish", runnerId: id(bib), tap: { tapId: tapId(), at: started + s * SECOND } }, by),
    typeBib: (bib: number) => {
      const answer = room.run({ type: "enter-bib", entryId: tapId(), bib }, PHONE_C) as BibEntryResult;
      return answer.entry.id;
    },
    finished: (bib: number) => room.room.runner(id(bib))?.finished ?? null,
    at: (s: number) => started + s * SECOND,
    item: (kind: string): ReviewRecord => room.room.reviews().find((r) => r.kind === kind)!,
  };
}

/** Every runner's finish, by bib. */
function finishes(room: TestRoom): Record<number, number | null> {
  return Object.fromEntries(room.room.runners().map((r) => [r.bib!, r.finished]));
}

describe("an action that would re-time runners it does not name", () => {
  it("is refused with who gets which time, changing nothing; the same action confirmed does it", () => {
    const r = race([731, 732, 733, 734, 735]);
    for (const s of [10, 20, 30, 40]) r.tap(s);
    for (const bib of [731, 732, 732, 733, 734]) r.typeBib(bib);
    // The second 732 holds slot 3: 733 and 734 are one slot off, 734 has none.
    expect(r.finished(733)).toBe(r.at(40));
    expect(r.finished(734)).toBeNull();
    const twice = r.item("bib-twice");
    const before = finishes(r.room);
    const events = r.room.room.events().length;

    const retimes = retimesOf(() => r.room.run({ type: "discard-review", reviewId: twice.id }));
    expect(refusal(() => r.room.run({ type: "discard-review", reviewId: twice.id })).message).toBe(
      "Nr 733 och 734 får nya tider. Bekräfta för att ändra dem.",
    );
    expect(retimes).toEqual([
      expect.objectContaining({ runnerId: r.id(733), bib: 733, name: "Löpare733 Ek", from: r.at(40), to: r.at(30) }),
      expect.objectContaining({ runnerId: r.id(734), bib: 734, from: null, to: r.at(40), started: r.started }),
    ]);
    expect(finishes(r.room)).toEqual(before);
    expect(r.room.room.events()).toHaveLength(events);

    // A confirmation of something else (an old list, another phone changed the race) is refused the same way.
    const stale = confirmationOf(retimes).map((c) => ({ ...c, to: c.to === null ? null : c.to + 1 }));
    expect(retimesOf(() => r.room.run({ type: "discard-review", reviewId: twice.id, confirm: stale }))).toEqual(
      retimes,
    );
    expect(retimesOf(() => r.room.run({ type: "discard-review", reviewId: twice.id, confirm: [] }))).toEqual(retimes);
    const partial = confirmationOf(retimes).slice(0, 1);
    expect(retimesOf(() => r.room.run({ type: "discard-review", reviewId: twice.id, confirm: partial }))).toEqual(
      retimes,
    );
    expect(finishes(r.room)).toEqual(before);

    r.room.run({ type: "discard-review", reviewId: twice.id, confirm: confirmationOf(retimes) });
    expect(r.finished(733)).toBe(r.at(30));
    expect(r.finished(734)).toBe(r.at(40));
    expect(r.room.room.reviews()).toEqual([]);
  });

  it("an action that re-times only what it names needs no confirmation: a suggestion taken, the last bib removed", () => {
    const r = race([741, 742, 743]);
    for (const s of [10, 20, 30]) r.tap(s);
    r.typeBib(741);
    r.typeBib(724); // a typo of 742
    const last = r.typeBib(743);
    const typo = r.item("bib-unknown");
    expect(typo.suggestions?.map((s) => s.bib)).toEqual([742]);
    r.room.run({ type: "apply-review", reviewId: typo.id });
    expect(finishes(r.room)).toEqual({ 741: r.at(10), 742: r.at(20), 743: r.at(30) });
    // The last bib typed, undone: only its own runner loses the time.
    r.room.run({ type: "remove-bib-entry", entryId: last });
    expect(r.finished(743)).toBeNull();
  });

  it("discarding a stray slot names the runner on it and lists the ones after it", () => {
    const r = race([751, 752, 753]);
    const slots = [10, 15, 20, 30].map((s) => r.tap(s));
    for (const bib of [751, 752, 753]) r.typeBib(bib);
    const { retimes } = confirmed(r.room, { type: "discard-slot", tapId: slots[1]! });
    expect(retimes.map((x) => x.bib)).toEqual([753]);
    expect(finishes(r.room)).toEqual({ 751: r.at(10), 752: r.at(20), 753: r.at(30) });
    // Taking the discard back moves them again, confirmed again: the slot showed nobody, so both are listed.
    expect(confirmed(r.room, { type: "restore-slot", tapId: slots[1]! }).retimes.map((x) => x.bib)).toEqual([752, 753]);
  });

  it("actions that re-time by design keep their behaviour: the main timer, a 'Mål!' tap, a bib typed", () => {
    const r = race([761, 762]);
    r.tap(10, PHONE_A);
    r.tap(10.4, PHONE_B);
    r.tap(20, PHONE_A);
    r.tap(20.4, PHONE_B);
    r.typeBib(761);
    r.typeBib(762);
    r.room.run({ type: "set-main-timer", device: "phone-b" });
    expect(finishes(r.room)).toEqual({ 761: r.at(10.4), 762: r.at(20.4) });
  });
});

describe("defect 1: 'Behåll gamla tiden' keeps the slot with the bib it came with", () => {
  it("the issue's race: A times 701–703 on 'Mål!', B taps 702's tile too, C types 701–703: keeping 702's tile time moves nobody", () => {
    const r = race([701, 702, 703]);
    for (const s of [10, 20, 30]) r.tap(s, PHONE_A);
    r.tile(702, 20.2, PHONE_B);
    for (const bib of [701, 702, 703]) r.typeBib(bib);
    const item = r.item("bib-finished");
    expect(item.bib).toBe(702);
    const before = finishes(r.room);
    expect(before).toEqual({ 701: r.at(10), 702: r.at(20.2), 703: r.at(30) });

    // No confirmation asked: no runner but the named one (702) is touched, and 702 keeps its tile time.
    r.room.run({ type: "discard-review", reviewId: item.id });
    expect(finishes(r.room)).toEqual(before);
    expect(r.room.room.rapidTiming().slots.map((s) => s.runnerId)).toEqual([r.id(701), r.id(703)]);
    expect(r.room.audit("bib-removed-with-slot")).toHaveLength(1);
    expect(r.room.room.reviews()).toEqual([]);
  });

  it("'Ta bort numret' on a bib nobody has, that stood for a crossing: its slot goes with it, the later bibs stay", () => {
    const r = race([711, 712, 713]);
    for (const s of [10, 20, 30]) r.tap(s);
    for (const bib of [711, 799, 713]) r.typeBib(bib);
    const item = r.item("bib-unknown");
    r.room.run({ type: "discard-review", reviewId: item.id });
    expect(finishes(r.room)).toEqual({ 711: r.at(10), 712: null, 713: r.at(30) });
  });
});

describe("defect 2: 'Ge tiden' on a slot a typed bib already reaches", () => {
  it("pins the slot only once the organiser confirms the bibs it pushes on; correcting the typed bib in its place moves nobody", () => {
    const r = race([721, 722, 723, 725]);
    const slots = [10, 20, 30].map((s) => r.tap(s));
    const typed = [721, 722, 723].map((bib) => r.typeBib(bib));
    // 'Ge tiden' to 725 on slot 2 (722's): 722 and 723 would move one slot on, 723 losing its time.
    const retimes = retimesOf(() => r.room.run({ type: "assign-slot", tapId: slots[1]!, target: { bib: 725 } }));
    expect(retimes.map((x) => [x.bib, x.to])).toEqual([[723, null]]);
    // The phone's other choice: 722 was a typo of 725, corrected in its place.
    r.room.run({ type: "change-bib-entry", entryId: typed[1]!, bib: 725 });
    expect(finishes(r.room)).toEqual({ 721: r.at(10), 722: null, 723: r.at(30), 725: r.at(20) });
  });
});

describe("defect 3: a bib typed before the race's current start", () => {
  it("goes to 'Att granska' instead of taking a slot of the new race; taken, it joins the order at its end", () => {
    const r = race([771, 772]);
    const typedAt = r.started - 5 * MINUTE; // typed before a reset, sent after the new start
    const early = r.room.run(
      { type: "enter-bib", entryId: "early-entry-0001", bib: 771, at: typedAt },
      PHONE_C,
    ) as SentToReview;
    expect(early).toMatchObject({
      outcome: "review",
      review: { kind: "bib-early", bib: 771, at: typedAt, reason: expect.stringMatching(/före loppets start/) },
    });
    // Sent again by the phone's queue: the same item, nothing new.
    expect(r.room.run({ type: "enter-bib", entryId: "early-entry-0001", bib: 771, at: typedAt }, PHONE_C)).toEqual(
      early,
    );
    r.tap(10);
    r.tap(20);
    // A bib typed now, with its moment, and one from a phone that does not send it: both taken.
    r.room.run({ type: "enter-bib", entryId: tapId(), bib: 772, at: r.room.clock.now() }, PHONE_C);
    expect(r.finished(772)).toBe(r.at(10));
    r.room.run({ type: "apply-review", reviewId: "early-entry-0001" });
    expect(r.finished(771)).toBe(r.at(20));
    expect(r.room.room.reviews()).toEqual([]);
  });

  it("while the race is not started a bib typed goes to the list; discarded, it is gone", () => {
    const room = newRoom();
    room.run({ type: "add-runner", runner: runner({ bib: 781 }) });
    const answer = room.run(
      { type: "enter-bib", entryId: "early-entry-0002", bib: 781, at: room.clock.now() },
      PHONE_C,
    ) as SentToReview;
    expect(answer.review).toMatchObject({ kind: "bib-early", reason: "Startnumret skrevs in innan loppet startade." });
    room.run({ type: "discard-review", reviewId: "early-entry-0002" });
    expect(room.room.reviews()).toEqual([]);
    expect(room.auditTypes()).not.toContain("bib-entered");
  });

  it("an id already used for another bib is refused, and a bad moment is a 400", () => {
    const r = race([791]);
    r.room.run({ type: "enter-bib", entryId: "early-entry-0003", bib: 791, at: r.started - 1 }, PHONE_C);
    expect(refusal(() => r.room.run({ type: "enter-bib", entryId: "early-entry-0003", bib: 792 })).status).toBe(409);
    expect(refusal(() => r.room.run({ type: "enter-bib", entryId: tapId(), bib: 791, at: 1.5 }))).toEqual({
      status: 400,
      message: "Ogiltig tidpunkt.",
    });
  });
});

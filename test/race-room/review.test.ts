/**
 * 'Att granska' in the race room (rules/review-list.ts, review.ts, finish.ts): nothing a volunteer tapped
 * disappears without a person deciding. A finish tap (with its tap id) that the race cannot take as it is becomes
 * an item, with who, which device, when and why; an admin applies it with its original moment, or discards it;
 * both are audited. Start items: race-day.test.ts (the start); rapid timing's items: the rapid-timing tests.
 */
import { describe, expect, it } from "vitest";
import { reviewSort, runnerSort } from "../../src/shared/race-protocol";
import { reviewOf, startedRace, tap, withRunners } from "./race-day-helpers";
import { ADMIN, newRoom, refusal, tapId } from "./room-helpers";

describe("a tap the race cannot take goes to 'Att granska'", () => {
  it("a tap before the start is kept with who, which device, when and why; a replay finds the same item", () => {
    const { race, runners } = withRunners([{ firstname: "Ella", lastname: "Ek", bib: 620 }]);
    const ella = runners[0]!.id;
    // A tap queued before the start (the phone missed the start event) reaches a race not yet started.
    const tapped = race.clock.now() - 5_000;
    const queued = tapId();
    const sent = race.apply(
      { type: "finish", runnerId: ella, tap: { tapId: queued, at: tapped } },
      { actor: ADMIN.actor, device: "telefon-b" },
    );
    const review = reviewOf(sent.value);
    expect(review).toEqual({
      type: "review",
      part: race.part,
      sort: reviewSort(queued),
      id: queued,
      kind: "tap",
      status: "open",
      reason: "Loppet har inte startat.",
      at: tapped,
      runnerId: ella,
      bib: 620,
      name: "Ella Ek",
      actor: ADMIN.actor,
      device: "telefon-b",
      createdAt: race.clock.now(),
      seq: expect.any(Number),
    });
    // Every admin phone's list gets it.
    expect(sent.owed.events).toEqual([review]);
    expect(race.audit("review-added")[0]!.data).toEqual({
      id: queued,
      kind: "tap",
      reason: "Loppet har inte startat.",
      at: tapped,
    });

    // A replay of the same tap finds the same item, and makes no second one.
    race.clock.advance(10_000);
    const again = race.apply({ type: "finish", runnerId: ella, tap: { tapId: queued, at: tapped } });
    expect(reviewOf(again.value)).toEqual(review);
    expect(again.owed.events).toEqual([]);
    expect(race.room.reviews()).toEqual([review]);
    expect(race.audit("review-added")).toHaveLength(1);
    expect(race.room.runner(ella)?.finished).toBeNull();
  });

  it("a tap ahead of the server, before the start, older than any race, or for a runner the race lacks is kept", () => {
    const { race, runners, started } = startedRace([601]);
    const a = runners[0]!.id;
    const before = race.room.snapshot();
    const auditBefore = race.auditTypes();
    const now = race.clock.now();

    expect(reviewOf(tap(race, a, { at: now + 60_000 })).reason).toMatch(/framtiden/);
    expect(reviewOf(tap(race, a, { at: started - 1 })).reason).toBe("Tidpunkten ligger före starten.");
    expect(reviewOf(tap(race, a, { at: now - 6 * 3_600_000 - 1 })).reason).toBe("Tidpunkten är för gammal.");
    const unknown = reviewOf(tap(race, "finns-inte"));
    expect(unknown).toMatchObject({ reason: "Löparen finns inte i loppet.", runnerId: "finns-inte", name: "" });
    expect(unknown.bib).toBeNull();

    expect(race.room.snapshot()).toEqual(before);
    expect(race.auditTypes()).toEqual([...auditBefore, ...Array<string>(4).fill("review-added")]);
    expect(race.room.reviews()).toHaveLength(4);
  });

  it("taps for a runner moved away, moving, marked DNS, undone after the tap, or after the end: each kept", () => {
    const { race, runners } = startedRace([630, 631, 632, 633]);
    const [moved, dns, undone, moving] = runners.map((r) => r.id) as [string, string, string, string];
    const target = newRoom({ meters: 2800 });
    race.clock.advance(60_000);
    const tappedAt = race.clock.now() - 20_000;
    // Phone A records and then undoes Ångrad's finish; phone B's older queued tap must not bring it back.
    tap(race, undone, { at: tappedAt });
    race.run({ type: "undo-finish", runnerId: undone });
    // A change of distance as the object runs it: marked here, added there, then a tombstone here.
    race.room.beginMove(target.part, moved, ADMIN);
    const added = target.run({ type: "add-runner", runner: race.room.movingRunner(moved)!.runner });
    race.room.endMove(moved, target.part, added, ADMIN);
    race.room.beginMove(target.part, moving, ADMIN);
    race.run({ type: "set-dns", runnerId: dns, dns: true });

    const sent = [moved, moving, dns, undone].map((id) => reviewOf(tap(race, id, { at: tappedAt - 1000 })));
    expect(sent.map((r) => r.reason)).toEqual([
      "Löparen finns inte i loppet.",
      "Löparen finns inte i loppet.",
      "Löparen är markerad som ej startande (DNS).",
      "Målgången ångrades efter att tryckningen gjordes.",
    ]);
    expect(race.room.runner(dns)?.dns).toBe(true);
    expect(race.room.runner(undone)?.finished).toBeNull();

    // After the end a queued tap goes to the list too.
    race.room.cancelMove(moving, target.part, "Loppet finns inte", ADMIN);
    race.run({ type: "set-dns", runnerId: moving, dns: true });
    race.run({ type: "set-dns", runnerId: undone, dns: true });
    race.run({ type: "end" });
    expect(reviewOf(tap(race, undone, { at: tappedAt })).reason).toBe("Loppet är avslutat.");
    expect(race.room.reviews()).toHaveLength(5);
  });

  it("a tap made after an undo is a new finish: only an undo after the tap sends it to the list", () => {
    const { race, runners } = startedRace([601]);
    const a = runners[0]!.id;
    tap(race, a, { at: race.clock.now() - 1000 });
    race.run({ type: "undo-finish", runnerId: a });
    race.clock.advance(5_000);
    expect(tap(race, a, { at: race.clock.now() - 1000 })).toMatchObject({ outcome: "recorded" });
  });

  it("a tap id on the list is that tap's: reused for another runner, or as a start, it is refused", () => {
    const { race, runners } = withRunners([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const queued = tapId();
    reviewOf(tap(race, a, { tapId: queued }));
    const reused = { status: 409, message: "Tryck-id:t är redan använt för en annan tryckning." };
    expect(refusal(() => tap(race, b, { tapId: queued }))).toEqual(reused);
    expect(refusal(() => race.run({ type: "start", tap: { tapId: queued } }))).toEqual(reused);
    expect(race.room.race().state).toBe("");
  });
});

describe("applying an item", () => {
  it("is refused before the start (the item stays); then the finish is the tap's own moment, audited, once", () => {
    const { race, runners } = withRunners([620]);
    const ella = runners[0]!.id;
    const tapped = race.clock.now() - 5_000;
    const review = reviewOf(tap(race, ella, { at: tapped }, { device: "telefon-b" }));

    expect(refusal(() => race.run({ type: "apply-review", reviewId: review.id }))).toEqual({
      status: 409,
      message: "Loppet har inte startat. Starta loppet först.",
    });
    expect(race.room.reviews()).toHaveLength(1);

    // The race is started (its gun a minute ago); the admin applies it: the finish is the tap's own moment.
    race.run({ type: "start", tap: { tapId: tapId(), at: race.clock.now() - 60_000 } });
    race.clock.advance(120_000);
    const applied = race.apply({ type: "apply-review", reviewId: review.id }, { actor: "granskare@example.se" });
    expect(applied.value.review).toMatchObject({
      status: "applied",
      decidedBy: "granskare@example.se",
      decidedAt: race.clock.now(),
    });
    expect(applied.value.runner?.finished).toBe(tapped);
    // Every phone hears of the runner's finish and of the item's new status.
    expect(applied.owed.events.map((e) => e.sort)).toEqual(
      expect.arrayContaining([runnerSort(ella), reviewSort(review.id)]),
    );
    expect(race.room.reviews()).toEqual([]);
    expect(refusal(() => race.run({ type: "apply-review", reviewId: review.id }))).toEqual({
      status: 409,
      message: "Den är redan använd.",
    });
    expect(race.audit("finish").find((e) => e.data.outcome === "applied")?.data).toMatchObject({
      id: ella,
      at: tapped,
      review: review.id,
    });
  });

  it("is refused for a moment before the start or a runner no longer in the race; the item stays open", () => {
    const { race, runners } = withRunners([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const early = reviewOf(tap(race, a, { at: race.clock.now() - 60_000 }));
    race.clock.advance(1000);
    const gone = reviewOf(tap(race, b, { at: race.clock.now() - 1000 }));
    race.run({ type: "start", tap: { tapId: tapId(), at: race.clock.now() - 30_000 } });
    race.run({ type: "remove-runner", runnerId: b });

    expect(refusal(() => race.run({ type: "apply-review", reviewId: early.id }))).toEqual({
      status: 409,
      message: "Tidpunkten ligger före starten.",
    });
    expect(refusal(() => race.run({ type: "apply-review", reviewId: gone.id }))).toEqual({
      status: 409,
      message: "Löparen finns inte längre i loppet.",
    });
    expect(race.room.reviews().map((r) => r.id)).toEqual([early.id, gone.id]);
  });

  it("a person decided: an applied tap replaces a finish the runner has, and takes a DNS mark away", () => {
    const { race, runners, started } = startedRace([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    // Ella's finish was undone after a queued tap was made (so it went to the list); then she was timed again.
    tap(race, a, { at: started + 90_000 });
    race.run({ type: "undo-finish", runnerId: a });
    const undone = reviewOf(tap(race, a, { at: started + 70_000 }));
    race.clock.advance(1000);
    expect(tap(race, a, { at: race.clock.now() })).toMatchObject({ outcome: "recorded" });
    race.run({ type: "set-dns", runnerId: b, dns: true });
    const late = reviewOf(tap(race, b, { at: started + 80_000 }));

    expect(race.run({ type: "apply-review", reviewId: undone.id }).runner).toMatchObject({
      finished: started + 70_000,
    });
    const dns = race.run({ type: "apply-review", reviewId: late.id }).runner!;
    expect(dns).toMatchObject({ finished: started + 80_000 });
    expect(dns).not.toHaveProperty("dns");
  });
});

describe("discarding an item", () => {
  it("closes it, audited, off the open list; an unknown item is 404 and a decided one is refused", () => {
    const { race, runners } = withRunners([601, 602]);
    const [a, b] = runners.map((r) => r.id) as [string, string];
    const first = reviewOf(tap(race, a));
    const second = reviewOf(tap(race, b));

    const discarded = race.apply({ type: "discard-review", reviewId: first.id }, { actor: "granskare@example.se" });
    expect(discarded.value.review).toMatchObject({ status: "discarded", decidedBy: "granskare@example.se" });
    expect(discarded.owed.events).toEqual([discarded.value.review]);
    expect(race.room.reviews().map((r) => r.id)).toEqual([second.id]);
    expect(race.audit("review-discarded")[0]!.data).toMatchObject({ id: first.id, kind: "tap" });

    expect(refusal(() => race.run({ type: "discard-review", reviewId: first.id }))).toEqual({
      status: 409,
      message: "Den är redan kastad.",
    });
    expect(refusal(() => race.run({ type: "apply-review", reviewId: first.id })).message).toBe("Den är redan kastad.");
    for (const type of ["apply-review", "discard-review"] as const) {
      expect(refusal(() => race.run({ type, reviewId: "finns-inte-alls" }))).toEqual({
        status: 404,
        message: "Det finns inget sådant att granska.",
      });
    }
    // A replay of a discarded tap finds its item: the tap stays spent.
    expect(reviewOf(tap(race, a, { tapId: first.id })).status).toBe("discarded");
    expect(race.room.runner(a)?.finished).toBeNull();
  });
});

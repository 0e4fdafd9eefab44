/** The race's 'Logg' as Swedish sentences: every event type of the race contract, device numbers, 'Återställ'. */
import { describe, expect, it } from "vitest";
import type { RaceAuditEvent, ReviewRecord } from "../../src/shared/race-protocol";
import {
  describeEvent,
  deviceLabel,
  deviceNumbers,
  logLines,
  runnersFromLog,
  tapOf,
  type LogContext,
} from "../../src/web/features/race-day/race-log";

// 10:58:09 in Stockholm (summer time, UTC+2).
const T = (h: number, m: number, s: number) => Date.UTC(2030, 8, 13, h - 2, m, s);

let seq = 0;
function event(type: string, payload: unknown, device: string | null = "dev-3", at = T(10, 58, 11)): RaceAuditEvent {
  return { seq: ++seq, type, payload: JSON.stringify(payload), actor: "arrangor@example.se", device, at };
}

const ctx: LogContext = {
  runners: new Map([
    ["ella", { firstname: "Ella", lastname: "Berg", bib: 200 }],
    ["bo", { firstname: "Bo", lastname: "Öberg", bib: null }],
  ]),
  devices: new Map([
    ["dev-1", 1],
    ["dev-2", 2],
    ["dev-3", 3],
  ]),
  thisDevice: "dev-me",
};

const say = (type: string, payload: unknown, device: string | null = "dev-3") =>
  describeEvent(event(type, payload, device), ctx).text;

describe("sentences for every event of the race contract", () => {
  it("finishes: recorded, re-recorded (with 'Återställ'), same finish and conflicts", () => {
    const base = { id: "ella", bib: 200, tapId: "abcdefgh", receivedAt: T(10, 58, 10) };
    expect(say("finish", { ...base, at: T(10, 58, 9), outcome: "recorded", previous: null })).toBe(
      "Ella Berg (200) i mål 10:58:09, telefon 3",
    );
    const rerecord = event("finish", { ...base, at: T(10, 58, 9), outcome: "rerecorded", previous: T(10, 58, 2) });
    expect(describeEvent(rerecord, ctx)).toEqual({
      text: "Ella Berg (200) i mål 10:58:09, ersatte 10:58:02, telefon 3",
      restoreSeq: rerecord.seq,
    });
    expect(say("finish", { ...base, at: T(10, 58, 9), outcome: "same-finish", previous: T(10, 58, 7) })).toBe(
      "Ella Berg (200) i mål 10:58:09, samma målgång som 10:58:07, som gäller, telefon 3",
    );
    const earlier = event("finish", { ...base, at: T(10, 58, 5), outcome: "same-finish", previous: T(10, 58, 7) });
    expect(describeEvent(earlier, ctx)).toEqual({
      text: "Ella Berg (200) i mål 10:58:05, samma målgång som 10:58:07, den tidigare gäller, telefon 3",
      restoreSeq: earlier.seq,
    });
    expect(say("finish", { ...base, at: T(10, 59, 30), outcome: "conflict", previous: T(10, 58, 7) })).toBe(
      "Ella Berg (200) i mål 10:59:30, men var redan i mål 10:58:07; den tidigare tiden gäller, telefon 3",
    );
    // A recorded finish replaced nothing: no 'Återställ'.
    expect(
      describeEvent(event("finish", { ...base, at: 1, outcome: "recorded", previous: null }), ctx),
    ).not.toHaveProperty("restoreSeq");
  });

  it("a finish from a review item applied over a time can be restored too", () => {
    const applied = event("finish", {
      id: "ella",
      bib: 200,
      at: T(10, 58, 0),
      outcome: "applied",
      previous: T(10, 59, 0),
    });
    expect(describeEvent(applied, ctx).restoreSeq).toBe(applied.seq);
  });

  it("the start, a second press for the same gun, a moved start", () => {
    expect(say("start", { at: T(10, 0, 0), tapId: "abcdefgh", receivedAt: T(10, 0, 1) }, "dev-1")).toBe(
      "Loppet startade 10:00:00, telefon 1",
    );
    // Pressed offline, sent minutes later: the log says when it arrived.
    expect(say("start", { at: T(10, 0, 0), tapId: "abcdefgh", receivedAt: T(10, 4, 31) }, "dev-2")).toBe(
      "Loppet startade 10:00:00 (nådde servern 10:04:31), telefon 2",
    );
    expect(say("same-start", { at: T(10, 0, 1), tapId: "ijklmnop", first: T(10, 0, 0) }, "dev-2")).toBe(
      "Starta tryckt 10:00:01: samma start som 10:00:00, den gäller, telefon 2",
    );
    expect(say("start-moved", { at: T(10, 0, 5), previous: T(10, 0, 0), review: "tapabcdef" })).toBe(
      "Starttiden ändrad till 10:00:05, ersatte 10:00:00 (från granskning), telefon 3",
    );
  });

  it("undo, restored time, did not start, end and reset", () => {
    expect(say("restore", { id: "ella", bib: 200, previous: T(10, 58, 9) })).toBe(
      "Ella Berg (200) tillbaka bland de väntande (målgång 10:58:09 ångrad), telefon 3",
    );
    expect(
      say("time-restored", { id: "ella", bib: 200, at: T(10, 58, 2), previous: T(10, 58, 9), from: 12 }, null),
    ).toBe("Ella Berg (200) fick tillbaka tiden 10:58:02, ersatte 10:58:09");
    expect(say("dns", { id: "bo", bib: null })).toBe("Bo Öberg markerad ej start, telefon 3");
    expect(say("dns-removed", { id: "bo", bib: null })).toBe("Bo Öberg inte längre markerad ej start, telefon 3");
    expect(say("end", {})).toBe("Loppet avslutat, telefon 3");
    expect(
      say("reset", {
        previous: { state: "started", started: T(10, 0, 0) },
        finishes: [
          ["ella", T(10, 58, 9)],
          ["bo", null],
          ["x", T(10, 59, 0)],
        ],
      }),
    ).toBe("Loppet återställt: starten 10:00:00 och 2 måltider raderade, telefon 3");
    expect(say("reset", { previous: { state: "", started: null }, finishes: [] }, null)).toBe("Loppet återställt");
  });

  it("the review list's items: added, applied, discarded", () => {
    const open: ReviewRecord = {
      type: "review",
      part: "race-300913-28",
      sort: "review-tapabcdef",
      id: "tapabcdef",
      kind: "tap",
      status: "open",
      reason: "Loppet har inte startat.",
      at: T(10, 58, 9),
      runnerId: "ella",
      bib: 200,
      actor: "arrangor@example.se",
      device: "dev-2",
      createdAt: T(10, 58, 12),
    };
    const known = { ...ctx, reviews: new Map([[open.id, open]]) };
    const added = event("review-added", { id: "tapabcdef", kind: "tap", reason: "Loppet har inte startat." });
    expect(describeEvent(added, known).text).toBe(
      "Till granskning: måltid 10:58:09 för Ella Berg (200) – Loppet har inte startat, telefon 3",
    );
    expect(describeEvent(event("review-applied", { id: "tapabcdef" }, "dev-me"), known).text).toBe(
      "Granskning använd: måltid 10:58:09 för Ella Berg (200), den här telefonen",
    );
    // Once decided the item has left the list: the row's own kind and moment still make a sentence.
    expect(say("review-discarded", { id: "tapabcdef", kind: "tap", at: T(10, 58, 9) })).toBe(
      "Granskning kastad: måltid 10:58:09, telefon 3",
    );
    expect(say("review-discarded", { id: "tapabcdef" })).toBe("Granskning kastad: en post, telefon 3");
    expect(
      say("review-added", { id: "tapstart", kind: "start", reason: "Starten trycktes kl. 10:00:00.", at: T(10, 0, 0) }),
    ).toBe("Till granskning: start 10:00:00 – Starten trycktes kl. 10:00:00, telefon 3");
  });

  it("the race and its runners", () => {
    expect(
      say("race-created", { part: "race-300913-28", date: "2030-09-13", distance: 2800, openForReg: true }, null),
    ).toBe("Loppet skapat: 2030-09-13, 2,8 km");
    expect(say("race-updated", { openForReg: false }, null)).toBe("Loppet stängt för anmälan");
    expect(say("race-updated", { openForReg: true }, null)).toBe("Loppet öppnat för anmälan");
    expect(
      say("runner-added", {
        id: "new",
        firstname: "Åke",
        lastname: "Ärlig",
        age: 9,
        company: "",
        group: "Ingen",
        bib: 5,
      }),
    ).toBe("Åke Ärlig (5) tillagd, telefon 3");
    expect(say("runner-added", { id: "ella", bib: 200, from: "d1" }, null)).toBe(
      "Ella Berg (200) tillagd från anmälan",
    );
    expect(say("runner-added", { id: "zz", firstname: "Zoe", lastname: "Z", bib: null, droppedBib: 12 })).toBe(
      "Zoe Z tillagd (startnummer 12 var upptaget), telefon 3",
    );
    expect(
      say(
        "runner-added",
        { id: "late", firstname: "Li", lastname: "Sen", bib: 9, dns: true, lateForEndedRace: true },
        null,
      ),
    ).toBe("Li Sen (9) tillagd, som ej start: loppet var avslutat");
    expect(say("runner-updated", { id: "ella", changes: { bib: [null, 200], firstname: ["Ela", "Ella"] } })).toBe(
      "Ella Berg (200) ändrad: startnummer inget → 200, förnamn Ela → Ella, telefon 3",
    );
    expect(say("runner-anonymised", { id: "ella" }, null)).toBe("En löpares personuppgifter raderade");
    expect(say("runner-removed", { id: "ella", bib: 200 })).toBe("Ella Berg (200) borttagen ur loppet, telefon 3");
    expect(say("runner-moving", { id: "ella", to: "race-300913-56" })).toBe(
      "Ella Berg (200) flyttas till race-300913-56, telefon 3",
    );
    expect(say("runner-moved", { id: "ella", to: "race-300913-56", bib: 200, droppedBib: 200 })).toBe(
      "Ella Berg (200) flyttad till race-300913-56 (startnummer 200 var upptaget där), telefon 3",
    );
    expect(say("runner-move-cancelled", { id: "bo", to: "race-300913-56", reason: "Loppet är avslutat." })).toBe(
      "Flytten av Bo Öberg till race-300913-56 avbröts: Loppet är avslutat, telefon 3",
    );
  });

  it("a runner the screen no longer has is named by its bib, else as 'En löpare'", () => {
    expect(say("dns", { id: "gone", bib: 31 })).toBe("Nr 31 markerad ej start, telefon 3");
    expect(say("dns", { id: "gone", bib: null })).toBe("En löpare markerad ej start, telefon 3");
  });

  it("a type this screen does not know shows its fields, not nothing", () => {
    expect(say("lap", { id: "ella", n: 2, at: T(10, 30, 0) }, null)).toBe("lap id: ella, n: 2, at: 10:30:00");
  });

  it("never shows raw event fields for a known type", () => {
    const finish = event("finish", {
      id: "ella",
      bib: 200,
      at: T(10, 58, 9),
      outcome: "rerecorded",
      previous: T(10, 58, 2),
    });
    const text = describeEvent(finish, ctx).text;
    expect(text).not.toMatch(/bib:|outcome|at:/);
  });
});

describe("devices", () => {
  it("numbered in order of first appearance in the log (which comes newest first), this one by name", () => {
    const events = [
      { seq: 9, device: "dev-b" },
      { seq: 7, device: "dev-c" },
      { seq: 5, device: null },
      { seq: 3, device: "dev-b" },
      { seq: 2, device: "dev-a" },
    ];
    const numbers = deviceNumbers(events);
    expect([...numbers]).toEqual([
      ["dev-a", 1],
      ["dev-b", 2],
      ["dev-c", 3],
    ]);
    const c = { devices: numbers, thisDevice: "dev-b" };
    expect(deviceLabel("dev-a", c)).toBe("telefon 1");
    expect(deviceLabel("dev-b", c)).toBe("den här telefonen");
    expect(deviceLabel("dev-new", c)).toBe("en annan telefon");
    expect(deviceLabel(null, c)).toBe("");
  });
});

describe("names from the log", () => {
  it("as added and renamed, for runners the screen no longer has", () => {
    const events = [
      event("runner-updated", { id: "x", changes: { lastname: ["Ek", "Åberg"], bib: [3, 4] } }),
      event("runner-added", { id: "x", firstname: "Åsa", lastname: "Ek", age: 30, company: "", group: "Dam", bib: 3 }),
      event("runner-added", { id: "y", bib: 9, from: "d1" }),
    ].map((e, i) => ({ ...e, seq: 100 - i }));
    expect([...runnersFromLog(events)]).toEqual([["x", { firstname: "Åsa", lastname: "Åberg", bib: 4 }]]);
  });

  it("logLines gives time, actor and sentence per row, in the order given", () => {
    const rows = [event("end", {}, "dev-me", T(11, 30, 0)), event("start", { at: T(10, 0, 0) }, "dev-1", T(10, 0, 1))];
    expect(logLines(rows, ctx)).toEqual([
      { seq: rows[0]!.seq, time: "11:30:00", actor: "arrangor@example.se", text: "Loppet avslutat, den här telefonen" },
      {
        seq: rows[1]!.seq,
        time: "10:00:01",
        actor: "arrangor@example.se",
        text: "Loppet startade 10:00:00, telefon 1",
      },
    ]);
  });
});

describe("Målfoto in the log", () => {
  it("a decision made with the photo open says so; photos saved and deleted are sentences", () => {
    expect(say("slot-discarded", { taps: ["t1"], slot: "t1", number: 3, at: T(10, 58, 9), fromPhoto: true })).toMatch(
      / \(avgjort med målfoto\), telefon 3$/,
    );
    expect(say("slot-discarded", { taps: ["t1"], slot: "t1", number: 3, at: T(10, 58, 9) })).not.toMatch(/målfoto/);
    expect(say("photo", { tapId: "t1", frame: 1, bytes: 1000 })).toBe("Målfoto 2 av 3 sparat, telefon 3");
    expect(say("photos-deleted", { reason: "organiser", frames: 9, taps: 3 }, null)).toBe(
      "Målfotona raderade (9 bilder)",
    );
    expect(say("photos-deleted", { reason: "retention", frames: 9, taps: 3 }, null)).toBe(
      "Målfotona raderade 30 dagar efter loppet",
    );
  });

  it("a row about a tap names the tap, so the log shows its photos; other rows name none", () => {
    const rows = [
      event("finish", { id: "ella", bib: 200, tapId: "tile0001", at: T(10, 58, 9), outcome: "recorded" }),
      event("rapid-tap", { tapId: "rapid001", at: T(10, 58, 9), receivedAt: T(10, 58, 10) }),
      event("review-added", { id: "early001", kind: "rapid", reason: "Loppet har inte startat.", at: T(9, 0, 0) }),
      event("review-added", { id: "start001", kind: "start", reason: "Två starter.", at: T(10, 0, 0) }),
      event("finish", { id: "ella", bib: 200, tapId: null, at: T(10, 58, 9), outcome: "rerecorded" }),
      event("photo", { tapId: "rapid001", frame: 1, bytes: 1000 }),
      event("start", { at: T(10, 0, 0), tapId: "start002" }),
    ];
    expect(rows.map(tapOf)).toEqual(["tile0001", "rapid001", "early001", undefined, undefined, undefined, undefined]);
    expect(logLines(rows, ctx).map((l) => l.tap)).toEqual(rows.map(tapOf));
  });
});

describe("times first, bibs later in the log", () => {
  const slot = { slot: "t1", number: 3, at: T(10, 58, 9) };
  it("presses, typed bibs and what became of each finish time are sentences", () => {
    expect(say("rapid-tap", { tapId: "t1", at: T(10, 58, 9), receivedAt: T(10, 58, 10) })).toBe(
      "Mål! tryckt 10:58:09, telefon 3",
    );
    expect(say("bib-entered", { entry: "e1", bib: 200 })).toBe("Startnummer 200 inskrivet, telefon 3");
    expect(say("bib-entered", { entry: "r1", bib: 200, review: "r1" }, null)).toBe(
      "Startnummer 200 inskrivet (från granskning)",
    );
    expect(say("bib-changed", { entry: "e1", bib: 201, previous: 200 }, null)).toBe("Startnummer 200 ändrat till 201");
    expect(say("bib-removed", { entry: "e1", bib: 200 }, null)).toBe("Startnummer 200 borttaget");
    expect(say("bib-restored", { entry: "e1", bib: 200 }, null)).toBe("Startnummer 200 tillbaka");
    expect(say("bib-removed-with-slot", { entry: "e1", bib: 200, ...slot }, null)).toBe(
      "Startnummer 200 och måltid #3 (10:58:09) borttagna",
    );
    expect(say("slot-paired", { id: "ella", bib: 200, ...slot, previous: null }, null)).toBe(
      "Ella Berg (200) i mål 10:58:09 (måltid #3)",
    );
    expect(say("slot-time-used", { id: "ella", bib: 200, ...slot, previous: T(10, 58, 2) }, null)).toBe(
      "Ella Berg (200) i mål 10:58:09 (måltid #3), ersatte 10:58:02",
    );
    expect(say("slot-unpaired", { id: "ella", bib: 200, previous: T(10, 58, 9) }, null)).toBe(
      "Ella Berg (200) inte längre i mål (10:58:09)",
    );
    expect(say("slot-assigned", { tap: "t1", ...slot, id: "ella", bib: 200 }, null)).toBe(
      "Måltid #3 (10:58:09) kopplad till Ella Berg (200)",
    );
    expect(say("slot-unassigned", { taps: ["t1"], slot: "t1", id: "ella" }, null)).toBe(
      "Måltiden inte längre kopplad till Ella Berg (200)",
    );
    expect(say("slot-discarded", { taps: ["t1"], ...slot }, null)).toBe("Måltid #3 (10:58:09) kastad");
    expect(say("slot-restored", { taps: ["t1"], discard: 4 }, null)).toBe("Kastad måltid tillbaka");
    expect(say("slot-kept", { taps: ["t1"], ...slot }, null)).toBe("Måltid #3 (10:58:09) behållen");
    expect(say("main-timer", { device: "dev-2", previous: null }, null)).toBe("Huvudtidtagare: telefon 2");
    expect(say("results-official", { openReviews: 0, runners: 60, finished: 58 }, null)).toBe(
      "Resultaten markerade som officiella (58 av 60 i mål)",
    );
    expect(say("results-preliminary", {}, null)).toBe("Resultaten preliminära igen");
    expect(
      say(
        "dns-not-picked-up",
        {
          runners: [
            { id: "ella", bib: 200 },
            { id: "bo", bib: null },
          ],
        },
        null,
      ),
    ).toBe("2 löpare utan hämtad nummerlapp markerade ej start");
    expect(say("review-updated", { opened: ["a", "b"], changed: [], resolved: ["c"] }, null)).toBe(
      "Att granska: 2 nya, 0 ändrade, 1 lösta",
    );
  });

  it("every change the race object writes has a sentence, never its raw type", () => {
    // The types from the race rules' `store.write("…")` calls: a new change without a sentence fails here instead
    // of showing its raw type to a volunteer.
    const rules = import.meta.glob<string>("../../src/durable/race/rules/*.ts", {
      query: "?raw",
      import: "default",
      eager: true,
    });
    const types = new Set<string>();
    for (const text of Object.values(rules))
      for (const m of text.matchAll(/\.write\(\s*"([a-z-]+)"/g)) types.add(m[1]!);
    expect(types.size).toBeGreaterThan(30);
    for (const type of types) expect(say(type, {}, null), type).not.toMatch(new RegExp(`^${type}\\b`));
  });
});

/**
 * The registrations overview's rules (src/shared/registrations-overview.ts) and the refund form's amount check:
 * who counts as paid, the five groups with their labels and per-runner counts, both orderings, runners by age, the
 * heading's paid count and paid sum (PAID amounts parsed as integers), the badge texts ('Ej betald'/'Ej betalt',
 * the payid label for amount 0), what may still be refunded, and the search, also over a 2,000-registration season.
 */
import { describe, expect, it } from "vitest";
import type { PaymentStatus } from "../../src/shared/payment-protocol";
import {
  amountAsInteger,
  filterGroups,
  filterParticipantRows,
  filterRegistrations,
  groupByDistance,
  isPaidRegistration,
  isPaidRunner,
  overviewTotals,
  paidParticipantRows,
  paymentBadgeText,
  refundableAmount,
  refundedOf,
  runnersByAge,
  unpaidText,
  withRunners,
  type OverviewPayment,
  type OverviewRegistration,
  type OverviewRunner,
  type RefundRecord,
} from "../../src/shared/registrations-overview";
import type { DistanceKm } from "../../src/shared/season";
import { checkRefundAmount } from "../../src/web/features/admin/registrations/refund-amount";

const HEX = (n: number) => n.toString(16).toUpperCase().padStart(32, "0");

function runner(
  id: string,
  firstname: string,
  age: number,
  distance: DistanceKm,
  lastname = "Svensson",
): OverviewRunner {
  return {
    id,
    firstname,
    lastname,
    age,
    distance,
    bib: null,
    company: "",
    group: "Ingen",
    paidBy: null,
    price: null,
    deregistered: null,
  };
}

function payment(
  id: string,
  status: PaymentStatus,
  amount: number,
  datePaid: string | null,
  refunds: RefundRecord[] = [],
): OverviewPayment {
  return {
    id,
    amount,
    currency: "SEK",
    status,
    dateCreated: datePaid ?? "2025-08-01T08:00:00.000Z",
    datePaid,
    paymentReference: null,
    payerAlias: null,
    errorCode: status === "ERROR" ? "RF07" : null,
    errorMessage: status === "ERROR" ? "Transaction declined" : null,
    refunds,
    refunded: 0,
    refundable: 0,
  };
}

function registration(
  id: string,
  email: string,
  runners: OverviewRunner[],
  pay: OverviewPayment[] = [],
  payid: string | null = pay.at(-1)?.id ?? null,
  /** Runners added after the family paid (no payment of their own is PAID). */
  unpaid: string[] = [],
): OverviewRegistration {
  // As the server sets it: the runners are paid by the family's (first) PAID payment, unless a test says otherwise.
  const paidBy = pay.find((p) => p.status === "PAID")?.id ?? null;
  return {
    id,
    email,
    payid,
    createdAt: "2025-07-01T08:00:00.000Z",
    swishtory: Object.fromEntries(pay.map((p) => [p.id, p])),
    deltagare: Object.fromEntries(
      runners.map((r) => [r.id, r.paidBy === null && !unpaid.includes(r.id) ? { ...r, paidBy } : r]),
    ),
  };
}

// A family on 5.6 and 1.6 (runners given oldest first), paid 400 kr on 2 Aug.
const family = registration(
  "fam",
  "familjen@example.se",
  [runner("f1", "Mamma", 40, "5.6"), runner("f2", "Stor", 10, "1.6"), runner("f3", "Liten", 6, "1.6")],
  [payment(HEX(1), "PAID", 400, "2025-08-02T10:00:00.000Z")],
);
// Paid earlier (1 Aug), one runner on 5.6.
const early = registration(
  "early",
  "tidig@example.se",
  [runner("e1", "Tidig", 30, "5.6", "Ek")],
  [payment(HEX(2), "PAID", 250, "2025-08-01T10:00:00.000Z")],
);
// Paid last (3 Aug) with a free campaign order: amount 0, label the code.
const free = registration(
  "free",
  "gratis@example.se",
  [runner("g1", "Gratis", 5, "0.8", "Alm")],
  [payment("kampanj_FRIBILJETT_ab12", "PAID", 0, "2025-08-03T10:00:00.000Z")],
);
// A failed payment: not paid.
const failed = registration(
  "failed",
  "misslyckad@example.se",
  [runner("x1", "Fel", 33, "2.8", "Berg")],
  [payment(HEX(3), "ERROR", 250, null)],
);
// No payment at all; and a family that paid for one runner and added a sibling since, whose payment (the
// registration's payid now) still waits.
const none = registration("none", "ingen@example.se", [runner("n1", "Ingen", 20, "5.6", "Ek")]);
const reselected = registration(
  "resel",
  "ombokad@example.se",
  [runner("r1", "Om", 44, "2.8", "Dahl"), runner("r2", "Syster", 7, "0.8", "Dahl")],
  [payment(HEX(4), "PAID", 250, "2025-08-01T09:00:00.000Z"), payment(HEX(5), "CREATED", 150, null)],
  HEX(5),
  ["r2"],
);
const empty = registration("empty", "tom@example.se", [], [payment(HEX(6), "PAID", 999, "2025-08-01T10:00:00.000Z")]);

const SEASON_LIST = [family, early, free, failed, none, reselected, empty];

describe("payment status", () => {
  it("a runner is paid by the payment that booked it, whatever the registration's latest payment", () => {
    expect([family, early, free, reselected].every(isPaidRegistration)).toBe(true);
    expect([failed, none].some(isPaidRegistration)).toBe(false);
    expect(isPaidRunner(reselected.deltagare.r1!)).toBe(true);
    expect(isPaidRunner(reselected.deltagare.r2!)).toBe(false);
  });

  it("drops registrations without runners", () => {
    expect(withRunners(SEASON_LIST).map((r) => r.id)).not.toContain("empty");
    expect(withRunners(SEASON_LIST)).toHaveLength(6);
  });
});

describe("variant 1: grouped by distance", () => {
  const groups = groupByDistance(SEASON_LIST);

  it("has the groups 5.6, 2.8, 1.6, 0.8, then nok, with the spec's labels", () => {
    expect(groups.map((g) => g.label)).toEqual(["5,6km", "2,8km", "1,6km", "0,8km", "nok"]);
  });

  it("counts runners, listing a family under each distance it runs", () => {
    expect(groups.map((g) => g.count)).toEqual([2, 1, 2, 1, 3]);
    // A family with a paid runner and a sibling not paid yet: the runner under its distance, the sibling under nok.
    expect(groups[1]!.rows.map((r) => [r.registration.id, r.runners.map((x) => x.id)])).toEqual([["resel", ["r1"]]]);
    expect(groups[4]!.rows.find((r) => r.registration.id === "resel")!.runners.map((x) => x.id)).toEqual(["r2"]);
    expect(groups[0]!.rows.map((r) => r.registration.id)).toEqual(["fam", "early"]);
    expect(groups[2]!.rows.map((r) => r.registration.id)).toEqual(["fam"]);
    // Under 1.6 the family shows its two children only, youngest first.
    expect(groups[2]!.rows[0]!.runners.map((r) => r.firstname)).toEqual(["Liten", "Stor"]);
    expect(groups[0]!.rows[0]!.runners.map((r) => r.firstname)).toEqual(["Mamma"]);
  });

  it("orders by payment date, newest first; unpaid ones by their attempt or registration", () => {
    const later = registration(
      "later",
      "sen@example.se",
      [runner("l1", "Sen", 50, "5.6")],
      [payment(HEX(7), "PAID", 250, "2025-08-05T10:00:00.000Z")],
    );
    expect(groupByDistance([early, family, later])[0]!.rows.map((r) => r.registration.id)).toEqual([
      "later",
      "fam",
      "early",
    ]);
    // nok: the failed attempt (1 Aug 08:00) and the open one are newer than the bare registration (1 Jul).
    expect(groups[4]!.rows.map((r) => r.registration.id)).toEqual(["failed", "resel", "none"]);
  });

  it("returns every group, empty ones too, for an empty season", () => {
    expect(groupByDistance([]).map((g) => [g.label, g.count, g.rows.length])).toEqual([
      ["5,6km", 0, 0],
      ["2,8km", 0, 0],
      ["1,6km", 0, 0],
      ["0,8km", 0, 0],
      ["nok", 0, 0],
    ]);
  });
});

describe("variant 2: paid runners", () => {
  it("lists one row per paid runner, payment date oldest first, a family's runners by age", () => {
    expect(paidParticipantRows(SEASON_LIST).map((r) => r.runner.id)).toEqual(["r1", "e1", "f3", "f2", "f1", "g1"]);
  });
});

describe("heading figures", () => {
  it("counts paid runners and sums PAID amounts parsed as integers", () => {
    expect(overviewTotals(SEASON_LIST)).toEqual({
      paidParticipants: 6,
      paidCompanions: 0,
      paidSum: 900,
      refunded: 0,
      registrations: 6,
    });
    const odd = registration(
      "odd",
      "udda@example.se",
      [runner("o1", "Udda", 30, "5.6")],
      [{ ...payment(HEX(8), "PAID", 0, "2025-08-01T10:00:00.000Z"), amount: "149.90" as unknown as number }],
    );
    expect(overviewTotals([odd]).paidSum).toBe(149);
    expect(amountAsInteger("abc")).toBe(0);
    expect(amountAsInteger(250)).toBe(250);
  });

  it("adds up what Swish has paid back on the paid payments", () => {
    const refunded = { ...family, swishtory: { [HEX(1)]: { ...family.swishtory[HEX(1)]!, refunded: 150 } } };
    expect(overviewTotals([refunded, early]).refunded).toBe(150);
    // The paid sum stays the PAID amounts (spec §9).
    expect(overviewTotals([refunded, early]).paidSum).toBe(650);
  });
});

describe("badges", () => {
  it("shows the amount of a paid registration and the payid's second part when the amount is 0", () => {
    expect(paymentBadgeText(family)).toBe("400 kr");
    expect(paymentBadgeText(free)).toBe("FRIBILJETT");
  });

  it("says 'Ej betald' with an unpaid attempt and 'Ej betalt' with none", () => {
    expect(unpaidText(failed)).toBe("Ej betald");
    // The sibling's row under nok: its payment was started and is not paid; the paid runner's row shows 250 kr.
    expect(paymentBadgeText(reselected, "nok")).toBe("Ej betald");
    expect(paymentBadgeText(reselected, "2.8")).toBe("250 kr");
    expect(unpaidText(none)).toBe("Ej betalt");
    expect(paymentBadgeText(none)).toBe("Ej betalt");
  });
});

describe("several payments and refunds that deregister (issue 24)", () => {
  // Paid 250 kr for the mother on 2 Aug, then 100 kr for a child added on 9 Aug; the child left with a refund.
  const first = payment(HEX(20), "PAID", 250, "2025-08-02T10:00:00.000Z");
  const second = { ...payment(HEX(21), "PAID", 100, "2025-08-09T10:00:00.000Z"), refunded: 100 };
  const twice = registration(
    "twice",
    "tva@example.se",
    [
      { ...runner("t1", "Mor", 40, "5.6"), paidBy: HEX(20), price: 150 },
      { ...runner("t2", "Son", 9, "1.6", "Ek"), paidBy: HEX(21), price: 100, deregistered: "2025-08-10T10:00:00.000Z" },
      { ...runner("t3", "Dotter", 7, "1.6"), paidBy: HEX(21), price: 100 },
    ],
    [first, second],
  );

  it("adds up every PAID payment once, and counts only the runners still paid", () => {
    expect(overviewTotals([twice])).toEqual({
      paidParticipants: 2,
      paidCompanions: 0,
      paidSum: 350,
      refunded: 100,
      registrations: 1,
    });
    expect(paymentBadgeText(twice, "5.6")).toBe("350 kr");
    expect(refundedOf(twice)).toBe(100);
  });

  it("keeps a deregistered runner on its distance's row, marked and not counted; lists each runner by its payment", () => {
    const groups = groupByDistance([twice]);
    expect(groups.map((g) => g.count)).toEqual([1, 0, 1, 0, 0]);
    expect(groups[2]!.rows[0]!.runners.map((x) => x.id)).toEqual(["t3", "t2"]);
    // Searched, the counts follow the same rule: the row found by the son's name counts only his paid sister.
    expect(filterGroups(groups, "ek").map((g) => [g.count, g.rows.length])).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(filterGroups(groups, "tva@").map((g) => g.count)).toEqual([1, 0, 1, 0, 0]);
    // Variant 2: the mother (paid 2 Aug) before the daughter (paid 9 Aug); the son is no longer a paid runner.
    expect(paidParticipantRows([twice]).map((r) => r.runner.id)).toEqual(["t1", "t3"]);
  });
});

describe("refunds", () => {
  const refund = (amount: number, status: RefundRecord["status"]): RefundRecord => ({
    id: HEX(amount),
    amount,
    status,
    date: "2025-08-10T10:00:00.000Z",
    datePaid: null,
    errorCode: null,
    errorMessage: null,
  });

  it("leaves the amount minus every refund that has not failed", () => {
    const p = payment(HEX(1), "PAID", 400, "2025-08-02T10:00:00.000Z");
    expect(refundableAmount(p, [])).toBe(400);
    expect(refundableAmount(p, [refund(100, "PAID"), refund(50, "CREATED"), refund(400, "ERROR")])).toBe(250);
    expect(refundableAmount(p, [refund(400, "PAID")])).toBe(0);
  });

  it("never offers a campaign order, a 0 kr or an unpaid payment", () => {
    expect(refundableAmount(payment("kampanj_VANLOPP50_x1", "PAID", 100, "2025-08-01T10:00:00.000Z"), [])).toBe(0);
    expect(refundableAmount(payment(HEX(9), "PAID", 0, "2025-08-01T10:00:00.000Z"), [])).toBe(0);
    expect(refundableAmount(payment(HEX(9), "ERROR", 250, null), [])).toBe(0);
  });

  it("checks the typed amount: whole kronor, 1 … what is left", () => {
    expect(checkRefundAmount("150", 250)).toEqual({ ok: true, amount: 150 });
    expect(checkRefundAmount(" 250 ", 250)).toEqual({ ok: true, amount: 250 });
    expect(checkRefundAmount("251", 250)).toEqual({ ok: false, error: "Högst 250 kr finns kvar att återbetala." });
    expect(checkRefundAmount("0", 250)).toEqual({ ok: false, error: "Beloppet måste vara minst 1 kr." });
    for (const bad of ["", "12,5", "12.5", "-3", "tio"]) {
      expect(checkRefundAmount(bad, 250)).toEqual({ ok: false, error: "Ange beloppet i hela kronor." });
    }
  });
});

describe("search", () => {
  it("finds by a runner's name or the e-mail, any case, every word", () => {
    expect(filterRegistrations(SEASON_LIST, "liten").map((r) => r.id)).toEqual(["fam"]);
    expect(filterRegistrations(SEASON_LIST, "MAMMA svensson").map((r) => r.id)).toEqual(["fam"]);
    expect(filterRegistrations(SEASON_LIST, "tidig@").map((r) => r.id)).toEqual(["early"]);
    expect(filterRegistrations(SEASON_LIST, "ek").map((r) => r.id)).toEqual(["early", "none"]);
    expect(filterRegistrations(SEASON_LIST, "  ")).toHaveLength(SEASON_LIST.length);
    expect(filterRegistrations(SEASON_LIST, "mamma berg")).toEqual([]);
  });

  it("keeps a group's row by the runners it lists, or the e-mail; counts follow", () => {
    const groups = groupByDistance(SEASON_LIST);
    const byChild = filterGroups(groups, "liten");
    expect(byChild.map((g) => [g.label, g.count, g.rows.map((r) => r.registration.id)])).toEqual([
      ["5,6km", 0, []],
      ["2,8km", 0, []],
      ["1,6km", 2, ["fam"]],
      ["0,8km", 0, []],
      ["nok", 0, []],
    ]);
    const byEmail = filterGroups(groups, "FAMILJEN@");
    expect(byEmail.map((g) => g.count)).toEqual([1, 0, 2, 0, 0]);
    expect(filterGroups(groups, "")).toEqual(groups);
  });

  it("matches a paid runner's row by that runner's name, not a sibling's", () => {
    const rows = paidParticipantRows(SEASON_LIST);
    expect(filterParticipantRows(rows, "liten").map((r) => r.runner.id)).toEqual(["f3"]);
    expect(filterParticipantRows(rows, "familjen").map((r) => r.runner.id)).toEqual(["f3", "f2", "f1"]);
  });

  // How fast this is on the screen (a keystroke, a season loaded) is measured by bench/admin-search.mjs over the same
  // season; a timing bound here would fail for the machine's load, not for the code.
  it("finds one family among 2,000 registrations by a runner's name or the e-mail, and groups the whole season", () => {
    const distances: DistanceKm[] = ["0.8", "1.6", "2.8", "5.6"];
    const season = Array.from({ length: 2000 }, (_, i) =>
      registration(
        `r${i}`,
        `familj${i}@example.se`,
        [0, 1, 2].map((j) => runner(`r${i}-${j}`, `Namn${i}x${j}`, 5 + ((i + j) % 60), distances[(i + j) % 4]!)),
        i % 5 === 0
          ? []
          : [payment(HEX(10_000 + i), "PAID", 250, new Date(Date.UTC(2025, 6, 1) + i * 60_000).toISOString())],
      ),
    );
    // What the screen does on every keystroke (the groups and paid rows are made once per loaded season).
    const groups = groupByDistance(season);
    const grouped = filterGroups(groups, "namn1999x");
    const rows = filterParticipantRows(paidParticipantRows(season), "familj1999");
    const found = filterRegistrations(season, "namn1999x");
    // And a season loaded (or fetched again after a refund): grouped from scratch.
    const all = groupByDistance(filterRegistrations(season, ""));
    expect(found.map((r) => r.id)).toEqual(["r1999"]);
    expect(grouped.reduce((n, g) => n + g.count, 0)).toBe(3);
    expect(rows).toHaveLength(3);
    expect(all.reduce((n, g) => n + g.count, 0)).toBe(6000);
    expect(runnersByAge(season[0]!).map((r) => r.age)).toEqual([5, 6, 7]);
  });
});

describe("an adult running with a child without competing (issue 28 item 6)", () => {
  const paid = payment(HEX(30), "PAID", 100, "2025-08-03T10:00:00.000Z");
  const withParent = registration(
    "medbarn",
    "medbarn@example.se",
    [
      { ...runner("m1", "Lo", 6, "0.8"), paidBy: HEX(30), price: 100 },
      { ...runner("m2", "Per", 40, "0.8"), paidBy: HEX(30), price: 0, companion: true as const },
    ],
    [paid],
  );

  it("is listed under the distance but counted apart, in the heading and the group", () => {
    expect(overviewTotals([withParent])).toEqual({
      paidParticipants: 1,
      paidCompanions: 1,
      paidSum: 100,
      refunded: 0,
      registrations: 1,
    });
    const group = groupByDistance([withParent]).find((g) => g.key === "0.8")!;
    expect(group.count).toBe(1);
    expect(group.rows[0]!.runners.map((r) => r.id)).toEqual(["m1", "m2"]);
  });
});

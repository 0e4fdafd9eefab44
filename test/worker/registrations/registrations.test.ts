/**
 * `GET /admin/registrations`: a season's registrations in the spec's shape (email, payid, swishtory, deltagare),
 * read from seeded D1 rows; registrations without runners and box-office payments left out; the current season by
 * default; admins only; bad queries refused with nothing changed. The grouping rules are then applied to the very
 * answer, so the figures the screen shows are checked against the rows seeded here.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  groupByDistance,
  overviewTotals,
  paidParticipantRows,
  paymentBadgeText,
  type OverviewRegistration,
} from "../../../src/shared/registrations-overview";
import { SEASON } from "../../../src/shared/season";
import { seasonOverview } from "../../../src/worker/registrations/overview-db";
import { database } from "../../../src/worker/db/client";
import { CookieJar, get, loginAdmin, storedState, visitorJar } from "../helpers";

/** A season no other test writes to. */
const YEAR = 2031;
const T0 = Date.parse("2031-08-01T10:00:00Z");
const MIN = 60_000;

const hex = (n: number) => n.toString(16).toUpperCase().padStart(32, "0");

async function exec(sql: string, ...params: unknown[]) {
  await env.DB.prepare(sql)
    .bind(...params)
    .run();
}

async function registration(id: string, email: string, season = YEAR, createdAt = T0) {
  await exec(
    `INSERT INTO registrations (id, season, email, payid, version, created_at, updated_at) VALUES (?, ?, ?, NULL, 1, ?, ?)`,
    id,
    season,
    email,
    createdAt,
    createdAt,
  );
}

async function runner(
  id: string,
  registrationId: string | null,
  r: { firstname: string; lastname: string; age: number; distance: string; bib?: number; company?: string },
  season = YEAR,
) {
  await exec(
    `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group", bib,
       created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Ingen', ?, ?)`,
    id,
    registrationId,
    season,
    r.firstname,
    r.lastname,
    r.age,
    r.company ?? "",
    r.distance,
    r.bib ?? null,
    T0,
  );
}

async function payment(
  id: string,
  registrationId: string | null,
  p: {
    amount: number;
    status: string;
    created: number;
    paid?: number;
    errorCode?: string;
    errorMessage?: string;
    origin?: string;
    /** The runners it covers; the registration's runners stored so far when not given. */
    runners?: string[];
  },
) {
  const runners =
    p.runners ??
    (
      await env.DB.prepare("SELECT id FROM participants WHERE registration_id = ? ORDER BY id")
        .bind(registrationId)
        .all<{ id: string }>()
    ).results.map((r) => r.id);
  await exec(
    `INSERT INTO payments (id, registration_id, season, origin, amount, currency, status, date_created, date_paid,
       payment_reference, payer_alias, error_code, error_message, participant_ids)
     VALUES (?, ?, ?, ?, ?, 'SEK', ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    registrationId,
    YEAR,
    p.origin ?? "registration",
    p.amount,
    p.status,
    p.created,
    p.paid ?? null,
    p.status === "PAID" && p.amount > 0 ? `REF${id}`.slice(0, 32) : null,
    p.status === "PAID" && p.amount > 0 ? "46701234567" : null,
    p.errorCode ?? null,
    p.errorMessage ?? null,
    JSON.stringify(runners),
  );
  if (registrationId) await exec(`UPDATE registrations SET payid = ? WHERE id = ?`, id, registrationId);
}

beforeAll(async () => {
  // A: paid 400 kr; runners on 5.6 and twice on 1.6 (given oldest first, so the age order is ours to make).
  await registration("ov-a", "familjen.alm@example.se");
  await runner("ov-a1", "ov-a", { firstname: "Anna", lastname: "Alm", age: 41, distance: "5.6", bib: 601 });
  await runner("ov-a2", "ov-a", { firstname: "Axel", lastname: "Alm", age: 9, distance: "1.6", bib: 201 });
  await runner("ov-a3", "ov-a", { firstname: "Alva", lastname: "Alm", age: 7, distance: "1.6", bib: 202 });
  await payment(hex(1), "ov-a", { amount: 400, status: "PAID", created: T0 + 5 * MIN, paid: T0 + 6 * MIN });

  // B: a free campaign order, paid later than A.
  await registration("ov-b", "bo.berg@example.se");
  await runner("ov-b1", "ov-b", { firstname: "Bo", lastname: "Berg", age: 5, distance: "0.8", company: "IK Björken" });
  await payment("kampanj_FRIBILJETT_ov0b", "ov-b", {
    amount: 0,
    status: "PAID",
    created: T0 + 30 * MIN,
    paid: T0 + 30 * MIN,
  });

  // C: paid 150 kr on 5.6, paid last.
  await registration("ov-c", "cecilia@example.se");
  await runner("ov-c1", "ov-c", { firstname: "Cecilia", lastname: "Ek", age: 35, distance: "5.6" });
  await payment(hex(2), "ov-c", { amount: 150, status: "PAID", created: T0 + 60 * MIN, paid: T0 + 61 * MIN });

  // D: a failed payment (its error shown in the payment dialog), after an earlier declined one.
  await registration("ov-d", "dan@example.se");
  await runner("ov-d1", "ov-d", { firstname: "Dan", lastname: "Dahl", age: 30, distance: "2.8" });
  await payment(hex(3), "ov-d", { amount: 250, status: "DECLINED", created: T0 + 10 * MIN });
  await payment(hex(4), "ov-d", {
    amount: 250,
    status: "ERROR",
    created: T0 + 20 * MIN,
    errorCode: "RF07",
    errorMessage: "Transaction declined",
  });

  // E: runners, no payment at all.
  await registration("ov-e", "eva@example.se", YEAR, T0 + 90 * MIN);
  await runner("ov-e1", "ov-e", { firstname: "Eva", lastname: "Ek", age: 12, distance: "2.8" });

  // F: no runners (dropped), even though it has a paid payment.
  await registration("ov-f", "tom@example.se");
  await payment(hex(5), "ov-f", { amount: 150, status: "PAID", created: T0, paid: T0 + MIN });

  // A box-office payment and runner (no registration) and another season: neither is part of the list.
  await runner("ov-k1", null, { firstname: "Kassa", lastname: "Köpare", age: 50, distance: "5.6" });
  await payment(hex(6), null, {
    amount: 300,
    status: "PAID",
    created: T0,
    paid: T0,
    origin: "kassa",
    runners: ["ov-k1"],
  });
  await registration("ov-old", "familjen.alm@example.se", YEAR - 1);
  await runner("ov-old1", "ov-old", { firstname: "Anna", lastname: "Alm", age: 40, distance: "5.6" }, YEAR - 1);
});

async function overview(query = `?season=${YEAR}`, jar?: CookieJar): Promise<OverviewRegistration[]> {
  const res = await get(`/admin/registrations${query}`, { jar: jar ?? (await loginAdmin()) });
  expect(res.status).toBe(200);
  return (await res.json()) as OverviewRegistration[];
}

describe("GET /admin/registrations", () => {
  it("answers the season's registrations with runners, in the spec's shape", async () => {
    const list = await overview();
    expect(list.map((r) => r.id).sort()).toEqual(["ov-a", "ov-b", "ov-c", "ov-d", "ov-e"]);
    const a = list.find((r) => r.id === "ov-a")!;
    expect(a.email).toBe("familjen.alm@example.se");
    expect(a.payid).toBe(hex(1));
    expect(Object.keys(a.deltagare)).toEqual(["ov-a1", "ov-a2", "ov-a3"]);
    expect(a.deltagare["ov-a1"]).toEqual({
      id: "ov-a1",
      firstname: "Anna",
      lastname: "Alm",
      bib: 601,
      company: "",
      distance: "5.6",
      age: 41,
      group: "Ingen",
      paidBy: hex(1),
      price: null,
      deregistered: null,
    });
    expect(a.swishtory[hex(1)]).toEqual({
      id: hex(1),
      amount: 400,
      currency: "SEK",
      status: "PAID",
      dateCreated: new Date(T0 + 5 * MIN).toISOString(),
      datePaid: new Date(T0 + 6 * MIN).toISOString(),
      paymentReference: `REF${hex(1)}`.slice(0, 32),
      payerAlias: "46701234567",
      errorCode: null,
      errorMessage: null,
      kampanj: null,
      refunds: [],
      refunded: 0,
      refundable: 400,
    });

    const d = list.find((r) => r.id === "ov-d")!;
    expect(Object.keys(d.swishtory)).toEqual([hex(3), hex(4)]);
    expect(d.swishtory[hex(4)]).toMatchObject({
      status: "ERROR",
      errorCode: "RF07",
      errorMessage: "Transaction declined",
    });
    expect(d.swishtory[hex(4)]!.refundable).toBe(0);

    const b = list.find((r) => r.id === "ov-b")!;
    // A campaign order cannot be refunded, and its badge is the campaign code (amount 0).
    expect(b.swishtory["kampanj_FRIBILJETT_ov0b"]).toMatchObject({ amount: 0, status: "PAID", refundable: 0 });
    expect(paymentBadgeText(b)).toBe("FRIBILJETT");
    expect(paymentBadgeText(list.find((r) => r.id === "ov-e")!)).toBe("Ej betalt");
    expect(paymentBadgeText(d)).toBe("Ej betald");
    expect(list.find((r) => r.id === "ov-e")!.swishtory).toEqual({});
  });

  it("feeds the groups, counts, orderings and paid sum the screen shows", async () => {
    const list = await overview();
    const groups = groupByDistance(list);
    expect(groups.map((g) => [g.label, g.count, g.rows.map((r) => r.registration.id)])).toEqual([
      // Payment date, newest first.
      ["5,6km", 2, ["ov-c", "ov-a"]],
      ["2,8km", 0, []],
      ["1,6km", 2, ["ov-a"]],
      ["0,8km", 1, ["ov-b"]],
      ["nok", 2, ["ov-e", "ov-d"]],
    ]);
    // The family is under 5.6 with Anna and under 1.6 with its two children, youngest first.
    expect(groups[2]!.rows[0]!.runners.map((x) => x.firstname)).toEqual(["Alva", "Axel"]);
    expect(overviewTotals(list)).toMatchObject({ paidParticipants: 5, paidSum: 550 });
    // Paid only: one row per runner, payment date oldest first, a family's runners by age.
    expect(paidParticipantRows(list).map((x) => x.runner.id)).toEqual(["ov-a3", "ov-a2", "ov-a1", "ov-b1", "ov-c1"]);
  });

  it("is the current season without ?season", async () => {
    const jar = await loginAdmin();
    const now = Date.now();
    await registration("ov-now", "aktuell@example.se", SEASON.year, now);
    await runner("ov-now1", "ov-now", { firstname: "Nu", lastname: "Säsong", age: 20, distance: "5.6" }, SEASON.year);
    const list = await overview("", jar);
    expect(list.map((r) => r.id)).toContain("ov-now");
    expect(list.some((r) => r.id.startsWith("ov-") && r.id !== "ov-now")).toBe(false);
    expect((await overview(`?season=${YEAR - 1}`, jar)).map((r) => r.id)).toEqual(["ov-old"]);
  });

  it("is for admins only", async () => {
    expect((await get(`/admin/registrations?season=${YEAR}`)).status).toBe(401);
    const visitor = await visitorJar("familjen.alm@example.se");
    const res = await get(`/admin/registrations?season=${YEAR}`, { jar: visitor });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("ov-a");
  });

  it("refuses a season that is not a four-digit year, in Swedish, and changes nothing", async () => {
    const jar = await loginAdmin();
    const before = await storedState();
    for (const season of ["abc", "20311", "31", "1999", "2101", "2031.5", "-2031", "", "%00"]) {
      const res = await get(`/admin/registrations?season=${season}`, { jar });
      expect(res.status, season).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(
        "Ange säsongen som ett årtal med fyra siffror, till exempel 2025.",
      );
    }
    expect(await storedState()).toEqual(before);
  });

  it("says when a runner picked up the bib at the desk (the race object's mirror in D1), nothing for the others", async () => {
    const at = Date.parse("2031-09-13T08:42:00Z");
    await exec("UPDATE participants SET picked_up_at = ? WHERE id = 'ov-a2'", at);
    try {
      const a = (await overview()).find((r) => r.id === "ov-a")!;
      expect(a.deltagare["ov-a2"]!.pickedUpAt).toBe(at);
      expect("pickedUpAt" in a.deltagare["ov-a1"]!).toBe(false);
      expect("pickedUpAt" in a.deltagare["ov-a3"]!).toBe(false);
    } finally {
      await exec("UPDATE participants SET picked_up_at = NULL WHERE id = 'ov-a2'");
    }
  });

  it("reads the season through indexes: one statement per table, none scanning a table whole", async () => {
    const statements: { sql: string; params: unknown[] }[] = [];
    const recording = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare") {
          return (sql: string) => {
            const statement = target.prepare(sql);
            const entry = { sql, params: [] as unknown[] };
            statements.push(entry);
            return new Proxy(statement, {
              get(st, p) {
                if (p === "bind") {
                  return (...params: unknown[]) => {
                    entry.params = params;
                    return st.bind(...params);
                  };
                }
                const value = Reflect.get(st, p, st) as unknown;
                return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(st) : value;
              },
            });
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const list = await seasonOverview(database(recording), YEAR);
    expect(list).toHaveLength(5);
    expect(statements).toHaveLength(4);
    for (const { sql, params } of statements) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const details = results.map((r) => r.detail);
      expect(
        details.filter((d) => /^SCAN (registrations|participants|payments|refunds)\b/.test(d)),
        sql,
      ).toEqual([]);
      expect(
        details.some((d) => /^SEARCH \w+ USING (COVERING )?INDEX/.test(d)),
        sql,
      ).toBe(true);
    }
  });
});

/**
 * GET /admin/api/goodiebags: the race-morning packing list, counted for a fixture whose answer is worked out by
 * hand below: only the current season, only runners paid by their payment (registration and box office alike;
 * once, however many payments name them) and not deregistered by a refund, child/adult by the season's age rule
 * (16 is an adult).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SEASON } from "../../../src/shared/season";
import { get, loginAdmin, visitorJar } from "../helpers";

const YEAR = SEASON.year;

function payid(): string {
  return crypto.randomUUID().replace(/-/g, "").toUpperCase();
}

async function registration(season: number, runners: [distance: string, age: number][], status: string | null) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)",
  )
    .bind(id, season, `${id.slice(0, 8)}@example.se`, now, now)
    .run();
  const ids: string[] = [];
  for (const [distance, age] of runners) {
    const pid = crypto.randomUUID();
    ids.push(pid);
    await env.DB.prepare(
      `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, created_at)
       VALUES (?, ?, ?, 'Test', 'Person', ?, ?, ?)`,
    )
      .bind(pid, id, season, age, distance, now)
      .run();
  }
  if (status) {
    const pay = payid();
    await payment(pay, { registrationId: id, season, status, ids });
    await env.DB.prepare("UPDATE registrations SET payid = ? WHERE id = ?").bind(pay, id).run();
  }
  return { id, ids };
}

async function payment(
  id: string,
  p: { registrationId?: string | null; season: number; status: string; ids: string[]; origin?: string },
) {
  await env.DB.prepare(
    `INSERT INTO payments (id, registration_id, season, origin, amount, status, date_created, participant_ids)
     VALUES (?, ?, ?, ?, 100, ?, ?, ?)`,
  )
    .bind(
      id,
      p.registrationId ?? null,
      p.season,
      p.origin ?? "registration",
      p.status,
      Date.now(),
      JSON.stringify(p.ids),
    )
    .run();
}

async function boxOfficeRunner(distance: string, age: number, season = YEAR): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, phone, created_at)
     VALUES (?, NULL, ?, 'Kassa', 'Löpare', ?, ?, '0701234567', ?)`,
  )
    .bind(id, season, age, distance, Date.now())
    .run();
  return id;
}

interface Bags {
  season: number;
  adultAge: number;
  distances: {
    distance: string;
    label: string;
    barn: number;
    vuxna: number;
    medBarn: number;
    total: number;
    handedOut: number;
  }[];
  totals: { barn: number; vuxna: number; medBarn: number; total: number; handedOut: number };
  boxOffice: { barn: number; vuxna: number; medBarn: number; total: number; handedOut: number };
}

async function bags(): Promise<Bags> {
  const res = await get("/admin/api/goodiebags", { jar: await loginAdmin() });
  expect(res.status).toBe(200);
  return (await res.json()) as Bags;
}

describe("goodie bags", () => {
  beforeAll(async () => {
    // This file's own D1: start the season empty so the counts are exactly the fixture's.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM payments"),
      env.DB.prepare("DELETE FROM participants"),
      env.DB.prepare("DELETE FROM registrations"),
    ]);
  });

  it("is for admins only", async () => {
    expect((await get("/admin/api/goodiebags")).status).toBe(401);
    expect((await get("/admin/api/goodiebags", { jar: await visitorJar("familj@example.se") })).status).toBe(401);
  });

  it("lists every distance with zeros before anyone has paid", async () => {
    const body = await bags();
    expect(body.season).toBe(YEAR);
    expect(body.adultAge).toBe(16);
    expect(body.distances.map((d) => [d.distance, d.label, d.total])).toEqual([
      ["5.6", "5,6km", 0],
      ["2.8", "2,8km", 0],
      ["1.6", "1,6km", 0],
      ["0.8", "0,8km", 0],
    ]);
    expect(body.totals).toEqual({ barn: 0, vuxna: 0, medBarn: 0, total: 0, handedOut: 0 });
  });

  it("counts paid runners per distance and child/adult, with the box office, for a hand-counted fixture", async () => {
    // Paid: 5.6 adult 40, 5.6 adult 16 (the boundary), 1.6 child 15, 0.8 child 7.
    await registration(
      YEAR,
      [
        ["5.6", 40],
        ["5.6", 16],
        ["1.6", 15],
        ["0.8", 7],
      ],
      "PAID",
    );
    // Paid with a free campaign order: 2.8 child 12, 2.8 adult 50.
    const { id: free, ids: freeIds } = await registration(
      YEAR,
      [
        ["2.8", 12],
        ["2.8", 50],
      ],
      null,
    );
    const kampanj = `kampanj_FRIBILJETT_${crypto.randomUUID().slice(0, 8)}`;
    await payment(kampanj, { registrationId: free, season: YEAR, status: "PAID", ids: freeIds });
    await env.DB.prepare("UPDATE registrations SET payid = ? WHERE id = ?").bind(kampanj, free).run();
    // Not counted: a waiting payment, a declined one, no payment at all, last season's paid family.
    await registration(YEAR, [["5.6", 30]], "CREATED");
    await registration(YEAR, [["1.6", 44]], "DECLINED");
    await registration(YEAR, [["2.8", 10]], null);
    await registration(YEAR - 1, [["5.6", 33]], "PAID");
    // A paid runner counts while a later payment of the family (for a sibling added since: 0.8, 6) still waits;
    // the sibling does not, nor does a runner a refund deregistered.
    const { id: later } = await registration(YEAR, [["0.8", 5]], "PAID");
    const sibling = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, distance, created_at)
       VALUES (?, ?, ?, 'Sen', 'Syster', 6, '0.8', ?)`,
    )
      .bind(sibling, later, YEAR, Date.now())
      .run();
    const waiting = payid();
    await payment(waiting, { registrationId: later, season: YEAR, status: "CREATED", ids: [sibling] });
    await env.DB.prepare("UPDATE registrations SET payid = ? WHERE id = ?").bind(waiting, later).run();
    const { ids: refunded } = await registration(YEAR, [["5.6", 45]], "PAID");
    await env.DB.prepare("UPDATE participants SET deregistered_at = ? WHERE id = ?")
      .bind(Date.now(), refunded[0])
      .run();

    // Box office: a child on 1.6 and an adult on 5.6 (named by two paid payments: counted once); a child whose
    // payment is still waiting and an adult of last season are not counted.
    const k1 = await boxOfficeRunner("1.6", 9);
    const k2 = await boxOfficeRunner("5.6", 35);
    const k3 = await boxOfficeRunner("0.8", 6);
    const k4 = await boxOfficeRunner("2.8", 60, YEAR - 1);
    await payment(payid(), { season: YEAR, status: "PAID", ids: [k1, k2], origin: "kassa" });
    await payment(payid(), { season: YEAR, status: "PAID", ids: [k2], origin: "kassa" });
    await payment(payid(), { season: YEAR, status: "CREATED", ids: [k3], origin: "kassa" });
    await payment(payid(), { season: YEAR - 1, status: "PAID", ids: [k4], origin: "kassa" });
    // Bags go out with the bibs: the two box-office runners were checked in at the table (the race objects mirror
    // the pick-up to D1).
    await env.DB.prepare("UPDATE participants SET picked_up_at = ? WHERE id IN (?, ?)").bind(Date.now(), k1, k2).run();

    // Issue 28 item 6: a paid family's father runs 0.8 with his son (7) without competing: counted apart, in the
    // total (the course's head count), neither child nor adult.
    const { ids: withParent } = await registration(
      YEAR,
      [
        ["0.8", 7],
        ["0.8", 38],
      ],
      "PAID",
    );
    await env.DB.prepare("UPDATE participants SET companion = 1 WHERE id = ?").bind(withParent[1]).run();

    const body = await bags();
    expect(body.distances).toEqual([
      { distance: "5.6", label: "5,6km", barn: 0, vuxna: 3, medBarn: 0, total: 3, handedOut: 1 },
      { distance: "2.8", label: "2,8km", barn: 1, vuxna: 1, medBarn: 0, total: 2, handedOut: 0 },
      { distance: "1.6", label: "1,6km", barn: 2, vuxna: 0, medBarn: 0, total: 2, handedOut: 1 },
      { distance: "0.8", label: "0,8km", barn: 3, vuxna: 0, medBarn: 1, total: 4, handedOut: 0 },
    ]);
    expect(body.totals).toEqual({ barn: 6, vuxna: 4, medBarn: 1, total: 11, handedOut: 2 });
    expect(body.boxOffice).toEqual({ barn: 1, vuxna: 1, medBarn: 0, total: 2, handedOut: 2 });
  });

  it("follows a runner moved to another distance (participants.distance is the race's)", async () => {
    const before = await bags();
    const { id } = await registration(YEAR, [["0.8", 8]], "PAID");
    await env.DB.prepare("UPDATE participants SET distance = '1.6' WHERE registration_id = ?").bind(id).run();
    const after = await bags();
    const total = (b: Bags, d: string) => b.distances.find((x) => x.distance === d)!.barn;
    expect(total(after, "1.6")).toBe(total(before, "1.6") + 1);
    expect(total(after, "0.8")).toBe(total(before, "0.8"));
    expect(after.totals.total).toBe(before.totals.total + 1);
  });
});

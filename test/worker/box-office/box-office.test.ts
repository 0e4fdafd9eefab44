/**
 * The box office (`/admin/api/quickreg` and its status and cancel calls) through the real Worker, D1, the race
 * Durable Objects and the Swish simulator: validation, race and bib checks before payment, a paid runner in the
 * race with the bib on every open race socket, declined and cancelled payments adding nobody, cash and campaign
 * codes recorded as such, and a replayed callback adding the runner once.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/shared/clock";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { RaceEvent, RunnerRecord } from "../../../src/shared/race-protocol";
import { SEASON } from "../../../src/shared/season";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import type { QuickRegStatus } from "../../../src/shared/box-office";
import { BOX_OFFICE_MSG, startQuickReg } from "../../../src/worker/box-office/box-office";
import { RUNNERS_ADDED } from "../../../src/worker/payments/payments";
import { call, get, loginAdmin, openSocket, post, storedState, visitorJar, waitFor, type CookieJar } from "../helpers";
import { auditCount, callback, payOnPhone, paymentRow, setCallbacks } from "../swish-helpers";
import { testRace } from "../race-calls";

const PART_56 = raceIdForSeason("5.6");
const PART_08 = raceIdForSeason("0.8");

/** A bib no other test of this file uses (the race objects and D1 live for the whole file). */
let nextBib = 7000 + Math.floor(Math.random() * 1000);
function freshBib(): number {
  return nextBib++;
}

function form(fields: Record<string, unknown> = {}) {
  return {
    firstname: "Kim",
    lastname: "Kassa",
    age: "34",
    distance: "5.6",
    group: "Dam",
    phone: "070-123 45 67",
    bib: String(freshBib()),
    ...fields,
  };
}

interface Started {
  payid: string;
  method: string;
  amount: number;
  raceId: string;
  token?: string;
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function quickreg(jar: CookieJar, body: Record<string, unknown>, status = 200) {
  return json<Started & { error?: string; errors?: Record<string, string> }>(
    await post("/admin/api/quickreg", body, { jar }),
    status,
  );
}

async function status(jar: CookieJar, payid: string) {
  return json<QuickRegStatus>(await get(`/admin/api/quickreg/${payid}`, { jar }));
}

async function raceRunners(part: string): Promise<RunnerRecord[]> {
  return testRace(part).listRunners();
}

async function participant(id: string) {
  return env.DB.prepare(`SELECT * FROM participants WHERE id = ?`)
    .bind(id)
    .first<{ id: string; race_id: string | null; bib: number | null; phone: string | null }>();
}

async function participantOf(payid: string): Promise<string> {
  const row = await env.DB.prepare(`SELECT participant_ids FROM payments WHERE id = ?`)
    .bind(payid)
    .first<{ participant_ids: string }>();
  return (JSON.parse(row!.participant_ids) as string[])[0]!;
}

async function emailCount(): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM email_log`).first<{ n: number }>())!.n;
}

async function paymentMethod(payid: string) {
  return env.DB.prepare(`SELECT id, method, cash, origin, status, amount, kampanj FROM payments WHERE id = ?`)
    .bind(payid)
    .first<{ id: string; method: string; cash: number; origin: string; status: string; amount: number }>();
}

/** A subscribed race socket, as a timing phone holds it (hello and first frame read). */
async function subscribe(jar: CookieJar, part: string) {
  const socket = await openSocket(`/ws/race/${part}`, { jar });
  socket.send({ action: "subscribe-to-race" });
  expect(((await socket.next()) as { type: string }).type).toBe("hello");
  await socket.next();
  return socket;
}

function runnerEvents(messages: unknown[], id: string): RaceEvent[] {
  return messages
    .filter((m): m is RaceEvent[] => Array.isArray(m))
    .flat()
    .filter((e) => e.sort === `runner-${id}`);
}

beforeEach(async () => {
  await setCallbacks("normal");
});

describe("who may call it", () => {
  it("admins only, from the site only; nothing is stored otherwise", async () => {
    const visitor = await visitorJar("besokare@example.se");
    const admin = await loginAdmin();
    const before = await storedState();
    expect((await post("/admin/api/quickreg", form())).status).toBe(401);
    expect((await post("/admin/api/quickreg", form(), { jar: visitor })).status).toBe(401);
    const crossSite = await call("/admin/api/quickreg", {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify(form({ method: "kontant" })),
    });
    expect(crossSite.status).toBe(403);
    expect(await storedState()).toEqual(before);
  });
});

describe("validation (spec §5: 'Obligatorisk' on every field)", () => {
  it("an empty form: every one of the seven fields is 'Obligatorisk', nothing stored", async () => {
    const jar = await loginAdmin();
    const before = await storedState();
    const res = await quickreg(jar, {}, 400);
    expect(res.error).toBe("Obligatorisk");
    for (const field of ["firstname", "lastname", "age", "distance", "group", "phone", "bib"]) {
      expect(res.errors?.[field], field).toBe("Obligatorisk");
    }
    expect(await storedState()).toEqual(before);
  });

  it("text must be longer than one character; age and bib may be one digit", async () => {
    const jar = await loginAdmin();
    const before = await storedState();
    const short = await quickreg(jar, form({ firstname: "A", lastname: " B ", phone: "7" }), 400);
    expect(short.errors).toMatchObject({ firstname: "Obligatorisk", lastname: "Obligatorisk", phone: "Obligatorisk" });
    expect(short.errors?.age).toBeUndefined();
    expect(short.errors?.bib).toBeUndefined();
    expect(await storedState()).toEqual(before);

    // Age 5 and a one-digit bib are accepted (0.8 km: its own race, bib 1–9 likely free in a fresh test D1).
    const free = [...Array(9).keys()].map((i) => i + 1);
    const [, ...runners08] = (await testRace(PART_08).snapshot()) ?? [];
    const used = new Set(runners08.map((r) => (r as RunnerRecord).bib));
    const bib = free.find((b) => !used.has(b))!;
    const started = await quickreg(jar, form({ age: "5", bib: String(bib), distance: "0.8", method: "kontant" }));
    expect(started).toMatchObject({ method: "kontant", amount: SEASON.onSitePrice.child, raceId: PART_08 });
  });

  it("wrong values and types answer 400 with a Swedish message per field, nothing stored", async () => {
    const jar = await loginAdmin();
    await quickreg(jar, form({ method: "kontant" })); // the races exist from here on
    const before = await storedState();
    const res = await quickreg(
      jar,
      form({ age: "tolv", distance: "3.0", group: "Ingen", phone: "ring mig", bib: "0", method: "check" }),
      400,
    );
    expect(res.errors).toMatchObject({
      age: expect.stringContaining("Ange ålder"),
      distance: "Välj 5.6, 2.8, 1.6 eller 0.8",
      group: "Välj Herr eller Dam",
      phone: expect.stringContaining("telefonnummer"),
      bib: expect.stringContaining("Startnummer"),
      method: "Välj Swish, Kontant eller Kampanjkod",
    });
    for (const bad of [
      form({ bib: "-3" }),
      form({ bib: "1.5" }),
      form({ bib: 100000 }),
      form({ age: "2999" }),
      form({ age: 200 }),
      form({ firstname: ["Kim"] }),
      form({ lastname: "<b>Kassa</b>" }),
      form({ firstname: "x".repeat(61) }),
      form({ method: "kampanj" }),
      [],
    ]) {
      const answer = await post("/admin/api/quickreg", bad, { jar });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/\p{L}/u);
    }
    expect(await storedState()).toEqual(before);
  });

  it("a distance without a race in the season is refused before anything is written", async () => {
    const before = await storedState();
    const without08 = { ...SEASON, races: SEASON.races.filter((r) => r.distance !== "0.8") };
    const refused = await startQuickReg(
      env,
      systemClock,
      {
        firstname: "Kim",
        lastname: "Kassa",
        age: 9,
        distance: "0.8",
        group: "Herr",
        phone: "0701234567",
        bib: freshBib(),
        method: "swish",
        kampanj: null,
      },
      { actor: "test" },
      "http://localhost",
      without08,
    ).then(
      () => null,
      (e: unknown) => e as { status: number; message: string },
    );
    expect(refused).toMatchObject({ status: 404, message: BOX_OFFICE_MSG.noRace("0.8") });
    expect(await storedState()).toEqual(before);
  });
});

describe("bibs are checked before payment", () => {
  it("a bib a runner of the race already has: 409 naming the runner, no participant and no payment", async () => {
    const jar = await loginAdmin();
    const bib = freshBib();
    await json(
      await post(
        `/admin/api/races/add-runner/${PART_56}`,
        { firstname: "Stina", lastname: "Snabb", age: 30, bib, group: "Dam", company: "" },
        { jar },
      ),
    );
    const before = await storedState();
    const res = await quickreg(jar, form({ bib: String(bib) }), 409);
    expect(res.error).toBe(`Startnummer ${bib} används redan av Stina Snabb.`);
    expect(await storedState()).toEqual(before);
    // The same bib on another distance is another race: free there.
    const other = await quickreg(jar, form({ bib: String(bib), distance: "2.8" }));
    expect(other.token).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a bib another box-office sign-up is still paying for is held for it", async () => {
    const jar = await loginAdmin();
    const bib = freshBib();
    const first = await quickreg(jar, form({ bib: String(bib), firstname: "Först" }));
    const before = await storedState();
    const res = await quickreg(jar, form({ bib: String(bib) }), 409);
    expect(res.error).toBe(BOX_OFFICE_MSG.bibPending(bib, "Först Kassa"));
    expect(await storedState()).toEqual(before);
    // Declined: the bib is free again.
    await payOnPhone(first.token!, "DECLINED");
    await quickreg(jar, form({ bib: String(bib) }));
  });
});

describe("Swish", () => {
  it("answers {token}: the QR, the on-site price, the race; paid → the runner is in the race with the bib on every race socket, no e-mail", async () => {
    const jar = await loginAdmin();
    const phone = await subscribe(jar, PART_56);
    const secondPhone = await subscribe(await loginAdmin(), PART_56);
    const mails = await emailCount();
    const bib = freshBib();
    const started = await quickreg(jar, form({ bib: String(bib), age: "40" }));
    expect(started).toMatchObject({ method: "swish", amount: SEASON.onSitePrice.adult, raceId: PART_56 });
    const qr = await get(`/qr-v2?token=${started.token}`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get("content-type")).toContain("image/svg+xml");

    const id = await participantOf(started.payid);
    expect(await participant(id)).toMatchObject({ race_id: null, bib, phone: "070-123 45 67" });
    expect(await paymentMethod(started.payid)).toMatchObject({ method: "swish", cash: 0, origin: "kassa" });
    // Waiting: nobody in the race yet.
    expect((await status(jar, started.payid)).status).toBe("CREATED");
    expect((await raceRunners(PART_56)).some((r) => r.id === id)).toBe(false);

    await payOnPhone(started.token!, "PAID");
    for (const socket of [phone, secondPhone]) {
      await waitFor(() => runnerEvents(socket.messages, id).length > 0, 5000, "the runner on a race socket");
      expect(runnerEvents(socket.messages, id)[0]).toMatchObject({ bib, firstname: "Kim", lastname: "Kassa" });
    }
    const done = await status(jar, started.payid);
    expect(done).toMatchObject({
      status: "PAID",
      method: "swish",
      added: true,
      bib,
      requestedBib: bib,
      raceId: PART_56,
    });
    expect(await participant(id)).toMatchObject({ race_id: PART_56, bib });
    expect(await emailCount()).toBe(mails);
  });

  it("declined: nobody is added and the status says so", async () => {
    const jar = await loginAdmin();
    const started = await quickreg(jar, form());
    await payOnPhone(started.token!, "DECLINED");
    const id = await participantOf(started.payid);
    expect(await status(jar, started.payid)).toMatchObject({ status: "DECLINED", added: false, bib: null });
    expect((await raceRunners(PART_56)).some((r) => r.id === id)).toBe(false);
    expect(await participant(id)).toMatchObject({ race_id: null });
    expect(await auditCount(RUNNERS_ADDED, started.payid)).toBe(0);
  });

  it("an error from the payer's bank adds nobody either", async () => {
    const jar = await loginAdmin();
    const started = await quickreg(jar, form());
    await payOnPhone(started.token!, "ERROR", "BANKIDCL");
    const id = await participantOf(started.payid);
    expect(await status(jar, started.payid)).toMatchObject({ status: "ERROR", added: false });
    expect((await raceRunners(PART_56)).some((r) => r.id === id)).toBe(false);
    expect(await participant(id)).toMatchObject({ race_id: null });
  });

  it("cancelled by the volunteer: withdrawn at Swish, nobody added, the bib free again", async () => {
    const jar = await loginAdmin();
    const bib = freshBib();
    const started = await quickreg(jar, form({ bib: String(bib) }));
    const cancelled = await json<QuickRegStatus>(
      await post(`/admin/api/quickreg/${started.payid}/cancel`, {}, { jar }),
    );
    expect(cancelled).toMatchObject({ status: "CANCELLED", added: false });
    const remote = await swishClientFor(env).retrievePaymentRequest(started.payid);
    expect(remote?.status).toBe("CANCELLED");
    await quickreg(jar, form({ bib: String(bib) }));
  });

  it("the bib taken on a timing phone between sign-up and payment: the paid runner is added without it", async () => {
    const jar = await loginAdmin();
    const bib = freshBib();
    const started = await quickreg(jar, form({ bib: String(bib) }));
    await json(
      await post(
        `/admin/api/races/add-runner/${PART_56}`,
        { firstname: "Tidig", lastname: "Tagare", age: 30, bib, group: "Herr", company: "" },
        { jar },
      ),
    );
    await payOnPhone(started.token!, "PAID");
    const id = await participantOf(started.payid);
    expect(await status(jar, started.payid)).toMatchObject({
      status: "PAID",
      added: true,
      bib: null,
      requestedBib: bib,
    });
    expect((await raceRunners(PART_56)).find((r) => r.id === id)).toMatchObject({ bib: null });
  });

  it("a callback replayed (and duplicated by Swish) adds the runner once", async () => {
    const jar = await loginAdmin();
    await setCallbacks("duplicate");
    const started = await quickreg(jar, form());
    await payOnPhone(started.token!, "PAID");
    const row = await paymentRow(started.payid);
    const remote = await swishClientFor(env).retrievePaymentRequest(started.payid);
    for (let i = 0; i < 5; i++) {
      expect((await callback(remote, row!.callback_identifier)).status).toBe(200);
    }
    const id = await participantOf(started.payid);
    expect((await raceRunners(PART_56)).filter((r) => r.id === id)).toHaveLength(1);
    const added = (await testRace(PART_56).events()).filter(
      (e) => e.type === "runner-added" && (JSON.parse(e.payload) as { id?: string }).id === id,
    );
    expect(added).toHaveLength(1);
    expect(await auditCount(RUNNERS_ADDED, started.payid)).toBe(1);
    expect(await auditCount("payment.settled", started.payid)).toBe(1);
  });

  it("the status and cancel calls know only box-office payments", async () => {
    const jar = await loginAdmin();
    expect((await get(`/admin/api/quickreg/${"A".repeat(32)}`, { jar })).status).toBe(404);
    expect((await get(`/admin/api/quickreg/not-a-payid`, { jar })).status).toBe(400);
    expect((await post(`/admin/api/quickreg/${"B".repeat(32)}/cancel`, {}, { jar })).status).toBe(404);
  });
});

describe("cash and campaign codes: the runner is added at once, recorded as such", () => {
  it("cash: a PAID row with cash set and method 'kontant', never at Swish; the runner is in the race with the bib", async () => {
    const jar = await loginAdmin();
    const phone = await subscribe(jar, PART_56);
    const bib = freshBib();
    const started = await quickreg(jar, form({ bib: String(bib), age: "12", method: "kontant" }));
    expect(started).toMatchObject({ method: "kontant", amount: SEASON.onSitePrice.child });
    expect(started.token).toBeUndefined();
    expect(await paymentMethod(started.payid)).toMatchObject({
      method: "kontant",
      cash: 1,
      origin: "kassa",
      status: "PAID",
      amount: SEASON.onSitePrice.child,
    });
    expect(await swishClientFor(env).retrievePaymentRequest(started.payid)).toBeNull();
    const id = await participantOf(started.payid);
    await waitFor(() => runnerEvents(phone.messages, id).length > 0, 5000, "the runner on the race socket");
    expect(await status(jar, started.payid)).toMatchObject({ method: "kontant", added: true, bib });
  });

  it("a free campaign code: kampanj_<CODE>_… of 0 kr with method 'kampanj', one use claimed", async () => {
    const jar = await loginAdmin();
    const uses = async () =>
      (await env.DB.prepare(`SELECT uses FROM campaign_codes WHERE code = 'FRIBILJETT'`).first<{ uses: number }>())
        ?.uses ?? 0;
    const before = await uses();
    const bib = freshBib();
    const started = await quickreg(jar, form({ bib: String(bib), method: "kampanj", kampanj: " fribiljett " }));
    expect(started).toMatchObject({ method: "kampanj", amount: 0 });
    expect(started.payid).toMatch(/^kampanj_FRIBILJETT_[0-9a-f]+$/);
    expect(await paymentMethod(started.payid)).toMatchObject({ method: "kampanj", cash: 0, amount: 0, status: "PAID" });
    expect(await uses()).toBe(before + 1);
    expect(await status(jar, started.payid)).toMatchObject({ method: "kampanj", added: true, bib });
  });

  it("a code that only discounts, an unknown one, and a used-up one are refused and nothing is stored", async () => {
    const jar = await loginAdmin();
    const code = `KASSA${Math.floor(Math.random() * 1e6)}`;
    await json(await post("/admin/api/kampanjkoder", { code, rule: "free", maxUses: 1 }, { jar }), 201);
    await quickreg(jar, form({ method: "kontant" })); // races ready, so the refusals below write nothing at all
    const before = await storedState();
    expect((await quickreg(jar, form({ method: "kampanj", kampanj: "VANLOPP50" }), 400)).error).toBe(
      BOX_OFFICE_MSG.campaignNotFree,
    );
    expect((await quickreg(jar, form({ method: "kampanj", kampanj: "FINNSINTE" }), 400)).error).toBe(
      BOX_OFFICE_MSG.campaignUnknown,
    );
    expect(await storedState()).toEqual(before);

    await quickreg(jar, form({ method: "kampanj", kampanj: code }));
    const afterUse = await storedState();
    expect((await quickreg(jar, form({ method: "kampanj", kampanj: code }), 400)).error).toBe(
      BOX_OFFICE_MSG.campaignInvalid,
    );
    expect(await storedState()).toEqual(afterUse);
  });
});

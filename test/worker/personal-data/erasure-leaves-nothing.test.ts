/**
 * Issue 29 item 4: an erasure leaves nothing behind. The data is made through the real calls (an Epassi invitation,
 * login, registration, a Swish payment with the Epassi code, a rename and a change of distance of paid runners,
 * race day: bib, start, rapid timing's 'Mål!' slots paired by bibs typed in finish order, with a mistyped bib whose
 * review item suggests a runner, the bib desk's check-in ('Hämtat', the bib at pick-up), a tap for the review list, the end, 'Officiella' and the results mail it sends; a
 * mass mailing; the exports; a box-office sign-up), then the person is erased through the admin's call, and EVERY
 * table is read back: every D1 table found in sqlite_master, and every table (and the key-value store) of every
 * race object, the race hub and the payments' objects. No row may hold the person's names (before and after the edit), e-mail address or phone number; their
 * ids (pseudonyms: registration, runner and payment ids) may stay only where the bookkeeping or a race's results
 * need them (ID_PLACES, each with its reason). A table added later is read by this test without anyone listing it.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { runnerSort } from "../../../src/shared/race-protocol";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { get, loginAdmin, post, waitFor, type CookieJar } from "../helpers";
import { at, getRegistration, login, OPEN_AT, runner, update, type Visitor } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const RACE = {
  "5.6": raceIdForSeason("5.6", SEASON),
  "2.8": raceIdForSeason("2.8", SEASON),
  "1.6": raceIdForSeason("1.6", SEASON),
  "0.8": raceIdForSeason("0.8", SEASON),
};

/**
 * Tables that hold nothing of the site's own about a person, and why they are not read:
 * - SQLite's and Cloudflare's own bookkeeping (`sqlite_%`, `_cf_%`) and D1's list of applied migrations;
 * - development only, absent in production (src/worker/dev/): the Swish simulator's tables are Swish's side of a
 *   payment (the bank's records, not the site's), the outbox is the development e-mail transport's copy of what
 *   a mail provider would have sent.
 */
const NOT_THE_SITES = [/^sqlite_/, /^_cf_/, /^d1_migrations$/, /^dev_swish_/, /^dev_outbox$/];

/**
 * Where an id of the erased person (registration, runner, payment) may stay, and why. The ids are random and
 * name nobody once the rows they point to are anonymised:
 * - payments and refunds are bookkeeping, kept seven years (bokföringslagen 7 kap. 2 §; docs/data-and-security.md, "Data kept"):
 *   the payment row, which registration and runners it paid for and at which price, its refunds and the audit
 *   lines about it (subject the payid, detail the runners);
 * - the anonymised registration and runner rows stay for those payments (and the season's figures: age,
 *   distance, group); the registration's placeholder address `raderad-<id>@raderad.invalid` holds its id, and is
 *   on the unsubscribe list so no mailing picks it;
 * - a race keeps its anonymised runner (bib, time, age, group: the race's results) and its race-day log by id;
 *   the taps and review items are by runner id (rapid timing's items also name a runner they suggest for a
 *   mistyped bib by id, beside the name the erasure replaced); the results as they were marked official
 *   ('Officiella') are kept by runner id with bib and time only;
 * - the bib desk's 'Hämtat' actions (issue 27) are kept by the race with their runner ids only, so a repeated
 *   action is recognised;
 * - the race's spectators' fan-out object keeps the race's public copy (each runner's public record, renamed by
 *   the erasure like the race's own row, under its sort key `runner-<id>`);
 * - a payment's Durable Object (the payment page's socket and the polling of Swish) is named by its payid and
 *   keeps it with the payment's state.
 */
const ID_PLACES = new Set([
  "registrations.id",
  "registrations.email",
  "registrations.payid",
  "unsubscribes.email",
  "participants.id",
  "participants.registration_id",
  "participants.paid_by",
  "payments.id",
  "payments.registration_id",
  "payments.participant_ids",
  "payments.runner_prices",
  "payments.payee_payment_reference",
  "refunds.payid",
  "refunds.participant_ids",
  "audit_log.subject",
  "audit_log.detail",
  "race:runners.id",
  "race:runners.participant_id",
  "race:removed.id",
  "race:events.payload",
  "race:taps.runner_id",
  "race:review.runner_id",
  "race:review.data",
  "race:official_results.id",
  "race:desk_actions.runner_ids",
  "spectators:runners.sort",
  "spectators:runners.record",
  "payment:meta.payid",
]);

type Rows = Record<string, Record<string, unknown>[]>;

/** Every row of every D1 table the site keeps (tables found in sqlite_master, not listed here). */
async function everyD1Row(): Promise<Rows> {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{
    name: string;
  }>();
  const rows: Rows = {};
  for (const { name } of results) {
    if (NOT_THE_SITES.some((re) => re.test(name))) continue;
    rows[name] = (await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>()).results;
  }
  return rows;
}

/**
 * Every table (from its sqlite_master) and every key-value entry of one Durable Object, as `prefix:table@name`
 * (findings name the place without the object: `prefix:table.column`).
 */
async function everyObjectRow(stub: DurableObjectStub, prefix: string, name: string): Promise<Rows> {
  return runInDurableObject(stub, async (_instance: unknown, state: DurableObjectState) => {
    const rows: Rows = {};
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map((t) => t.name)
      .filter((name) => !NOT_THE_SITES.some((re) => re.test(name)));
    for (const table of tables) {
      rows[`${prefix}:${table}@${name}`] = state.storage.sql.exec(`SELECT * FROM "${table}"`).toArray();
    }
    rows[`${prefix}:kv@${name}`] = [...state.storage.kv.list()].map(([key, value]) => ({
      key,
      value: JSON.stringify(value),
    }));
    return rows;
  });
}

/**
 * Every race object of every race in D1's index and its spectators' fan-out object (the public copy), the race
 * hub, and the given payments' objects.
 */
async function everyDurableRow(payids: string[]): Promise<Rows> {
  const { results } = await env.DB.prepare("SELECT part FROM races ORDER BY part").all<{ part: string }>();
  let rows: Rows = {};
  for (const { part } of results) {
    rows = { ...rows, ...(await everyObjectRow(env.RACE.getByName(part), "race", part)) };
    rows = { ...rows, ...(await everyObjectRow(env.SPECTATORS.getByName(part), "spectators", part)) };
  }
  rows = { ...rows, ...(await everyObjectRow(env.RACE_HUB.getByName("hub"), "hub", "hub")) };
  for (const payid of payids) {
    rows = { ...rows, ...(await everyObjectRow(env.PAYMENT.getByName(payid), "payment", payid)) };
  }
  return rows;
}

interface Finding {
  place: string;
  needle: string;
  value: string;
}

/** Each cell (as text) that contains a needle, case-insensitively; digits-only needles also in a cell's digits. */
function findings(rows: Rows, needles: string[]): Finding[] {
  const found: Finding[] = [];
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      for (const [column, raw] of Object.entries(row)) {
        if (raw === null || raw === undefined) continue;
        const value = raw instanceof ArrayBuffer ? new TextDecoder().decode(raw) : String(raw);
        const lower = value.toLowerCase();
        for (const needle of needles) {
          const hit =
            lower.includes(needle.toLowerCase()) ||
            (/^\d{7,}$/.test(needle) && typeof raw === "string" && raw.replace(/\D/g, "").includes(needle));
          if (hit) found.push({ place: `${table.replace(/@.*$/, "")}.${column}`, needle, value });
        }
      }
    }
  }
  return found;
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

let taps = 0;
function tap(): string {
  taps++;
  return `erase-${Date.now().toString(36)}-${taps}`;
}

function letters(n: number): string {
  return Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

afterEach(async () => {
  await setCallbacks("normal");
});

interface Person {
  needles: string[];
  ids: string[];
  payids: string[];
}

/**
 * A family through the real calls: invited for Epassi, registered with a mother and a son, paid with the code and
 * Swish, the mother renamed and the son moved to another distance after paying, both on race day.
 */
async function family(admin: CookieJar): Promise<Person & { v: Visitor; mother: string; son: string }> {
  const tag = letters(6);
  const first = `Gunhild${tag}`;
  const renamed = `Gunnel${tag}`;
  const son = `Sten${tag}`;
  const last = `Zqvist${tag}`;
  const club = `IK Zqklubb${tag}`;
  const v = await login(`${tag}.familj@example.se`, OPEN_AT);

  // The Epassi invitation: its campaign code's note is 'Epassi-inbjudan: <name> <address>'.
  const invited = await json<{ invitation: { code: string } }>(
    await post("/admin/api/invite/epassi", { name: `${first} ${last}`, email: v.email }, { jar: admin }),
    201,
  );
  const ids = { mother: `mor-${tag}`, son: `son-${tag}` };
  const runners = {
    [ids.mother]: runner({ firstname: first, lastname: last, age: 41, company: club, distance: "5.6", group: "Dam" }),
    [ids.son]: runner({ firstname: son, lastname: last, age: 9, company: "", distance: "1.6", group: "Herr" }),
  };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const booked = await json<{ token: string; payref: string }>(
    await post(
      "/book-v2",
      { barn: 1, vuxna: 1, kampanj: invited.invitation.code },
      { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
    ),
  );
  await payOnPhone(booked.token, "PAID");
  const paid = await getRegistration(v);
  expect(paid.body.deltagare[ids.mother]).toMatchObject({ paidBy: booked.payref });

  // After paying: the mother is renamed (the race's log keeps the old name in the edit), then the son moves from
  // 1.6 to 2.8 (the 1.6 race keeps his add in its log and a tombstone).
  const renamedRunners = { ...runners, [ids.mother]: { ...runners[ids.mother], firstname: renamed } };
  const afterRename = await update(v, { runners: renamedRunners, version: paid.body.version });
  expect(afterRename.res.status, JSON.stringify(afterRename.body)).toBe(200);
  const moved = { ...renamedRunners, [ids.son]: { ...runners[ids.son], distance: "2.8" } };
  const afterMove = await update(v, { runners: moved, version: afterRename.body.version });
  expect(afterMove.res.status, JSON.stringify(afterMove.body)).toBe(200);
  expect(await testRace(RACE["2.8"]).getRunner(ids.son)).toMatchObject({ firstname: son });
  expect(await testRace(RACE["1.6"]).getRunner(ids.son)).toBeNull();

  return {
    v,
    mother: ids.mother,
    son: ids.son,
    needles: [first, renamed, son, last, club, v.email],
    ids: [ids.mother, ids.son, paid.body.registration?.payid ?? booked.payref, booked.payref],
    payids: [booked.payref],
  };
}

/** A box-office sign-up (no address): name and phone, paid in cash, runs the race of `distance`. */
async function boxOfficeRunner(
  admin: CookieJar,
  distance = "5.6",
): Promise<Person & { id: string; phone: string; bib: number }> {
  const tag = letters(6);
  const digits = `0709${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  const phone = `${digits.slice(0, 3)}-${digits.slice(3, 6)} ${digits.slice(6)}`;
  const first = `Birger${tag}`;
  const last = `Kassqvist${tag}`;
  const bib = 8000 + Math.floor(Math.random() * 900);
  const sale = await json<{ payid: string }>(
    await post(
      "/admin/api/quickreg",
      {
        firstname: first,
        lastname: last,
        age: "52",
        distance,
        group: "Herr",
        phone,
        bib: String(bib),
        method: "kontant",
      },
      { jar: admin },
    ),
  );
  const status = await json<{ added: boolean }>(await get(`/admin/api/quickreg/${sale.payid}`, { jar: admin }));
  expect(status.added).toBe(true);
  // The runner's id is the sale's (read, not written: the rows were made by the call above).
  const row = await env.DB.prepare("SELECT id FROM participants WHERE paid_by = ?")
    .bind(sale.payid)
    .first<{ id: string }>();
  const id = row!.id;
  return { id, phone, bib, needles: [first, last, phone, digits], ids: [id, sale.payid], payids: [sale.payid] };
}

describe("an erasure leaves nothing behind (issue 29 item 4)", () => {
  it("a family and a box-office runner, after registration, payment, edits, race day, mailing and exports", async () => {
    const admin = await loginAdmin();
    // The season's race objects exist before anyone pays (as on a real season: the admin opened them), so a
    // paid runner's add is in its race's log with the whole runner.
    expect((await get("/admin/api/races", { jar: admin })).status).toBe(200);
    for (const part of Object.values(RACE)) expect((await get(`/api/races/get/${part}`)).status).toBe(200);
    const fam = await family(admin);
    const kassa = await boxOfficeRunner(admin);
    const device = "phone-erase";

    // Race day on 5.6 with rapid timing (issue 26): bibs, the start, two 'Mål!' slots from a timing phone, the bibs
    // typed in finish order on another: the first one mistyped (a doubled digit, a bib not in the race), so the
    // review list suggests the mother; the suggestion taken pairs her with the first slot, the box-office runner's
    // bib the second. Everyone else is marked DNS; the race ends and its results are made official ('Officiella'),
    // which mails the family their results (issue 28).
    const p56 = RACE["5.6"];
    // The bib desk (issue 27): the family's check-in code looked up, 'Hämtat' for the mother, her bib at pick-up.
    const checkinCode = ((await getRegistration(fam.v)).body as unknown as { checkinCode: string }).checkinCode;
    expect(checkinCode).toBeTruthy();
    await json(await get(`/admin/api/checkin/code/${encodeURIComponent(checkinCode)}`, { jar: admin }));
    await json(
      await post(
        "/admin/api/checkin/pickup",
        {
          runners: [{ id: fam.mother, raceId: p56 }],
          pickedUp: true,
          actionId: tap().replace(/[^a-z0-9]/g, ""),
          device,
        },
        { jar: admin },
      ),
    );
    const withBib = await json<{ bib: number }>(
      await post("/admin/api/checkin/bib", { raceId: p56, runnerId: fam.mother, bib: "next", device }, { jar: admin }),
    );
    fam.needles.push(checkinCode);
    const started = Date.now() - 20 * 60_000;
    await json(await get(`/admin/api/races/start/${p56}?tap=${tap()}&at=${started}&device=${device}`, { jar: admin }));
    for (const ago of [60_000, 30_000]) {
      const slot = await json<{ outcome: string }>(
        await post(
          `/admin/api/races/rapid/${p56}?tap=${tap()}&at=${Date.now() - ago}&device=phone-mal`,
          {},
          { jar: admin },
        ),
      );
      expect(slot.outcome).toBe("recorded");
    }
    const typed = (entry: string, bib: number) =>
      post(`/admin/api/races/bibs/${p56}?device=phone-nr`, { entry, bib }, { jar: admin });
    const mistyped = { entry: tap(), bib: Number(`${withBib.bib}${String(withBib.bib).at(-1)}`) };
    await json(await typed(mistyped.entry, mistyped.bib));
    const open = await json<{ kind: string; entry?: string; suggestions?: { runnerId: string }[] }[]>(
      await get(`/admin/api/races/review/${p56}`, { jar: admin }),
    );
    const suggesting = open.find((r) => r.entry === mistyped.entry);
    expect(suggesting).toMatchObject({ kind: "bib-unknown" });
    expect(suggesting!.suggestions!.map((s) => s.runnerId)).toContain(fam.mother);
    await json(
      await post(
        `/admin/api/races/bibs/${p56}/${mistyped.entry}/change?device=phone-nr`,
        { bib: withBib.bib },
        { jar: admin },
      ),
    );
    await json(await typed(tap(), kassa.bib));
    const race56 = testRace(p56);
    expect(await race56.getRunner(fam.mother)).toMatchObject({ slot: expect.any(String) });
    expect(await race56.getRunner(kassa.id)).toMatchObject({ slot: expect.any(String) });
    for (const r of await race56.listRunners()) {
      if (!r.finished && !r.dns) await json(await get(`/admin/api/races/dns/${p56}/${r.sort}/on`, { jar: admin }));
    }
    await json(await get(`/admin/api/races/end/${p56}?device=${device}`, { jar: admin }));
    await json(await post(`/admin/api/races/official/${p56}?device=${device}`, { confirm: true }, { jar: admin }));
    // The results mail goes through the mail queue (the Worker's own consumer): wait until it is sent.
    const resultsMailSent = async () =>
      (
        await env.DB.prepare(
          `SELECT r.status FROM mailing_recipients r JOIN mailings m ON m.id = r.mailing_id
            WHERE m.audience = 'results' AND r.email = ?`,
        )
          .bind(fam.v.email)
          .all<{ status: string }>()
      ).results.some((r) => r.status === "sent");
    await waitFor(resultsMailSent, 10_000, "the results mail");

    // A tap on the son in 2.8, which has not started: it goes to the review list with his name.
    await json(
      await get(
        `/admin/api/races/finish/${RACE["2.8"]}/${runnerSort(fam.son)}?tap=${tap()}&at=${Date.now()}&device=${device}`,
        {
          jar: admin,
        },
      ),
      202,
    );

    // A mass mailing to this season's runners, and every export (each writes an audit line).
    const mailing = await json<{ id: number }>(
      await post(
        "/admin/api/send-email-current-runners",
        { subject: `Info ${letters(8)}`, message: "Välkomna på lördag!" },
        { jar: admin },
      ),
      202,
    );
    await waitFor(
      async () => (await json<{ done: boolean }>(await get(`/admin/api/mailings/${mailing.id}`, { jar: admin }))).done,
      10_000,
      "the mailing",
    );
    for (const path of [
      "/admin/api/export/registrations.csv",
      `/admin/api/export/friidrott.csv?race=${p56}`,
      "/admin/api/export2racesplitter?download=1",
    ]) {
      expect((await get(path, { jar: admin })).status, path).toBe(200);
    }

    // Before: the names, address and phone are all over the place (the needles work).
    const people = [fam, kassa];
    const before = findings(
      { ...(await everyD1Row()), ...(await everyDurableRow(people.flatMap((p) => p.payids))) },
      people.flatMap((p) => p.needles),
    );
    for (const needle of people.flatMap((p) => p.needles)) {
      expect(
        before.some((f) => f.needle === needle),
        needle,
      ).toBe(true);
    }
    // … in each of the places the issue names.
    const [first, renamed, son, last] = fam.needles as [string, string, string, string];
    const places = (needle: string) => new Set(before.filter((f) => f.needle === needle).map((f) => f.place));
    expect([...places(first)]).toEqual(
      expect.arrayContaining(["campaign_codes.note", "epassi_invitations.name", "race:events.payload"]),
    );
    expect([...places(renamed)]).toEqual(
      expect.arrayContaining([
        "participants.firstname",
        "race:events.payload",
        "race:runners.firstname",
        "spectators:runners.record",
      ]),
    );
    expect(places(son)).toContain("race:review.name");
    expect(places(last)).toContain("mailing_recipients.name");
    // Rapid timing's review item suggests the mother by name; the results mail and its log name her.
    expect([...places(renamed)]).toEqual(
      expect.arrayContaining(["race:review.data", "results_mails.results", "mailings.message"]),
    );
    expect(places(kassa.needles[2]!)).toEqual(new Set(["participants.phone"]));

    // The family's export has what race day added: the mother's pairing with a slot (the log's 'slot-paired'),
    // the rapid item that suggested her for the mistyped bib (its own runner is none: it names her only as a
    // suggestion), and the results mail's log.
    const exported = await json<{
      registrations: { resultsMails: { raceId: string }[] }[];
      raceDay: { runnerId: string; race: string; log: { type: string }[]; review: { entry?: string }[] }[];
    }>(await get(`/admin/api/personal-data/export?email=${encodeURIComponent(fam.v.email)}`, { jar: admin }));
    const motherOn56 = exported.raceDay.find((h) => h.runnerId === fam.mother && h.race === p56)!;
    expect(motherOn56.log.map((l) => l.type)).toContain("slot-paired");
    expect(motherOn56.review).toEqual([expect.objectContaining({ entry: mistyped.entry, kind: "bib-unknown" })]);
    expect(exported.registrations.flatMap((r) => r.resultsMails.map((m) => m.raceId))).toEqual([p56]);

    // The erasure, through the admin's calls: the family by its address, the box-office runner by phone.
    const erased = await post(
      "/admin/api/personal-data/erase",
      { email: fam.v.email, confirm: fam.v.email },
      { jar: admin },
    );
    expect(erased.status, await erased.clone().text()).toBe(200);
    const erasedKassa = await post(
      "/admin/api/personal-data/erase",
      { phone: kassa.phone, confirm: kassa.phone },
      {
        jar: admin,
      },
    );
    expect(erasedKassa.status, await erasedKassa.clone().text()).toBe(200);

    // The spectators' copy is told of the rename by the race object after its answer (fire-and-forget): given a
    // moment to arrive, then everything is read.
    const needles = people.flatMap((p) => p.needles);
    await waitFor(
      async () => findings(await everyDurableRow([]), needles).every((f) => !f.place.startsWith("spectators:")),
      5000,
      "the spectators' copy renamed",
    ).catch(() => undefined);
    const after = { ...(await everyD1Row()), ...(await everyDurableRow(people.flatMap((p) => p.payids))) };
    // No name, address or phone anywhere.
    expect(
      findings(
        after,
        people.flatMap((p) => p.needles),
      ),
    ).toEqual([]);
    // Ids only where bookkeeping or the race's results keep them.
    const idPlaces = findings(
      after,
      people.flatMap((p) => p.ids),
    ).filter((f) => !ID_PLACES.has(f.place));
    expect(idPlaces).toEqual([]);

    // Both are gone for good: a repeated erasure finds nothing.
    expect(
      (await post("/admin/api/personal-data/erase", { email: fam.v.email, confirm: fam.v.email }, { jar: admin }))
        .status,
    ).toBe(404);
    expect(
      (await post("/admin/api/personal-data/erase", { phone: kassa.phone, confirm: kassa.phone }, { jar: admin }))
        .status,
    ).toBe(404);
  });
});

describe("the export of a person's data includes race day (issue 29 item 4)", () => {
  it("a family's export: each runner's bib, finish and the race's log lines about it, names as they were then", async () => {
    const admin = await loginAdmin();
    const tag = letters(6);
    const v = await login(`${tag}.export@example.se`, OPEN_AT);
    const id = `barn-${tag}`;
    const child = runner({ firstname: `Lilly${tag}`, lastname: `Export${tag}`, age: 7, distance: "0.8", group: "Dam" });
    expect((await update(v, { runners: { [id]: child }, version: 0 })).res.status).toBe(200);
    const booked = await json<{ token: string; payref: string }>(
      await post("/book-v2", { barn: 1, vuxna: 0, kampanj: "" }, { env: at(OPEN_AT), jar: v.jar, headers: v.headers }),
    );
    await payOnPhone(booked.token, "PAID");
    const version = (await getRegistration(v)).body.version;
    const renamed = await update(v, { runners: { [id]: { ...child, firstname: `Lisa${tag}` } }, version });
    expect(renamed.res.status, JSON.stringify(renamed.body)).toBe(200);
    const p08 = RACE["0.8"];
    const { runner: withBib } = await json<{ runner: { bib: number } }>(
      await get(`/admin/api/races/register-bib/${p08}/${runnerSort(id)}/next`, { jar: admin }),
    );
    await json(await get(`/admin/api/races/start/${p08}?tap=${tap()}&at=${Date.now() - 10 * 60_000}`, { jar: admin }));
    const finishedAt = Date.now() - 2000;
    await json(
      await get(`/admin/api/races/finish/${p08}/${runnerSort(id)}?tap=${tap()}&at=${finishedAt}`, { jar: admin }),
    );

    const file = await json<{
      raceDay: {
        runnerId: string;
        race: string;
        runner: { bib: number; finished: number; firstname: string } | null;
        log: { type: string; detail: Record<string, unknown> }[];
      }[];
    }>(await get(`/admin/api/personal-data/export?email=${encodeURIComponent(v.email)}`, { jar: admin }));
    const here = file.raceDay.filter((h) => h.race === p08);
    expect(here).toHaveLength(1);
    expect(here[0]).toMatchObject({
      runnerId: id,
      runner: { bib: withBib.bib, finished: finishedAt, firstname: `Lisa${tag}` },
    });
    const types = here[0]!.log.map((l) => l.type);
    expect(types).toEqual(expect.arrayContaining(["runner-added", "runner-updated", "finish"]));
    expect(here[0]!.log.find((l) => l.type === "runner-added")!.detail).toMatchObject({ firstname: `Lilly${tag}` });
    expect(here[0]!.log.find((l) => l.type === "runner-updated")!.detail).toMatchObject({
      changes: { firstname: [`Lilly${tag}`, `Lisa${tag}`] },
    });
    expect(here[0]!.log.find((l) => l.type === "finish")!.detail).toMatchObject({ at: finishedAt });
  });

  it("box-office runners: found by phone (any way it is typed) or by name, summed up and exported with race day", async () => {
    const admin = await loginAdmin();
    const kassa = await boxOfficeRunner(admin, "2.8");
    const [first, last, phone, digits] = kassa.needles as [string, string, string, string];
    const search = async (q: string) =>
      (
        await json<{ runners: { id: string; phone: string | null }[] }>(
          await get(`/admin/api/personal-data/box-office?q=${encodeURIComponent(q)}`, { jar: admin }),
        )
      ).runners.map((r) => r.id);
    expect(await search(`+46 ${digits.slice(1)}`)).toEqual([kassa.id]);
    expect(await search(digits)).toEqual([kassa.id]);
    expect(await search(`${last.toUpperCase()} ${first.slice(0, 6)}`)).toEqual([kassa.id]);
    expect((await get("/admin/api/personal-data/box-office?q=x", { jar: admin })).status).toBe(400);

    const summary = await json<{ phone: string; boxOffice: { id: string; firstname: string; phone: string }[] }>(
      await get(`/admin/api/personal-data?phone=${encodeURIComponent(digits)}`, { jar: admin }),
    );
    expect(summary.boxOffice).toEqual([expect.objectContaining({ id: kassa.id, firstname: first, phone })]);
    const file = await json<{
      boxOffice: { runners: { id: string; phone: string }[]; payments: { id: string }[] };
      raceDay: { runnerId: string; race: string; runner: { bib: number } | null; log: unknown[] }[];
    }>(await get(`/admin/api/personal-data/export?runner=${encodeURIComponent(kassa.id)}`, { jar: admin }));
    expect(file.boxOffice.runners).toEqual([expect.objectContaining({ id: kassa.id, phone })]);
    expect(file.boxOffice.payments.map((p) => p.id)).toEqual(kassa.payids);
    expect(file.raceDay).toEqual([
      expect.objectContaining({
        runnerId: kassa.id,
        race: RACE["2.8"],
        runner: expect.objectContaining({ firstname: first }),
      }),
    ]);

    // A number nobody has, a bad one, and two keys at once.
    expect((await get("/admin/api/personal-data?phone=0700000001", { jar: admin })).status).toBe(404);
    const bad = await get("/admin/api/personal-data?phone=12", { jar: admin });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("Ange ett telefonnummer med minst 7 siffror.");
    const both = await get(`/admin/api/personal-data?phone=${digits}&email=a@example.se`, { jar: admin });
    expect(both.status).toBe(400);
    const wrongConfirm = await post("/admin/api/personal-data/erase", { phone, confirm: "0700000001" }, { jar: admin });
    expect(wrongConfirm.status).toBe(400);
    expect(((await wrongConfirm.json()) as { error: string }).error).toBe(
      "Skriv telefonnumret en gång till för att bekräfta raderingen.",
    );
  });
});

describe("two erasures at once (two admins, a retried request)", () => {
  it("both answer (200 or 404, never 5xx), the person is erased once in D1 and in the race, nothing is left", async () => {
    const admin = await loginAdmin();
    const other = await loginAdmin();
    const tag = letters(6);
    const v = await login(`${tag}.tva@example.se`, OPEN_AT);
    const id = `tva-${tag}`;
    const one = runner({ firstname: `Tove${tag}`, lastname: `Samtidig${tag}`, age: 30, distance: "1.6", group: "Dam" });
    expect((await update(v, { runners: { [id]: one }, version: 0 })).res.status).toBe(200);
    const booked = await json<{ token: string; payref: string }>(
      await post("/book-v2", { barn: 0, vuxna: 1, kampanj: "" }, { env: at(OPEN_AT), jar: v.jar, headers: v.headers }),
    );
    await payOnPhone(booked.token, "PAID");
    expect(await testRace(RACE["1.6"]).getRunner(id)).toMatchObject({ firstname: `Tove${tag}` });

    const body = { email: v.email, confirm: v.email };
    const answers = await Promise.all([
      post("/admin/api/personal-data/erase", body, { jar: admin }),
      post("/admin/api/personal-data/erase", body, { jar: other }),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 404]).toContain(statuses[1]);

    const after = { ...(await everyD1Row()), ...(await everyDurableRow([booked.payref])) };
    expect(findings(after, [`Tove${tag}`, `Samtidig${tag}`, v.email])).toEqual([]);
    expect(await testRace(RACE["1.6"]).getRunner(id)).toMatchObject({
      firstname: "Anonym",
      lastname: "Löpare",
    });
    // The race wrote the erasure once: the other erasure's passes (and each one's second pass) found the runner
    // anonymous already and wrote nothing.
    const events = await testRace(RACE["1.6"]).events();
    expect(events.filter((e) => e.type === "runner-anonymised" && JSON.parse(e.payload).id === id)).toHaveLength(1);
    // The family's rows were anonymised once: one registration under its placeholder.
    const { results } = await env.DB.prepare(
      "SELECT email FROM registrations WHERE id IN (SELECT registration_id FROM participants WHERE id = ?)",
    )
      .bind(id)
      .all<{ email: string }>();
    expect(results.map((r) => r.email)).toEqual([expect.stringMatching(/^raderad-.*@raderad\.invalid$/)]);
  });
});

/**
 * A family at the box office (`POST /admin/api/quickreg` with `runners`): several runners, one phone number, one
 * payment (Swish, cash or a free code); the runners join their races checked in; a Swish sale that ends unpaid lets
 * go of the bibs typed for it, also on its race-less participant rows.
 */
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { QuickRegStarted, QuickRegStatus } from "../../../src/shared/box-office";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { get, loginAdmin, post, storedState, type CookieJar } from "../helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

let nextBib = 8000 + Math.floor(Math.random() * 900);
const freshBib = () => nextBib++;

let jar: CookieJar;
beforeAll(async () => {
  jar = await loginAdmin();
});
beforeEach(async () => {
  await setCallbacks("normal");
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

function family(method: string, extra: Record<string, unknown> = {}) {
  return {
    phone: "070-555 12 34",
    method,
    runners: [
      { firstname: "Karin", lastname: "Plats", age: "41", distance: "5.6", group: "Dam", bib: String(freshBib()) },
      { firstname: "Nils", lastname: "Plats", age: "9", distance: "1.6", group: "Herr", bib: String(freshBib()) },
    ],
    ...extra,
  };
}

async function sale(body: unknown, status = 200) {
  return json<QuickRegStarted & { error?: string; errors?: Record<string, string> }>(
    await post("/admin/api/quickreg", body, { jar }),
    status,
  );
}

async function status(payid: string) {
  return json<QuickRegStatus>(await get(`/admin/api/quickreg/${payid}`, { jar }));
}

async function participantRows(payid: string) {
  const ids = JSON.parse(
    (await env.DB.prepare("SELECT participant_ids FROM payments WHERE id = ?").bind(payid).first<{
      participant_ids: string;
    }>())!.participant_ids,
  ) as string[];
  const rows = await Promise.all(
    ids.map((id) =>
      env.DB.prepare("SELECT id, bib, race_id, phone, picked_up_at FROM participants WHERE id = ?").bind(id).first<{
        id: string;
        bib: number | null;
        race_id: string | null;
        phone: string;
        picked_up_at: number | null;
      }>(),
    ),
  );
  return rows.map((r) => r!);
}

describe("a family at the box office", () => {
  it("takes several runners and one cash payment for all: each in its race with its bib, checked in", async () => {
    const body = family("kontant");
    const started = await sale(body);
    expect(started).toMatchObject({ method: "kontant", amount: 300 + 200, raceId: raceIdForSeason("5.6") });
    const done = await status(started.payid);
    expect(done.added).toBe(true);
    expect(done.runners.map((r) => [r.firstname, r.raceId, r.bib, r.requestedBib])).toEqual([
      ["Karin", raceIdForSeason("5.6"), Number(body.runners[0]!.bib), Number(body.runners[0]!.bib)],
      ["Nils", raceIdForSeason("1.6"), Number(body.runners[1]!.bib), Number(body.runners[1]!.bib)],
    ]);
    expect(done.runners.every((r) => typeof r.pickedUpAt === "number")).toBe(true);
    const rows = await participantRows(started.payid);
    expect(rows.map((r) => r.phone)).toEqual(["070-555 12 34", "070-555 12 34"]);
    expect(rows.every((r) => r.picked_up_at !== null)).toBe(true);
  });

  it("takes one Swish payment for all; the runners join once it is paid", async () => {
    const body = family("swish");
    const started = await sale(body);
    expect(started.amount).toBe(500);
    expect((await status(started.payid)).added).toBe(false);
    await payOnPhone(started.token!);
    const done = await status(started.payid);
    expect(done.status).toBe("PAID");
    expect(done.runners.map((r) => r.added)).toEqual([true, true]);
    expect(done.runners.every((r) => r.pickedUpAt !== null)).toBe(true);
  });

  it("a free campaign code covers the whole family", async () => {
    const started = await sale(family("kampanj", { kampanj: "fribiljett" }));
    expect(started).toMatchObject({ method: "kampanj", amount: 0 });
    expect((await status(started.payid)).runners.map((r) => r.added)).toEqual([true, true]);
  });

  it("refuses one bib twice in one sale, and a bib another family's open Swish sale holds, storing nothing", async () => {
    const twice = family("kontant");
    twice.runners[1] = { ...twice.runners[1]!, distance: "5.6", bib: twice.runners[0]!.bib };
    const before = await storedState();
    const refused = await sale(twice, 400);
    expect(refused.errors?.["runners.1.bib"]).toBe(
      `Startnummer ${twice.runners[0]!.bib} står redan på en annan löpare i samma köp.`,
    );
    expect((await sale({ ...family("kontant"), runners: [] }, 400)).error).toBe("Ange en till 10 löpare.");
    const bad = await sale({ ...family("kontant"), runners: [{ firstname: "X" }, { firstname: "Y" }] }, 400);
    expect(bad.errors?.["runners.1.lastname"]).toBe("Obligatorisk");
    expect(await storedState()).toEqual(before);

    const open = await sale(family("swish"));
    const heldBib = (await participantRows(open.payid))[1]!.bib!;
    const other = family("kontant");
    other.runners[1] = { ...other.runners[1]!, bib: String(heldBib) };
    const held = await sale(other, 409);
    expect(held.errors?.["runners.1.bib"]).toContain(`Startnummer ${heldBib} väntar redan på en Swish-betalning`);
  });

  it("a Swish sale that ends unpaid clears the bibs typed for it from its runners' rows", async () => {
    const declined = await sale(family("swish"));
    expect((await participantRows(declined.payid)).every((r) => r.bib !== null)).toBe(true);
    await payOnPhone(declined.token!, "DECLINED");
    expect((await status(declined.payid)).status).toBe("DECLINED");
    expect((await participantRows(declined.payid)).map((r) => [r.bib, r.race_id])).toEqual([
      [null, null],
      [null, null],
    ]);
    // The numbers asked for are still told (from the sale's audit line), and are free for the next sale.
    const told = await status(declined.payid);
    expect(told.runners.every((r) => r.requestedBib !== null)).toBe(true);

    const cancelled = await sale({ ...family("swish"), runners: [family("swish").runners[0]] });
    await json(await post(`/admin/api/quickreg/${cancelled.payid}/cancel`, {}, { jar }));
    expect((await participantRows(cancelled.payid))[0]!.bib).toBeNull();
  });
});

/**
 * Issue 28, item 6 at the box office: a family's sale may carry an adult who runs with a child of the sale without
 * competing ('Springer med barn (ej tävlande)'): no bib (one typed is refused), the season's companion price
 * (0 kr), never added to a race, and the sale's status answers it done once paid. Bad input is a Swedish 400 with
 * nothing written.
 */
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { QuickRegStarted, QuickRegStatus } from "../../../src/shared/box-office";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import { get, loginAdmin, post, storedState, type CookieJar } from "../helpers";
import { setCallbacks } from "../swish-helpers";

let nextBib = 7000 + Math.floor(Math.random() * 900);
const freshBib = () => String(nextBib++);

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

const child = () => ({
  firstname: "Nils",
  lastname: "Plats",
  age: "7",
  distance: "0.8",
  group: "Herr",
  bib: freshBib(),
});
const parent = (extra: Record<string, unknown> = {}) => ({
  firstname: "Karin",
  lastname: "Plats",
  age: "41",
  distance: "0.8",
  group: "Dam",
  bib: "",
  companion: true,
  ...extra,
});

async function sale(runners: unknown[], status = 200) {
  return json<QuickRegStarted & { error?: string; errors?: Record<string, string> }>(
    await post("/admin/api/quickreg", { phone: "070-555 12 34", method: "kontant", runners }, { jar }),
    status,
  );
}

describe("a companion at the box office", () => {
  it("costs the companion price (0 kr), gets no bib and joins no race; the child does; the sale is done", async () => {
    const started = await sale([child(), parent()]);
    expect(started.amount).toBe(SEASON.onSitePrice.child + SEASON.companionPrice);
    const done = await json<QuickRegStatus>(await get(`/admin/api/quickreg/${started.payid}`, { jar }));
    expect(done.added).toBe(true);
    const [kid, karin] = done.runners;
    expect(kid).toMatchObject({ added: true });
    expect(karin).toMatchObject({ added: true, bib: null, companion: true, requestedBib: null });
    // Checked in at the table like the child (a sale hands everything over there): the desk does not ask again.
    expect(kid!.pickedUpAt).toEqual(expect.any(Number));
    expect(karin!.pickedUpAt).toBe(kid!.pickedUpAt);
    const row = await env.DB.prepare("SELECT * FROM participants WHERE id = ?").bind(karin!.id).first();
    expect(row).toMatchObject({ companion: 1, bib: null, race_id: null, paid_price: SEASON.companionPrice });
    const payment = await env.DB.prepare("SELECT barn, vuxna, amount FROM payments WHERE id = ?")
      .bind(started.payid)
      .first();
    expect(payment).toEqual({ barn: 1, vuxna: 0, amount: started.amount });
    const race = testRace(raceIdForSeason("0.8", SEASON));
    expect(await race.getRunner(kid!.id)).not.toBeNull();
    expect(await race.getRunner(karin!.id)).toBeNull();
  });

  it("takes the companion typed first, before the child she runs with", async () => {
    const started = await sale([parent({ firstname: "Forst" }), child()]);
    expect(started.amount).toBe(SEASON.onSitePrice.child + SEASON.companionPrice);
    const done = await json<QuickRegStatus>(await get(`/admin/api/quickreg/${started.payid}`, { jar }));
    const [karin, kid] = done.runners;
    expect(karin).toMatchObject({ added: true, bib: null, companion: true });
    expect(kid).toMatchObject({ added: true });
    expect(kid!.companion).toBeUndefined();
  });

  it("refuses a bib for a companion, a child as companion, and a companion without a child on the distance", async () => {
    const before = await storedState();
    const bib = await sale([child(), parent({ bib: "4711" })], 400);
    expect(bib.errors?.["runners.1.bib"]).toBe(
      "Den här löparen springer med barn och kan inte få nummerlapp eller tid.",
    );
    const young = await sale([child(), parent({ age: "12" })], 400);
    expect(young.errors?.["runners.1.companion"]).toMatch(/Bara en vuxen/);
    const alone = await sale([{ ...child(), distance: "1.6" }, parent()], 400);
    expect(alone.errors?.["runners.1.companion"]).toMatch(/Inget barn i anmälan springer 0,8 km/);
    const onlyOne = await json<{ errors?: Record<string, string> }>(
      await post("/admin/api/quickreg", { phone: "070-555 12 34", method: "kontant", ...parent() }, { jar }),
      400,
    );
    expect(onlyOne.errors?.companion).toMatch(/Inget barn/);
    expect(await storedState()).toEqual(before);
  });
});

/**
 * The registration's booking service (src/worker/registration/booking.ts), called directly on a real D1: what an
 * order for the stored runners costs, with or without a campaign code, and what it refuses. POST /book-v2's
 * route tests (registration-book.test.ts) cover the same rules through the wire and the payment it then starts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { builtinCampaigns } from "../../../src/worker/campaigns/builtin-campaigns";
import { database } from "../../../src/worker/db/client";
import { ApiError } from "../../../src/worker/lib/errors";
import { BOOKING_MSG, priceOrder, type BookingRequest } from "../../../src/worker/registration/booking";
import { CLOSED_AT, LATE_AT, login, OPEN_AT, runner, uniqueEmail, update } from "../registration-helpers";

const ms = (iso: string) => Date.parse(iso);

/** A family of one adult and two children, saved through /update as the page does. */
async function family(runners = familyRunners()) {
  const v = await login(uniqueEmail("bokning"));
  expect((await update(v, { runners })).res.status).toBe(200);
  return v.email;
}

function familyRunners() {
  const tail = crypto.randomUUID().slice(0, 8);
  return {
    [`a-${tail}`]: runner({ firstname: "Vera", age: 41 }),
    [`b-${tail}`]: runner({ firstname: "Ivar", age: 9, distance: "1.6", group: "Herr" }),
    [`c-${tail}`]: runner({ firstname: "Tove", age: 2015, distance: "0.8" }),
  };
}

function price(email: string, request: BookingRequest, when = OPEN_AT, lookups = { allowed: true, asked: 0 }) {
  return priceOrder(database(env.DB), {
    email,
    request,
    now: ms(when),
    builtins: builtinCampaigns(env),
    campaignLookupAllowed: async () => {
      lookups.asked++;
      return lookups.allowed;
    },
  });
}

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("priceOrder", () => {
  it("prices the unpaid runners at the list price of the day, without a look-up for an empty code", async () => {
    const email = await family();
    const lookups = { allowed: true, asked: 0 };
    const early = await price(email, { kampanj: "", barn: 2, vuxna: 1 }, OPEN_AT, lookups);
    expect(early).toMatchObject({ price: 350, campaign: null, free: false, counts: { barn: 2, vuxna: 1 } });
    expect(early.participantIds).toHaveLength(3);
    // Each runner's share of the price, by runner id: the adult's 150 and the children's 100.
    expect(Object.keys(early.runnerPrices).sort()).toEqual([...early.participantIds].sort());
    expect(Object.values(early.runnerPrices).sort()).toEqual([100, 100, 150]);
    expect(lookups.asked).toBe(0);
    expect((await price(email, { kampanj: "", barn: 2, vuxna: 1 }, LATE_AT)).price).toBe(550);
  });

  it("a code that applies sets the price; a free one makes the order free", async () => {
    const email = await family();
    const lookups = { allowed: true, asked: 0 };
    const half = await price(email, { kampanj: " vanlopp50 ", barn: 2, vuxna: 1 }, OPEN_AT, lookups);
    expect(half).toMatchObject({ price: 150, free: false, campaign: { code: "VANLOPP50" } });
    expect(lookups.asked).toBe(1);
    const free = await price(email, { kampanj: "FRIBILJETT", barn: 2, vuxna: 1 });
    expect(free).toMatchObject({ price: 0, free: true, campaign: { code: "FRIBILJETT" } });
  });

  it("refuses a code that does not apply, counts that are not the stored ones, and spent look-ups", async () => {
    const email = await family();
    const unknown = await refusal(price(email, { kampanj: "GISSNING1", barn: 2, vuxna: 1 }));
    expect([unknown.status, unknown.message, unknown.errors]).toEqual([
      400,
      BOOKING_MSG.campaignInvalid,
      { kampanj: BOOKING_MSG.campaignInvalid },
    ]);
    const counts = await refusal(price(email, { kampanj: "", barn: 1, vuxna: 1 }));
    expect([counts.status, counts.message]).toEqual([400, "Antalet barn stämmer inte (2 anmälda)"]);
    const spent = await refusal(
      price(email, { kampanj: "VANLOPP50", barn: 2, vuxna: 1 }, OPEN_AT, { allowed: false, asked: 0 }),
    );
    expect([spent.status, spent.message]).toEqual([429, BOOKING_MSG.tooManyCampaign]);
  });

  it("refuses a family without runners, and any booking once registration has closed", async () => {
    const empty = await login(uniqueEmail("tom"));
    const none = await refusal(price(empty.email, { kampanj: "", barn: 0, vuxna: 0 }));
    expect([none.status, none.message]).toEqual([400, BOOKING_MSG.noRunners]);
    const email = await family();
    const closed = await refusal(price(email, { kampanj: "", barn: 2, vuxna: 1 }, CLOSED_AT));
    expect([closed.status, closed.message]).toEqual([403, BOOKING_MSG.closed]);
  });
});

/**
 * Issue 43: campaign words guessed from many addresses. Look-ups are bounded per minute across all clients
 * (KAMPANJ_ALL_RL, besides each client's KAMPANJ_RL), and an organiser cannot make a short word that makes an order
 * free or takes off half or more.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CAMPAIGN_RULES, SEASON } from "../../../src/shared/season";
import { isLargeDiscount } from "../../../src/shared/campaign";
import { loginAdmin, post } from "../helpers";
import { OPEN_AT, at, inOneRateLimitWindow, newClient } from "../registration-helpers";

const counts = { barn: 1, vuxna: 1 };

/**
 * The real all-clients limiter, its counts kept under a key of the run's own (`budget`, before the route's `kampanj`
 * key): the 102 look-ups below use up a budget nobody else shares, so nothing has to wait for the next minute after
 * them. Each run takes a new one: a run that straddled a minute is run again (inOneRateLimitWindow), and with the
 * same key its look-ups after the minute would count in the new run's window (seen: 429 after 20).
 */
let budget = "";
const allClients: RateLimit = {
  limit: ({ key }) => env.KAMPANJ_ALL_RL.limit({ key: budget + key }),
};

async function lookUp(kampanj: string, headers: Record<string, string>) {
  return (
    await post(
      "/validate-kampanj",
      { kampanj, ...counts },
      { env: { ...at(OPEN_AT), KAMPANJ_ALL_RL: allClients }, headers },
    )
  ).status;
}

describe("campaign words guessed from many addresses", () => {
  it("every rule of this season is a free or large discount for some one-runner order", () => {
    // flat50 and minus50 halve an early child's 100 kr; free and epassi make one runner's order free.
    expect(CAMPAIGN_RULES.filter((rule) => isLargeDiscount(rule))).toEqual([...CAMPAIGN_RULES]);
    // With fees of 300 kr and more, 50 kr off is no longer half; a flat 50 kr price still is.
    const mild = { ...SEASON, earlyPrice: { adult: 400, child: 300 }, latePrice: { adult: 400, child: 300 } };
    expect(isLargeDiscount("minus50", mild)).toBe(false);
    expect(isLargeDiscount("flat50", mild)).toBe(true);
    expect(isLargeDiscount("free", mild)).toBe(true);
  });

  it("the create-campaign route refuses a word under 8 characters for such a rule, and stores nothing", async () => {
    const jar = await loginAdmin();
    for (const [code, rule] of [
      ["GRATIS", "free"],
      ["HALV50", "flat50"],
      ["TIDIG1", "minus50"],
      ["KORT123", "free"],
    ] as const) {
      const res = await post("/admin/api/kampanjkoder", { code, rule }, { jar });
      expect(res.status, code).toBe(400);
      const body = (await res.json()) as { error: string; errors: Record<string, string> };
      expect(body.error).toBe(
        `Kampanjkoden ${code} ger gratis eller minst halva priset i rabatt och ska då vara minst 8 tecken, så att den inte kan gissas.`,
      );
      expect(body.errors.code).toBe(body.error);
    }
    const stored = await env.DB.prepare("SELECT code FROM campaign_codes WHERE builtin = 0").all();
    expect(stored.results).toEqual([]);
    expect((await post("/admin/api/kampanjkoder", { code: "GRATIS26", rule: "free" }, { jar })).status).toBe(201);
  });

  it("bounds look-ups across all clients: after 100 a minute every client gets 429", { timeout: 150_000 }, async () => {
    // Six clients each under their own limit of 20 make 102 look-ups; the 101st and later are refused, also for a
    // client that has asked nothing yet, and for a right word (refusing only misses would answer a guess).
    const statuses = await inOneRateLimitWindow(async () => {
      budget = `test-${crypto.randomUUID()}:`;
      const out: number[] = [];
      for (let client = 0; client < 6; client++) {
        const headers = newClient();
        for (let i = 0; i < 17; i++) out.push(await lookUp(`GISSNING${client}X${i}`, headers));
      }
      out.push(await lookUp("VANLOPP50", newClient()));
      return out;
    });
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(200));
    expect(statuses.slice(100)).toEqual([429, 429, 429]);
  });
});

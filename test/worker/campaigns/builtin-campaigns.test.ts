/**
 * The built-in campaign codes, the Worker-only part of the season config: read from the CAMPAIGN_CODES secret in
 * production (checked, refused whole when wrong, never a 500), the demo words in development only, and never a
 * demo word in production, wherever it comes from (the secret, an old D1 row, an organiser's new code).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listTotal } from "../../../src/shared/pricing";
import { stockholmToEpoch } from "../../../src/shared/stockholm";
import {
  builtinCampaigns,
  FREE_CODE_DEFAULT_MAX_USES,
  parseCampaignCodes,
} from "../../../src/worker/campaigns/builtin-campaigns";
import { ensureBuiltinCampaigns, evaluateCampaign, findCampaign } from "../../../src/worker/campaigns/campaigns-db";
import { database } from "../../../src/worker/db/client";
import { DEMO_CAMPAIGNS } from "../../../src/worker/dev/demo-campaigns";
import { get, loginAdmin, post, sessionJar, storedState, DEV_ADMIN } from "../helpers";
import { at, newClient, OPEN_AT } from "../registration-helpers";

const PRODUCTION = JSON.parse(env.TEST_PRODUCTION_VARS) as Partial<Env>;
const NOW = stockholmToEpoch("2025-08-25T10:00");
const COUNTS = { barn: 1, vuxna: 1 };
/** The list price of COUNTS at NOW (early tier: a child 100, an adult 150). */
const LIST_PRICE = 250;
/**
 * What /validate-kampanj answers for a code that does not apply: the list price by the Worker's clock (a production
 * Worker has no shifted clock, so this is the real one: after the season, the late tier).
 */
const listPriceToday = () => listTotal(COUNTS, Date.now());
const DEMO_WORDS = DEMO_CAMPAIGNS.map((c) => c.code);

/** A production Worker (the deployed [env.production] variables) with this CAMPAIGN_CODES secret, if any. */
function production(secret?: string): Partial<Env> {
  return { ...PRODUCTION, CAMPAIGN_CODES: secret, ADMIN_EMAILS: DEV_ADMIN };
}

async function validate(kampanj: string, envOverrides?: Partial<Env>) {
  const res = await post("/validate-kampanj", { kampanj, ...COUNTS }, { env: envOverrides, headers: newClient() });
  expect(res.status).toBe(200);
  return (await res.json()) as { valid: boolean; price: number };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parseCampaignCodes (the CAMPAIGN_CODES secret)", () => {
  it("reads word → {rule, validUntil?, maxUses?}, the words as typed: trimmed and upper-cased", () => {
    const text = JSON.stringify({
      " sommar50 ": { rule: "flat50" },
      GRATIS2025: { rule: "free", maxUses: 40 },
      Tidig: { rule: "minus50", validUntil: "2025-10-01" },
    });
    expect(parseCampaignCodes(text, { devMode: false })).toEqual({
      campaigns: [
        { code: "SOMMAR50", rule: "flat50" },
        { code: "GRATIS2025", rule: "free", maxUses: 40 },
        { code: "TIDIG", rule: "minus50", validUntil: "2025-10-01" },
      ],
      errors: [],
    });
  });

  it("refuses the whole secret when anything is wrong, naming each problem in Swedish", () => {
    const notAnObject: [string, RegExp][] = [
      ["{inte json", /inte giltig JSON/],
      ['["SOMMAR50"]', /JSON-objekt/],
      ['"SOMMAR50"', /JSON-objekt/],
      ["null", /JSON-objekt/],
    ];
    // Each bad entry beside a good one: the good one is refused too, so a half-read secret never applies.
    const badEntries: [string, RegExp][] = [
      ['"SOMMAR50": "flat50"', /värdet ska vara ett objekt/],
      ['"SOMMAR50": {"rule": "half"}', /okänd regel "half"/],
      ['"SOMMAR50": {}', /okänd regel/],
      ['"SOMMAR50": {"rule": "flat50", "validUntil": "1 okt"}', /validUntil ska vara ÅÅÅÅ-MM-DD/],
      ['"GRATIS": {"rule": "free", "maxUses": 0}', /maxUses ska vara ett heltal/],
      ['"GRATIS": {"rule": "free", "maxUses": "10"}', /maxUses ska vara ett heltal/],
      ['"GRATIS": {"rule": "free", "maxuses": 10}', /okänt fält "maxuses"/],
      ['"MED MELLANSLAG": {"rule": "free"}', /3–20 tecken, bara A–Z och 0–9/],
      ['"AB": {"rule": "free"}', /3–20 tecken/],
      ['"okkod1": {"rule": "free"}', /OKKOD1 finns två gånger/],
    ];
    const texts = [
      ...notAnObject,
      ...badEntries.map(([entry, message]) => [`{"OKKOD1": {"rule": "flat50"}, ${entry}}`, message] as const),
    ];
    for (const [text, message] of texts) {
      const read = parseCampaignCodes(text, { devMode: false });
      expect(read.campaigns, text).toEqual([]);
      expect(read.errors.join("\n"), text).toMatch(message);
    }
  });

  it("a demo word in the production secret is refused (with the secret); in development it is fine", () => {
    for (const word of DEMO_WORDS) {
      const text = JSON.stringify({ ANNANKOD: { rule: "flat50" }, [word.toLowerCase()]: { rule: "free" } });
      const read = parseCampaignCodes(text, { devMode: false });
      expect(read.campaigns).toEqual([]);
      expect(read.errors).toEqual([expect.stringMatching(new RegExp(`^Kampanjkoden ${word} är en demokod`))]);
      expect(parseCampaignCodes(text, { devMode: true }).errors).toEqual([]);
    }
  });
});

describe("builtinCampaigns(env)", () => {
  it("development: the demo words, and a CAMPAIGN_CODES set locally on top (its entry wins for the same word)", () => {
    expect(builtinCampaigns({ DEV_MODE: "true" }).campaigns.map((c) => c.code)).toEqual(DEMO_WORDS);
    const local = builtinCampaigns({
      DEV_MODE: "true",
      CAMPAIGN_CODES: '{"LOKALKOD": {"rule": "free", "maxUses": 3}, "VANLOPP50": {"rule": "minus50"}}',
    });
    expect(local.campaigns).toEqual([
      { code: "FRIBILJETT", rule: "free" },
      { code: "TIDIGFAGEL", rule: "minus50", validUntil: "2025-10-01T23:59:59" },
      { code: "LOKALKOD", rule: "free", maxUses: 3 },
      { code: "VANLOPP50", rule: "minus50" },
    ]);
  });

  it("production: the secret's words only; without the secret, no built-in code at all", () => {
    expect(builtinCampaigns({ DEV_MODE: "false" }).campaigns).toEqual([]);
    expect(builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: "  " }).campaigns).toEqual([]);
    expect(
      builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: '{"PRODKOD1": {"rule": "flat50"}}' }).campaigns,
    ).toEqual([{ code: "PRODKOD1", rule: "flat50" }]);
  });

  it("a secret that cannot be read is a clear logged error, once per isolate, and none of its codes apply", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const bad = `{"TRASIG${Date.now() % 1000}": {"rule": "gratis"}}`;
    const read = builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: bad });
    expect(read.campaigns).toEqual([]);
    expect(read.errors).toEqual([expect.stringMatching(/okänd regel "gratis"/)]);
    expect(builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: bad })).toBe(read);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toMatch(/^CAMPAIGN_CODES kunde inte läsas/);
  });
});

describe("a production Worker", () => {
  it("never accepts a demo word: not built in, not from a D1 row left by an earlier deploy", async () => {
    // Rows for the demo words, as an earlier version (the words then in the season config) stored them.
    const db = database(env.DB);
    await ensureBuiltinCampaigns(db, NOW, builtinCampaigns({ DEV_MODE: "true" }));
    for (const word of DEMO_WORDS) {
      expect(await validate(word, at(OPEN_AT))).toMatchObject({ valid: true });
      expect(await validate(` ${word.toLowerCase()} `, production())).toEqual({
        valid: false,
        price: listPriceToday(),
      });
      expect(await validate(word, production('{"PRODKOD2": {"rule": "free"}}'))).toEqual({
        valid: false,
        price: listPriceToday(),
      });
      const builtins = builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: '{"PRODKOD2": {"rule": "free"}}' });
      expect(await findCampaign(db, word, builtins)).toBeNull();
      // /book-v2 and the box office decide through the same evaluation: refused before any order is written.
      const evaluation = await evaluateCampaign(db, word, COUNTS, NOW, {
        builtins,
        holder: { registrationId: "nagon", runnerIds: ["nagons-barn"] },
      });
      expect(evaluation).toEqual({ valid: false, price: LIST_PRICE, campaign: null, usedUp: false });
    }
    // Nor as a row that is not marked built in (copied from a development database, say): the word itself is refused.
    await env.DB.prepare("UPDATE campaign_codes SET builtin = 0 WHERE code = 'FRIBILJETT'").run();
    try {
      expect(await validate("FRIBILJETT", production())).toEqual({ valid: false, price: listPriceToday() });
    } finally {
      await env.DB.prepare("UPDATE campaign_codes SET builtin = 1 WHERE code = 'FRIBILJETT'").run();
    }
  });

  it("does not list a demo word's old row, and an organiser cannot make a demo word a code of their own", async () => {
    // Development lists (and so stores) the demo words' rows.
    await get("/admin/api/kampanjkoder", { jar: await loginAdmin() });
    const admin = await sessionJar("admin", DEV_ADMIN);
    const listed = await get("/admin/api/kampanjkoder", { jar: admin, env: production() });
    expect(listed.status).toBe(200);
    const codes = ((await listed.json()) as { kampanjkoder: { code: string }[] }).kampanjkoder.map((c) => c.code);
    for (const word of DEMO_WORDS) expect(codes).not.toContain(word);

    const before = await storedState();
    for (const word of DEMO_WORDS) {
      const res = await post(
        "/admin/api/kampanjkoder",
        { code: word.toLowerCase(), rule: "free" },
        {
          jar: admin,
          env: production(),
        },
      );
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toMatch(/demokoder/);
      const toggle = await post(`/admin/api/kampanjkoder/${word}/enable`, {}, { jar: admin, env: production() });
      expect(toggle.status).toBe(404);
    }
    expect(await storedState()).toEqual(before);
  });

  it("takes its codes from CAMPAIGN_CODES: priced by rule, and a free code capped by default", async () => {
    const secret = JSON.stringify({ Sommar50: { rule: "flat50" }, GRATISPROD: { rule: "free" } });
    expect(await validate(" sommar50 ", production(secret))).toEqual({ valid: true, price: 100 });
    expect(await validate("gratisprod", production(secret))).toEqual({ valid: true, price: 0 });
    expect(await validate("SOMMAR50")).toEqual({ valid: false, price: listPriceToday() });

    const admin = await sessionJar("admin", DEV_ADMIN);
    const listed = await get("/admin/api/kampanjkoder", { jar: admin, env: production(secret) });
    const body = (await listed.json()) as {
      kampanjkoder: { code: string; maxUses: number | null; builtin: boolean }[];
      configErrors: string[];
    };
    expect(body.configErrors).toEqual([]);
    expect(body.kampanjkoder.filter((c) => c.builtin)).toEqual([
      expect.objectContaining({ code: "GRATISPROD", maxUses: FREE_CODE_DEFAULT_MAX_USES }),
      expect.objectContaining({ code: "SOMMAR50", maxUses: null }),
    ]);
  });

  it("a secret that cannot be read refuses every built-in code with a 200 (never a 500) and tells the admin why", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = '{"SOMMAR50": {"rule": "flat50"},';
    expect(await validate("SOMMAR50", production(broken))).toEqual({ valid: false, price: listPriceToday() });
    const admin = await sessionJar("admin", DEV_ADMIN);
    const listed = await get("/admin/api/kampanjkoder", { jar: admin, env: production(broken) });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { configErrors: string[] }).configErrors).toEqual([
      expect.stringMatching(/^CAMPAIGN_CODES är inte giltig JSON/),
    ]);
  });
});

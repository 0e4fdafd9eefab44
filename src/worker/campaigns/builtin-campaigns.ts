/**
 * The season's built-in campaign codes: the Worker-only part of the season config (src/shared/season.ts holds
 * what the browser may see: prices, dates, texts). A code word is a secret that gives a discount, so no word may
 * ever reach the browser's bundle: the browser learns only what /validate-kampanj answers.
 *
 * Where the words come from:
 * - production (DEV_MODE not "true"): the Worker secret CAMPAIGN_CODES, a JSON object of word → campaign, e.g.
 *   `{"SOMMAR50": {"rule": "flat50"}, "GRATIS": {"rule": "free", "maxUses": 30},
 *     "TIDIG": {"rule": "minus50", "validUntil": "2025-10-01"}}` (README, "Configuration per season"). The
 *   repository never holds a production word. A secret that is not valid is refused whole (logged, and no built-in
 *   code works) rather than half-read, and a demo word is never accepted, from the secret or from an old D1 row;
 * - development and tests: the demo words (dev/demo-campaigns.ts), plus CAMPAIGN_CODES when it is set, so a
 *   secret can be tried locally before `wrangler secret put`.
 *
 * Codes the organiser makes at /admin/kampanjkoder are D1 rows and are not affected by any of this.
 */
import { CAMPAIGN_MAX_USES, isCampaignRule, normalizeCode } from "../../shared/campaign";
import { CAMPAIGN_RULES, type CampaignRule, type StockholmDateTime } from "../../shared/season";
import { parseStockholm } from "../../shared/stockholm";
import { DEMO_CAMPAIGNS } from "../dev/demo-campaigns";

export interface BuiltinCampaign {
  /** Upper case, 3–20 of A–Z and 0–9 (as an organiser's own code). */
  code: string;
  rule: CampaignRule;
  /** Last valid moment (inclusive), Stockholm time at any precision ('2025-10-01', '…T23:59:59'); absent = no end. */
  validUntil?: StockholmDateTime;
  /** How many orders may use it; absent = unlimited, except a free code (FREE_CODE_DEFAULT_MAX_USES). */
  maxUses?: number;
}

/**
 * A code that makes a whole order free is the one worth stealing: without its own `maxUses` it may be used this
 * many times (a use is held by an open or paid order, see campaigns-db.ts), never unlimited by omission.
 */
export const FREE_CODE_DEFAULT_MAX_USES = 20;

/** The use cap that applies to a built-in code. */
export function builtinMaxUses(c: BuiltinCampaign): number | null {
  return c.maxUses ?? (c.rule === "free" ? FREE_CODE_DEFAULT_MAX_USES : null);
}

/** The built-in codes this Worker accepts, read from its environment (`builtinCampaigns`). */
export interface BuiltinCampaigns {
  readonly campaigns: readonly BuiltinCampaign[];
  /** Development: the demo words are accepted. Otherwise every demo word is refused, wherever it comes from. */
  readonly devMode: boolean;
  /** What was wrong with CAMPAIGN_CODES (Swedish, one line each); its codes are then not used. */
  readonly errors: readonly string[];
}

const CODE = /^[A-Z0-9]{3,20}$/;
const FIELDS = new Set(["rule", "validUntil", "maxUses"]);
const DEMO_WORDS = new Set(DEMO_CAMPAIGNS.map((c) => c.code));

/** A demo word (dev/demo-campaigns.ts), as typed in any case: never accepted by a production Worker. */
export function isDemoWord(code: string): boolean {
  return DEMO_WORDS.has(normalizeCode(code));
}

/** Every problem of a list of built-in codes, in Swedish; empty when sound. */
export function validateBuiltinCampaigns(list: readonly BuiltinCampaign[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const c of list) {
    if (!CODE.test(c.code)) errors.push(`Kampanjkoden "${c.code}" ska vara 3–20 tecken, bara A–Z och 0–9.`);
    if (seen.has(c.code)) errors.push(`Kampanjkoden ${c.code} finns två gånger.`);
    seen.add(c.code);
    if (!isCampaignRule(c.rule)) {
      errors.push(`Kampanjkoden ${c.code}: okänd regel "${String(c.rule)}" (${CAMPAIGN_RULES.join(", ")}).`);
    }
    if (c.validUntil !== undefined && parseStockholm(c.validUntil) === null) {
      errors.push(
        `Kampanjkoden ${c.code}: validUntil ska vara ÅÅÅÅ-MM-DD eller ÅÅÅÅ-MM-DDTHH:MM (är "${c.validUntil}").`,
      );
    }
    if (c.maxUses !== undefined && !(Number.isInteger(c.maxUses) && c.maxUses >= 1 && c.maxUses <= CAMPAIGN_MAX_USES)) {
      errors.push(`Kampanjkoden ${c.code}: maxUses ska vara ett heltal 1–${CAMPAIGN_MAX_USES} (är ${c.maxUses}).`);
    }
  }
  return errors;
}

/**
 * Reads the CAMPAIGN_CODES secret: a JSON object of word → {rule, validUntil?, maxUses?}. The words are written
 * as visitors type them (any case, surrounding spaces dropped, as /validate-kampanj reads a code). Any problem
 * makes the whole secret refused (`campaigns` empty), each problem named in `errors`.
 */
export function parseCampaignCodes(
  text: string,
  options: { devMode: boolean },
): {
  campaigns: BuiltinCampaign[];
  errors: string[];
} {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { campaigns: [], errors: [`CAMPAIGN_CODES är inte giltig JSON: ${(err as Error).message}`] };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return {
      campaigns: [],
      errors: ['CAMPAIGN_CODES ska vara ett JSON-objekt: {"KOD": {"rule": "flat50"}, …}.'],
    };
  }
  const campaigns: BuiltinCampaign[] = [];
  const errors: string[] = [];
  for (const [word, value] of Object.entries(parsed)) {
    const code = normalizeCode(word);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push(`Kampanjkoden ${code}: värdet ska vara ett objekt som {"rule": "free"}.`);
      continue;
    }
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (!FIELDS.has(key)) errors.push(`Kampanjkoden ${code}: okänt fält "${key}" (rule, validUntil, maxUses).`);
    }
    if (!options.devMode && isDemoWord(code)) {
      errors.push(`Kampanjkoden ${code} är en demokod ur repot och tas aldrig emot i produktion. Välj ett annat ord.`);
    }
    const campaign: BuiltinCampaign = { code, rule: fields.rule as CampaignRule };
    if (fields.validUntil !== undefined) campaign.validUntil = fields.validUntil as string;
    if (fields.maxUses !== undefined) campaign.maxUses = fields.maxUses as number;
    campaigns.push(campaign);
  }
  errors.push(...validateBuiltinCampaigns(campaigns));
  return errors.length > 0 ? { campaigns: [], errors } : { campaigns, errors: [] };
}

export interface CampaignEnv {
  DEV_MODE: string;
  CAMPAIGN_CODES?: string;
}

/**
 * The last reading of the secret in this isolate: the same text is read (and a bad one logged) once, not on every
 * request. Only a finished, immutable result is kept, never a pending promise.
 */
let lastRead: { key: string; value: BuiltinCampaigns } | null = null;

/** The built-in codes of this Worker's environment (see the top of this file). */
export function builtinCampaigns(env: CampaignEnv): BuiltinCampaigns {
  const devMode = env.DEV_MODE === "true";
  const secret = env.CAMPAIGN_CODES ?? "";
  const key = `${devMode}\u0000${secret}`;
  if (lastRead?.key === key) return lastRead.value;
  const fromSecret = secret.trim() === "" ? { campaigns: [], errors: [] } : parseCampaignCodes(secret, { devMode });
  if (fromSecret.errors.length > 0) {
    // The problems name the words, which never go to the logs: /admin/kampanjkoder shows them to the organiser.
    console.error(
      `CAMPAIGN_CODES kunde inte läsas (${fromSecret.errors.length} fel, se /admin/kampanjkoder); inga av dess kampanjkoder gäller förrän hemligheten är rättad.`,
    );
  }
  const secretWords = new Set(fromSecret.campaigns.map((c) => c.code));
  const campaigns = devMode
    ? [...DEMO_CAMPAIGNS.filter((c) => !secretWords.has(c.code)), ...fromSecret.campaigns]
    : fromSecret.campaigns;
  const value: BuiltinCampaigns = Object.freeze({
    campaigns: Object.freeze(campaigns),
    devMode,
    errors: Object.freeze(fromSecret.errors),
  });
  lastRead = { key, value };
  return value;
}

/** The built-in campaign for a code as typed (any case), or null. */
export function findBuiltin(builtins: BuiltinCampaigns, code: string): BuiltinCampaign | null {
  const wanted = normalizeCode(code);
  if (wanted === "") return null;
  return builtins.campaigns.find((c) => c.code === wanted) ?? null;
}

/** A word this Worker never accepts, built in or as a D1 row: a demo word outside development. */
export function isRefusedWord(builtins: BuiltinCampaigns, code: string): boolean {
  return !builtins.devMode && isDemoWord(code);
}

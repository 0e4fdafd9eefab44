/**
 * The organisers' campaign codes (admin area; the admin guard in app.ts covers /admin/api/*): list the built-in
 * codes of the season and their own, make a new one (a word under 8 characters is refused for a rule that makes an
 * order free or takes off half or more: shared/campaign.ts shortCodeError), disable or enable one. A code's `uses` counts booked orders
 * (see src/worker/registration/routes.ts); `paidOrders` counts the PAID payments that used it.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  CAMPAIGN_CODE_PATTERN,
  CAMPAIGN_NOTE_MAX,
  isValidMaxUses,
  normalizeCode,
  shortCodeError,
} from "../../shared/campaign";
import { CAMPAIGN_RULES } from "../../shared/season";
import { isIsoDate, stockholmDate } from "../../shared/stockholm";
import { audit } from "../db/audit";
import {
  createCampaign,
  ensureBuiltinCampaigns,
  lastValidMoment,
  listCampaigns,
  setCampaignDisabled,
  type CampaignListEntry,
} from "./campaigns-db";
import { builtinCampaigns, isRefusedWord } from "./builtin-campaigns";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { validate, wireSchema } from "../middleware/validate";
import type { CampaignsAnswer, NewCampaign } from "../../shared/api-answers";

export const campaignRoutes = new Hono<AppEnv>();

const MSG = {
  code: "Koden ska vara 3–20 tecken, bara A–Z och 0–9.",
  rule: "Välj regel: flat50 (50 kr per person), free (gratis) eller minus50 (50 kr rabatt per person).",
  validUntil: "Ange sista giltighetsdag som ÅÅÅÅ-MM-DD.",
  maxUses: "Ange högsta antal användningar som ett heltal 1–100000.",
  note: "Anteckningen får vara högst 200 tecken.",
  exists: "Koden finns redan.",
  demo: "Koden är en av utvecklingsmiljöns demokoder, som aldrig gäller här. Välj en annan kod.",
  missing: "Kampanjkoden finns inte.",
  body: "Ogiltig kampanjkod.",
} as const;

const newCampaignBody = wireSchema<NewCampaign>()(
  z.object(
    {
      code: z
        .string({ error: MSG.code })
        .transform(normalizeCode)
        .pipe(z.string().regex(CAMPAIGN_CODE_PATTERN, MSG.code)),
      rule: z.enum(CAMPAIGN_RULES, { error: MSG.rule }),
      validUntil: z
        .string({ error: MSG.validUntil })
        .refine((s) => isIsoDate(s), MSG.validUntil)
        .nullish(),
      maxUses: z.number({ error: MSG.maxUses }).refine(isValidMaxUses, MSG.maxUses).nullish(),
      note: z.string({ error: MSG.note }).trim().max(CAMPAIGN_NOTE_MAX, MSG.note).optional().default(""),
    },
    { error: MSG.body },
  ),
);

const codeParam = z.object({ code: z.string().max(40) });

/** The wire form: the last valid day as 'YYYY-MM-DD' (Stockholm), as the organiser typed it. */
function view(c: CampaignListEntry) {
  return {
    code: c.code,
    rule: c.rule,
    validUntil: c.validUntil === null ? null : stockholmDate(c.validUntil),
    maxUses: c.maxUses,
    uses: c.uses,
    disabled: c.disabled,
    builtin: c.builtin,
    note: c.note,
    paidOrders: c.paidOrders,
  };
}

async function entry(c: Context<AppEnv>, code: string) {
  const found = (await listCampaigns(database(c.env.DB), builtinCampaigns(c.env))).find((e) => e.code === code);
  if (!found) throw notFound(MSG.missing);
  return view(found);
}

function adminEmail(c: Context<AppEnv>): string {
  return c.var.admin?.email ?? "okänd";
}

campaignRoutes.get("/", async (c) => {
  const db = database(c.env.DB);
  const builtins = builtinCampaigns(c.env);
  await ensureBuiltinCampaigns(db, c.var.clock.now(), builtins);
  // The organiser sees why the built-in codes are missing when the CAMPAIGN_CODES secret cannot be read.
  return c.json({
    kampanjkoder: (await listCampaigns(db, builtins)).map(view),
    configErrors: builtins.errors,
  } satisfies CampaignsAnswer);
});

campaignRoutes.post("/", validate("json", newCampaignBody), async (c) => {
  const body = c.req.valid("json");
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const builtins = builtinCampaigns(c.env);
  if (isRefusedWord(builtins, body.code)) throw new ApiError(409, MSG.demo, { code: MSG.demo });
  // Issue 43: a short word that is free or half price or more could be guessed from many addresses.
  const short = shortCodeError(body.code, body.rule);
  if (short) throw new ApiError(400, short, { code: short });
  await ensureBuiltinCampaigns(db, now, builtins);
  const created = await createCampaign(
    db,
    {
      code: body.code,
      rule: body.rule,
      validUntil: body.validUntil ? lastValidMoment(body.validUntil) : null,
      maxUses: body.maxUses ?? null,
      note: body.note,
      createdBy: adminEmail(c),
    },
    now,
    builtins,
  );
  if (!created) throw new ApiError(409, MSG.exists, { code: MSG.exists });
  await audit(db, { actor: adminEmail(c), action: "campaign.create", subject: body.code, detail: body }, now);
  return c.json(await entry(c, body.code), 201);
});

for (const [action, disabled] of [
  ["disable", true],
  ["enable", false],
] as const) {
  campaignRoutes.post(`/:code/${action}`, validate("param", codeParam), async (c) => {
    const code = normalizeCode(c.req.valid("param").code);
    const db = database(c.env.DB);
    const now = c.var.clock.now();
    const builtins = builtinCampaigns(c.env);
    await ensureBuiltinCampaigns(db, now, builtins);
    // A built-in row whose word is no longer configured is not listed and never accepted: nothing to switch.
    if (!(await listCampaigns(db, builtins)).some((e) => e.code === code)) throw notFound(MSG.missing);
    if (!(await setCampaignDisabled(db, code, disabled))) throw notFound(MSG.missing);
    await audit(db, { actor: adminEmail(c), action: `campaign.${action}`, subject: code }, now);
    return c.json(await entry(c, code));
  });
}

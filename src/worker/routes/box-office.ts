/**
 * The box office ('Biljettkassan', admin spec §7: `POST /admin/api/quickreg` → `{token}`), plus the page's status
 * poll and its cancel button. The admin guard (app.ts) lets only admins in, the same-origin guard only the site
 * itself. The rules of a sign-up live in src/worker/box-office.ts; this file validates and shapes the answers.
 *
 * Spec §5: every field has the rule 'Obligatorisk' ("text longer than 1 character"), radio groups included. Taken
 * literally that refuses age 5 and bib 7, so for age and bib one character is enough; every other field needs two.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ageFromInput, isValidAge, MAX_AGE } from "../../shared/age";
import { toDistance } from "../../shared/distances";
import { isPaymentId } from "../../shared/payment-protocol";
import { MAX_NAME_LENGTH } from "../../shared/registration-schema";
import { cancelQuickReg, quickRegStatus, startQuickReg } from "../box-office";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { validate } from "../middleware/validate";

export const boxOfficeRoutes = new Hono<AppEnv>();

/** The highest bib the race object takes (src/durable/race.ts). */
const MAX_BIB = 99_999;
const MAX_PHONE_LENGTH = 20;
const MAX_CODE_LENGTH = 40;

const MSG = {
  required: "Obligatorisk",
  body: "Ogiltig registrering.",
  nameTooLong: `Namnet får vara högst ${MAX_NAME_LENGTH} tecken`,
  nameChars: "Namnet innehåller otillåtna tecken",
  age: `Ange ålder 0–${MAX_AGE} (eller födelseår)`,
  distance: "Välj 5.6, 2.8, 1.6 eller 0.8",
  group: "Välj Herr eller Dam",
  phone: "Ange ett telefonnummer med siffror (minst 7)",
  bib: `Startnummer måste vara ett heltal från 1 till ${MAX_BIB}`,
  method: "Välj Swish, Kontant eller Kampanjkod",
  kampanj: "Ange kampanjkoden",
  payid: "Betalningen finns inte i kassan.",
} as const;

/** Text as typed (a number too, for fields a client may send as one), trimmed; '' when missing. */
const text = (max: number) =>
  z
    .union([z.string(), z.number()], { error: MSG.required })
    .optional()
    .nullable()
    .transform((v) => (v === undefined || v === null ? "" : String(v).trim()))
    .refine((s) => s.length <= max, MSG.body);

/** Spec 'Obligatorisk': longer than 1 character (`min` 2), or at least 1 for age and bib (see the module comment). */
const obligatorisk = (min: 1 | 2, max: number) => text(max).refine((s) => [...s].length >= min, MSG.required);

// C0/C1 control characters, bidirectional overrides and markup: never part of a name (as registration-schema.ts).
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069<>]/;

const name = obligatorisk(2, 200)
  .refine((s) => [...s].length <= MAX_NAME_LENGTH, MSG.nameTooLong)
  .refine((s) => !NAME_FORBIDDEN.test(s), MSG.nameChars);

const quickRegBody = z
  .object(
    {
      firstname: name,
      lastname: name,
      // Whole years, or a birth year (above 1000), as on the registration form; converted in the handler.
      age: obligatorisk(1, 10).refine((s) => /^\d{1,4}$/.test(s), MSG.age),
      distance: obligatorisk(2, 10).refine((s) => toDistance(s) !== null, MSG.distance),
      group: obligatorisk(2, 10).pipe(z.enum(["Herr", "Dam"], { error: MSG.group })),
      phone: obligatorisk(2, MAX_PHONE_LENGTH).refine(
        (s) => /^\+?[\d\s-]+$/.test(s) && s.replace(/\D/g, "").length >= 7,
        MSG.phone,
      ),
      bib: obligatorisk(1, 10)
        .refine((s) => /^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_BIB, MSG.bib)
        .transform(Number),
      method: z.enum(["swish", "kontant", "kampanj"], { error: MSG.method }).optional().default("swish"),
      kampanj: text(MAX_CODE_LENGTH).optional(),
    },
    { error: MSG.body },
  )
  .superRefine((body, ctx) => {
    if (body.method === "kampanj" && !body.kampanj) {
      ctx.addIssue({ code: "custom", path: ["kampanj"], message: MSG.kampanj });
    }
  });

const payidParam = z.object({ payid: z.string().max(100).refine(isPaymentId, MSG.payid) });

boxOfficeRoutes.post("/admin/api/quickreg", validate("json", quickRegBody), async (c) => {
  const body = c.req.valid("json");
  const clock = c.var.clock;
  const age = ageFromInput(Number(body.age), clock.now());
  if (!isValidAge(age)) throw new ApiError(400, MSG.age, { age: MSG.age });
  const started = await startQuickReg(
    c.env,
    clock,
    {
      firstname: body.firstname,
      lastname: body.lastname,
      age,
      distance: toDistance(body.distance)!,
      group: body.group,
      phone: body.phone,
      bib: body.bib,
      method: body.method,
      kampanj: body.method === "kampanj" ? (body.kampanj ?? null) : null,
    },
    { actor: c.var.admin?.email ?? "okänd" },
    new URL(c.req.url).origin,
  );
  return c.json(started);
});

boxOfficeRoutes.get("/admin/api/quickreg/:payid", validate("param", payidParam), async (c) => {
  return c.json(await quickRegStatus(c.env, c.req.valid("param").payid));
});

boxOfficeRoutes.post("/admin/api/quickreg/:payid/cancel", validate("param", payidParam), async (c) => {
  return c.json(await cancelQuickReg(c.env, c.req.valid("param").payid));
});

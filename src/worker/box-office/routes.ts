/**
 * The box office ('Biljettkassan', admin spec §7: `POST /admin/api/quickreg` → `{token}`), a companion place for a
 * parent whose child registered online (`POST /admin/api/quickreg/companion`, the same answer), plus the page's
 * status poll and its cancel button. The admin guard (app.ts) lets only admins in, the same-origin guard only the site
 * itself. The rules of a sign-up live in src/worker/box-office/box-office.ts; this file validates and shapes the answers.
 * The sign-up's field rules are shared with the page (src/shared/box-office.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { ageFromInput, isValidAge } from "../../shared/age";
import { checkCompanionSale, checkQuickRegSale, QUICKREG_MSG, saleFieldKey } from "../../shared/box-office";
import { companionErrors } from "../../shared/companion";
import { isPaymentId } from "../../shared/payment-protocol";
import { BOX_OFFICE_MSG, cancelQuickReg, quickRegStatus, startBoxOfficeSale } from "./box-office";
import { startCompanionSale } from "./companion-sale";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { validate } from "../middleware/validate";

export const boxOfficeRoutes = new Hono<AppEnv>();

const payidParam = z.object({ payid: z.string().max(100).refine(isPaymentId, BOX_OFFICE_MSG.notBoxOffice) });

// The body is checked by checkQuickRegSale (the page runs the same check), which names every bad field: the
// spec's one runner, or a family (`runners`, one phone number, one payment).
const quickRegBody = z.unknown();

boxOfficeRoutes.post("/", validate("json", quickRegBody), async (c) => {
  const checked = checkQuickRegSale(c.req.valid("json"));
  if (!checked.ok) {
    const first = Object.values(checked.errors)[0] ?? QUICKREG_MSG.body;
    throw new ApiError(400, first, checked.errors);
  }
  const clock = c.var.clock;
  const runners = checked.value.runners.map((r, i) => {
    const age = ageFromInput(r.age, clock.now());
    if (!isValidAge(age)) throw new ApiError(400, QUICKREG_MSG.age, { [saleFieldKey(i, "age")]: QUICKREG_MSG.age });
    return { ...r, age };
  });
  // A companion (an adult, no bib) runs with a child of the same sale on the same distance (shared/companion.ts).
  const companions = companionErrors(runners.map((r, i) => ({ ...r, key: saleFieldKey(i, "companion") })));
  if (Object.keys(companions).length > 0) {
    throw new ApiError(400, Object.values(companions)[0]!, companions as Record<string, string>);
  }
  const started = await startBoxOfficeSale(
    c.env,
    clock,
    { ...checked.value, runners },
    { actor: c.var.admin?.email ?? "okänd" },
    new URL(c.req.url).origin,
  );
  return c.json(started);
});

// A companion place for a parent whose child registered online (./companion-sale.ts): checked by
// checkCompanionSale, which the page runs too.
boxOfficeRoutes.post("/companion", validate("json", quickRegBody), async (c) => {
  const checked = checkCompanionSale(c.req.valid("json"));
  if (!checked.ok) {
    const first = Object.values(checked.errors)[0] ?? QUICKREG_MSG.body;
    throw new ApiError(400, first, checked.errors);
  }
  const clock = c.var.clock;
  const age = ageFromInput(checked.value.age, clock.now());
  if (!isValidAge(age)) throw new ApiError(400, QUICKREG_MSG.age, { age: QUICKREG_MSG.age });
  const started = await startCompanionSale(
    c.env,
    clock,
    { ...checked.value, age },
    { actor: c.var.admin?.email ?? "okänd" },
    new URL(c.req.url).origin,
  );
  return c.json(started);
});

boxOfficeRoutes.get("/:payid", validate("param", payidParam), async (c) => {
  return c.json(await quickRegStatus(c.env, c.req.valid("param").payid));
});

boxOfficeRoutes.post("/:payid/cancel", validate("param", payidParam), async (c) => {
  return c.json(await cancelQuickReg(c.env, c.req.valid("param").payid));
});

/**
 * The visitor registration API (spec public-site §7): log in with an e-mailed code (/email, /code) or the
 * mail's one-time sign-in link (/login-link, ours: issue 43; session/login-codes-db.ts), read and
 * save the family's runner map (/get, /update), preview a campaign code (/validate-kampanj) and book the payment
 * (/book-v2). Paths are the spec's, at the root.
 *
 * Choices the spec leaves open:
 * - /code answers 204 (spec: "accepted with no body") when it has just created an empty registration for a new
 *   family, and 200 with the registration when the family already has one. A family that has none when
 *   registration is closed gets 403 and no session (there is nothing to show).
 * - /update takes the spec's plain `{runners}` and an optional `version`; a save based on an older version than
 *   the stored one is refused with 409 and the current registration, so two tabs never silently overwrite each
 *   other. Paid status is each runner's (issue 24; what a save may change: runner-changes.ts): while registration
 *   is open a paid runner can be edited (through its race object), never removed; runners are not added while a
 *   payment waits in Swish; a change to an unpaid runner withdraws the payment waiting for the old list.
 * - /book-v2 recomputes the counts and the price from the stored runners (DESIGN.md §5): it pays for the runners
 *   not paid yet (a late sibling after a first payment is a second payment on the same registration, at today's
 *   tier, a campaign code allowed), and first withdraws a Swish payment of the family that is still waiting, so
 *   booking again can never lead to paying twice. An unpaid adult running with a child whom a refund left without
 *   one (shared/companion.ts) is not paid for: 400 naming them, until the family removes or moves them.
 * - /cancel-payment withdraws the family's payment still waiting in Swish (so they can add a runner).
 *   A campaign code's use is claimed when the order is booked, once per registration, code and runners, and held
 *   while that order is open or paid (booking again for the same runners does not count twice, and keeps the use
 *   even when the code is used up since; a late sibling's order is for other runners and claims a use of its own);
 *   an order that ends unpaid gives it back, and the retry claims it again. A non-empty code that does not apply is
 *   a 400 at booking (the page sends an empty code once the preview said the code does not apply, as the spec
 *   treats a failed campaign as no discount). A family whose failed payment carried a capped code that has been
 *   used up since hears exactly that (`usedUp` in the preview, its own 400 message).
 */
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import type { AgeCounts } from "../../shared/age";
import { normalizeCode } from "../../shared/campaign";
import { listTotal } from "../../shared/pricing";
import type { RegistrationConflict } from "../../shared/api-answers";
import {
  checkRunnerMap,
  MAX_RUNNERS,
  RUNNER_MESSAGES,
  type CodeConfirmation,
  type RunnerUpdate,
} from "../../shared/registration-schema";
import { SEASON } from "../../shared/season";
import { isRegistrationOpen } from "../../shared/season-rules";
import { emailSender } from "../adapters/email";
import { builtinCampaigns } from "../campaigns/builtin-campaigns";
import { evaluateCampaign, registrationTriedCampaign } from "../campaigns/campaigns-db";
import { audit } from "../db/audit";
import { database } from "../db/client";
import {
  createLoginCode,
  deleteLoginCode,
  failuresLockedUntil,
  LOGIN_CODE_TTL_MS,
  newLinkToken,
  newLoginCode,
  useLoginCode,
  useLoginLink,
} from "../session/login-codes-db";
import { ensureRegistration, findRegistration, registrationRunners, unselectPayment } from "../db/registrations-db";
import { BOOKING_MSG, isUnpaid, priceOrder } from "./booking";
import { registrationView } from "./registration-view";
import {
  applyRunnerMap,
  CHANGE_MSG,
  companionErrorsOfSave,
  runnerMapChanges,
  touchesPaidRunner,
} from "./runner-changes";
import { loginCodeEmail, loginLinkUrl } from "../session/login-code-email";
import type { AppEnv } from "../env";
import { ApiError, badRequest, conflict, forbidden, tooMany, unauthorized } from "../lib/errors";
import { allowed, clientKey, visitorLimits } from "../middleware/rate-limit";
import { validate, wireSchema } from "../middleware/validate";
import { ALREADY_PAID, recordFreePayment, startSwishPayment, withdrawOpenPayments } from "../payments/payments";
import { startSession } from "../session/sessions";
import type { Booking, BookingRequest, CampaignCheck, CampaignResult, CodeRequest } from "../../shared/api-answers";

export const registrationRoutes = new Hono<AppEnv>();

const MSG = {
  ...BOOKING_MSG,
  invalidEmail: "Ogiltig e-postadress",
  notLoggedIn: "Inte inloggad",
  conflict: "Anmälan har ändrats i ett annat fönster. Listan har uppdaterats – gör din ändring igen.",
  runnerIdTaken:
    "Löparen hör till någon annan och kan inte sparas i din anmälan. Ladda om sidan och lägg till löparen igen.",
  wrongCode: "Fel kod. Kontrollera koden i mejlet och försök igen.",
  codeFormat: "Koden består av sex siffror. Kontrollera koden i mejlet och försök igen.",
  expired: "Koden har gått ut. Begär en ny kod.",
  unusable: "Koden kan inte användas längre. Begär en ny kod.",
  tooManyCodes: "För många försök. Vänta en minut och försök igen.",
  lockedOut: (minutes: number) =>
    `För många felaktiga koder för den här e-postadressen. Av säkerhetsskäl går det att logga in igen om ${minutesText(minutes)}.`,
  lockedOutLinkMailed: (minutes: number) =>
    `För många felaktiga koder för den här e-postadressen, så vi skickar ingen ny kod förrän om ${minutesText(minutes)}. Vi har i stället mejlat dig en inloggningslänk – öppna mejlet och logga in med länken.`,
  linkInvalid: "Inloggningslänken är ogiltig. Kontrollera att hela länken kom med, eller begär en ny kod.",
  linkExpired: "Inloggningslänken har gått ut. Begär en ny kod.",
  linkUsed: "Inloggningslänken har redan använts. Begär en ny kod om du behöver logga in igen.",
  tooManyMailed: (minutes: number) =>
    `Vi har redan skickat flera koder till den här e-postadressen. Använd koden i det senaste mejlet eller begär en ny om ${minutesText(minutes)}.`,
  mailFailed: "Kunde inte skicka mejlet med koden. Försök igen om en stund.",
  count: "Ange ett antal mellan 0 och " + MAX_RUNNERS,
  badCampaign: "Ogiltig kampanjkod",
  version: "Ogiltig version",
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

function minutesText(minutes: number): string {
  return minutes === 1 ? "en minut" : `${minutes} minuter`;
}

/** Whole minutes (at least one) until `retryAt`. */
function minutesUntil(retryAt: number, now: number): number {
  return Math.max(1, Math.ceil((retryAt - now) / 60_000));
}

/** The signed-in family's e-mail (`c.var.session` only ever holds a visitor session); 401 without one. */
function visitorEmail(c: Context<AppEnv>): string {
  const session = c.var.session;
  if (!session) throw unauthorized(MSG.notLoggedIn);
  return session.email;
}

/** Mounted before body validation, so a signed-out browser hears that first. */
const requireVisitor = createMiddleware<AppEnv>(async (c, next) => {
  visitorEmail(c);
  await next();
});

// ---------------------------------------------------------------------------------------------------------------
// Schemas

const email = z
  .string({ error: MSG.invalidEmail })
  .trim()
  .toLowerCase()
  .max(254, MSG.invalidEmail)
  .pipe(z.email({ error: MSG.invalidEmail }));

const emailBody = z.object({ email }, { error: MSG.invalidEmail });

const codeBody = wireSchema<CodeConfirmation>()(
  z.object(
    {
      email,
      codeId: z.string({ error: MSG.unusable }).min(1, MSG.unusable).max(100, MSG.unusable),
      // Spec: the code is sent as text; a number from an older client is taken too.
      code: z.union([z.string().max(20), z.number().int().nonnegative()], { error: MSG.codeFormat }).transform(String),
    },
    { error: "Ange e-postadress och koden från mejlet." },
  ),
);

const linkBody = z.object(
  { token: z.string({ error: MSG.linkInvalid }).max(200, MSG.linkInvalid) },
  { error: MSG.linkInvalid },
);

const updateBody = wireSchema<RunnerUpdate>()(
  z.object(
    {
      // Checked by checkRunnerMap below, which names the bad runner and field; a missing map is its error too.
      runners: z.unknown().optional(),
      version: z.number({ error: MSG.version }).int(MSG.version).min(0, MSG.version).optional(),
    },
    { error: RUNNER_MESSAGES.runners },
  ),
);

const count = z.number({ error: MSG.count }).int(MSG.count).min(0, MSG.count).max(MAX_RUNNERS, MSG.count);
const kampanj = z.string({ error: MSG.badCampaign }).max(40, MSG.badCampaign).optional().default("");

// medBarn: adults running with a child (shared/companion.ts), priced apart; absent means none.
const campaignBody = wireSchema<CampaignCheck>()(
  z.object({ kampanj, barn: count, vuxna: count, medBarn: count.optional() }, { error: MSG.badCampaign }),
);
const bookBody = wireSchema<BookingRequest>()(z.object({ kampanj, barn: count, vuxna: count }, { error: MSG.count }));

// ---------------------------------------------------------------------------------------------------------------
// Log in with an e-mailed code

registrationRoutes.post("/email", validate("json", emailBody), async (c) => {
  const { email } = c.req.valid("json");
  const client = clientKey(c);
  // Secondary: one client spraying many addresses. The address itself is limited in D1 (createLoginCode).
  if (!(await allowed(c.env.LOGIN_RL, `email-client:${client}`))) throw tooMany(MSG.tooManyCodes);

  const db = database(c.env.DB);
  const clock = c.var.clock;
  const now = clock.now();
  const code = newLoginCode();
  const linkToken = newLinkToken();
  const created = await createLoginCode(db, {
    id: crypto.randomUUID(),
    email,
    code,
    linkToken,
    now,
    clientKey: client,
    secret: c.env.SESSION_SECRET,
  });
  if (created.status === "locked") throw tooMany(MSG.lockedOut(minutesUntil(created.retryAt, now)));
  if (created.status === "too-many-codes") throw tooMany(MSG.tooManyMailed(minutesUntil(created.retryAt, now)));
  const { id } = created;
  // The link names the site the visitor uses in development (any local port), the configured one elsewhere.
  const origin = c.var.devMode ? new URL(c.req.url).origin : c.env.PUBLIC_ORIGIN;
  const link = loginLinkUrl(origin, linkToken);
  const mail = loginCodeEmail(created.status === "link-only" ? null : code, LOGIN_CODE_TTL_MS / 60_000, link);
  try {
    await emailSender(c.env, db, clock).send({ to: email, ...mail, kind: "login-code" });
  } catch (err) {
    console.error("login-code e-mail failed", err);
    // A code that was never mailed must not count towards the address's codes for the hour.
    await deleteLoginCode(db, id);
    throw new ApiError(502, MSG.mailFailed);
  }
  // Locked by wrong tries: no code to type, the page says to use the link just mailed.
  if (created.status === "link-only") throw tooMany(MSG.lockedOutLinkMailed(minutesUntil(created.retryAt, now)));
  // DESIGN.md §2: the code travels by e-mail alone, except in development where the page pre-fills it.
  return c.json({ id, code: c.var.devMode ? code : "" } satisfies CodeRequest);
});

registrationRoutes.post("/code", validate("json", codeBody), async (c) => {
  const body = c.req.valid("json");
  const code = body.code.trim();
  if (!/^\d{6}$/.test(code)) throw badRequest(MSG.codeFormat);
  // Secondary: one client guessing across addresses. The address itself is limited in D1 (useLoginCode).
  if (!(await allowed(c.env.LOGIN_RL, `code-client:${clientKey(c)}`))) throw tooMany(MSG.tooManyCodes);

  const db = database(c.env.DB);
  const now = c.var.clock.now();
  // A locked-out address hears so whatever code comes with it (the right one too), until the hour has passed.
  const locked = await failuresLockedUntil(db, body.email, now);
  if (locked !== null) throw tooMany(MSG.lockedOut(minutesUntil(locked, now)));
  const result = await useLoginCode(db, {
    id: body.codeId,
    email: body.email,
    code,
    now,
    secret: c.env.SESSION_SECRET,
  });
  switch (result.status) {
    case "ok":
      break;
    case "wrong":
      throw badRequest(MSG.wrongCode);
    case "expired":
      throw new ApiError(410, MSG.expired);
    case "unusable":
      throw badRequest(MSG.unusable);
    case "locked":
      throw tooMany(MSG.lockedOut(minutesUntil(result.retryAt, now)));
  }

  return signedIn(c, db, body.email, now);
});

/**
 * The mail's sign-in link (ours, issue 43): the page /anmalan/lank?t=… shows a 'Logga in' button that POSTs the
 * token here; opening the link signs no one in (mail scanners open links). Answers as /code does. The token is
 * used once (a second tab or a replay gets 400 'redan använts'), works while the address's codes are locked by
 * wrong tries and after newer codes were requested; 256 random bits, so guessing needs no per-address bound, and
 * the client limit keeps a sprayer from loading D1.
 */
registrationRoutes.post("/login-link", validate("json", linkBody), async (c) => {
  const { token } = c.req.valid("json");
  if (!(await allowed(c.env.LOGIN_RL, `link-client:${clientKey(c)}`))) throw tooMany(MSG.tooManyCodes);
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const result = await useLoginLink(db, { token: token.trim(), now, secret: c.env.SESSION_SECRET });
  switch (result.status) {
    case "ok":
      return signedIn(c, db, result.email, now);
    case "invalid":
      throw badRequest(MSG.linkInvalid);
    case "expired":
      throw new ApiError(410, MSG.linkExpired);
    case "used":
      throw badRequest(MSG.linkUsed);
  }
});

/**
 * After a right code or link: a visitor session and the family's registration (200), or 204 when an empty one was
 * just created. A family that has none when registration is closed gets 403 and no session.
 */
async function signedIn(c: Context<AppEnv>, db: ReturnType<typeof database>, email: string, now: number) {
  const existing = await findRegistration(db, SEASON.year, email);
  if (!existing && !isRegistrationOpen(now)) throw forbidden(MSG.closed);
  await startSession(c, "visitor", email);
  if (existing) return c.json(await registrationView(db, email, existing, now));
  const { registration, created } = await ensureRegistration(db, SEASON.year, email, now);
  if (created) return c.body(null, 204);
  return c.json(await registrationView(db, email, registration, now));
}

// ---------------------------------------------------------------------------------------------------------------
// The family's runners

registrationRoutes.get("/get", requireVisitor, async (c) => {
  const email = visitorEmail(c);
  const db = database(c.env.DB);
  const registration = await findRegistration(db, SEASON.year, email);
  c.header("cache-control", "no-store");
  return c.json(await registrationView(db, email, registration, c.var.clock.now()));
});

registrationRoutes.post("/update", requireVisitor, visitorLimits("update"), validate("json", updateBody), async (c) => {
  const email = visitorEmail(c);
  const body = c.req.valid("json");
  const now = c.var.clock.now();
  // The companions' need of a child is checked against what is stored, below.
  const checked = checkRunnerMap(body.runners, now, SEASON, { familyRule: false });
  if (!checked.ok) {
    const first = Object.values(checked.errors)[0] ?? RUNNER_MESSAGES.runners;
    throw new ApiError(400, first, checked.errors);
  }

  const db = database(c.env.DB);
  const existing = await findRegistration(db, SEASON.year, email);
  const stored = existing ? await registrationRunners(db, existing.id) : [];
  // A companion needs a child on its distance, and a deregistered child runs no more (shared/companion.ts): only
  // what is stored tells which child a refund took out, and which companion it left without one already.
  const companions = companionErrorsOfSave(stored, checked.value);
  if (companions) throw new ApiError(400, Object.values(companions)[0]!, companions);
  if (!isRegistrationOpen(now)) {
    throw forbidden(touchesPaidRunner(stored, checked.value) ? CHANGE_MSG.closedPaid : MSG.closed);
  }
  const registration = existing ?? (await ensureRegistration(db, SEASON.year, email, now)).registration;
  const expectedVersion = body.version ?? registration.version;
  const conflictAnswer = async (error: string = MSG.conflict) =>
    c.json(
      {
        error,
        registration: await registrationView(db, email, await findRegistration(db, SEASON.year, email), now),
      } satisfies RegistrationConflict,
      409,
    );
  if (expectedVersion !== registration.version) return conflictAnswer();

  const saved = await applyRunnerMap(c.env, db, {
    registration,
    stored,
    changes: runnerMapChanges(stored, checked.value),
    runners: checked.value,
    expectedVersion,
    now,
  });
  switch (saved.status) {
    case "saved":
      return c.json(await registrationView(db, email, await findRegistration(db, SEASON.year, email), now));
    case "conflict":
      return conflictAnswer();
    case "paid-meanwhile":
      return conflictAnswer(CHANGE_MSG.paidMeanwhile);
    case "taken": {
      // Ids are public (every `sort`): a save naming one another registration, the box office or a race made is
      // someone's attempt to take that runner over, or a broken page. Nothing was written; the organisers can see it.
      await audit(
        db,
        { actor: email, action: "registration.runner-id-taken", subject: registration.id, detail: { ids: saved.ids } },
        now,
      );
      throw new ApiError(409, MSG.runnerIdTaken, Object.fromEntries(saved.ids.map((id) => [id, MSG.runnerIdTaken])));
    }
  }
});

/**
 * Withdraws the family's payment still waiting in Swish (the page's 'Avbryt betalningen'), so runners can be added
 * again. Swish decides: one it reports paid stays paid (409, the page reloads and shows it). Answers the
 * registration; with nothing waiting it changes nothing.
 */
registrationRoutes.post("/cancel-payment", requireVisitor, visitorLimits("update"), async (c) => {
  const email = visitorEmail(c);
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const registration = await findRegistration(db, SEASON.year, email);
  if (registration && (await withdrawOpenPayments(c.env, db, registration.id)) > 0) {
    // As a runner save that withdraws one: the family's own withdrawal is no failed payment to show.
    await unselectPayment(db, registration.id, registration.payid);
  }
  return c.json(await registrationView(db, email, await findRegistration(db, SEASON.year, email), now));
});

// ---------------------------------------------------------------------------------------------------------------
// Campaign codes and booking

/**
 * A campaign-code look-up may go ahead: per client (KAMPANJ_RL) and across all clients under one key
 * (KAMPANJ_ALL_RL, issue 43), so words guessed from many addresses at once are bounded per minute too. Every
 * look-up counts, right or wrong: refusing only after misses would still answer a right guess, and the bound is
 * far above what families type. Both bindings count per Cloudflare location, so the bound is per location.
 */
async function campaignLookupAllowed(c: Context<AppEnv>): Promise<boolean> {
  // One client past its own limit does not spend the shared budget.
  return (await allowed(c.env.KAMPANJ_RL, `kampanj:${clientKey(c)}`)) && allowed(c.env.KAMPANJ_ALL_RL, "kampanj");
}

registrationRoutes.post("/validate-kampanj", validate("json", campaignBody), async (c) => {
  const body = c.req.valid("json");
  const code = normalizeCode(body.kampanj);
  const counts: AgeCounts = { barn: body.barn, vuxna: body.vuxna, medBarn: body.medBarn ?? 0 };
  const now = c.var.clock.now();
  if (code === "") return c.json({ valid: false, price: listTotal(counts, now) } satisfies CampaignResult);
  // Every looked-up code counts, valid or not: limiting only the misses would still answer a guess.
  if (!(await campaignLookupAllowed(c))) throw tooMany(MSG.tooManyCampaign);
  const db = database(c.env.DB);
  // A logged-in family whose open order holds a capped code keeps it for the runners it has not paid for yet (the
  // preview must match what booking does).
  const session = c.var.session;
  const registration = session ? await findRegistration(db, SEASON.year, session.email) : null;
  const { valid, price, usedUp } = await evaluateCampaign(db, code, counts, now, {
    builtins: builtinCampaigns(c.env),
    holder: registration
      ? { registrationId: registration.id, runnerIds: unpaidRunners(await registrationRunners(db, registration.id)) }
      : null,
  });
  // Only a family that booked with the code (its payment then failed) learns that the code exists but is used up.
  if (usedUp && registration && (await registrationTriedCampaign(db, registration.id, code))) {
    return c.json({ valid, price, usedUp: true } satisfies CampaignResult);
  }
  return c.json({ valid, price } satisfies CampaignResult);
});

function unpaidRunners(runners: { id: string; paidBy: string | null; deregisteredAt: number | null }[]): string[] {
  return runners.filter(isUnpaid).map((r) => r.id);
}

function paymentMessage(counts: AgeCounts): string {
  // Swish's message field: at most 50 characters from a small character set (letters, digits, ':;.,?!()').
  const adults = counts.vuxna === 1 ? "1 vuxen" : `${counts.vuxna} vuxna`;
  const companions = counts.medBarn ? `, ${counts.medBarn} med barn` : "";
  return `${SEASON.siteName} ${SEASON.year}: ${counts.barn} barn, ${adults}${companions}`.slice(0, 50);
}

registrationRoutes.post("/book-v2", requireVisitor, visitorLimits("book"), validate("json", bookBody), async (c) => {
  const clock = c.var.clock;
  const db = database(c.env.DB);
  // Which runners, at what price, with which campaign code: the registration's booking service (booking.ts).
  const { registration, counts, campaign, price, participantIds, runnerPrices, free } = await priceOrder(db, {
    email: visitorEmail(c),
    request: c.req.valid("json"),
    now: clock.now(),
    builtins: builtinCampaigns(c.env),
    campaignLookupAllowed: () => campaignLookupAllowed(c),
  });

  // What the runners and the price were read at: the order is only written if neither a runner save nor another
  // booking (free or Swish) got in between, and the campaign code's use is claimed in the same transaction
  // (payments.ts writeOrder), so a code used up, disabled or expired at this moment changes nothing here.
  const expected = { payid: registration.payid, version: registration.version };
  try {
    if (free) {
      const payid = await recordFreePayment(c.env, clock, {
        registrationId: registration.id,
        season: SEASON.year,
        kampanj: campaign?.code ?? null,
        barn: counts.barn,
        vuxna: counts.vuxna,
        participantIds,
        runnerPrices,
        expected,
      });
      return c.json({ token: "kampanj", payref: payid, amount: 0 } satisfies Booking);
    }
    // Withdraws the family's payment still waiting in the Swish app first (it would let them pay twice).
    const { payid, token } = await startSwishPayment(c.env, clock, {
      registrationId: registration.id,
      season: SEASON.year,
      amount: price,
      barn: counts.barn,
      vuxna: counts.vuxna,
      kampanj: campaign?.code ?? null,
      participantIds,
      runnerPrices,
      origin: "registration",
      message: paymentMessage(counts),
      requestOrigin: new URL(c.req.url).origin,
      expected,
    });
    return c.json({ token, payref: payid, amount: price } satisfies Booking);
  } catch (err) {
    // The payment waiting in Swish turned out to be paid (it has settled now): when it covered every runner left,
    // there is nothing more to book.
    if (err instanceof ApiError && err.message === ALREADY_PAID) {
      const left = (await registrationRunners(db, registration.id)).filter((r) => r.paidBy === null);
      if (left.length === 0) throw conflict(MSG.allPaid);
    }
    throw err;
  }
});

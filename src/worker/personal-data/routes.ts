/**
 * Personal data on request (admin only; the admin guard in app.ts covers /admin/api/*). A person is an e-mail
 * address (a family), or box-office runners, who have no address: found by phone number (every runner signed up
 * with it) or picked by id from a search by name:
 * - GET  /admin/api/personal-data?email=… | ?phone=… | ?runner=…   what is stored, summed up;
 * - GET  /admin/api/personal-data/export?…                         all of it as one JSON file (attachment), with what
 *   the race objects hold (bib, finish, the race-day log lines, review items and finish photos about each runner);
 * - POST /admin/api/personal-data/erase {email | phone | runner, confirm}  erasure; `confirm` is the same typed again;
 * - GET  /admin/api/personal-data/box-office?q=…                   box-office runners by phone number or name.
 *
 * Erasure, in this order (personal-data-db.ts and each resource's erasure function say what happens to each row):
 * 1. nothing stored → 404; a payment still waiting in Swish → 409; nothing changes either way;
 * 2. the person's runners are anonymised in every race object of their season (the only writers of race-day
 *    state), ended races and races a runner left by a change of distance included, through their
 *    `anonymiseRunner` RPC, which also rewrites the race-day log and the review items. A failure stops here with
 *    502 and D1 untouched; repeating is harmless;
 * 3. one D1 batch anonymises/deletes everything else and writes the audit line; it aborts whole (409) if a
 *    payment was started meanwhile;
 * 4. the races once more (a runner moved between races during step 2 is caught; a failure is only logged).
 * Two admins erasing the same person at once: both rename in the races (the same names, harmless); in D1 the
 * second batch finds nothing left by the address and changes nothing but its own audit line. A family saving in
 * another tab while it is erased: a runner it adds after step 2 is in D1 under the address, so the D1 batch
 * anonymises it there, and its race (if it was paid meanwhile) keeps it until the erasure is repeated, which then
 * finds it again by the address (the answer's counts show what was done). A box-office sale with the same number
 * made after the lookup is not part of the erasure; erasing the number again finds it.
 * A repeated erasure finds nothing (404). Export and erasure are audited with the admin as actor and the person
 * only as the SHA-256 of the address or phone digits (`sha256:<hex>`), so the audit trail keeps no personal data.
 */
import type { ErasedCounts } from "../../shared/personal-data";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { phoneDigits } from "../../shared/box-office";
import { photoUrl } from "../../shared/finish-photos";
import { boxOfficeRunnersByName, boxOfficeRunnersByPhone } from "../box-office/box-office-db";
import { adminDevice } from "../session/admin-sign-in";
import { audit } from "../db/audit";
import { database } from "../db/client";
import type { ErasureScope } from "../db/erasure";
import {
  ANONYMOUS_RUNNER,
  emailHash,
  erasePersonalData,
  hasOpenPayment,
  isEmpty,
  scopeOf,
  storedPersonalData,
  type PersonKey,
  type StoredPersonalData,
} from "./personal-data-db";
import type { AppEnv } from "../env";
import { ApiError, conflict, notFound } from "../lib/errors";
import { validate } from "../middleware/validate";
import { eraseFromRaces, raceDayHistory, type StoredRunner } from "../race-day/race-runners";
import type {
  BoxOfficeRunnersAnswer,
  ErasedAnswer,
  PersonalDataSummary,
  StoredRunner as SummaryRunner,
} from "../../shared/personal-data";

export const personalDataRoutes = new Hono<AppEnv>();

const MSG = {
  email: "Ange en giltig e-postadress.",
  phone: "Ange ett telefonnummer med minst 7 siffror.",
  runner: "Ange en löpare från biljettkassan.",
  one: "Ange antingen en e-postadress, ett telefonnummer eller en löpare – inte flera.",
  confirm: "Skriv e-postadressen en gång till för att bekräfta raderingen.",
  confirmPhone: "Skriv telefonnumret en gång till för att bekräfta raderingen.",
  confirmRunner: "Bekräfta raderingen med löparens id.",
  body: "Ange e-postadressen och bekräftelsen.",
  query: "Skriv ett telefonnummer eller ett namn att söka efter.",
  nothing: (who: string) => `Inget finns sparat om ${who}.`,
  openPayment:
    "Familjen har en Swish-betalning som inte är avslutad. Vänta tills den är betald eller avbruten (högst några minuter) och försök igen.",
  race: "Kunde inte anonymisera löparen i loppen. Inget har raderats – försök igen om en stund.",
} as const;

const email = z
  .string({ error: MSG.email })
  .trim()
  .toLowerCase()
  .max(254, MSG.email)
  .pipe(z.email({ error: MSG.email }));
const phone = z
  .string({ error: MSG.phone })
  .trim()
  .max(40, MSG.phone)
  .refine((s) => phoneDigits(s) !== null, MSG.phone);
const runner = z.string({ error: MSG.runner }).trim().min(1, MSG.runner).max(100, MSG.runner);

/** Exactly one of email, phone, runner; without phone and runner the address is what is missing. */
function personSchema<T extends z.ZodRawShape>(extra: T) {
  return z
    .object({ email: z.unknown().optional(), phone: z.unknown().optional(), runner: z.unknown().optional(), ...extra })
    .superRefine((parsed, ctx) => {
      const value = parsed as { email?: unknown; phone?: unknown; runner?: unknown };
      const given = (["email", "phone", "runner"] as const).filter((k) => value[k] !== undefined);
      if (given.length > 1) ctx.addIssue({ code: "custom", message: MSG.one, path: [given[1]!] });
      const key = given[0] ?? "email";
      const schema = key === "phone" ? phone : key === "runner" ? runner : email;
      const checked = schema.safeParse(value[key]);
      if (!checked.success) ctx.addIssue({ code: "custom", message: checked.error.issues[0]!.message, path: [key] });
    });
}

function personKey(value: { email?: unknown; phone?: unknown; runner?: unknown }): PersonKey {
  if (value.phone !== undefined) return { phone: phone.parse(value.phone) };
  if (value.runner !== undefined) return { runner: runner.parse(value.runner) };
  return { email: email.parse(value.email) };
}

/** How the person is named in messages, and what the audit trail hashes (never the text itself). */
function personText(key: PersonKey): string {
  return "email" in key ? key.email : "phone" in key ? key.phone : key.runner;
}
function hashedText(key: PersonKey): string {
  return "email" in key ? key.email : "phone" in key ? `tel:${phoneDigits(key.phone)}` : `lopare:${key.runner}`;
}

const personQuery = personSchema({});
const eraseBody = z
  .object({}, { error: MSG.body })
  .passthrough()
  .pipe(personSchema({ confirm: z.unknown().optional() }));
const searchQuery = z.object({ q: z.string({ error: MSG.query }).trim().min(2, MSG.query).max(100, MSG.query) });

function adminEmail(c: Context<AppEnv>): string {
  return c.var.admin?.email ?? "okänd";
}

/** Columns holding epoch ms; the export writes them as ISO 8601 (UTC). */
const TIME_COLUMNS = new Set([
  "created_at",
  "mailed_at",
  "updated_at",
  "date_created",
  "date_paid",
  "settled_at",
  "expires_at",
  "used_at",
  "replaced_at",
  "revoked_at",
  "claimed_at",
  "sent_at",
  "valid_until",
  "added_at",
  "mailing_created_at",
  "at",
]);

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
}

/** A D1 row as the export writes it: camelCase keys, times as ISO strings, an audit detail as JSON. */
function exported(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (TIME_COLUMNS.has(key) && typeof value === "number") out[camel(key)] = new Date(value).toISOString();
    else if (key === "detail" && typeof value === "string") out.detail = parseJson(value);
    else out[camel(key)] = value;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function counts(data: StoredPersonalData) {
  return {
    registrations: data.registrations.length,
    runners: data.participants.length,
    payments: data.payments.length,
    refunds: data.refunds.length,
    emails: data.emails.length,
    loginCodes: data.loginCodes.length,
    loginFailures: data.loginFailures.length,
    sessions: data.sessions.length,
    unsubscribes: data.unsubscribes.length,
    mailings: data.mailings.length,
    epassiInvitations: data.epassiInvitations.length,
    campaignCodes: data.campaignCodes.length,
    auditRows: data.audit.length,
  };
}

async function found(c: Context<AppEnv>, key: PersonKey): Promise<{ scope: ErasureScope; data: StoredPersonalData }> {
  const db = database(c.env.DB);
  const scope = await scopeOf(db, key);
  const data = await storedPersonalData(db, scope);
  if (isEmpty(data)) throw notFound(MSG.nothing(personText(key)));
  return { scope, data };
}

/** The person's runners as the race objects are asked about them. */
function storedRunners(data: StoredPersonalData): StoredRunner[] {
  return data.participants.map((p) => ({
    id: String(p.id),
    season: Number(p.season),
    race_id: typeof p.race_id === "string" ? p.race_id : null,
  }));
}

/** D1's row as the summary shows it (the columns are NOT NULL but race_id: the values pass as they are). */
function summaryRunner(p: Record<string, unknown>): SummaryRunner {
  return {
    firstname: String(p.firstname),
    lastname: String(p.lastname),
    age: Number(p.age),
    distance: String(p.distance),
    race: typeof p.race_id === "string" ? p.race_id : null,
  };
}

const textOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

personalDataRoutes.get("/", validate("query", personQuery), async (c) => {
  const key = personKey(c.req.valid("query"));
  const { data } = await found(c, key);
  // Paid: the registration has a PAID payment (a family that added a runner after paying has two).
  const paid = new Set(data.payments.filter((p) => p.status === "PAID").map((p) => p.registration_id));
  c.header("cache-control", "no-store");
  return c.json({
    email: "email" in key ? key.email : null,
    ...("email" in key ? {} : { phone: "phone" in key ? key.phone : null }),
    registrations: data.registrations.map((r) => ({
      season: Number(r.season),
      payid: textOrNull(r.payid),
      paid: paid.has(r.id),
      runners: data.participants.filter((p) => p.registration_id === r.id).map(summaryRunner),
    })),
    ...("email" in key
      ? {}
      : {
          boxOffice: data.participants
            .filter((p) => p.registration_id === null)
            .map((p) => ({
              id: String(p.id),
              season: Number(p.season),
              phone: textOrNull(p.phone),
              ...summaryRunner(p),
            })),
        }),
    counts: counts(data),
    openPayment: hasOpenPayment(data),
    admin: data.admins.length > 0,
  } satisfies PersonalDataSummary);
});

personalDataRoutes.get("/box-office", validate("query", searchQuery), async (c) => {
  const q = c.req.valid("query").q;
  const db = database(c.env.DB);
  const rows = phoneDigits(q) !== null ? await boxOfficeRunnersByPhone(db, q) : await boxOfficeRunnersByName(db, q);
  c.header("cache-control", "no-store");
  return c.json({
    runners: rows.map((r) => ({
      id: r.id,
      season: r.season,
      firstname: r.firstname,
      lastname: r.lastname,
      age: r.age,
      distance: r.distance,
      phone: r.phone,
      race: r.race_id,
    })),
  } satisfies BoxOfficeRunnersAnswer);
});

personalDataRoutes.get("/export", validate("query", personQuery), async (c) => {
  const key = personKey(c.req.valid("query"));
  const { data } = await found(c, key);
  const now = c.var.clock.now();
  const db = database(c.env.DB);
  const raceDay = await raceDayHistory(c.env, db, storedRunners(data));
  const refundsOf = (payid: unknown) => data.refunds.filter((r) => r.payid === payid).map(exported);
  const paymentsOf = (rows: Record<string, unknown>[]) =>
    rows.map((p) => ({ ...exported(p), refunds: refundsOf(p.id) }));
  const file = {
    exportedAt: new Date(now).toISOString(),
    email: "email" in key ? key.email : null,
    ...("email" in key ? {} : { phone: "phone" in key ? key.phone : null }),
    registrations: data.registrations.map((r) => ({
      ...exported(r),
      deltagare: data.participants.filter((p) => p.registration_id === r.id).map(exported),
      payments: paymentsOf(data.payments.filter((p) => p.registration_id === r.id)),
      resultsMails: data.resultsMails
        .filter((m) => m.registration_id === r.id)
        .map((m) => ({ ...exported(m), results: parseJson(String(m.results)) })),
    })),
    boxOffice: {
      runners: data.participants.filter((p) => p.registration_id === null).map(exported),
      payments: paymentsOf(data.payments.filter((p) => p.registration_id === null)),
    },
    // What the race objects hold about each runner: its record (bib, finish), the race-day log lines about it
    // (values as they were at the time), the review items made from taps on it, and its finish photos.
    raceDay: raceDay.map((h) => ({
      runnerId: h.runnerId,
      race: h.part,
      runner: h.runner,
      log: h.events.map((e) => ({
        seq: e.seq,
        type: e.type,
        at: new Date(e.at).toISOString(),
        actor: e.actor,
        device: e.device,
        detail: parseJson(e.payload),
      })),
      review: h.reviews,
      // Målfoto: the finish photos of the taps paired with the runner (admin addresses; deleted by the erasure).
      photos: h.photos.map((p) => ({
        tap: p.id,
        at: new Date(p.at).toISOString(),
        device: p.device,
        frames: p.frames.map((frame) => ({ frame, address: photoUrl(h.part, p.id, frame) })),
      })),
    })),
    emails: data.emails.map(exported),
    loginCodes: data.loginCodes.map(exported),
    loginFailures: data.loginFailures.map(exported),
    sessions: data.sessions.map(exported),
    unsubscribed: data.unsubscribes.map(exported)[0] ?? null,
    mailings: data.mailings.map(exported),
    epassiInvitations: data.epassiInvitations.map(exported),
    campaignCodes: data.campaignCodes.map(exported),
    admin: data.admins.length > 0,
    audit: data.audit.map(exported),
  };
  await audit(
    db,
    {
      actor: adminEmail(c),
      device: adminDevice(c),
      action: "personal-data.export",
      subject: await emailHash(hashedText(key)),
      detail: { ...counts(data), raceDay: raceDay.length },
    },
    now,
  );
  const date = file.exportedAt.slice(0, 10);
  const name = `personuppgifter-${personText(key)
    .toLowerCase()
    .replace(/[^a-z0-9@._-]/g, "_")}-${date}.json`;
  c.header("content-disposition", `attachment; filename="${name}"`);
  c.header("cache-control", "no-store");
  return c.json(file);
});

function confirmed(key: PersonKey, given: unknown): boolean {
  if (typeof given !== "string" || given.length > 254) return false;
  const confirm = given.trim();
  if ("email" in key) return confirm.toLowerCase() === key.email;
  if ("phone" in key) return phoneDigits(confirm) === phoneDigits(key.phone);
  return confirm === key.runner;
}

personalDataRoutes.post("/erase", validate("json", eraseBody), async (c) => {
  const body = c.req.valid("json");
  const key = personKey(body);
  if (!confirmed(key, body.confirm)) {
    const message = "email" in key ? MSG.confirm : "phone" in key ? MSG.confirmPhone : MSG.confirmRunner;
    throw new ApiError(400, message, { confirm: message });
  }
  const { scope, data } = await found(c, key);
  if (hasOpenPayment(data)) throw conflict(MSG.openPayment);

  const db = database(c.env.DB);
  const actor = adminEmail(c);
  const device = adminDevice(c);
  let raceRunners: number;
  try {
    raceRunners = await eraseFromRaces(c.env, db, storedRunners(data), ANONYMOUS_RUNNER, { actor });
  } catch (err) {
    console.error("personal data: race runner anonymisation failed", err);
    throw new ApiError(502, MSG.race);
  }

  const now = c.var.clock.now();
  const result = await erasePersonalData(db, scope, data, {
    actor,
    device,
    hash: await emailHash(hashedText(key)),
    now,
    detail: { ...counts(data), raceRunners },
  });
  if (result.status === "open-payment") throw conflict(MSG.openPayment);
  // Once more in the races, now that D1 names nobody and the family is signed out: a change of distance (the
  // family's, an admin's, the alarm finishing one) that carried the runner into a race the first pass had already
  // asked is caught here. A failure now is only logged: D1 is erased and the address no longer finds the runners.
  try {
    await eraseFromRaces(c.env, db, storedRunners(data), ANONYMOUS_RUNNER, { actor });
  } catch (err) {
    console.error("personal data: second race pass failed", err);
  }
  const erased: ErasedCounts = { ...result.counts, raceRunners };
  return c.json({ erased } satisfies ErasedAnswer);
});

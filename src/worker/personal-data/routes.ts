/**
 * Personal data on request (admin only; the admin guard in app.ts covers /admin/api/*):
 * - GET  /admin/api/personal-data?email=…         what is stored about the address, summed up;
 * - GET  /admin/api/personal-data/export?email=…  all of it as one JSON file (attachment);
 * - POST /admin/api/personal-data/erase {email, confirm}  erasure; `confirm` is the address typed again.
 *
 * Erasure, in this order (personal-data-db.ts has what happens to each kind of row):
 * 1. nothing stored → 404; a payment still waiting in Swish → 409; nothing changes either way;
 * 2. the address's runners in races not yet ended are anonymised in the race objects (the only writers of
 *    race-day state) through their `anonymiseRunner` RPC, which also rewrites their race-day log. A failure
 *    stops here with 502 and D1 untouched; repeating is harmless (the runner is renamed to the same again);
 * 3. one D1 batch anonymises/deletes everything else and writes the audit line; it aborts whole (409) if a
 *    payment was started meanwhile.
 * A repeated erasure finds nothing (404). Export and erasure are audited with the admin as actor and the address
 * only as its SHA-256 (`sha256:<hex>`), so the audit trail keeps no personal data of an erased family.
 */
import type { ErasedCounts } from "../../shared/personal-data";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { isRaceError } from "../../shared/race-protocol";
import { adminDevice } from "../session/admin-sign-in";
import { audit } from "../db/audit";
import { database } from "../db/client";
import {
  ANONYMOUS_RUNNER,
  emailHash,
  erasePersonalData,
  hasOpenPayment,
  isEmpty,
  runnersInOpenRaces,
  storedPersonalData,
  type StoredPersonalData,
} from "./personal-data-db";
import type { AppEnv } from "../env";
import { ApiError, conflict, notFound } from "../lib/errors";
import { validate } from "../middleware/validate";
import { raceStub } from "../race-day/race-runners";

export const personalDataRoutes = new Hono<AppEnv>();

const MSG = {
  email: "Ange en giltig e-postadress.",
  confirm: "Skriv e-postadressen en gång till för att bekräfta raderingen.",
  body: "Ange e-postadressen och bekräftelsen.",
  nothing: (email: string) => `Inget finns sparat om ${email}.`,
  openPayment:
    "Familjen har en Swish-betalning som inte är avslutad. Vänta tills den är betald eller avbruten (högst några minuter) och försök igen.",
  race: (part: string) =>
    `Kunde inte anonymisera löparen i loppet ${part}. Inget har raderats – försök igen om en stund.`,
} as const;

const email = z
  .string({ error: MSG.email })
  .trim()
  .toLowerCase()
  .max(254, MSG.email)
  .pipe(z.email({ error: MSG.email }));

const emailQuery = z.object({ email }, { error: MSG.email });
const eraseBody = z.object(
  { email, confirm: z.string({ error: MSG.confirm }).trim().toLowerCase().max(254, MSG.confirm) },
  { error: MSG.body },
);

function adminEmail(c: Context<AppEnv>): string {
  return c.var.admin?.email ?? "okänd";
}

/** Columns holding epoch ms; the export writes them as ISO 8601 (UTC). */
const TIME_COLUMNS = new Set([
  "created_at",
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

async function found(c: Context<AppEnv>, address: string): Promise<StoredPersonalData> {
  const data = await storedPersonalData(database(c.env.DB), address);
  if (isEmpty(data)) throw notFound(MSG.nothing(address));
  return data;
}

personalDataRoutes.get("/admin/api/personal-data", validate("query", emailQuery), async (c) => {
  const address = c.req.valid("query").email;
  const data = await found(c, address);
  // Paid: the registration has a PAID payment (a family that added a runner after paying has two).
  const paid = new Set(data.payments.filter((p) => p.status === "PAID").map((p) => p.registration_id));
  c.header("cache-control", "no-store");
  return c.json({
    email: address,
    registrations: data.registrations.map((r) => ({
      season: r.season,
      payid: r.payid,
      paid: paid.has(r.id),
      runners: data.participants
        .filter((p) => p.registration_id === r.id)
        .map((p) => ({
          firstname: p.firstname,
          lastname: p.lastname,
          age: p.age,
          distance: p.distance,
          race: p.race_id,
        })),
    })),
    counts: counts(data),
    openPayment: hasOpenPayment(data),
    admin: data.admins.length > 0,
  });
});

personalDataRoutes.get("/admin/api/personal-data/export", validate("query", emailQuery), async (c) => {
  const address = c.req.valid("query").email;
  const data = await found(c, address);
  const now = c.var.clock.now();
  const refundsOf = (payid: unknown) => data.refunds.filter((r) => r.payid === payid).map(exported);
  const file = {
    exportedAt: new Date(now).toISOString(),
    email: address,
    registrations: data.registrations.map((r) => ({
      ...exported(r),
      deltagare: data.participants.filter((p) => p.registration_id === r.id).map(exported),
      payments: data.payments
        .filter((p) => p.registration_id === r.id)
        .map((p) => ({ ...exported(p), refunds: refundsOf(p.id) })),
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
  const db = database(c.env.DB);
  await audit(
    db,
    {
      actor: adminEmail(c),
      device: adminDevice(c),
      action: "personal-data.export",
      subject: await emailHash(address),
      detail: counts(data),
    },
    now,
  );
  const date = file.exportedAt.slice(0, 10);
  const name = `personuppgifter-${address.replace(/[^a-z0-9@._-]/g, "_")}-${date}.json`;
  c.header("content-disposition", `attachment; filename="${name}"`);
  c.header("cache-control", "no-store");
  return c.json(file);
});

personalDataRoutes.post("/admin/api/personal-data/erase", validate("json", eraseBody), async (c) => {
  const body = c.req.valid("json");
  if (body.confirm !== body.email) throw new ApiError(400, MSG.confirm, { confirm: MSG.confirm });
  const address = body.email;
  const data = await found(c, address);
  if (hasOpenPayment(data)) throw conflict(MSG.openPayment);

  const db = database(c.env.DB);
  const actor = adminEmail(c);
  const device = adminDevice(c);
  const inRaces = await runnersInOpenRaces(db, address);
  let raceRunners = 0;
  for (const { id, part } of inRaces) {
    try {
      const stub = raceStub(c.env, part);
      await stub.anonymiseRunner(id, ANONYMOUS_RUNNER, { actor });
      raceRunners++;
    } catch (err) {
      // Not in that race any more (moved or removed): nothing of it to anonymise there.
      if (isRaceError(err) && err.status === 404) continue;
      console.error("personal data: race runner anonymisation failed", part, err);
      throw new ApiError(502, MSG.race(part));
    }
  }

  const now = c.var.clock.now();
  const result = await erasePersonalData(db, address, data.campaignCodes, {
    actor,
    device,
    hash: await emailHash(address),
    now,
    detail: { ...counts(data), raceRunners },
  });
  if (result.status === "open-payment") throw conflict(MSG.openPayment);
  const erased: ErasedCounts = { ...result.counts, raceRunners };
  return c.json({ erased });
});

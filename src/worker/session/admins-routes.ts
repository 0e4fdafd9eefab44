/**
 * The admins screen's calls (/admin/behorigheter, issue 43), an organiser's alone (middleware/route-roles.ts):
 * - GET /admin/api/admins: every admin, ADMIN_EMAILS first (`fixed`: always organisers), then the table's;
 * - POST /admin/api/admins {email, role}: adds a person as 'volunteer' (Funktionär) or 'organiser' (Arrangör);
 * - POST /admin/api/admins/change-role {email, role}; POST /admin/api/admins/remove {email}.
 * Each change is audited ('admin.add', 'admin.change-role' with the role before, 'admin.remove') in the same D1 batch
 * as the change (admins-db.ts). Refused, with nothing written: a malformed address or an unknown role (400), an
 * address in ADMIN_EMAILS (409: always an organiser, never changed here), the organiser's own address (409: nobody
 * demotes or removes themselves, so the club always keeps the organiser who is acting), an address already an admin
 * (409) or not one (404), and an actor who is no longer an organiser when the batch runs (403, as the role middleware
 * says it).
 *
 * While the person is signed in: a changed role counts from their next request (the session middleware reads the
 * role from D1 for every call an organiser alone may make; the race screen's calls, which both roles may make, may
 * use an isolate's check of up to 30 s ago). Their sockets (the race hub and race screens, a volunteer's too) stay
 * open. A removal revokes their admin sessions in the same batch, and their sockets are closed at once after the
 * answer (and otherwise by the objects' own re-check within 30 s): their next call is a 401 (a race-day call answered
 * by another Worker isolate may pass for up to 30 s more, as after a logout: race-day-sessions.ts) and the page asks
 * them to sign in again.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  ADMIN_ROLES,
  ORGANISERS_ONLY,
  type AdminChange,
  type AdminChangeBody,
  type AdminList,
} from "../../shared/admin-roles";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError, conflict, forbidden, notFound } from "../lib/errors";
import { validate, wireSchema } from "../middleware/validate";
import { adminDevice } from "./admin-sign-in";
import { adminRole, changeAdmins, listAdmins, parseAdminEmails, sessionsRevokedAt } from "./admins-db";
import { forgetRaceDaySession } from "./race-day-sessions";
import { closeSessionSockets } from "./session-sockets";

export const adminsRoutes = new Hono<AppEnv>();

const MSG = {
  email: "Ange en giltig e-postadress.",
  role: "Välj roll: Funktionär eller Arrangör.",
  fixed: "Adressen står i ADMIN_EMAILS och är alltid arrangör. Den ändras i inställningarna, inte här.",
  self: "Du kan inte ändra eller ta bort din egen behörighet. Be en annan arrangör.",
  exists: "Adressen är redan admin. Ändra rollen i listan i stället.",
  missing: "Adressen är inte admin (den kan ha tagits bort nyss).",
  sameRole: "Adressen har redan den rollen.",
  meanwhile: "Någon annan ändrade samma adress nyss. Ladda om listan och försök igen.",
} as const;

const email = z
  .string({ error: MSG.email })
  .trim()
  .toLowerCase()
  .max(254, MSG.email)
  .pipe(z.email({ error: MSG.email }));
const role = z.enum(ADMIN_ROLES, { error: MSG.role });

// The add's body and change-role's are the same {email, role}.
const addBody = wireSchema<AdminChangeBody<"add" | "change-role">>()(z.object({ email, role }));
const removeBody = wireSchema<AdminChangeBody<"remove">>()(z.object({ email }));

adminsRoutes.get("/", async (c) => {
  const body: AdminList = { admins: await listAdmins(database(c.env.DB), c.env.ADMIN_EMAILS) };
  return c.json(body);
});

adminsRoutes.post("/", validate("json", addBody), async (c) => {
  const { email, role } = c.req.valid("json");
  return change(c, { type: "add", email, role });
});

adminsRoutes.post("/change-role", validate("json", addBody), async (c) => {
  const { email, role } = c.req.valid("json");
  return change(c, { type: "change-role", email, role });
});

adminsRoutes.post("/remove", validate("json", removeBody), async (c) => {
  return change(c, { type: "remove", email: c.req.valid("json").email });
});

async function change(c: Context<AppEnv>, wanted: AdminChange) {
  const me = c.var.admin!;
  const fixed = parseAdminEmails(c.env.ADMIN_EMAILS);
  if (fixed.has(wanted.email)) throw conflict(MSG.fixed);
  if (wanted.email === me.email) throw conflict(MSG.self);
  const now = c.var.clock.now();
  const actor = { email: me.email, fixed: fixed.has(me.email), device: adminDevice(c) };
  if (await changeAdmins(c.env.DB, actor, wanted, now)) {
    if (wanted.type === "remove") {
      const sessions = await sessionsRevokedAt(c.env.DB, wanted.email, now);
      // This isolate's race-day check of them goes at once (other isolates drop theirs within 30 s).
      for (const id of sessions) forgetRaceDaySession(id);
      c.executionCtx.waitUntil(closeSessionSockets(c.env, sessions));
    }
    const admins = await listAdmins(database(c.env.DB), c.env.ADMIN_EMAILS);
    return c.json({ ok: true, admins } satisfies AdminList & { ok: true });
  }
  throw await whyNot(c, wanted, actor.email);
}

/** Nothing was written: the reason, read after the batch (each is a state the batch itself saw or a later one). */
async function whyNot(c: Context<AppEnv>, wanted: AdminChange, actor: string): Promise<ApiError> {
  const db = database(c.env.DB);
  if ((await adminRole(db, actor, c.env.ADMIN_EMAILS)) !== "organiser") return forbidden(ORGANISERS_ONLY);
  const current = await adminRole(db, wanted.email, c.env.ADMIN_EMAILS);
  if (wanted.type === "add") return conflict(current ? MSG.exists : MSG.meanwhile);
  if (!current) return notFound(MSG.missing);
  return conflict(MSG.sameRole);
}

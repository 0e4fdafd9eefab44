/**
 * Epassi invitations (admin spec §7; the admin guard in app.ts covers /admin/api/*; the rules live in
 * src/worker/epassi/epassi.ts):
 * - POST /admin/api/invite/epassi {name, email}: makes a single-use code and sends it by e-mail; 201
 *   `{message, invitation}`.
 * - GET /admin/api/invite/epassi: `{invitations}`, newest first, each with what became of its code.
 * - POST /admin/api/invite/epassi/{id}/resend: sends an invitation's e-mail again (one that failed to leave).
 * Spec: "an error body has message". Every error these calls answer carries `message`, and `error` (and
 * `errors` per field) like the rest of the API.
 */
import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { checkEpassiInvitation, EPASSI_MESSAGES } from "../../shared/campaign";
import type { InvitationEntry } from "./epassi-db";
import type { AppEnv } from "../env";
import { allInvitations, EPASSI_NOT_FOUND, resendInvitation, sendInvitation } from "./epassi";
import { ApiError } from "../lib/errors";
import { validate } from "../middleware/validate";
import type { EpassiErrorAnswer, InvitationsAnswer, SentInvitation } from "../../shared/api-answers";

export const epassiRoutes = new Hono<AppEnv>();

const BODY_MESSAGE = "Ange namn och e-postadress.";

epassiRoutes.onError((err, c) => {
  if (err instanceof HTTPException) {
    // A body that is not JSON at all; the same Swedish text as app.ts gives.
    const message = /json/i.test(err.message) ? "Förfrågan innehåller ogiltig JSON." : "Ogiltig förfrågan.";
    return c.json({ message, error: message } satisfies EpassiErrorAnswer, err.status);
  }
  // Anything unexpected goes to app.ts's handler (logged, one generic 500).
  if (!(err instanceof ApiError)) throw err;
  return c.json(
    {
      message: err.message,
      error: err.message,
      ...(err.errors ? { errors: err.errors } : {}),
    } satisfies EpassiErrorAnswer,
    err.status,
  );
});

const invitationBody = z
  .object({ name: z.unknown().optional(), email: z.unknown().optional() }, { error: BODY_MESSAGE })
  .transform((body, ctx) => {
    const checked = checkEpassiInvitation(body);
    if (checked.ok) return checked.value;
    for (const [field, message] of Object.entries(checked.errors)) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
    return z.NEVER;
  });

const idParam = z.object({ id: z.string().regex(/^[1-9]\d{0,11}$/, EPASSI_NOT_FOUND) });

function iso(ms: number): string;
function iso(ms: number | null): string | null;
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The wire form: times as ISO strings. */
function view(i: InvitationEntry) {
  return {
    id: i.id,
    name: i.name,
    email: i.email,
    code: i.code,
    createdBy: i.createdBy,
    createdAt: iso(i.createdAt),
    sentAt: iso(i.sentAt),
    sendError: i.sendError,
    state: i.state,
    use: i.use && { ...i.use, at: iso(i.use.at) },
  };
}

function admin(c: Context<AppEnv>): string {
  return c.var.admin?.email ?? "okänd";
}

/** Development follows the browser's origin (its port may vary); production names its public origin. */
function siteUrl(c: Context<AppEnv>): string {
  return c.var.devMode ? new URL(c.req.url).origin : c.env.PUBLIC_ORIGIN;
}

epassiRoutes.get("/", async (c) => {
  c.header("cache-control", "no-store");
  return c.json({ invitations: (await allInvitations(c.env)).map(view) } satisfies InvitationsAnswer);
});

epassiRoutes.post("/", validate("json", invitationBody), async (c) => {
  const { name, email } = c.req.valid("json");
  const invitation = await sendInvitation(c.env, c.var.clock, { name, email, admin: admin(c), siteUrl: siteUrl(c) });
  return c.json({ message: EPASSI_MESSAGES.sent, invitation: view(invitation) } satisfies SentInvitation, 201);
});

epassiRoutes.post("/:id/resend", validate("param", idParam), async (c) => {
  const id = Number(c.req.valid("param").id);
  const invitation = await resendInvitation(c.env, c.var.clock, id, { admin: admin(c), siteUrl: siteUrl(c) });
  return c.json({ message: EPASSI_MESSAGES.sent, invitation: view(invitation) } satisfies SentInvitation);
});

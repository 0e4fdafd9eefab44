/**
 * Development affordances (DESIGN.md "Development affordances"), all under /dev/*, which the app answers with
 * 404 unless DEV_MODE is "true" (dev/dev-only.ts, mounted in app.ts), and the development admin login:
 * - POST /admin/api/dev-login {email}: signs in as that address (admin when on the allowlist), 404 outside
 *   development like everything here;
 * - GET /dev/jwks.json: the public key set of the development "Google" (GOOGLE_JWKS_URL points here locally);
 * - POST /dev/google-token {email, aud?, iss?, exp?, email_verified?, name?}: a Google-shaped ID token signed
 *   with that key, so the dev login page and the tests sign in through the real verification path;
 * - GET /dev/gsi/client: a stand-in for Google's sign-in script, which /admin/login loads in development instead
 *   of accounts.google.com (its button gets a token from /dev/google-token);
 * - GET /dev/outbox (HTML) and /dev/outbox.json: every mail the 'outbox' transport delivered, whole, newest first
 *   (`?to=` filters by recipient); GET and POST /dev/outbox/settings {refuse}: while `refuse` is true the outbox
 *   refuses every mail as a provider's error answer would (adapters/outbox.ts), so mailings are left waiting;
 * - POST /dev/season {childSafePublishing: true | false | null}: switches this server's child-safe publishing
 *   (shared/dev-season.ts; null is the build's value), so one browser file serves the setting on without a server
 *   of its own; answers the value now in force;
 * - POST /dev/login-codes/:id/expire: lets a login code run out now (the 10-minute rule itself is tested with a
 *   shifted clock; this lets the browser tests show the expired-code message without waiting 10 minutes);
 * - POST /dev/races/:raceId/results-mail: the race's owed results mail goes out now, without waiting for the race
 *   to be still for three minutes (src/durable/race/results-mail.ts; the wait itself is tested in the race room and
 *   on workerd): 404 when none is owed.
 */
import { Hono } from "hono";
import { z } from "zod";
import { isRaceId } from "../../shared/race-id";
import { stockholmParts } from "../../shared/stockholm";
import { signInAdmin } from "../session/admin-sign-in";
import { database } from "../db/client";
import { expireLoginCode } from "../session/login-codes-db";
import { notFound } from "../lib/errors";
import type { AppEnv } from "../env";
import { escapeHtml } from "../lib/html";
import { validate } from "../middleware/validate";
import { devOnly } from "./dev-only";
import { devJwks, GSI_STAND_IN_SCRIPT, signDevGoogleToken } from "../adapters/google-stand-in";
import { listOutbox, outboxRefuses, setOutboxRefuses, type OutboxMail } from "../adapters/outbox";
import { setDevChildSafePublishing } from "../../shared/dev-season";

export const devRoutes = new Hono<AppEnv>();
export const devLoginRoutes = new Hono<AppEnv>();

const devLoginBody = z.object({
  email: z.email({ error: "Ogiltig e-postadress" }).max(254, "Ogiltig e-postadress"),
});

// Outside /dev/*, so it carries its own guard.
devLoginRoutes.post("/", devOnly, validate("json", devLoginBody), async (c) => {
  return signInAdmin(c, c.req.valid("json").email.trim().toLowerCase(), "dev-login");
});

const NO_STORE = { "cache-control": "no-store" };

devRoutes.post("/login-codes/:id/expire", validate("param", z.object({ id: z.string().max(100) })), async (c) => {
  const expired = await expireLoginCode(database(c.env.DB), c.req.valid("param").id, c.var.clock.now());
  if (!expired) throw notFound("Koden finns inte");
  return c.json({ ok: true });
});

devRoutes.post(
  "/races/:raceId/results-mail",
  validate("param", z.object({ raceId: z.string().max(64) })),
  async (c) => {
    const part = c.req.valid("param").raceId;
    // The race object itself (no race-day module: dev/ stays out of that folder's imports).
    const answer = isRaceId(part) ? await c.env.RACE.getByName(part).sendResultsMailNow() : null;
    if (!answer?.ok || !answer.value) throw notFound("Inget resultatmejl väntar för loppet.");
    return c.json({ ok: true });
  },
);

devRoutes.get("/jwks.json", async (c) => c.json(await devJwks(), 200, NO_STORE));

const googleTokenBody = z.object({
  email: z.email({ error: "Ogiltig e-postadress" }),
  aud: z.string({ error: "aud måste vara text" }).min(1).optional(),
  iss: z.string({ error: "iss måste vara text" }).min(1).optional(),
  exp: z.number({ error: "exp måste vara sekunder sedan 1970" }).int().positive().optional(),
  email_verified: z.boolean({ error: "email_verified måste vara true eller false" }).optional(),
  name: z.string({ error: "name måste vara text" }).max(200).optional(),
});

devRoutes.post("/google-token", validate("json", googleTokenBody), async (c) => {
  const body = c.req.valid("json");
  const credential = await signDevGoogleToken({ ...body, aud: body.aud ?? c.env.GOOGLE_CLIENT_ID }, c.var.clock.now());
  return c.json({ credential });
});

devRoutes.get("/gsi/client", (c) =>
  c.body(GSI_STAND_IN_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8", ...NO_STORE }),
);

const outboxQuery = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number({ error: "limit måste vara ett tal" }).int().min(1).max(500).optional(),
});

function outboxJson(mail: OutboxMail) {
  return {
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    kind: mail.kind,
    createdAt: mail.createdAt,
    transport: "outbox",
    status: "sent",
    error: null,
    mailingId: mail.mailingId,
  };
}

devRoutes.get("/outbox.json", validate("query", outboxQuery), async (c) => {
  const mails = await listOutbox(c.env.DB, c.req.valid("query"));
  return c.json(mails.map(outboxJson), 200, NO_STORE);
});

const outboxSettings = z.object({ refuse: z.boolean({ error: "refuse ska vara true eller false" }) });

devRoutes.get("/outbox/settings", async (c) => c.json({ refuse: await outboxRefuses(c.env.DB) }, 200, NO_STORE));

devRoutes.post("/outbox/settings", validate("json", outboxSettings), async (c) => {
  const { refuse } = c.req.valid("json");
  await setOutboxRefuses(c.env.DB, refuse);
  return c.json({ refuse });
});

const devSeason = z.object({
  childSafePublishing: z.boolean({ error: "childSafePublishing ska vara true, false eller null" }).nullable(),
});

devRoutes.post("/season", validate("json", devSeason), (c) =>
  c.json({ childSafePublishing: setDevChildSafePublishing(c.req.valid("json").childSafePublishing) }, 200, NO_STORE),
);

devRoutes.get("/outbox", validate("query", outboxQuery), async (c) => {
  const mails = await listOutbox(c.env.DB, c.req.valid("query"));
  return c.html(outboxPage(mails), 200, NO_STORE);
});

/** '2025-09-13 11:45:07', Stockholm time. */
function stockholmTime(ms: number): string {
  const p = stockholmParts(ms);
  return `${p.date} ${p.time}:${String(p.second).padStart(2, "0")}`;
}

function outboxPage(mails: OutboxMail[]): string {
  const items = mails
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Till <strong>${escapeHtml(m.to)}</strong> · <time datetime="${new Date(m.createdAt).toISOString()}">${escapeHtml(
    stockholmTime(m.createdAt),
  )}</time> · ${escapeHtml(m.kind)}</p>
  <iframe sandbox title="${escapeHtml(m.subject)}" srcdoc="${escapeHtml(m.html)}"></iframe>
  <details><summary>Text</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Utkorg (utveckling)</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 60rem; padding: 0 1rem; }
article { border: 1px solid #ccc; border-radius: 8px; margin: 1rem 0; padding: 0 1rem 1rem; }
.meta { color: #555; }
iframe { border: 1px solid #eee; height: 20rem; width: 100%; }
</style>
</head>
<body>
<h1>Utkorg</h1>
<p>Skickade e-postmeddelanden, nyast först (${mails.length} st). Samma lista som JSON: <a href="/dev/outbox.json">/dev/outbox.json</a>.</p>
${items || "<p>Inga e-postmeddelanden ännu.</p>"}
</body>
</html>`;
}

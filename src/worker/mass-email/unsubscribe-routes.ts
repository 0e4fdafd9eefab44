/**
 * The unsubscribe link of every mass e-mail, `/unsubscribe/{token}`, usable without signing in. The token is
 * signed for one purpose, one address and one mailing (src/worker/mass-email/mailings.ts); a forged or altered one changes
 * nothing (400 page). GET only shows a confirmation page with a button, so a mail scanner that follows links
 * unsubscribes nobody; POST unsubscribes: the page's button, or a mail client's RFC 8058 one-click POST (a form
 * body, exempt from the JSON rule and the same-origin guard for this path; the signature is the check).
 * Later mailings leave the address out (mailings-db.ts); transactional mail (codes, receipts) is still sent.
 */
import { Hono, type Context } from "hono";
import { SEASON } from "../../shared/season";
import { audit } from "../db/audit";
import { database } from "../db/client";
import { addUnsubscribe, isUnsubscribed } from "./mailings-db";
import type { AppEnv } from "../env";
import { escapeHtml } from "../lib/html";
import { verifyUnsubscribeToken } from "./mailings";

export const unsubscribeRoutes = new Hono<AppEnv>();

export const UNSUBSCRIBE_TEXT = {
  title: "Avsluta utskick",
  confirm: "Vill du sluta få utskick från",
  button: "Avsluta utskicken",
  done: "Klart! Du får inga fler utskick från",
  already: "Den här adressen får redan inga utskick från",
  invalid: "Länken fungerar inte. Kopiera hela länken från mejlet, eller kontakta oss.",
} as const;

/** Only our own styles, no scripts, never framed; the form posts back to this same path. */
const HEADERS = {
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
};

function page(body: string): string {
  return `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${UNSUBSCRIBE_TEXT.title} – ${escapeHtml(SEASON.siteName)}</title>
<style>
body{margin:0;padding:0 1rem;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;color:#1d1b20;background:#fcfcfd}
main{max-width:32rem;margin:3rem auto;padding:1.25rem;background:#fff;border:1px solid #d6d6de;border-radius:12px}
h1{font-size:1.4rem;margin:0 0 .75rem}p{overflow-wrap:anywhere}
button{font:inherit;font-weight:700;padding:.6rem 1.2rem;border-radius:999px;border:2px solid #b07800;background:#ffb300;color:#1d1b20;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #3949ab;outline-offset:2px}
a{color:#303f9f}
</style></head>
<body><main>${body}
<p><a href="/">Till ${escapeHtml(SEASON.siteName)}</a></p></main></body></html>`;
}

function invalid(c: Context<AppEnv>) {
  return c.html(
    page(`<h1>${UNSUBSCRIBE_TEXT.title}</h1><p role="alert">${UNSUBSCRIBE_TEXT.invalid}</p>`),
    400,
    HEADERS,
  );
}

unsubscribeRoutes.get("/:token", async (c) => {
  const target = await verifyUnsubscribeToken(c.env.SESSION_SECRET, c.req.param("token"));
  if (!target) return invalid(c);
  const site = escapeHtml(SEASON.siteName);
  const email = escapeHtml(target.email);
  if (await isUnsubscribed(database(c.env.DB), target.email)) {
    return c.html(
      page(`<h1>${UNSUBSCRIBE_TEXT.title}</h1><p>${UNSUBSCRIBE_TEXT.already} ${site}: <strong>${email}</strong></p>`),
      200,
      HEADERS,
    );
  }
  return c.html(
    page(`<h1>${UNSUBSCRIBE_TEXT.title}</h1>
<p>${UNSUBSCRIBE_TEXT.confirm} ${site} till <strong>${email}</strong>?</p>
<form method="post"><button type="submit">${UNSUBSCRIBE_TEXT.button}</button></form>`),
    200,
    HEADERS,
  );
});

unsubscribeRoutes.post("/:token", async (c) => {
  const target = await verifyUnsubscribeToken(c.env.SESSION_SECRET, c.req.param("token"));
  if (!target) return invalid(c);
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  await addUnsubscribe(db, target.email, target.mailingId, now);
  await audit(db, { actor: target.email, action: "mailing.unsubscribe", subject: String(target.mailingId) }, now);
  return c.html(
    page(
      `<h1>${UNSUBSCRIBE_TEXT.title}</h1><p role="status">${UNSUBSCRIBE_TEXT.done} ${escapeHtml(SEASON.siteName)}: <strong>${escapeHtml(target.email)}</strong></p>`,
    ),
    200,
    HEADERS,
  );
});

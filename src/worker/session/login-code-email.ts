/**
 * The login-code e-mail (step 2 of the registration). Plain and short: the code first, so it shows in a phone's
 * notification preview, then how long it lasts and what to do if you did not ask for it.
 */
import { SEASON, type Season } from "../../shared/season";
import { escapeHtml } from "../lib/html";

export interface LoginCodeEmail {
  subject: string;
  html: string;
  text: string;
  /** The body is the code: the e-mail log must never keep it (adapters/email.ts). */
  secret: true;
}

export function loginCodeEmail(code: string, validMinutes: number, season: Season = SEASON): LoginCodeEmail {
  const site = season.siteName;
  const subject = `Din inloggningskod till ${site}`;
  const lines = [
    `Din inloggningskod: ${code}`,
    `Koden gäller i ${validMinutes} minuter och kan bara användas en gång.`,
    "Har du inte begärt någon kod? Då kan du bortse från det här mejlet – ingen kan logga in utan koden.",
    `Frågor? Skriv till ${season.contactEmail}.`,
  ];
  const text = `${lines.join("\n\n")}\n\nHälsningar\n${site}\n`;
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>Din inloggningskod:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:4px;margin:8px 0 16px">${escapeHtml(code)}</p>
<p>${escapeHtml(lines[1]!)}</p>
<p>${escapeHtml(lines[2]!)}</p>
<p>Frågor? Skriv till <a href="mailto:${escapeHtml(season.contactEmail)}">${escapeHtml(season.contactEmail)}</a>.</p>
<p>Hälsningar<br>${escapeHtml(site)}</p>
</body></html>`;
  return { subject, html, text, secret: true };
}

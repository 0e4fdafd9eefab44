/**
 * The login e-mail (step 2 of the registration). Plain and short: the code first, so it shows in a phone's
 * notification preview, then the one-time sign-in link (issue 43: it works even when wrong guesses have locked the
 * code), how long both last and what to do if you did not ask for it. While the address is locked the mail has the
 * link alone (`code` null). The link opens a page whose button signs in, so a mail scanner opening it signs no one in.
 */
import { SEASON, type Season } from "../../shared/season";
import { escapeHtml } from "../lib/html";

export interface LoginCodeEmail {
  subject: string;
  html: string;
  text: string;
  /** The body is the code and the link: the e-mail log must never keep it (adapters/email.ts). */
  secret: true;
}

/** The sign-in link of a token: the SPA page /anmalan/lank, whose button POSTs the token to /login-link. */
export function loginLinkUrl(origin: string, token: string): string {
  return `${origin}/anmalan/lank?t=${token}`;
}

export function loginCodeEmail(
  code: string | null,
  validMinutes: number,
  link: string,
  season: Season = SEASON,
): LoginCodeEmail {
  const site = season.siteName;
  const subject = code === null ? `Din inloggningslänk till ${site}` : `Din inloggningskod till ${site}`;
  const validity =
    code === null
      ? `Länken gäller i ${validMinutes} minuter och kan bara användas en gång.`
      : `Koden och länken gäller i ${validMinutes} minuter och kan bara användas en gång.`;
  const linkIntro =
    code === null
      ? "Det har gjorts för många felaktiga försök med koder för din e-postadress, så vi skickar ingen kod just nu. Logga in med den här länken i stället:"
      : "Eller logga in med den här länken (den fungerar även om koden har spärrats efter för många felaktiga försök):";
  const ignore = "Har du inte begärt någon kod? Då kan du bortse från det här mejlet – ingen kan logga in utan det.";
  const lines = [
    ...(code === null ? [] : [`Din inloggningskod: ${code}`]),
    `${linkIntro}\n${link}`,
    validity,
    ignore,
    `Frågor? Skriv till ${season.contactEmail}.`,
  ];
  const text = `${lines.join("\n\n")}\n\nHälsningar\n${site}\n`;
  const codeHtml =
    code === null
      ? ""
      : `<p>Din inloggningskod:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:4px;margin:8px 0 16px">${escapeHtml(code)}</p>
`;
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;line-height:1.5">
${codeHtml}<p>${escapeHtml(linkIntro)}</p>
<p><a href="${escapeHtml(link)}">Logga in</a></p>
<p>${escapeHtml(validity)}</p>
<p>${escapeHtml(ignore)}</p>
<p>Frågor? Skriv till <a href="mailto:${escapeHtml(season.contactEmail)}">${escapeHtml(season.contactEmail)}</a>.</p>
<p>Hälsningar<br>${escapeHtml(site)}</p>
</body></html>`;
  return { subject, html, text, secret: true };
}

/**
 * A mass e-mail as the recipient gets it: the organiser's subject and plain-text message (never read as HTML:
 * escaped, paragraphs and line breaks kept), and a footer with the signed unsubscribe link (RFC 8058's link
 * goes in the List-Unsubscribe header where the transport carries headers; the footer link works everywhere).
 */
import { SEASON, type Season } from "../../shared/season";
import { escapeHtml } from "../lib/html";

export interface MailingEmailInput {
  subject: string;
  message: string;
  /** `{origin}/unsubscribe/{token}`, signed for this address and mailing. */
  unsubscribeUrl: string;
  siteUrl: string;
}

export interface MailingEmail {
  subject: string;
  html: string;
  text: string;
  /** For transports that carry headers (RFC 2369 and RFC 8058 one-click). */
  headers: Record<string, string>;
}

function paragraphs(message: string): string {
  return message
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`)
    .join("\n");
}

export function mailingEmail(input: MailingEmailInput, season: Season = SEASON): MailingEmail {
  const site = season.siteName;
  const footerText = [
    `Du får det här mejlet för att du har anmält löpare till ${site}.`,
    `Vill du inte få fler utskick? Avsluta här: ${input.unsubscribeUrl}`,
  ].join("\n");
  const text = `${input.message.replace(/\r\n?/g, "\n").trim()}\n\n--\n${footerText}\n`;
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;line-height:1.5">
${paragraphs(input.message)}
<hr style="border:none;border-top:1px solid #d6d6de;margin:24px 0 12px">
<p style="font-size:13px;color:#55535e">Du får det här mejlet för att du har anmält löpare till
<a href="${escapeHtml(input.siteUrl)}">${escapeHtml(site)}</a>.
Vill du inte få fler utskick? <a href="${escapeHtml(input.unsubscribeUrl)}">Avsluta utskicken</a>.</p>
</body></html>`;
  return {
    subject: input.subject,
    html,
    text,
    headers: {
      "List-Unsubscribe": `<${input.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

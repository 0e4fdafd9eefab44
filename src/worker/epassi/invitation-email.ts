/**
 * The Epassi invitation: the person paid one runner's fee through their wellness benefit (Epassi) and gets a code
 * to register with. The code first, then how to use it: register at /anmalan, type it as the campaign code; it
 * pays one runner (the most expensive of the registration), the others are paid with Swish; it works once.
 */
import { formatSwedishDate, formatSwedishDateTime, stockholmToEpoch } from "../../shared/stockholm";
import { SEASON, type Season } from "../../shared/season";
import { escapeHtml } from "../lib/html";

export interface EpassiEmailInput {
  name: string;
  code: string;
  /** The site's origin; the registration is at {siteUrl}/anmalan. */
  siteUrl: string;
}

export interface EpassiEmail {
  subject: string;
  html: string;
  text: string;
}

export function epassiInvitationEmail(input: EpassiEmailInput, season: Season = SEASON): EpassiEmail {
  const site = season.siteName;
  const link = `${input.siteUrl}/anmalan`;
  const raceDay = formatSwedishDate(stockholmToEpoch(`${season.raceDay}T12:00`));
  const lastDay = formatSwedishDateTime(stockholmToEpoch(season.lastRegistration));
  const subject = `Din kod till ${site} ${season.year} (Epassi)`;
  const steps = [
    `Gå till ${link} och logga in med din e-postadress.`,
    "Lägg till de löpare som ska springa.",
    `Skriv koden ${input.code} i fältet Kampanjkod innan du går till betalning.`,
  ];
  const rules = [
    "Koden betalar startavgiften för en löpare (den dyraste i anmälan). Anmäler du fler betalar du resten med Swish.",
    "Koden kan användas en gång. Om en betalning inte går igenom kan du använda koden igen.",
    `Anmälan stänger ${lastDay}. Loppet går ${raceDay}.`,
  ];

  const text = [
    `Hej ${input.name}!`,
    `Tack för att du har betalat din startavgift till ${site} ${season.year} via Epassi. Här är din kod:`,
    input.code,
    `Så här anmäler du dig:\n${steps.map((s, i) => `${i + 1}. ${s}`).join("\n")}`,
    rules.join("\n"),
    `Frågor? Skriv till ${season.contactEmail}.`,
    `Välkommen!\n${site}`,
  ].join("\n\n");

  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>Hej ${escapeHtml(input.name)}!</p>
<p>Tack för att du har betalat din startavgift till ${escapeHtml(site)} ${season.year} via Epassi. Här är din kod:</p>
<p style="font-size:26px;font-weight:700;letter-spacing:3px;margin:8px 0 16px">${escapeHtml(input.code)}</p>
<h3 style="margin-bottom:4px">Så här anmäler du dig</h3>
<ol>
<li>Gå till <a href="${escapeHtml(link)}">${escapeHtml(link)}</a> och logga in med din e-postadress.</li>
<li>${escapeHtml(steps[1]!)}</li>
<li>${escapeHtml(steps[2]!)}</li>
</ol>
${rules.map((r) => `<p>${escapeHtml(r)}</p>`).join("\n")}
<p>Frågor? Skriv till <a href="mailto:${escapeHtml(season.contactEmail)}">${escapeHtml(season.contactEmail)}</a>.</p>
<p>Välkommen!<br>${escapeHtml(site)}</p>
</body></html>`;
  return { subject, html, text: `${text}\n` };
}

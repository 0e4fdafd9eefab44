/**
 * The receipt e-mail sent once a registration is paid (by Swish or a campaign code): who runs which distance,
 * what was paid, when and with which Swish reference, and what the family needs on race day.
 */
import { COMPANION_LABEL } from "../../shared/companion";
import { formatCheckinCode } from "../../shared/checkin";
import { distanceLabel, toDistance } from "../../shared/distances";
import { SEASON, type Season } from "../../shared/season";
import { formatSwedishDate, formatSwedishDateTime, stockholmToEpoch } from "../../shared/stockholm";
import { escapeHtml } from "../lib/html";

/** Spec §1: start and finish at the school dining hall. The season config has no venue field yet. */
export const RACE_VENUE = "skolans matsal (start och mål)";
export const BIB_PICKUP_FROM = "10:00";

export interface ReceiptRunner {
  firstname: string;
  lastname: string;
  /** km as the spec writes it ('5.6'). */
  distance: string;
  /** An adult running with a child without competing (shared/companion.ts): named so in the list. */
  companion?: boolean | null;
}

export interface ReceiptInput {
  payid: string;
  runners: ReceiptRunner[];
  /** Whole kronor; 0 for an order a campaign code made free. */
  amount: number;
  /** Epoch ms. */
  datePaid: number;
  /** Swish's reference; null for a campaign order. */
  paymentReference: string | null;
  kampanj: string | null;
  /** Where the family finds its registration (the site's origin). */
  siteUrl: string;
  /** The registration was paid before: this payment is for runners added since (a second payment). */
  additional?: boolean;
  /** The registration's check-in code for the bib desk (src/shared/checkin.ts); null when it has none. */
  checkinCode?: string | null;
}

export interface ReceiptEmail {
  subject: string;
  html: string;
  text: string;
}

function distanceText(distance: string): string {
  const d = toDistance(distance);
  return d ? distanceLabel(d) : `${distance} km`;
}

function startTimes(season: Season): string[] {
  return season.races.map((r) => `${distanceLabel(r.distance)}: ${r.startTime}`);
}

export function receiptEmail(input: ReceiptInput, season: Season = SEASON): ReceiptEmail {
  const site = season.siteName;
  const raceDay = formatSwedishDate(stockholmToEpoch(`${season.raceDay}T12:00`));
  const subject = `Kvitto: anmälan till ${site} ${season.year}`;
  const runnerLines = input.runners.map(
    (r) =>
      `${r.firstname} ${r.lastname}, ${distanceText(r.distance)}` +
      (r.companion === true ? `, ${COMPANION_LABEL.toLowerCase()}` : ""),
  );
  const paidWith = input.paymentReference
    ? `Swish, referens ${input.paymentReference}`
    : input.kampanj
      ? `kampanjkod ${input.kampanj}`
      : "Swish";
  const payment = [
    `Belopp: ${input.amount} kr`,
    `Betalt: ${formatSwedishDateTime(input.datePaid)}`,
    `Betalning: ${paidWith}`,
    `Betalnings-id: ${input.payid}`,
  ];
  const raceDayLines = [
    `Datum: ${raceDay}`,
    `Plats: ${RACE_VENUE}`,
    `Starttider: ${startTimes(season).join(", ")}`,
    `Nummerlappshämtning sker från ${BIB_PICKUP_FROM}.`,
  ];

  const thanks = input.additional
    ? `Tack! Betalningen för löparna ni har lagt till i er anmälan till ${site} ${season.year} är klar.`
    : `Tack för er anmälan till ${site} ${season.year}! Betalningen är klar.`;
  const runnersTitle = input.additional ? "Betalningen gäller" : "Anmälda löpare";
  const code = input.checkinCode ? formatCheckinCode(input.checkinCode) : null;
  const checkinText = code
    ? `Visa QR-koden (eller koden ${code}) vid nummerlappsdisken, så får ni era nummerlappar. ` +
      `QR-koden finns också på ${input.siteUrl}/anmalan när ni loggat in.`
    : null;
  const text = [
    thanks,
    `${runnersTitle}:\n${runnerLines.map((l) => `- ${l}`).join("\n")}`,
    ...(checkinText ? [`Nummerlappar:\n${checkinText}`] : []),
    payment.join("\n"),
    `Loppdagen:\n${raceDayLines.join("\n")}`,
    `Er anmälan finns på ${input.siteUrl}/anmalan. Frågor? Skriv till ${season.contactEmail}.`,
    `Välkomna!\n${site}`,
  ].join("\n\n");

  const list = (lines: string[]) => `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`;
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(thanks)}</p>
<h3 style="margin-bottom:4px">${runnersTitle}</h3>
${list(runnerLines)}
${
  code
    ? `<h3 style="margin-bottom:4px">Nummerlappar</h3>
<p>Visa QR-koden vid nummerlappsdisken, så får ni era nummerlappar.</p>
<p><img src="${escapeHtml(`${input.siteUrl}/api/checkin-qr/${code}.png`)}" width="200" height="200"
 alt="QR-kod för incheckning: ${escapeHtml(code)}" style="display:block;image-rendering:pixelated"></p>
<p>Koden: <strong style="font-family:monospace;font-size:18px;letter-spacing:1px">${escapeHtml(code)}</strong>
(kan också skrivas in vid disken)</p>`
    : ""
}
<h3 style="margin-bottom:4px">Betalning</h3>
${list(payment)}
<h3 style="margin-bottom:4px">Loppdagen</h3>
${list(raceDayLines)}
<p>Er anmälan finns på <a href="${escapeHtml(input.siteUrl)}/anmalan">${escapeHtml(input.siteUrl)}/anmalan</a>.
Frågor? Skriv till <a href="mailto:${escapeHtml(season.contactEmail)}">${escapeHtml(season.contactEmail)}</a>.</p>
<p>Välkomna!<br>${escapeHtml(site)}</p>
</body></html>`;
  return { subject, html, text: `${text}\n` };
}

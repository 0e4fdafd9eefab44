/**
 * Diplomas (issue 28, item 4): a printable A4 page per runner with the race, the year, the runner's name, the
 * distance and the time. Made here as one HTML print view (the browser's own print makes the PDF), so no service
 * outside the Worker is involved. The time is the runner's own, also when child-safe publishing withholds it from
 * the public: the diploma is the family's (the federation's rules ask for one for every child).
 *
 * Who gets which: the signed-in family their own finished runners (`GET /api/family/diplomas`, one with
 * `?runner=`), the organiser every finisher of a race (`GET /admin/api/diplomas/{race}`).
 */
import { distanceFromMeters, distanceLabel } from "../../shared/distances";
import { partYear } from "../../shared/race-id";
import type { Season } from "../../shared/season";
import { SWEDISH_MONTHS } from "../../shared/stockholm";
import { parseResult } from "../../shared/time-format";
import { escapeHtml } from "../lib/html";

export interface Diploma {
  name: string;
  /** Metres. */
  distance: number;
  /** 'mm:ss.fff' as the race has it. */
  time: string;
  /** The race's id ('race-250913-56'): its year. */
  part: string;
  /** The race's day, 'YYYY-MM-DD'. */
  date: string;
}

export const DIPLOMA_TEXT = {
  title: "Diplom",
  heading: "Diplom",
  ran: "har sprungit",
  time: "på tiden",
  noneFamily: "Ingen av dina löpare har gått i mål ännu. Diplomet finns här när loppet har en tid.",
} as const;

/** What the print view may load: its own inline styles, nothing else; never framed. */
export const DIPLOMA_HEADERS = {
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
} as const;

/** '2025-09-13' → '13 september 2025'. */
function swedishDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  if (!y || !m || !d) return date;
  return `${d} ${SWEDISH_MONTHS[m - 1]} ${y}`;
}

function distanceText(meters: number): string {
  const d = distanceFromMeters(meters);
  return d ? distanceLabel(d).replace("km", " km") : `${Math.round(meters / 100) / 10} km`.replace(".", ",");
}

/**
 * The time as a family reads it, in tenths rounded up as athletics rounds a time (never faster than it was):
 * '05:10.123' → '05:10,2', '05:10.100' → '05:10,1'. Text that is not a time is given back as it is.
 */
export function familyTimeText(time: string): string {
  const ms = parseResult(time);
  if (ms === null) return time;
  const tenths = Math.ceil(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")},${tenths % 10}`;
}

function page(d: Diploma, season: Pick<Season, "siteName">): string {
  const year = partYear(d.part) ?? Number(d.date.slice(0, 4));
  return `<section class="diploma">
<p class="race">${escapeHtml(season.siteName)} ${year}</p>
<h1>${DIPLOMA_TEXT.heading}</h1>
<p class="name">${escapeHtml(d.name)}</p>
<p>${DIPLOMA_TEXT.ran} <strong>${escapeHtml(distanceText(d.distance))}</strong></p>
<p>${DIPLOMA_TEXT.time} <strong class="time">${escapeHtml(familyTimeText(d.time))}</strong></p>
<p class="date">${escapeHtml(swedishDate(d.date))}</p>
</section>`;
}

/** The print view: one A4 page per diploma, in the order given; `empty` is shown when there are none. */
export function diplomaDocument(diplomas: readonly Diploma[], season: Pick<Season, "siteName">, empty = ""): string {
  const body = diplomas.length
    ? diplomas.map((d) => page(d, season)).join("\n")
    : `<main class="empty"><p role="status">${escapeHtml(empty)}</p></main>`;
  return `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${DIPLOMA_TEXT.title} – ${escapeHtml(season.siteName)}</title>
<style>
@page{size:A4;margin:0}
*{box-sizing:border-box}
body{margin:0;font-family:Georgia,"Times New Roman",serif;color:#1d1b20;background:#eee}
.diploma{width:210mm;min-height:297mm;margin:0 auto 1rem;padding:40mm 20mm;background:#fff;text-align:center;
  border:12px double #b07800;display:flex;flex-direction:column;justify-content:center;gap:6mm;break-after:page;page-break-after:always}
.diploma:last-of-type{break-after:auto;page-break-after:auto}
.race{font-size:18pt;letter-spacing:.08em;text-transform:uppercase;margin:0}
h1{font-size:54pt;margin:0;color:#303f9f}
.name{font-size:32pt;font-weight:700;margin:4mm 0;overflow-wrap:anywhere}
p{font-size:18pt;margin:0}.time{font-size:26pt}
.date{font-size:14pt;color:#555;margin-top:10mm}
.empty{max-width:32rem;margin:3rem auto;padding:1rem;background:#fff;font-family:system-ui,sans-serif}
@media screen and (max-width:220mm){.diploma{width:auto;min-height:0;padding:12mm 6mm;border-width:8px}
  h1{font-size:36pt}.name{font-size:22pt}p{font-size:14pt}.time{font-size:18pt}}
@media print{body{background:#fff}.diploma{margin:0;border-width:12px}}
</style></head>
<body>
${body}
</body></html>`;
}

/**
 * The race's log ('Logg') as Swedish sentences: 'Ella Berg (200) i mål 10:58:09, ersatte 10:58:02, telefon 3'.
 * Pure: one sentence per audit row, from the row's type and payload (race-contract: names are not in payloads, so
 * they come from the runners the screen has, else from the log's own 'runner-added' rows; the bib is the one the
 * row names, as it was then). Devices are numbered by their first appearance in the log ('telefon 1', 'telefon 2'
 * …), the same numbers on every phone; this device reads 'den här telefonen'.
 */
import type { RaceAuditEvent, ReviewRecord } from "../../../shared/race-protocol";
import { PHOTO_RETENTION_DAYS } from "../../../shared/finish-photos";
import { stockholmClockTime } from "./race-view";

export interface NamedRunner {
  firstname: string;
  lastname: string;
  bib: number | null;
}

export interface LogContext {
  /** Runners by participant id (the screen's own, then the log's). */
  runners: ReadonlyMap<string, NamedRunner>;
  /** Review items by id, when the screen knows them (the open ones). */
  reviews?: ReadonlyMap<string, ReviewRecord>;
  /** Device → its number (deviceNumbers). */
  devices: ReadonlyMap<string, number>;
  thisDevice: string;
}

export interface LogLine {
  seq: number;
  /** 'HH:MM:SS' when it happened. */
  time: string;
  actor: string;
  text: string;
  /** A finish that replaced a time: 'Återställ' gives the runner that time back (restore-time/{race}/{seq}). */
  restoreSeq?: number;
  /** The tap the row is about (a finish tile's tap, a 'Mål!' press, a tap sent to 'Att granska'): its Målfoto. */
  tap?: string;
}

type Payload = Record<string, unknown>;

/** Devices numbered in the order they first appear in the log (oldest row first). */
export function deviceNumbers(events: readonly Pick<RaceAuditEvent, "seq" | "device">[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.device && !numbers.has(e.device)) numbers.set(e.device, numbers.size + 1);
  }
  return numbers;
}

/** 'den här telefonen', 'telefon 2', or for a device the log has not shown yet 'en annan telefon'; '' for none. */
export function deviceLabel(
  device: string | null | undefined,
  ctx: Pick<LogContext, "devices" | "thisDevice">,
): string {
  if (!device) return "";
  if (device === ctx.thisDevice) return "den här telefonen";
  const n = ctx.devices.get(device);
  return n === undefined ? "en annan telefon" : `telefon ${n}`;
}

/** The names the log itself knows: each runner as added (and renamed) in it. */
export function runnersFromLog(events: readonly RaceAuditEvent[]): Map<string, NamedRunner> {
  const runners = new Map<string, NamedRunner>();
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    const p = parsePayload(e.payload);
    const id = str(p.id);
    if (!id) continue;
    if (e.type === "runner-added" && (str(p.firstname) || str(p.lastname))) {
      runners.set(id, { firstname: str(p.firstname) ?? "", lastname: str(p.lastname) ?? "", bib: bibOf(p.bib) });
    } else if (e.type === "runner-updated" && runners.has(id) && typeof p.changes === "object" && p.changes) {
      const changes = p.changes as Record<string, unknown>;
      const after = (k: string) => (Array.isArray(changes[k]) ? (changes[k] as unknown[])[1] : undefined);
      const r = runners.get(id)!;
      runners.set(id, {
        firstname: str(after("firstname")) ?? r.firstname,
        lastname: str(after("lastname")) ?? r.lastname,
        bib: "bib" in changes ? bibOf(after("bib")) : r.bib,
      });
    } else if (e.type === "runner-anonymised") {
      runners.delete(id);
    }
  }
  return runners;
}

/** Every row as a line, in the order given (the server sends the newest first). */
export function logLines(events: readonly RaceAuditEvent[], ctx: LogContext): LogLine[] {
  return events.map((e) => {
    const { text, restoreSeq } = describeEvent(e, ctx);
    const line: LogLine = {
      seq: e.seq,
      time: Number.isFinite(e.at) ? stockholmClockTime(e.at) : "",
      actor: e.actor,
      text,
    };
    if (restoreSeq !== undefined) line.restoreSeq = restoreSeq;
    const tap = tapOf(e);
    if (tap !== undefined) line.tap = tap;
    return line;
  });
}

/** The tap a row is about, for its photos: a finish's or a slot's tap, a tap item sent to review (not a start). */
export function tapOf(event: Pick<RaceAuditEvent, "type" | "payload">): string | undefined {
  if (event.type !== "finish" && event.type !== "rapid-tap" && event.type !== "review-added") return undefined;
  const p = parsePayload(event.payload);
  if (event.type === "review-added") return p.kind === "start" ? undefined : str(p.id);
  return str(p.tapId);
}

/** One row as a sentence, with the device that made it at the end. */
export function describeEvent(event: RaceAuditEvent, ctx: LogContext): { text: string; restoreSeq?: number } {
  const p = parsePayload(event.payload);
  const what = sentence(event.type, p, ctx);
  const device = deviceLabel(event.device, ctx);
  // Målfoto: decided with the finish photo open.
  const decided = p.fromPhoto === true ? `${what.text} (avgjort med målfoto)` : what.text;
  const text = device ? `${decided}, ${device}` : decided;
  return what.restore && Number.isSafeInteger(event.seq) ? { text, restoreSeq: event.seq } : { text };
}

function sentence(type: string, p: Payload, ctx: LogContext): { text: string; restore?: boolean } {
  const who = () => runnerText(p, ctx);
  const t = (v: unknown) => (num(v) !== null ? stockholmClockTime(num(v)!) : "okänd tid");
  switch (type) {
    case "race-created": {
      const facts = [str(p.date), num(p.distance) !== null ? kmText(num(p.distance)!) : undefined].filter(Boolean);
      return { text: `Loppet skapat${facts.length > 0 ? `: ${facts.join(", ")}` : ""}` };
    }
    case "race-updated":
      return { text: p.openForReg === true ? "Loppet öppnat för anmälan" : "Loppet stängt för anmälan" };
    case "runner-added": {
      const dropped = num(p.droppedBib) !== null ? ` (startnummer ${num(p.droppedBib)} var upptaget)` : "";
      const late = p.lateForEndedRace === true ? ", som ej start: loppet var avslutat" : "";
      return { text: `${who()} tillagd${p.from === "d1" ? " från anmälan" : ""}${dropped}${late}` };
    }
    case "runner-updated":
      return { text: `${who()} ändrad${changesText(p.changes)}` };
    case "runner-anonymised":
      return { text: "En löpares personuppgifter raderade" };
    case "runner-removed":
      return { text: `${who()} borttagen ur loppet` };
    case "runner-moving":
      return { text: `${who()} flyttas till ${str(p.to) ?? "ett annat lopp"}` };
    case "runner-moved": {
      const dropped = num(p.droppedBib) !== null ? ` (startnummer ${num(p.droppedBib)} var upptaget där)` : "";
      return { text: `${who()} flyttad till ${str(p.to) ?? "ett annat lopp"}${dropped}` };
    }
    case "runner-move-cancelled": {
      const reason = str(p.reason) ? `: ${clause(str(p.reason)!)}` : "";
      return { text: `Flytten av ${who()} till ${str(p.to) ?? "ett annat lopp"} avbröts${reason}` };
    }
    case "start": {
      const late = num(p.receivedAt) !== null && num(p.at) !== null && num(p.receivedAt)! - num(p.at)! >= LATE_MS;
      return { text: `Loppet startade ${t(p.at)}${late ? ` (nådde servern ${t(p.receivedAt)})` : ""}` };
    }
    case "same-start":
      return { text: `Starta tryckt ${t(p.at)}: samma start som ${t(p.first)}, den gäller` };
    case "start-moved":
      return {
        text: `Starttiden ändrad till ${t(p.at)}${num(p.previous) !== null ? `, ersatte ${t(p.previous)}` : ""}${
          p.review ? " (från granskning)" : ""
        }`,
      };
    case "finish":
      return finishSentence(p, who(), t);
    case "restore":
      return {
        text: `${who()} tillbaka bland de väntande${num(p.previous) !== null ? ` (målgång ${t(p.previous)} ångrad)` : ""}`,
      };
    case "time-restored":
      return {
        text: `${who()} fick tillbaka tiden ${t(p.at)}${num(p.previous) !== null ? `, ersatte ${t(p.previous)}` : ""}`,
      };
    case "dns":
      return { text: `${who()} markerad ej start` };
    case "dns-removed":
      return { text: `${who()} inte längre markerad ej start` };
    case "end":
      return { text: "Loppet avslutat" };
    case "reset":
      return { text: resetSentence(p, t) };
    case "review-added":
      return { text: `Till granskning: ${reviewText(p, ctx)}${str(p.reason) ? ` – ${clause(str(p.reason)!)}` : ""}` };
    case "review-applied":
      return { text: `Granskning använd: ${reviewText(p, ctx)}` };
    case "review-discarded":
      return { text: `Granskning kastad: ${reviewText(p, ctx)}` };
    // Times first, bibs later (rapid timing): the presses, the typed bibs and what became of each finish time.
    case "rapid-tap":
      return {
        text: `Mål! tryckt ${t(p.at)}${num(p.clampedFrom) !== null ? " (före starten, satt till starten)" : ""}`,
      };
    case "bib-entered":
      return { text: `Startnummer ${bibText(p.bib)} inskrivet${str(p.review) ? " (från granskning)" : ""}` };
    case "bib-changed":
      return { text: `Startnummer ${bibText(p.previous)} ändrat till ${bibText(p.bib)}` };
    case "bib-removed":
      return { text: `Startnummer ${bibText(p.bib)} borttaget` };
    case "bib-restored":
      return { text: `Startnummer ${bibText(p.bib)} tillbaka` };
    case "bib-removed-with-slot":
      return { text: `Startnummer ${bibText(p.bib)} och ${slotText(p, t)} borttagna` };
    case "slot-paired":
    case "slot-time-used":
      return {
        text: `${who()} i mål ${t(p.at)} (${slotText(p, t, false)})${
          num(p.previous) !== null && num(p.previous) !== num(p.at) ? `, ersatte ${t(p.previous)}` : ""
        }`,
      };
    case "slot-unpaired":
      return { text: `${who()} inte längre i mål${num(p.previous) !== null ? ` (${t(p.previous)})` : ""}` };
    case "slot-assigned":
      return { text: `${capitalised(slotText(p, t))} kopplad till ${who()}` };
    case "slot-unassigned":
      return { text: `Måltiden inte längre kopplad till ${who()}` };
    case "slot-discarded":
      return { text: `${capitalised(slotText(p, t))} kastad` };
    case "slot-restored":
      return { text: "Kastad måltid tillbaka" };
    case "slot-kept":
      return { text: `${capitalised(slotText(p, t))} behållen` };
    case "main-timer":
      return { text: `Huvudtidtagare: ${deviceLabel(str(p.device), ctx) || "ingen"}` };
    case "results-official":
      return { text: `Resultaten markerade som officiella (${num(p.finished) ?? 0} av ${num(p.runners) ?? 0} i mål)` };
    case "results-preliminary":
      return { text: "Resultaten preliminära igen" };
    case "dns-not-picked-up": {
      const n = Array.isArray(p.runners) ? p.runners.length : 0;
      return { text: `${n === 1 ? "1 löpare" : `${n} löpare`} utan hämtad nummerlapp markerade ej start` };
    }
    case "review-updated": {
      const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
      return {
        text: `Att granska: ${count(p.opened)} nya, ${count(p.changed)} ändrade, ${count(p.resolved)} lösta`,
      };
    }
    case "photo":
      return { text: `Målfoto ${(num(p.frame) ?? 0) + 1} av 3 sparat` };
    case "photos-deleted":
      return {
        text:
          p.reason === "retention"
            ? `Målfotona raderade ${PHOTO_RETENTION_DAYS} dagar efter loppet`
            : `Målfotona raderade (${num(p.frames) ?? 0} bilder)`,
      };
    default:
      return { text: `${type}${Object.keys(p).length > 0 ? ` ${payloadSummary(p)}` : ""}` };
  }
}

/** The bib's number as the log writes it, or 'okänt'. */
const bibText = (v: unknown): string => (num(v) !== null ? `${num(v)}` : "okänt");

/** 'måltid #3 (10:58:09)': a slot as the rapid panel numbers it. */
function slotText(p: Payload, t: (v: unknown) => string, withTime = true): string {
  const number = num(p.number);
  const name = number !== null ? `måltid #${number}` : "måltiden";
  return withTime && num(p.at) !== null ? `${name} (${t(p.at)})` : name;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A start that reached the server this much after its press was queued offline: the log says when it arrived. */
const LATE_MS = 10_000;

function finishSentence(p: Payload, who: string, t: (v: unknown) => string): { text: string; restore?: boolean } {
  const at = num(p.at);
  const previous = num(p.previous);
  const base = `${who} i mål ${t(p.at)}`;
  switch (p.outcome) {
    case "same-finish":
      // The earliest of the two moments is the finish.
      return previous !== null && at !== null && at < previous
        ? { text: `${base}, samma målgång som ${t(previous)}, den tidigare gäller`, restore: true }
        : { text: `${base}, samma målgång som ${t(previous)}, som gäller` };
    case "conflict":
      return previous !== null && at !== null && at < previous
        ? {
            text: `${base}, men var redan i mål ${t(previous)} enligt en annan telefon; den tidigare tiden gäller`,
            restore: true,
          }
        : { text: `${base}, men var redan i mål ${t(previous)}; den tidigare tiden gäller` };
    default:
      // 'recorded', 'rerecorded', a review item applied: a previous time was replaced when there was one.
      return previous !== null && previous !== at
        ? { text: `${base}, ersatte ${t(previous)}`, restore: true }
        : { text: base };
  }
}

function resetSentence(p: Payload, t: (v: unknown) => string): string {
  const prev = typeof p.previous === "object" && p.previous ? (p.previous as Payload) : {};
  const finishes = Array.isArray(p.finishes)
    ? p.finishes.filter((f) => Array.isArray(f) && typeof f[1] === "number").length
    : 0;
  const parts: string[] = [];
  if (num(prev.started) !== null) parts.push(`starten ${t(prev.started)}`);
  if (finishes > 0) parts.push(finishes === 1 ? "1 måltid" : `${finishes} måltider`);
  return parts.length > 0 ? `Loppet återställt: ${parts.join(" och ")} raderade` : "Loppet återställt";
}

const FIELD_NAMES: Record<string, string> = {
  bib: "startnummer",
  firstname: "förnamn",
  lastname: "efternamn",
  age: "ålder",
  company: "förening",
  group: "klass",
};

function changesText(changes: unknown): string {
  if (typeof changes !== "object" || changes === null) return "";
  const parts = Object.entries(changes as Record<string, unknown>).map(([key, value]) => {
    const [before, after] = Array.isArray(value) ? value : [undefined, value];
    const show = (v: unknown) => (v === null || v === undefined || v === "" ? "inget" : String(v));
    return `${FIELD_NAMES[key] ?? key} ${show(before)} → ${show(after)}`;
  });
  return parts.length > 0 ? `: ${parts.join(", ")}` : "";
}

/** 'måltid 10:58:09 för Ella Berg (200)', 'start 10:00:00': the item as the list knew it, else from the row. */
function reviewText(p: Payload, ctx: LogContext): string {
  const review = str(p.id) ? ctx.reviews?.get(str(p.id)!) : undefined;
  const kind = str(p.kind) ?? review?.kind;
  const at = review?.at ?? num(p.at);
  const when = at !== null ? ` ${stockholmClockTime(at)}` : "";
  if (kind === "start") return `start${when}`;
  if (kind !== "tap" && !review) return "en post";
  const name = review
    ? (review.name ?? (review.runnerId ? namedText(ctx.runners.get(review.runnerId), review.bib ?? null) : ""))
    : "";
  return `måltid${when}${name ? ` för ${name}` : ""}`;
}

/** 'Ella Berg (200)', 'Ella Berg', 'Nr 200' or 'En löpare': the bib as the row gives it, the name as known. */
function runnerText(p: Payload, ctx: LogContext): string {
  const id = str(p.id);
  const known = id ? ctx.runners.get(id) : undefined;
  const fromRow: NamedRunner | undefined =
    str(p.firstname) || str(p.lastname)
      ? { firstname: str(p.firstname) ?? "", lastname: str(p.lastname) ?? "", bib: null }
      : undefined;
  const bib = "bib" in p ? bibOf(p.bib) : (known?.bib ?? null);
  return namedText(fromRow ?? known, bib);
}

function namedText(runner: NamedRunner | undefined, bib: number | null): string {
  const name = runner ? `${runner.firstname} ${runner.lastname}`.trim() : "";
  if (name && bib !== null) return `${name} (${bib})`;
  if (name) return name;
  return bib !== null ? `Nr ${bib}` : "En löpare";
}

function kmText(metres: number): string {
  return `${String(metres / 1000).replace(".", ",")} km`;
}

const PAYLOAD_SHOWN = 80;
const isEpochMs = (v: unknown): v is number => typeof v === "number" && v > 1e12 && v < 1e13;

/** A row of a type this screen does not know: its fields as 'key: value, …' (moments as times), cut short. */
export function payloadSummary(p: Payload): string {
  const text = Object.entries(p)
    .filter(([k]) => k !== "tapId" && k !== "receivedAt")
    .map(([k, v]) => `${k}: ${isEpochMs(v) ? stockholmClockTime(v) : typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  return text.length > PAYLOAD_SHOWN ? `${text.slice(0, PAYLOAD_SHOWN - 1)}…` : text;
}

function parsePayload(text: string): Payload {
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Payload) : {};
  } catch {
    return {};
  }
}

/** A server's sentence inside ours: without its full stop. */
const clause = (text: string) => text.replace(/[.\s]+$/, "");
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bibOf = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null);

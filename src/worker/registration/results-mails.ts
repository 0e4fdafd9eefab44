/**
 * E-mail to families about their runners' results (issue 28, item 3), through the mail queue like every mailing
 * (mass-email/mailings.ts: claimed per recipient, never sent twice, the unsubscribe link and list respected).
 *
 * - `mailOfficialResults(env, race)`: the race's results were marked 'Officiella'. Every family with a paid
 *   runner in the race gets one mail with their runners' times and placings and a link to the diplomas, once per
 *   race: the family's row in `results_mails` is claimed by an INSERT that only one call can make, so a second
 *   call (the event repeated, two admins, a retry) mails nobody again.
 * - `mailCorrectedResults(env, race)`: a correction after that. Only a family whose own runner's time or status
 *   (finished, not started, still out, no longer in the race) differs from what their last mail said gets one more
 *   mail, saying what changed; a placing that moved because another runner was corrected sends nothing. A runner
 *   who left the race (a move to another distance, a refund) is found through the race object's `gone` list. The row moves on by a
 *   conditional UPDATE on the summary the mail was built from, so of two corrections read at the same moment
 *   only one mails each change.
 *
 * Who calls them: the race object (src/durable/race/results-mail.ts). Once its results are official, every change
 * it commits ('Officiella' itself, and any change of a runner, whichever route, phone, desk or alarm made it) leaves
 * a mail owed, and its alarm calls `mailOfficialResults` then `mailCorrectedResults` with the race as it is then
 * (its snapshot, read from the object's own storage). One caller, one run at a time per race: the mails follow the
 * changes in order.
 *
 * An erased family (personal-data) is not among the families; one erased while a call goes through them is found
 * by the read after its writes and gets nothing, with nothing of it left (`takenBackIfErased`).
 *
 * A family that unsubscribed from mailings gets no results mail (their row is still claimed, so a later
 * correction compares with what the race said at the time; the queue's consumer checks the list again before
 * sending). Each family's mail is written as a mailing of its own while the families are gone through, and all of
 * them go onto the queue at the end, 100 per call. The mail is at most once: a crash after the claim and before
 * the mailing is written leaves that family without it, and one before the queue call leaves the mailings queued
 * in D1 (`POST /admin/api/mailings/{id}/resume` sends them), never two.
 */
import { and, eq, isNotNull, isNull, notLike, sql } from "drizzle-orm";
import { distanceFromMeters, distanceLabel } from "../../shared/distances";
import { publishingRules } from "../../shared/child-safe";
import { familyRunnerResults, type FamilyRunnerResult } from "../../shared/family-results";
import { partYear } from "../../shared/race-id";
import type { RaceRecord, RaceSnapshot, RunnerRecord } from "../../shared/race-protocol";
import { SEASON } from "../../shared/season";
import { database, type Db } from "../db/client";
import { ERASED_DOMAIN, scoped, type ErasureScope, type ErasureStatement } from "../db/erasure";
import { participants, registrations, resultsMails, unsubscribes } from "../db/schema";
import { ENQUEUE_CHUNK, type MailMessage } from "../mass-email/mailings";
import { createMailing } from "../mass-email/mailings-db";
import { familyTimeText } from "./diplomas";

/** What a mail tells about one runner, and what a correction is compared on: time and status, not placing. */
export interface MailedRunner {
  id: string;
  name: string;
  /** 'removed': told about before, no longer in the race (moved to another distance, refunded, taken out). */
  status: "finished" | "dns" | "out" | "removed";
  time: string | null;
}

export interface ResultsMailReport {
  /** Families mailed now. */
  mailed: number;
  /** Families already told this (official: mailed before; correction: nothing of theirs changed). */
  unchanged: number;
  /** Families on the unsubscribe list: claimed, not mailed. */
  unsubscribed: number;
  /** Families erased (personal-data) while this call went through them: what it wrote for them taken back. */
  erased: number;
}

function statusText(r: Pick<MailedRunner, "status" | "time">): string {
  if (r.status === "finished" && r.time) return familyTimeText(r.time);
  if (r.status === "removed") return "inte längre med i loppet";
  return r.status === "dns" ? "startade inte" : "ingen tid";
}

function placingText(r: FamilyRunnerResult): string {
  if (r.place === null) return "";
  const klass = r.klass && r.classPlace !== null ? `, ${r.classPlace} av ${r.placedInClass} i ${r.klass}` : "";
  return ` – plats ${r.place} av ${r.placedInDistance}${klass}`;
}

export function mailedRunners(runners: readonly RunnerRecord[]): MailedRunner[] {
  return runners.map((r) => ({
    id: r.id,
    name: `${r.firstname} ${r.lastname}`.trim(),
    status: r.time !== undefined ? "finished" : r.dns ? "dns" : "out",
    time: r.time ?? null,
  }));
}

function raceTitle(race: RaceRecord): string {
  const d = distanceFromMeters(race.distance);
  const year = partYear(race.part) ?? Number(race.date.slice(0, 4));
  return `${SEASON.siteName} ${year}${d ? `, ${distanceLabel(d)}` : ""}`;
}

/** The official mail's text: each runner with time and placing, and where the diplomas are. */
export function officialMailText(
  race: RaceRecord,
  runners: readonly MailedRunner[],
  results: readonly FamilyRunnerResult[],
  origin: string,
): { subject: string; message: string } {
  const title = raceTitle(race);
  const lines = runners.map((r) => {
    const result = results.find((x) => x.id === r.id);
    return `${r.name}: ${statusText(r)}${result && r.status === "finished" ? placingText(result) : ""}`;
  });
  return {
    subject: `Officiella resultat: ${title}`,
    message: [
      "Hej!",
      `Resultaten från ${title} är nu officiella.`,
      lines.join("\n"),
      `Diplomen kan skrivas ut när du har loggat in på ${origin}/anmalan (under Resultat).`,
      "Tack för att ni sprang!",
    ].join("\n\n"),
  };
}

/**
 * The correction mail's text: only the runners whose time or status changed, before → now. A runner the last mail
 * did not name (added to the race after it: the box office or a late payment on an ended race, which comes in marked
 * DNS) is a change once they have a time, not before.
 */
export function correctionMailText(
  race: RaceRecord,
  before: readonly MailedRunner[],
  now: readonly MailedRunner[],
  origin: string,
): { subject: string; message: string } | null {
  const changed = now.filter((r) => {
    const was = before.find((b) => b.id === r.id);
    return was ? was.status !== r.status || was.time !== r.time : r.status === "finished";
  });
  if (changed.length === 0) return null;
  const title = raceTitle(race);
  const lines = changed.map((r) => {
    const was = before.find((b) => b.id === r.id);
    return `${r.name}: ${was ? `${statusText(was)} → ` : ""}${statusText(r)}`;
  });
  return {
    subject: `Rättade resultat: ${title}`,
    message: [
      "Hej!",
      `Ett resultat i ${title} har rättats efter att resultaten blev officiella:`,
      lines.join("\n"),
      `Diplomen med den rättade tiden finns när du har loggat in på ${origin}/anmalan (under Resultat).`,
    ].join("\n\n"),
  };
}

interface Family {
  registrationId: string;
  email: string;
  ids: Set<string>;
}

/** The paid runners of the race (not taken out by a refund), by family; an erased family (its placeholder) is none. */
async function familiesInRace(db: Db, part: string): Promise<Family[]> {
  const rows = await db
    .select({ registrationId: registrations.id, email: registrations.email, id: participants.id })
    .from(participants)
    .innerJoin(registrations, eq(participants.registrationId, registrations.id))
    .where(
      and(
        eq(participants.raceId, part),
        isNotNull(participants.paidBy),
        isNull(participants.deregisteredAt),
        notLike(registrations.email, `%@${ERASED_DOMAIN}`),
      ),
    )
    .all();
  const byRegistration = new Map<string, Family>();
  for (const row of rows) {
    let family = byRegistration.get(row.registrationId);
    if (!family) {
      family = { registrationId: row.registrationId, email: row.email, ids: new Set() };
      byRegistration.set(row.registrationId, family);
    }
    family.ids.add(row.id);
  }
  return [...byRegistration.values()];
}

/**
 * The families of runners that were in the race when its results became official and have left it since (`gone`,
 * the race object's list: moved to another distance, refunded, taken out), by their participant rows (primary key),
 * added to `families` when not there already. Their runners are not in `ids`: only their last mail names them.
 */
async function withFamiliesOfGone(db: Db, families: Family[], gone: readonly string[]): Promise<Family[]> {
  if (gone.length === 0) return families;
  const rows = await db
    .select({ registrationId: registrations.id, email: registrations.email })
    .from(participants)
    .innerJoin(registrations, eq(participants.registrationId, registrations.id))
    .where(
      and(
        sql`${participants.id} IN (SELECT value FROM json_each(${JSON.stringify(gone)}))`,
        notLike(registrations.email, `%@${ERASED_DOMAIN}`),
      ),
    )
    .all();
  const known = new Set(families.map((f) => f.registrationId));
  const added = rows.filter((r) => !known.has(r.registrationId) && known.add(r.registrationId));
  return [
    ...families,
    ...added.map((r) => ({ registrationId: r.registrationId, email: r.email, ids: new Set<string>() })),
  ];
}

/**
 * A family's runners as a correction compares them: those in the race now, and each runner their last mail named
 * who is no longer in the race ('removed'), so leaving the race is a change told once.
 */
function correctionSummary(
  runners: readonly RunnerRecord[],
  family: Family,
  before: readonly MailedRunner[],
): MailedRunner[] {
  const inRace = new Set(runners.map((r) => r.id));
  const summary = mailedRunners(runners.filter((r) => family.ids.has(r.id)));
  const named = new Set(summary.map((r) => r.id));
  for (const b of before) {
    if (!inRace.has(b.id) && !named.has(b.id)) summary.push({ id: b.id, name: b.name, status: "removed", time: null });
  }
  return summary;
}

/** The families' addresses on the unsubscribe list, in one read. */
async function unsubscribed(db: Db, families: readonly Family[]): Promise<Set<string>> {
  if (families.length === 0) return new Set();
  const rows = await db
    .select({ email: unsubscribes.email })
    .from(unsubscribes)
    .where(sql`${unsubscribes.email} IN (SELECT value FROM json_each(${JSON.stringify(families.map((f) => f.email))}))`)
    .all();
  return new Set(rows.map((r) => r.email));
}

/** One family's mail as a mailing of its own (its recipient queued); null when it was not written. */
function writeMailing(
  db: Db,
  family: Family,
  mail: { subject: string; message: string },
  race: RaceRecord,
  now: number,
): Promise<number | null> {
  return createMailing(
    db,
    {
      audience: "results",
      subject: mail.subject,
      message: mail.message,
      createdBy: "system",
      recipients: [{ email: family.email, name: "", race: race.part }],
      sendKeyExtra: family.registrationId,
    },
    now,
    0,
  );
}

/**
 * An erasure of the family (personal-data) at the same moment as this mail: the families and the race were read
 * before anything is written, so an erasure can land between the read and the family's row (`results_mails`, with
 * the runners' names) or its mailing (the address and the names). Read after writing them: when the registration
 * is erased by then (its placeholder address) or gone, the family's row and mailing are deleted here and it is not
 * mailed (true). An erasure after this read finds them written and removes them itself (resultsMailErasure,
 * mailingErasure). Each D1 statement is one step, so every order of the two ends with nothing of the family.
 */
async function takenBackIfErased(db: Db, family: Family, part: string, mailingId: number | null): Promise<boolean> {
  const now = await db
    .select({ email: registrations.email })
    .from(registrations)
    .where(eq(registrations.id, family.registrationId))
    .get();
  if (now && now.email === family.email && !now.email.endsWith(`@${ERASED_DOMAIN}`)) return false;
  const d1 = db.$client;
  await d1.batch([
    d1.prepare("DELETE FROM results_mails WHERE registration_id = ? AND race_id = ?").bind(family.registrationId, part),
    ...(mailingId === null
      ? []
      : [
          d1.prepare("DELETE FROM mailing_recipients WHERE mailing_id = ?").bind(mailingId),
          d1.prepare("DELETE FROM mailings WHERE id = ?").bind(mailingId),
        ]),
  ]);
  return true;
}

/** The written mailings onto the mail queue, ENQUEUE_CHUNK messages per call (the consumer claims each). */
async function enqueue(env: Env, messages: readonly MailMessage[]): Promise<void> {
  const queue = env.MAIL_QUEUE as Queue<MailMessage>;
  for (let i = 0; i < messages.length; i += ENQUEUE_CHUNK) {
    await queue.sendBatch(messages.slice(i, i + ENQUEUE_CHUNK).map((body) => ({ body })));
  }
}

/** The race's results were marked official: each family with a runner in it is mailed once per race. */
export async function mailOfficialResults(
  env: Env,
  snapshot: RaceSnapshot,
  now = Date.now(),
): Promise<ResultsMailReport> {
  const db = database(env.DB);
  const [race, ...runners] = snapshot;
  const part = race.part;
  const rules = publishingRules(SEASON);
  const report: ResultsMailReport = { mailed: 0, unchanged: 0, unsubscribed: 0, erased: 0 };
  const families = await familiesInRace(db, part);
  const off = await unsubscribed(db, families);
  const messages: MailMessage[] = [];
  for (const family of families) {
    const own = runners.filter((r) => family.ids.has(r.id));
    if (own.length === 0) continue;
    const summary = mailedRunners(own);
    const claimed = await db
      .insert(resultsMails)
      .values({ registrationId: family.registrationId, raceId: part, results: JSON.stringify(summary), mailedAt: now })
      .onConflictDoNothing()
      .run();
    if (claimed.meta.changes !== 1) {
      report.unchanged++;
      continue;
    }
    let id: number | null = null;
    if (!off.has(family.email)) {
      const results = familyRunnerResults(race, runners, family.ids, rules);
      id = await writeMailing(db, family, officialMailText(race, summary, results, env.PUBLIC_ORIGIN), race, now);
    }
    if (await takenBackIfErased(db, family, part, id)) {
      report.erased++;
      continue;
    }
    if (off.has(family.email)) {
      report.unsubscribed++;
      continue;
    }
    if (id !== null) messages.push({ mailingId: id, email: family.email });
    report.mailed++;
  }
  await enqueue(env, messages);
  return report;
}

/**
 * A correction after the results were official: the families whose own runner's time or status changed since
 * their last mail get one more mail saying what changed. A family never told (results not official yet) gets
 * nothing here: the official mail will carry the corrected result.
 */
export async function mailCorrectedResults(
  env: Env,
  snapshot: RaceSnapshot,
  now = Date.now(),
  gone: readonly string[] = [],
): Promise<ResultsMailReport> {
  const db = database(env.DB);
  const [race, ...runners] = snapshot;
  const part = race.part;
  const report: ResultsMailReport = { mailed: 0, unchanged: 0, unsubscribed: 0, erased: 0 };
  const families = await withFamiliesOfGone(db, await familiesInRace(db, part), gone);
  const off = await unsubscribed(db, families);
  const messages: MailMessage[] = [];
  for (const family of families) {
    const row = await db
      .select({ results: resultsMails.results })
      .from(resultsMails)
      .where(and(eq(resultsMails.registrationId, family.registrationId), eq(resultsMails.raceId, part)))
      .get();
    if (!row) continue;
    const before = JSON.parse(row.results) as MailedRunner[];
    const summary = correctionSummary(runners, family, before);
    const mail = correctionMailText(race, before, summary, env.PUBLIC_ORIGIN);
    if (!mail) {
      report.unchanged++;
      continue;
    }
    // Moves on only from the summary this mail was built from: of two corrections at once, one mails the change.
    const moved = await db
      .update(resultsMails)
      .set({ results: JSON.stringify(summary), mailedAt: now })
      .where(
        and(
          eq(resultsMails.registrationId, family.registrationId),
          eq(resultsMails.raceId, part),
          eq(resultsMails.results, row.results),
        ),
      )
      .run();
    if (moved.meta.changes !== 1) {
      report.unchanged++;
      continue;
    }
    const id = off.has(family.email) ? null : await writeMailing(db, family, mail, race, now);
    if (await takenBackIfErased(db, family, part, id)) {
      report.erased++;
      continue;
    }
    if (off.has(family.email)) {
      report.unsubscribed++;
      continue;
    }
    if (id !== null) messages.push({ mailingId: id, email: family.email });
    report.mailed++;
  }
  await enqueue(env, messages);
  return report;
}

/**
 * Erasure (db/erasure.ts): what the family's results mails said (`results_mails`, runners' names and times), and
 * the mails themselves: each is a mailing of its own whose text names the runners, so once its one recipient row
 * is gone (mailingErasure runs before this) the mailing goes too.
 */
export function resultsMailErasure(d1: D1Database, scope: ErasureScope): ErasureStatement[] {
  return [
    { statement: scoped(d1, scope, `DELETE FROM results_mails WHERE registration_id IN (${scope.registrations})`) },
    {
      statement: d1.prepare(
        `DELETE FROM mailings WHERE audience = 'results'
           AND NOT EXISTS (SELECT 1 FROM mailing_recipients WHERE mailing_recipients.mailing_id = mailings.id)`,
      ),
    },
  ];
}

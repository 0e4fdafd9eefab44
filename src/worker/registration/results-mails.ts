/**
 * E-mail to families about their runners' results (issue 28, item 3), through the mail queue like every mailing
 * (mass-email/mailings.ts: claimed per recipient, never sent twice, the unsubscribe link and list respected).
 *
 * - `mailOfficialResults(env, race)`: the race's results were marked 'Officiella'. Every family with a paid
 *   runner in the race gets one mail with their runners' times and placings and a link to the diplomas, once per
 *   race: the family's row in `results_mails` is claimed by a write that only one call can make, so a second
 *   call (the event repeated, two admins, a retry) mails nobody again.
 * - `mailCorrectedResults(env, race)`: a correction after that. Only a family whose own runner's time or status
 *   (finished, not started, still out, no longer in the race) differs from what their last mail said gets one more
 *   mail, saying what changed; a placing that moved because another runner was corrected sends nothing. A runner
 *   who left the race (a move to another distance, a refund) is found through the race object's `gone` list. The
 *   row moves on only from the summary the mail was built from, so of two corrections read at the same moment only
 *   one mails each change.
 *
 * Who calls them: the race object (src/durable/race/results-mail.ts). Once its results are official, every change
 * it commits ('Officiella' itself, and any change of a runner, whichever route, phone, desk or alarm made it) leaves
 * a mail owed, and its alarm calls `mailOfficialResults` then `mailCorrectedResults` with the race as it is then
 * (its snapshot, read from the object's own storage). One caller, one run at a time per race: the mails follow the
 * changes in order. A run that throws leaves the mail owed and the alarm runs again (issue 39, item 4: every family
 * mailed, once).
 *
 * One family's mail about one race, in states (what D1 holds; each arrow is one D1 batch, or one queue call):
 *
 *   (none) ──claim: one batch writes the row (`results`, `mailing_id`), the mailing and its recipient 'queued'──▶ written
 *   (none) ──claim of a family on the unsubscribe list: the row alone, mailing_id NULL──▶ told (final, no mail)
 *   written (mailings.handed_at NULL) ──the queue took its message, then handed_at set──▶ handed
 *   handed ──the queue's consumer: recipient queued → claimed → sent (mass-email/mailings.ts)──▶ sent
 *   handed | told ──correction: one batch moves the row on from the summary the mail was built from and writes
 *                  the new mailing (or none, unsubscribed)──▶ written | told
 *   any ──the family erased (personal-data: one batch deletes the row, the recipient, the results mailing)──▶ (none)
 *
 * Invariants:
 * - No claim without its mail, no mail without its claim: the row, the mailing and its recipient are written in
 *   one D1 batch (a transaction), every statement on the same condition (no row yet, or the row still holding the
 *   summary the mail was built from; and the registration still holding the family's address, not erased), the
 *   row's own statement last, turning the condition false for anyone after. A failure at any family (a D1 error at
 *   family 180 of 300) leaves each family fully written or untouched: the retry claims the untouched ones.
 * - Each family's mail goes to the queue right after its batch, then `handed_at` says the queue took it. A run that
 *   fails between the two, or in the queue call, leaves at most that one family written and not handed; every run
 *   first hands again each of the race's claims whose mailing the queue never took (`handOverWaiting`), so the
 *   retry sends what the claim holds. A family is handed at least once per claim.
 * - Sent at most once: however often a mailing is handed (a retry after the queue took it but before handed_at was
 *   written, a resume from the mass e-mail screen at the same moment), only the delivery that claims its recipient
 *   queued → claimed sends (mass-email/mailings.ts).
 * - Whatever still waits (handed or not, or refused by the provider) is listed on the mass e-mail screen under its
 *   race and can be resumed there (mass-email/routes.ts); so is a mailing whose row a concurrent correction moved on
 *   before it was handed (two calls at once for one race, which the race object never makes).
 *
 * An erased family (personal-data) is not among the families; one erased while a call goes through them is either
 * erased before its batch (the batch's condition finds the address gone and writes nothing: `erased` in the report)
 * or after it (the erasure deletes the row, the recipient and the mailing; a message already on the queue finds no
 * mailing and sends nothing). D1 runs the two batches one after the other, so every order ends with nothing of it.
 *
 * A family that unsubscribed from mailings gets no results mail (their row is still claimed, so a later
 * correction compares with what the race said at the time; the queue's consumer checks the list again before
 * sending).
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
import { enqueueMessages, type MailMessage } from "../mass-email/mailings";
import { createMailingIf, markHanded } from "../mass-email/mailings-db";
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
  /** Families erased (personal-data) while this call went through them: nothing written for them. */
  erased: number;
  /** Families whose mail an earlier run wrote and the queue never took: handed to the queue now. */
  handedAgain: number;
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

/**
 * The paid runners of the race (not taken out by a refund), by family, in the order of their registrations (a run
 * and its retry go through them the same way); an erased family (its placeholder) is none.
 */
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
    .orderBy(registrations.id, participants.id)
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

/** What a family's claim came to: written (with its mailing, or none when unsubscribed), taken before, or erased. */
type Claim = { outcome: "written"; mailingId: number | null } | { outcome: "taken" } | { outcome: "erased" };

/**
 * One family's claim (module comment: the states): its row in `results_mails` and, unless `mail` is null (the
 * family unsubscribed), its mail as a mailing of its own with the family's address as its one recipient, all in
 * one D1 batch on one condition: the row does not exist yet (`from` null: the official mail) or still holds `from`
 * (a correction: the summary it was built from), and the registration still holds the family's address (not
 * erased). The row's statement comes last among the writes, so it turns the condition false for any later batch; a
 * read of the registration after it tells a claim taken by another call from a family erased meanwhile.
 */
async function claim(
  db: Db,
  family: Family,
  part: string,
  summary: readonly MailedRunner[],
  from: string | null,
  mail: { subject: string; message: string } | null,
  now: number,
): Promise<Claim> {
  const d1 = db.$client;
  const reg = family.registrationId;
  const row =
    from === null
      ? {
          sql: "NOT EXISTS (SELECT 1 FROM results_mails WHERE registration_id = ? AND race_id = ?)",
          params: [reg, part],
        }
      : {
          sql: "EXISTS (SELECT 1 FROM results_mails WHERE registration_id = ? AND race_id = ? AND results = ?)",
          params: [reg, part, from],
        };
  const when = {
    sql: `${row.sql} AND EXISTS (SELECT 1 FROM registrations WHERE id = ? AND email = ?)`,
    params: [...row.params, reg, family.email],
  };
  // The mailing this batch wrote is the newest one: D1 runs one batch at a time (mailings-db.ts createMailing).
  const mailingId = mail ? "(SELECT max(id) FROM mailings)" : "NULL";
  const results = JSON.stringify(summary);
  const writeRow =
    from === null
      ? d1
          .prepare(
            `INSERT INTO results_mails (registration_id, race_id, results, mailed_at, mailing_id)
             SELECT ?, ?, ?, ?, ${mailingId} WHERE ${when.sql}`,
          )
          .bind(reg, part, results, now, ...when.params)
      : d1
          .prepare(
            `UPDATE results_mails SET results = ?, mailed_at = ?, mailing_id = ${mailingId}
              WHERE registration_id = ? AND race_id = ? AND ${when.sql}`,
          )
          .bind(results, now, reg, part, ...when.params);
  const address = d1.prepare("SELECT email FROM registrations WHERE id = ?").bind(reg);
  let id: number | null = null;
  let after: D1Result[];
  if (mail) {
    const written = await createMailingIf(
      db,
      {
        audience: "results",
        subject: mail.subject,
        message: mail.message,
        createdBy: "system",
        recipients: [{ email: family.email, name: "", race: part }],
      },
      now,
      when,
      [writeRow, address],
    );
    id = written.id;
    after = written.also;
  } else {
    after = await d1.batch([writeRow, address]);
  }
  const [rowResult, addressResult] = after as [D1Result, D1Result<{ email: string }>];
  if (rowResult.meta.changes === 1) return { outcome: "written", mailingId: id };
  return addressResult.results[0]?.email === family.email ? { outcome: "taken" } : { outcome: "erased" };
}

/** The mailings onto the mail queue, then marked handed (the queue took them). */
async function handOver(env: Env, db: Db, messages: readonly MailMessage[], now: number): Promise<void> {
  if (messages.length === 0) return;
  await enqueueMessages(env.MAIL_QUEUE as Queue<MailMessage>, messages);
  await markHanded(db, [...new Set(messages.map((m) => m.mailingId))], now);
}

/**
 * A run's first step: the race's claims whose mailing the queue never took (a run before this one failed between
 * a family's batch and the queue, or in the queue call) are handed to it now. A recipient no longer queued (sent
 * after a resume from the mass e-mail screen, or unsubscribed since) gets no message; its mailing is marked handed
 * too. The number of families handed.
 */
async function handOverWaiting(env: Env, db: Db, part: string, now: number): Promise<number> {
  const { results } = await db.$client
    .prepare(
      `SELECT m.id AS mailingId, r.email AS email, r.status AS status
         FROM results_mails rm JOIN mailings m ON m.id = rm.mailing_id
         LEFT JOIN mailing_recipients r ON r.mailing_id = m.id
        WHERE rm.race_id = ? AND rm.mailing_id IS NOT NULL AND m.handed_at IS NULL`,
    )
    .bind(part)
    .all<{ mailingId: number; email: string | null; status: string | null }>();
  if (results.length === 0) return 0;
  const messages = results
    .filter((r) => r.status === "queued" && r.email !== null)
    .map((r) => ({ mailingId: r.mailingId, email: r.email! }));
  await enqueueMessages(env.MAIL_QUEUE as Queue<MailMessage>, messages);
  await markHanded(db, [...new Set(results.map((r) => r.mailingId))], now);
  return messages.length;
}

/** Counts the claim in the report; a written mail goes to the queue at once. */
async function settle(
  env: Env,
  db: Db,
  report: ResultsMailReport,
  family: Family,
  claimed: Claim,
  now: number,
): Promise<void> {
  if (claimed.outcome === "erased") report.erased++;
  else if (claimed.outcome === "taken") report.unchanged++;
  else if (claimed.mailingId === null) report.unsubscribed++;
  else {
    await handOver(env, db, [{ mailingId: claimed.mailingId, email: family.email }], now);
    report.mailed++;
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
  const handedAgain = await handOverWaiting(env, db, part, now);
  const report: ResultsMailReport = { mailed: 0, unchanged: 0, unsubscribed: 0, erased: 0, handedAgain };
  const families = await familiesInRace(db, part);
  const off = await unsubscribed(db, families);
  for (const family of families) {
    const own = runners.filter((r) => family.ids.has(r.id));
    if (own.length === 0) continue;
    const summary = mailedRunners(own);
    const mail = off.has(family.email)
      ? null
      : officialMailText(race, summary, familyRunnerResults(race, runners, family.ids, rules), env.PUBLIC_ORIGIN);
    await settle(env, db, report, family, await claim(db, family, part, summary, null, mail, now), now);
  }
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
  const handedAgain = await handOverWaiting(env, db, part, now);
  const report: ResultsMailReport = { mailed: 0, unchanged: 0, unsubscribed: 0, erased: 0, handedAgain };
  const families = await withFamiliesOfGone(db, await familiesInRace(db, part), gone);
  const off = await unsubscribed(db, families);
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
    const claimed = await claim(db, family, part, summary, row.results, off.has(family.email) ? null : mail, now);
    await settle(env, db, report, family, claimed, now);
  }
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

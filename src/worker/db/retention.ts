/**
 * What the database keeps, and for how long (docs/data-and-security.md, "Data kept"). The cron (index.ts `scheduled`) calls
 * `purgeExpired` every five minutes; each call removes at most `PURGE_BATCH` rows per kind, so a backlog is worked
 * off over a few runs instead of in one long write.
 */
import { SEASON, type Season } from "../../shared/season";
import { addDays, stockholmToEpoch } from "../../shared/stockholm";
import type { Db } from "./client";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

export const RETENTION_MS = {
  /** Sessions, counted from their expiry or their logout. */
  sessions: DAY,
  /** Login codes, from their creation (the per-address limits look back one hour). */
  loginCodes: DAY,
  /** Wrong login-code tries, from the try (the limit looks back one hour). */
  loginFailures: DAY,
  /** The body of a logged e-mail (receipts, mass mail); recipient, subject, kind and time stay. */
  emailBodies: 30 * DAY,
  /**
   * A box-office runner's phone number, counted from the end of its season's race day: long enough to reach the
   * payer about a refund or a lost item, then the runner keeps no contact at all (its name, age and result stay,
   * like any runner's, until an erasure).
   */
  boxOfficePhones: 30 * DAY,
  /**
   * The audit line of a Google sign-in refused for an address that is not an admin (issue 43: anyone with a Google
   * account can make one; session/admin-sign-in.ts), from the attempt. Longer than a Google token lives (an hour),
   * so a replayed token is still recognised by its line; an admin's own sign-in lines are kept.
   */
  refusedSignIns: 30 * DAY,
} as const;

/**
 * The newest season whose box-office phone numbers are past their retention at `now`: the configured season once
 * 30 days have passed since its race day ended (Stockholm), otherwise the one before it (every earlier season's
 * race day was before the configured one's).
 */
export function phonesKeptAfterSeason(season: Season, now: number): number {
  const raceDayEnd = stockholmToEpoch(`${addDays(season.raceDay, 1)}T00:00`);
  return now >= raceDayEnd + RETENTION_MS.boxOfficePhones ? season.year : season.year - 1;
}

export const PURGE_BATCH = 500;

export interface PurgeReport {
  sessions: number;
  loginCodes: number;
  loginFailures: number;
  emailBodies: number;
  boxOfficePhones: number;
  refusedSignIns: number;
}

export async function purgeExpired(db: Db, now: number, season: Season = SEASON): Promise<PurgeReport> {
  const d1 = db.$client;
  const [sessions, loginCodes, loginFailures, emailBodies, boxOfficePhones, refusedSignIns] = await d1.batch([
    d1
      .prepare(
        `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions
           WHERE expires_at < ?1 OR revoked_at < ?1 LIMIT ?2)`,
      )
      .bind(now - RETENTION_MS.sessions, PURGE_BATCH),
    d1
      .prepare(`DELETE FROM login_codes WHERE id IN (SELECT id FROM login_codes WHERE created_at < ?1 LIMIT ?2)`)
      .bind(now - RETENTION_MS.loginCodes, PURGE_BATCH),
    d1
      .prepare(`DELETE FROM login_failures WHERE id IN (SELECT id FROM login_failures WHERE at < ?1 LIMIT ?2)`)
      .bind(now - RETENTION_MS.loginFailures, PURGE_BATCH),
    // The condition on the bodies is the partial index's own (schema.ts email_log_with_body), so only rows
    // that still have a body are visited.
    d1
      .prepare(
        `UPDATE email_log SET html = '', text = '' WHERE id IN (SELECT id FROM email_log
           WHERE (html <> '' OR text <> '') AND created_at < ?1 LIMIT ?2)`,
      )
      .bind(now - RETENTION_MS.emailBodies, PURGE_BATCH),
    // Box-office runners are the participants without a registration (index participants_registration).
    d1
      .prepare(
        `UPDATE participants SET phone = NULL WHERE id IN (SELECT id FROM participants
           WHERE registration_id IS NULL AND phone IS NOT NULL AND season <= ?1 LIMIT ?2)`,
      )
      .bind(phonesKeptAfterSeason(season, now), PURGE_BATCH),
    // Index audit_log_action_subject narrows to the refused lines; their number is bounded by ADMIN_AUTH_RL.
    d1
      .prepare(
        `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log
           WHERE action = 'admin.sign-in-refused' AND at < ?1 LIMIT ?2)`,
      )
      .bind(now - RETENTION_MS.refusedSignIns, PURGE_BATCH),
  ]);
  return {
    sessions: sessions!.meta.changes,
    loginCodes: loginCodes!.meta.changes,
    loginFailures: loginFailures!.meta.changes,
    emailBodies: emailBodies!.meta.changes,
    boxOfficePhones: boxOfficePhones!.meta.changes,
    refusedSignIns: refusedSignIns!.meta.changes,
  };
}

/**
 * The rows of the admin exports (routes.ts here writes them as CSV):
 *
 * - the RaceSplitter start list: every paid runner of a season, who counts as in
 *   src/worker/goodiebags/goodiebags-db.ts: a runner paid by the payment that booked it (`participants.paid_by`,
 *   registration and box office alike) and not deregistered by a refund; each runner once, under the distance it
 *   runs now; an adult running with a child without competing (shared/companion.ts) is not timed and not listed;
 * - the registrations list: every runner of every registration of a season, paid or not, with the payment that
 *   booked it, or for an unpaid runner the registration's latest payment when that one is not paid (an attempt for
 *   it); registrations without runners are left out, as in every admin list.
 */
import type { DistanceKm } from "../../shared/distances";
import type { Db } from "../db/client";

export interface PaidRunner {
  firstname: string;
  lastname: string;
  /** null: no number yet (spec: 0 or missing means none). */
  bib: number | null;
  distance: DistanceKm;
  company: string;
  /** The registration's e-mail; '' for a box-office runner. */
  email: string;
}

/** Paid runners of the season, by distance (the spec's order 5.6, 2.8, 1.6, 0.8), then bib (none last), then name. */
export async function paidRunners(db: Db, season: number): Promise<PaidRunner[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT p.firstname, p.lastname, p.bib, p.distance, p.company, coalesce(r.email, '') AS email
         FROM participants p LEFT JOIN registrations r ON r.id = p.registration_id
        WHERE p.season = ?1 AND p.paid_by IS NOT NULL AND p.deregistered_at IS NULL AND p.companion = 0
        ORDER BY CAST(p.distance AS REAL) DESC, p.bib IS NULL OR p.bib = 0, p.bib,
          p.lastname COLLATE NOCASE, p.firstname COLLATE NOCASE, p.id`,
    )
    .bind(season)
    .all<Omit<PaidRunner, "bib"> & { bib: number | null }>();
  // Spec: bib 0 means no number.
  return results.map((r) => ({ ...r, bib: r.bib === 0 ? null : r.bib }));
}

export interface RegistrationExportRow {
  registrationId: string;
  email: string;
  registeredAt: number;
  firstname: string;
  lastname: string;
  age: number;
  distance: DistanceKm;
  group: string;
  company: string;
  bib: number | null;
  /** 1 when the runner is paid (by `payid`). */
  paid: number;
  /** When a refund deregistered the runner; null while it runs. */
  deregisteredAt: number | null;
  /** The payment that booked the runner, or for an unpaid one the registration's unpaid latest payment; null when none. */
  payid: string | null;
  status: string | null;
  amount: number | null;
  kampanj: string | null;
  dateCreated: number | null;
  datePaid: number | null;
  /** Sum of the payment's refunds that went through (status PAID); 0 when none. */
  refunded: number;
  /** 1-based position of the runner among its registration's runners of the same payment (the first carries its amount). */
  position: number;
  /** When the runner picked up the bib at the desk (mirrored from the race object); null until then. */
  pickedUpAt: number | null;
  /** 1 for an adult running with a child without competing (shared/companion.ts). */
  companion: number;
}

/**
 * Every runner of the season's registrations with its payment: registrations by the time they were made, runners
 * within one by age (spec: "within one registration runners sorted by age"), then name. Each payment's amount and
 * refunds stand on the first of its runners, so a column sum counts every payment once.
 */
export async function registrationExportRows(db: Db, season: number): Promise<RegistrationExportRow[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT r.id AS registrationId, r.email, r.created_at AS registeredAt,
              p.firstname, p.lastname, p.age, p.distance, p."group" AS "group", p.company, p.bib,
              p.paid_by IS NOT NULL AS paid, p.deregistered_at AS deregisteredAt,
              p.picked_up_at AS pickedUpAt, p.companion,
              pay.id AS payid, pay.status, pay.amount, pay.kampanj,
              pay.date_created AS dateCreated, pay.date_paid AS datePaid,
              coalesce((SELECT sum(f.amount) FROM refunds f WHERE f.payid = pay.id AND f.status = 'PAID'), 0)
                AS refunded,
              row_number() OVER (PARTITION BY r.id, pay.id ORDER BY p.age, p.firstname, p.id) AS position
         FROM registrations r
         JOIN participants p ON p.registration_id = r.id
         LEFT JOIN payments pay ON pay.id = coalesce(p.paid_by,
           (SELECT latest.id FROM payments latest WHERE latest.id = r.payid AND latest.status <> 'PAID'))
        WHERE r.season = ?1
        ORDER BY r.created_at, r.id, p.age, p.firstname, p.id`,
    )
    .bind(season)
    .all<RegistrationExportRow>();
  return results.map((r) => ({ ...r, bib: r.bib === 0 ? null : r.bib }));
}

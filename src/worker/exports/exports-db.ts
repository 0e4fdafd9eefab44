/**
 * The rows of the admin exports (routes.ts here writes them as CSV):
 *
 * - the RaceSplitter start list: every PAID runner of a season, who counts as in src/worker/goodiebags/goodiebags-db.ts (spec §4: only
 *   PAID is examined): a runner of a registration whose selected payment (`payid`) is PAID, and a box-office
 *   runner (no registration) covered by a PAID payment of origin 'kassa' (`participant_ids`); each runner once,
 *   under the distance it runs now;
 * - the registrations list: every runner of every registration of a season, paid or not, with the registration's
 *   selected payment (registrations without runners are left out, as in every admin list).
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
      `WITH paid AS (
         SELECT p.id, p.firstname, p.lastname, p.bib, p.distance, p.company, r.email
           FROM registrations r
           JOIN payments pay ON pay.id = r.payid AND pay.status = 'PAID'
           JOIN participants p ON p.registration_id = r.id
          WHERE r.season = ?1 AND p.season = ?1
         UNION
         SELECT p.id, p.firstname, p.lastname, p.bib, p.distance, p.company, '' AS email
           FROM payments pay
           JOIN json_each(pay.participant_ids) j
           JOIN participants p ON p.id = j.value AND p.registration_id IS NULL
          WHERE pay.status = 'PAID' AND pay.origin = 'kassa' AND pay.season = ?1 AND p.season = ?1
       )
       SELECT firstname, lastname, bib, distance, company, email FROM paid
        ORDER BY CAST(distance AS REAL) DESC, bib IS NULL OR bib = 0, bib,
          lastname COLLATE NOCASE, firstname COLLATE NOCASE, id`,
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
  /** The selected payment (payid); all null when the registration has none. */
  payid: string | null;
  status: string | null;
  amount: number | null;
  kampanj: string | null;
  dateCreated: number | null;
  datePaid: number | null;
  /** Sum of the payment's refunds that went through (status PAID); 0 when none. */
  refunded: number;
  /** 1-based position of the runner within its registration (the first row carries the registration's amount). */
  position: number;
  /** When the runner picked up the bib at the desk (mirrored from the race object); null until then. */
  pickedUpAt: number | null;
}

/**
 * Every runner of the season's registrations with the registration's selected payment: registrations by the time
 * they were made, runners within one by age (spec: "within one registration runners sorted by age"), then name.
 */
export async function registrationExportRows(db: Db, season: number): Promise<RegistrationExportRow[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT r.id AS registrationId, r.email, r.created_at AS registeredAt,
              p.firstname, p.lastname, p.age, p.distance, p."group" AS "group", p.company, p.bib,
              p.picked_up_at AS pickedUpAt,
              pay.id AS payid, pay.status, pay.amount, pay.kampanj,
              pay.date_created AS dateCreated, pay.date_paid AS datePaid,
              coalesce((SELECT sum(f.amount) FROM refunds f WHERE f.payid = pay.id AND f.status = 'PAID'), 0)
                AS refunded,
              row_number() OVER (PARTITION BY r.id ORDER BY p.age, p.firstname, p.id) AS position
         FROM registrations r
         JOIN participants p ON p.registration_id = r.id
         LEFT JOIN payments pay ON pay.id = r.payid
        WHERE r.season = ?1
        ORDER BY r.created_at, r.id, position`,
    )
    .bind(season)
    .all<RegistrationExportRow>();
  return results.map((r) => ({ ...r, bib: r.bib === 0 ? null : r.bib }));
}

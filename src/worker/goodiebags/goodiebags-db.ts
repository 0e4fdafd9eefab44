/**
 * The goodie-bag packing list for race morning: how many paid runners of a season run each distance, children and
 * adults apart (the pricing's age rule: `season.adultAge`, shared/age.ts `isAdult`).
 *
 * Who counts: a runner paid by the payment that booked it (`participants.paid_by`, set when that payment became
 * PAID: a registration's runners, each by its own payment, and box-office runners alike) and not deregistered by a
 * refund. A runner counts once, under the distance it runs now (an admin's "Byt distans" is mirrored into
 * `participants.distance`); a box-office runner is one without a registration. A bag is handed out with the bib: `handedOut`
 * counts the runners who picked up at the desk (mirrored from the race objects), the rest are still to hand out.
 * An adult running with a child without competing (shared/companion.ts) is counted apart, `medBarn`, neither child
 * nor adult, and is part of the total (the course's head count); the organiser decides whether they get a medal.
 */
import { DISTANCES_DESC, distanceLabel, toDistance, type DistanceKm } from "../../shared/distances";
import type { Season } from "../../shared/season";
import type { Db } from "../db/client";

export interface BagCount {
  barn: number;
  vuxna: number;
  /** Adults running with a child without competing: in the total, neither children nor adults. */
  medBarn: number;
  total: number;
  /** Of the total, bags handed out: the runner picked up the bib at the desk (participants.picked_up_at). */
  handedOut: number;
}

export interface DistanceBags extends BagCount {
  distance: DistanceKm;
  /** '5,6km' (spec's admin labels). */
  label: string;
}

export interface GoodieBags {
  season: number;
  adultAge: number;
  /** The spec's admin order: 5.6, 2.8, 1.6, 0.8; every distance listed, zero or not. */
  distances: DistanceBags[];
  totals: BagCount;
  /** Of the totals, runners who paid at the box office. */
  boxOffice: BagCount;
}

interface Row {
  distance: string;
  adult: number;
  companion: number;
  box_office: number;
  picked: number;
  n: number;
}

export async function goodieBags(db: Db, season: Season): Promise<GoodieBags> {
  const { results } = await db.$client
    .prepare(
      `SELECT distance, age >= ?2 AS adult, companion, registration_id IS NULL AS box_office,
              picked_up_at IS NOT NULL AS picked, count(*) AS n
         FROM participants
        WHERE season = ?1 AND paid_by IS NOT NULL AND deregistered_at IS NULL
        GROUP BY distance, adult, companion, box_office, picked`,
    )
    .bind(season.year, season.adultAge)
    .all<Row>();

  const empty = (): BagCount => ({ barn: 0, vuxna: 0, medBarn: 0, total: 0, handedOut: 0 });
  const perDistance = new Map<DistanceKm, BagCount>(DISTANCES_DESC.map((d) => [d, empty()]));
  const totals = empty();
  const boxOffice = empty();
  for (const row of results) {
    const distance = toDistance(row.distance);
    if (!distance) continue; // the participants CHECK allows only the four distances
    for (const count of [perDistance.get(distance)!, totals, ...(row.box_office ? [boxOffice] : [])]) {
      if (row.companion) count.medBarn += row.n;
      else if (row.adult) count.vuxna += row.n;
      else count.barn += row.n;
      count.total += row.n;
      if (row.picked) count.handedOut += row.n;
    }
  }
  return {
    season: season.year,
    adultAge: season.adultAge,
    distances: DISTANCES_DESC.map((d) => ({ distance: d, label: distanceLabel(d), ...perDistance.get(d)! })),
    totals,
    boxOffice,
  };
}

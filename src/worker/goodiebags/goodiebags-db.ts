/**
 * The goodie-bag packing list for race morning: how many paid runners of a season run each distance, children and
 * adults apart (the pricing's age rule: `season.adultAge`, shared/age.ts `isAdult`).
 *
 * Who counts (spec §4: only PAID is examined):
 * - a runner of a registration whose selected payment (`payid`) is PAID;
 * - a box-office runner (no registration) covered by a PAID payment of origin 'kassa' (`participant_ids`).
 * A runner counts once whatever the number of payments naming it, and under the distance it runs now (an admin's
 * "Byt distans" is mirrored into `participants.distance`). A bag is handed out with the bib: `handedOut` counts the
 * runners who picked up at the desk (mirrored from the race objects), the rest are still to hand out.
 */
import { DISTANCES_DESC, distanceLabel, toDistance, type DistanceKm } from "../../shared/distances";
import type { Season } from "../../shared/season";
import type { Db } from "../db/client";

export interface BagCount {
  barn: number;
  vuxna: number;
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
  box_office: number;
  picked: number;
  n: number;
}

export async function goodieBags(db: Db, season: Season): Promise<GoodieBags> {
  const { results } = await db.$client
    .prepare(
      `WITH paid AS (
         SELECT p.id, p.distance, p.age, p.picked_up_at, 0 AS box_office
           FROM registrations r
           JOIN payments pay ON pay.id = r.payid AND pay.status = 'PAID'
           JOIN participants p ON p.registration_id = r.id
          WHERE r.season = ?1 AND p.season = ?1
         UNION
         -- CROSS JOIN keeps this order (payment → its ids → runner by primary key): otherwise SQLite may pair
         -- every paid payment with every runner of the season.
         SELECT p.id, p.distance, p.age, p.picked_up_at, 1 AS box_office
           FROM payments pay
           CROSS JOIN json_each(pay.participant_ids) j
           CROSS JOIN participants p ON p.id = j.value AND p.registration_id IS NULL
          WHERE pay.status = 'PAID' AND pay.origin = 'kassa' AND pay.season = ?1 AND p.season = ?1
       )
       SELECT distance, age >= ?2 AS adult, box_office, picked_up_at IS NOT NULL AS picked, count(*) AS n
         FROM paid GROUP BY distance, adult, box_office, picked`,
    )
    .bind(season.year, season.adultAge)
    .all<Row>();

  const empty = (): BagCount => ({ barn: 0, vuxna: 0, total: 0, handedOut: 0 });
  const perDistance = new Map<DistanceKm, BagCount>(DISTANCES_DESC.map((d) => [d, empty()]));
  const totals = empty();
  const boxOffice = empty();
  for (const row of results) {
    const distance = toDistance(row.distance);
    if (!distance) continue; // the participants CHECK allows only the four distances
    for (const count of [perDistance.get(distance)!, totals, ...(row.box_office ? [boxOffice] : [])]) {
      if (row.adult) count.vuxna += row.n;
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

/**
 * Box-office runners as personal data (src/worker/personal-data/): they have no address, only a name and the
 * phone number typed at the box office, so they are found by phone (every runner with that number: a family that
 * signed up several at the table) or by name, and exported and erased like a family (db/erasure.ts boxOfficeScope).
 * The cron removes the numbers once their season is over (db/retention.ts). Also the payments row of a sale paid on the
 * spot, which the box office's sales and its companion sales both write (`paidRow`).
 */
import { phoneDigits } from "../../shared/box-office";
import type { Season } from "../../shared/season";
import type { Db } from "../db/client";

export interface BoxOfficeRunnerRow {
  id: string;
  season: number;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  phone: string | null;
  race_id: string | null;
  paid_by: string | null;
}

/** Box-office runners are the participants without a registration (a few hundred a season at most). */
const BOX_OFFICE_RUNNERS = `SELECT id, season, firstname, lastname, age, distance, phone, race_id, paid_by
  FROM participants WHERE registration_id IS NULL`;

/** The box-office runners whose number is `phone` (compared as digits, phoneDigits), oldest first. */
export async function boxOfficeRunnersByPhone(db: Db, phone: string): Promise<BoxOfficeRunnerRow[]> {
  const wanted = phoneDigits(phone);
  if (wanted === null) return [];
  const { results } = await db.$client
    .prepare(`${BOX_OFFICE_RUNNERS} AND phone IS NOT NULL ORDER BY created_at, id`)
    .all<BoxOfficeRunnerRow>();
  return results.filter((r) => r.phone !== null && phoneDigits(r.phone) === wanted);
}

/** Box-office runners whose name holds every word of `query` (any case), newest season first, at most 50. */
export async function boxOfficeRunnersByName(db: Db, query: string): Promise<BoxOfficeRunnerRow[]> {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const { results } = await db.$client
    .prepare(`${BOX_OFFICE_RUNNERS} ORDER BY season DESC, created_at DESC, id`)
    .all<BoxOfficeRunnerRow>();
  return results
    .filter((r) => {
      const name = `${r.firstname} ${r.lastname}`.toLowerCase();
      return words.every((w) => name.includes(w));
    })
    .slice(0, 50);
}

/** The payments row of a box-office sale paid on the spot (cash, a campaign code, a free place): PAID at `now`. */
export function paidRow(
  payid: string,
  season: Season,
  amount: number,
  counts: { barn: number; vuxna: number },
  participantIds: string[],
  now: number,
) {
  return {
    id: payid,
    registrationId: null,
    season: season.year,
    origin: "kassa",
    amount,
    currency: "SEK",
    status: "PAID",
    dateCreated: now,
    datePaid: now,
    settledAt: now,
    ...counts,
    participantIds: JSON.stringify(participantIds),
  };
}

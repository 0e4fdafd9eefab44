/**
 * The bib desk's reads and the check-in code's one write, in D1. The race objects are the truth for a runner's bib
 * and picked-up state; D1 mirrors both (participants.bib, participants.picked_up_at), which is what the search
 * reads. Every query goes through an index: the code's unique index, a registration's participants, the season's
 * participants.
 */
import { makeCheckinCode } from "../../shared/checkin";
import type { Db } from "./client";

export interface RegistrationForDesk {
  id: string;
  season: number;
  email: string;
  paymentStatus: string | null;
}

export interface ParticipantForDesk {
  id: string;
  registrationId: string | null;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  group: string;
  bib: number | null;
  raceId: string | null;
  pickedUpAt: number | null;
  phone: string | null;
  /** The payment that booked the runner (participants.paid_by); null while unpaid. */
  paidBy: string | null;
  /** A refund took the runner out (participants.deregistered_at). */
  deregisteredAt: number | null;
  /** 1 for an adult running with a child without competing (shared/companion.ts): in no race, no bib. */
  companion?: number;
}

const PARTICIPANT_COLUMNS = `p.id, p.registration_id AS registrationId, p.firstname, p.lastname, p.age, p.distance,
  p."group" AS "group", p.bib, p.race_id AS raceId, p.picked_up_at AS pickedUpAt, p.phone, p.paid_by AS paidBy,
  p.deregistered_at AS deregisteredAt, p.companion`;

/**
 * The registration's check-in code, made on first need (the receipt, the family's page). Of two first needs at
 * the same moment the first write wins (`WHERE checkin_token IS NULL`) and both read the same code back; a code
 * that collides with another registration's (the unique index) is drawn again.
 */
export async function ensureCheckinCode(db: Db, registrationId: string): Promise<string | null> {
  const d1 = db.$client;
  const read = () =>
    d1
      .prepare("SELECT checkin_token AS code FROM registrations WHERE id = ?1")
      .bind(registrationId)
      .first<{ code: string | null }>();
  let row = await read();
  for (let attempt = 0; row && row.code === null && attempt < 5; attempt += 1) {
    const code = makeCheckinCode(crypto.getRandomValues(new Uint8Array(16)));
    try {
      await d1
        .prepare("UPDATE registrations SET checkin_token = ?1 WHERE id = ?2 AND checkin_token IS NULL")
        .bind(code, registrationId)
        .run();
    } catch (err) {
      if (!String(err).includes("UNIQUE")) throw err;
    }
    row = await read();
  }
  return row?.code ?? null;
}

/** The registration a code belongs to (any season), or null. */
export async function registrationByCode(db: Db, code: string): Promise<{ id: string; season: number } | null> {
  return db.$client
    .prepare("SELECT id, season FROM registrations WHERE checkin_token = ?1")
    .bind(code)
    .first<{ id: string; season: number }>();
}

export async function registrationForDesk(db: Db, id: string): Promise<RegistrationForDesk | null> {
  return db.$client
    .prepare(
      `SELECT r.id, r.season, r.email, pay.status AS paymentStatus
       FROM registrations r LEFT JOIN payments pay ON pay.id = r.payid
       WHERE r.id = ?1`,
    )
    .bind(id)
    .first<RegistrationForDesk>();
}

export async function registrationParticipants(db: Db, registrationId: string): Promise<ParticipantForDesk[]> {
  const rows = await db.$client
    .prepare(
      `SELECT ${PARTICIPANT_COLUMNS} FROM participants p WHERE p.registration_id = ?1 ORDER BY p.created_at, p.id`,
    )
    .bind(registrationId)
    .all<ParticipantForDesk>();
  return rows.results;
}

/**
 * The desk's 'Hämtat' / 'Ångra' for adults running with a child (in no race; shared/companion.ts): paid, not
 * deregistered companions only. Picking up keeps an earlier moment (`already` names those who had one); an undo
 * clears it. Answers the rows as they are after the write; an id that is no such companion is not among them.
 */
export async function markCompanionsPickedUp(
  db: Db,
  ids: readonly string[],
  pickedUp: boolean,
  at: number,
): Promise<{ rows: ParticipantForDesk[]; already: string[]; changed: boolean }> {
  const list = JSON.stringify(ids);
  const eligible = `p.id IN (SELECT value FROM json_each(?1)) AND p.companion = 1 AND p.paid_by IS NOT NULL
    AND p.deregistered_at IS NULL`;
  const [before, write, after] = await db.$client.batch<{ id: string; pickedUpAt: number | null }>([
    db.$client.prepare(`SELECT p.id, p.picked_up_at AS pickedUpAt FROM participants p WHERE ${eligible}`).bind(list),
    db.$client
      .prepare(
        // All or nothing: only when every id is such a companion (the count), so a refusal writes nobody.
        `UPDATE participants AS p SET picked_up_at = ${pickedUp ? "?2" : "NULL"}
          WHERE ${eligible} AND p.picked_up_at IS ${pickedUp ? "NULL" : "NOT NULL"}
            AND (SELECT count(*) FROM participants q WHERE q.id IN (SELECT value FROM json_each(?1))
              AND q.companion = 1 AND q.paid_by IS NOT NULL AND q.deregistered_at IS NULL) = ?3`,
      )
      .bind(list, pickedUp ? at : null, ids.length),
    db.$client.prepare(`SELECT ${PARTICIPANT_COLUMNS} FROM participants p WHERE ${eligible}`).bind(list),
  ]);
  const already = pickedUp
    ? (before!.results as { id: string; pickedUpAt: number | null }[])
        .filter((r) => r.pickedUpAt !== null)
        .map((r) => r.id)
    : [];
  return {
    rows: after!.results as unknown as ParticipantForDesk[],
    already,
    changed: (write!.meta.changes ?? 0) > 0,
  };
}

/** A box-office runner (no registration). */
export async function boxOfficeParticipant(
  db: Db,
  id: string,
): Promise<(ParticipantForDesk & { season: number }) | null> {
  return db.$client
    .prepare(
      `SELECT ${PARTICIPANT_COLUMNS}, p.season FROM participants p WHERE p.id = ?1 AND p.registration_id IS NULL`,
    )
    .bind(id)
    .first<ParticipantForDesk & { season: number }>();
}

/** The participant's race as D1 knows it now (after a change of distance, the new race). */
export async function participantRace(db: Db, id: string): Promise<{ raceId: string | null; distance: string } | null> {
  return db.$client
    .prepare("SELECT race_id AS raceId, distance FROM participants WHERE id = ?1")
    .bind(id)
    .first<{ raceId: string | null; distance: string }>();
}

export interface SearchRow extends ParticipantForDesk {
  email: string | null;
  paymentStatus: string | null;
}

/** How many runners a search reads at most (then grouped into families). */
export const SEARCH_ROWS = 60;

/**
 * The season's runners whose name (first, last, or both), family e-mail or bib matches: words must all be found
 * (case-insensitive, `LIKE` with the wildcards escaped), a number matches the bib exactly. The season's index
 * narrows the read to this season's runners.
 */
export async function searchParticipants(db: Db, season: number, words: string[], bib: number | null) {
  const like = (w: string) => `%${w.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const textual = words.filter((w) => !/^\d+$/.test(w));
  const conditions = textual.map(
    (_, i) =>
      `(p.firstname || ' ' || p.lastname LIKE ?${i + 3} ESCAPE '\\' OR coalesce(r.email, '') LIKE ?${i + 3} ESCAPE '\\')`,
  );
  const where = [
    ...(conditions.length ? [conditions.join(" AND ")] : []),
    ...(bib !== null ? ["p.bib = ?2"] : []),
  ].join(" OR ");
  if (!where) return [];
  const rows = await db.$client
    .prepare(
      `SELECT ${PARTICIPANT_COLUMNS}, r.email, pay.status AS paymentStatus
       FROM participants p
         LEFT JOIN registrations r ON r.id = p.registration_id
         LEFT JOIN payments pay ON pay.id = r.payid
       WHERE p.season = ?1 AND (${where})
       ORDER BY p.lastname, p.firstname, p.id
       LIMIT ${SEARCH_ROWS}`,
    )
    .bind(season, bib, ...textual.map(like))
    .all<SearchRow>();
  return rows.results;
}

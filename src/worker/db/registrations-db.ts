/**
 * A family's registration for a season and its runners (spec: deltagare). Saves replace the whole runner map in
 * one D1 batch (a transaction) that starts with a guard: the batch aborts unless the stored version is the one
 * the save was based on, and unless no runner the save touches has changed its paid state since the caller read it
 * (a payment settling, a refund deregistering). So two tabs saving at once cannot both win, a runner that has just
 * become paid is never edited or removed as an unpaid one, and a paid runner is never removed by a save. The one
 * write beside the batch, `moveCompanionsWithChild`, repairs a refused save whose race object had already moved a
 * paid child: its companions follow it, and the version is bumped.
 */
import { and, desc, eq, inArray, isNotNull, lt, ne, notInArray, or, isNull, sql } from "drizzle-orm";
import { MAX_AGE } from "../../shared/age";
import type { RunnerFields } from "../../shared/registration-schema";
import type { DistanceKm } from "../../shared/season";
import type { Group } from "../../shared/distances";
import type { Db } from "./client";
import { participants, registrations, runnerIds } from "./schema";
import { ANONYMOUS_RUNNER, ERASED_DOMAIN, scoped, type ErasureScope, type ErasureStatement } from "./erasure";

export type RegistrationRow = typeof registrations.$inferSelect;

export interface StoredRunner extends RunnerFields {
  id: string;
  bib: number | null;
  /** The payment that booked the runner (db/schema.ts participants.paidBy); null while unpaid. */
  paidBy: string | null;
  /** Whole kronor the runner was booked at; null while unpaid (or for a payment older than the column). */
  paidPrice: number | null;
  deregisteredAt: number | null;
  /** The race the runner is in (mirrored by the race object); null before it is placed. */
  raceId: string | null;
}

export async function findRegistration(db: Db, season: number, email: string): Promise<RegistrationRow | null> {
  const row = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.season, season), eq(registrations.email, email)))
    .get();
  return row ?? null;
}

export async function findRegistrationById(db: Db, id: string): Promise<RegistrationRow | null> {
  return (await db.select().from(registrations).where(eq(registrations.id, id)).get()) ?? null;
}

/** The season's registration for the address, created empty if there is none (safe to call twice at once). */
export async function ensureRegistration(
  db: Db,
  season: number,
  email: string,
  now: number,
): Promise<{ registration: RegistrationRow; created: boolean }> {
  const inserted = await db
    .insert(registrations)
    .values({ id: crypto.randomUUID(), season, email, version: 0, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
    .get();
  if (inserted) return { registration: inserted, created: true };
  const existing = await findRegistration(db, season, email);
  if (!existing) throw new Error(`registration for ${email} vanished`);
  return { registration: existing, created: false };
}

function toRunner(row: typeof participants.$inferSelect): StoredRunner {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    age: row.age,
    company: row.company,
    distance: row.distance as DistanceKm,
    group: row.group as Group,
    bib: row.bib,
    paidBy: row.paidBy,
    paidPrice: row.paidPrice,
    deregisteredAt: row.deregisteredAt,
    raceId: row.raceId,
    ...(row.companion ? { companion: true as const } : {}),
  };
}

/** The spec's fields of a runner (what a save writes). */
export function runnerFields(r: RunnerFields): RunnerFields {
  return {
    firstname: r.firstname,
    lastname: r.lastname,
    age: r.age,
    company: r.company,
    distance: r.distance,
    group: r.group,
    ...(r.companion === true ? { companion: true as const } : {}),
  };
}

/** What a save writes to a runner's row: its fields, and the companion flag set or cleared. */
function participantColumns(r: RunnerFields) {
  const { companion, ...fields } = runnerFields(r);
  return { ...fields, companion: companion === true };
}

/** Runners in the order they were added. */
export async function registrationRunners(db: Db, registrationId: string): Promise<StoredRunner[]> {
  const rows = await db
    .select()
    .from(participants)
    .where(eq(participants.registrationId, registrationId))
    .orderBy(participants.createdAt, participants.id)
    .all();
  return rows.map(toRunner);
}

/** Clears the registration's payid if it is still `payid` (a payment the family withdrew). */
export async function unselectPayment(db: Db, registrationId: string, payid: string | null): Promise<void> {
  if (payid === null) return;
  await db
    .update(registrations)
    .set({ payid: null })
    .where(and(eq(registrations.id, registrationId), eq(registrations.payid, payid)));
}

/**
 * The runners of this address's most recent earlier season, a year older per season passed, minus those
 * already in this season's list (same first and last name): the "welcome back" offer.
 */
export async function previousRunners(
  db: Db,
  email: string,
  season: number,
  current: readonly { firstname: string; lastname: string }[],
): Promise<RunnerFields[]> {
  const previous = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.email, email), lt(registrations.season, season)))
    .orderBy(desc(registrations.season))
    .limit(1)
    .get();
  if (!previous) return [];
  const years = season - previous.season;
  const key = (r: { firstname: string; lastname: string }) =>
    `${r.firstname.trim().toLowerCase()}\u0000${r.lastname.trim().toLowerCase()}`;
  const have = new Set(current.map(key));
  return (await registrationRunners(db, previous.id))
    .filter((r) => !have.has(key(r)))
    .map((r) => ({
      firstname: r.firstname,
      lastname: r.lastname,
      age: Math.min(r.age + years, MAX_AGE),
      company: r.company,
      distance: r.distance,
      group: r.group,
    }));
}

/**
 * Ids in `ids` that belong to another registration, to the box office, or to a race (made on the race screen): a
 * client must not take them over.
 */
export async function runnerIdsOwnedElsewhere(db: Db, registrationId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const [owned, reserved] = await Promise.all([
    db
      .select({ id: participants.id })
      .from(participants)
      .where(
        and(
          inArray(participants.id, ids),
          or(isNull(participants.registrationId), ne(participants.registrationId, registrationId)),
        ),
      )
      .all(),
    // Made on the race screen (schema.ts `runnerIds`): reserved before the id was public, so a family that saves
    // it has read it from the race's public records.
    db.select({ id: runnerIds.id }).from(runnerIds).where(inArray(runnerIds.id, ids)).all(),
  ]);
  return [...new Set([...owned, ...reserved].map((r) => r.id))];
}

export type SaveResult =
  | { status: "saved"; version: number }
  /** Another save got in first, or a payment was started since the caller looked (`expectedPayid`). */
  | { status: "conflict" }
  /** A runner the save touches was paid or deregistered since the caller read it. */
  | { status: "paid-meanwhile" }
  | { status: "taken"; ids: string[] };

export interface SaveRunnersInput {
  registrationId: string;
  season: number;
  expectedVersion: number;
  expectedPayid?: string | null;
  clearPayid?: boolean;
  runners: Record<string, RunnerFields>;
  /** Runners the caller read as unpaid and changes or removes: each must still be unpaid (`paid_by IS NULL`). */
  unpaidTouched?: string[];
  /** Paid runners the caller changes, with the payid it read: each must still be paid by it and not deregistered. */
  paidTouched?: Record<string, string>;
  now: number;
}

/**
 * Replaces the registration's runner map with `runners` if the stored version is still `expectedVersion` and the
 * runners it touches are in the paid state the caller read (`unpaidTouched`, `paidTouched`). Paid runners are never
 * removed (the caller refuses a map without one, and the delete spares them). Bibs, races, phone numbers and paid
 * state are kept on runners that stay. With `expectedPayid` the save also needs the selected payment to be the one
 * the caller saw (so a booking that started meanwhile, for the old runners, is not overtaken); `clearPayid`
 * unselects it (it was withdrawn).
 */
export async function saveRunners(db: Db, input: SaveRunnersInput): Promise<SaveResult> {
  const { registrationId, expectedVersion, expectedPayid, now } = input;
  const ids = Object.keys(input.runners);
  const taken = await runnerIdsOwnedElsewhere(db, registrationId, ids);
  if (taken.length > 0) return { status: "taken", ids: taken };
  const unpaidTouched = JSON.stringify(input.unpaidTouched ?? []);
  const paidTouched = Object.entries(input.paidTouched ?? {});

  // json('stale') raises "malformed JSON", which aborts the batch and rolls back everything in it. (A select
  // builder, not db.run(sql): drizzle's D1 batch cannot bind parameters of a raw statement.)
  const guard = db
    .select({
      ok: sql`json(CASE WHEN ${registrations.version} = ${expectedVersion}
        AND ${expectedPayid === undefined ? sql`1` : sql`${registrations.payid} IS ${expectedPayid}`}
        AND NOT EXISTS (SELECT 1 FROM ${participants} WHERE ${ids.length > 0 ? inArray(participants.id, ids) : sql`0`}
          AND (${participants.registrationId} IS NULL OR ${participants.registrationId} <> ${registrationId}))
        AND NOT EXISTS (SELECT 1 FROM participants AS p JOIN json_each(${unpaidTouched}) AS touched
          ON touched.value = p.id WHERE p.paid_by IS NOT NULL)
        AND (SELECT count(*) FROM participants AS p
          JOIN json_each(${JSON.stringify(Object.fromEntries(paidTouched))}) AS touched ON touched.key = p.id
          WHERE p.paid_by = touched.value AND p.deregistered_at IS NULL) = ${paidTouched.length}
      THEN '1' ELSE 'stale' END)`,
    })
    .from(registrations)
    .where(eq(registrations.id, registrationId));
  const bump = db
    .update(registrations)
    .set({ version: expectedVersion + 1, updatedAt: now, ...(input.clearPayid ? { payid: null } : {}) })
    .where(eq(registrations.id, registrationId));
  // Only unpaid runners leave with a save; a paid one (the caller refused a map without it) stays whatever happens.
  const removeOthers = db
    .delete(participants)
    .where(
      and(
        eq(participants.registrationId, registrationId),
        isNull(participants.paidBy),
        ids.length > 0 ? notInArray(participants.id, ids) : undefined,
      ),
    );
  // A client-chosen id may be taken between the check above and the batch; the guard catches that, and the
  // upsert's own condition never overwrites another registration's runner.
  const upserts = Object.entries(input.runners).map(([id, r], i) =>
    db
      .insert(participants)
      .values({ id, registrationId, season: input.season, ...participantColumns(r), createdAt: now + i })
      .onConflictDoUpdate({
        target: participants.id,
        set: participantColumns(r),
        setWhere: sql`${participants.registrationId} = ${registrationId}`,
      }),
  );

  try {
    await db.batch([guard, bump, removeOthers, ...upserts]);
    return { status: "saved", version: expectedVersion + 1 };
  } catch (err) {
    const [reg, runners, takenNow] = await Promise.all([
      db
        .select({ version: registrations.version, payid: registrations.payid })
        .from(registrations)
        .where(eq(registrations.id, registrationId))
        .get(),
      registrationRunners(db, registrationId),
      runnerIdsOwnedElsewhere(db, registrationId, ids),
    ]);
    if (takenNow.length > 0) return { status: "taken", ids: takenNow };
    if (reg && reg.version !== expectedVersion) return { status: "conflict" };
    if (reg && expectedPayid !== undefined && reg.payid !== expectedPayid) return { status: "conflict" };
    const byId = new Map(runners.map((r) => [r.id, r]));
    const unpaidChanged = (input.unpaidTouched ?? []).some((id) => byId.get(id)?.paidBy);
    const paidChanged = paidTouched.some(([id, payid]) => {
      const now = byId.get(id);
      return !now || now.paidBy !== payid || now.deregisteredAt !== null;
    });
    if (unpaidChanged || paidChanged) return { status: "paid-meanwhile" };
    throw err;
  }
}

/**
 * Moves paid companions of the registration from `from` to `to` when they are still there, paid and not deregistered
 * (the repair after a save whose race object moved their child but whose D1 batch was refused:
 * registration/runner-changes.ts), and bumps the registration's version when one moved, so a page that read the
 * list before reloads it. Answers the ids moved.
 */
export async function moveCompanionsWithChild(
  db: Db,
  registrationId: string,
  ids: readonly string[],
  from: string,
  to: string,
  now: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const moved = await db
    .update(participants)
    .set({ distance: to })
    .where(
      and(
        eq(participants.registrationId, registrationId),
        inArray(participants.id, [...ids]),
        eq(participants.companion, true),
        eq(participants.distance, from),
        isNotNull(participants.paidBy),
        isNull(participants.deregisteredAt),
      ),
    )
    .returning({ id: participants.id });
  if (moved.length > 0) {
    await db
      .update(registrations)
      .set({ version: sql`${registrations.version} + 1`, updatedAt: now })
      .where(eq(registrations.id, registrationId));
  }
  return moved.map((r) => r.id);
}

/**
 * Erasure (db/erasure.ts), the last statements of the batch (the others find the person's rows through these):
 * runners are anonymised ('Anonym Löpare', no club, no phone) keeping age, distance, group, bib, race and payment,
 * which the season's figures and the payments need and which name nobody (box-office runners alike); the
 * registrations stay for their payments, under `raderad-<id>@raderad.invalid`, a reserved domain that never
 * receives mail, put on the unsubscribe list first so no mass mailing ever picks it; their check-in code for the
 * bib desk is erased (its QR then finds nobody).
 */
export function registrationErasure(d1: D1Database, scope: ErasureScope, now: number): ErasureStatement[] {
  const placeholder = `'raderad-' || lower(id) || '@${ERASED_DOMAIN}'`;
  return [
    {
      count: "runners",
      statement: scoped(
        d1,
        scope,
        `UPDATE participants SET firstname = ?3, lastname = ?4, company = '', phone = NULL
          WHERE id IN (${scope.participants})`,
        ANONYMOUS_RUNNER.firstname,
        ANONYMOUS_RUNNER.lastname,
      ),
    },
    {
      statement: scoped(
        d1,
        scope,
        `INSERT OR IGNORE INTO unsubscribes (email, at) SELECT ${placeholder}, ?3 FROM registrations
          WHERE id IN (${scope.registrations})`,
        now,
      ),
    },
    {
      count: "registrations",
      statement: scoped(
        d1,
        scope,
        // The check-in code goes with the address: a QR kept from an old receipt then finds nobody at the bib desk.
        `UPDATE registrations SET email = ${placeholder}, checkin_token = NULL, updated_at = ?3
          WHERE id IN (${scope.registrations})`,
        now,
      ),
    },
  ];
}

/**
 * 'Återbetala och avregistrera' (issue 24): a refund that also takes runners out. The runners are named on the
 * refund row when it is asked for (`refunds.deregister`) and leave once the refund is PAID (the money went back),
 * never before, so a refund Swish refuses deregisters nobody. Leaving is:
 * 1. D1: `participants.deregistered_at` is set (only for runners the refunded payment booked and not deregistered
 *    yet): from then on the runner is out of the goodie bags, the exports and the current-runners mailing, and the
 *    family can no longer change it;
 * 2. the race: `removeRunner` in the race object (start lists, bib) when the race has not started. A runner of a
 *    race that has started or ended stays in it (its start and result are race-day history); the answer and the
 *    audit line say so, and the organiser can mark it on the race screen;
 * 3. the audit line `refund.deregistered` (subject: the refund), written once.
 * Each step is idempotent. Whoever sees the refund PAID runs them (the request, a check, Swish's callback); if a step
 * fails half-way (a race object out of reach) the audit line is missing and the cron runs them again
 * (`repairDeregistrations`).
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Clock } from "../../shared/clock";
import { auditOnce } from "../db/audit";
import { database, type Db } from "../db/client";
import { auditLog, participants } from "../db/schema";
import { ApiError } from "../lib/errors";
import { takeRunnerOutOfRaces } from "../race-day/race-runners";
import { parseParticipantIds, participantsByIds } from "./payments-db";
import type { RefundRow } from "./refunds-db";

export const DEREGISTERED = "refund.deregistered";

export interface Deregistration {
  /** The runners deregistered by the refund. */
  runners: string[];
  /** Runners left in a race that had started or ended, with that race and its state. */
  keptInRace: { id: string; part: string; state: string }[];
}

export const DEREGISTER_MSG = {
  notRunnerOfPayment: (name: string) =>
    `${name} betalades inte med den här betalningen och kan inte avregistreras här.`,
  alreadyDeregistered: (name: string) => `${name} är redan avregistrerad.`,
  unknownRunner: "Löparen finns inte.",
} as const;

/** The runner ids to deregister, checked against the payment before the refund is written (422 otherwise). */
export async function checkDeregistration(db: Db, payid: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const rows = await participantsByIds(db, unique);
  if (rows.length !== unique.length) throw new ApiError(422, DEREGISTER_MSG.unknownRunner);
  for (const r of rows) {
    const name = `${r.firstname} ${r.lastname}`.trim();
    if (r.paidBy !== payid) throw new ApiError(422, DEREGISTER_MSG.notRunnerOfPayment(name));
    if (r.deregisteredAt !== null) throw new ApiError(422, DEREGISTER_MSG.alreadyDeregistered(name));
  }
  return unique.sort();
}

/** The deregistration recorded for a refund, if it has been done. */
async function recorded(db: Db, refundId: string): Promise<Deregistration | null> {
  const row = await db
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.action, DEREGISTERED), eq(auditLog.subject, refundId)))
    .limit(1)
    .get();
  if (!row) return null;
  const detail = JSON.parse(row.detail) as Partial<Deregistration>;
  return { runners: detail.runners ?? [], keptInRace: detail.keptInRace ?? [] };
}

/**
 * Deregisters the refund's runners once it is PAID (see the module comment). Null for a refund that deregisters
 * nobody or is not PAID; otherwise what was done, the first run's record when it was done before. Throws when a
 * race object could not be reached (the cron tries again).
 */
export async function deregisterRefundRunners(
  env: Env,
  clock: Clock,
  refund: RefundRow,
): Promise<Deregistration | null> {
  const ids = parseParticipantIds(refund.deregister);
  if (refund.status !== "PAID" || ids.length === 0) return null;
  const db = database(env.DB);
  const done = await recorded(db, refund.id);
  if (done) return done;

  await db
    .update(participants)
    .set({ deregisteredAt: clock.now() })
    .where(
      and(inArray(participants.id, ids), eq(participants.paidBy, refund.payid), isNull(participants.deregisteredAt)),
    );

  const keptInRace: Deregistration["keptInRace"] = [];
  const removed: { id: string; races: string[] }[] = [];
  for (const id of ids) {
    const left = await takeRunnerOutOfRaces(env, db, id, { actor: refund.createdBy });
    removed.push({ id, races: left.removedFrom });
    if (left.keptIn) keptInRace.push({ id, ...left.keptIn });
  }
  const result: Deregistration = { runners: ids, keptInRace };
  await auditOnce(
    db,
    {
      actor: refund.createdBy,
      action: DEREGISTERED,
      subject: refund.id,
      detail: { payid: refund.payid, amount: refund.amount, ...result, removed },
    },
    clock.now(),
  );
  return (await recorded(db, refund.id)) ?? result;
}

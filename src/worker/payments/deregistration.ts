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
 *
 * Companions (issue 39, item 2; shared/companion.ts): a refund that deregisters children may also take out the
 * paid companions of the family that those children leave without any child ('Ta också bort …', the request's
 * `companions`, checked by `checkCompanions` when the refund is asked for: a paid companion of the payment's family,
 * not deregistered, with no competing child left on its distance once the refund's runners have left; one an
 * earlier refund left alone qualifies too). They are named on the refund row
 * with its runners. One the refunded payment booked leaves like any of its runners (its price is part of the
 * amount). One another payment booked leaves once this refund is PAID, as the organiser decided when asking (a
 * child the family adds meanwhile does not keep it): at a booked price of 0 kr it is deregistered here; above 0 kr a
 * refund of that price is asked of its own payment (one idempotency key per refund and companion, so a repeated
 * step asks once), and that refund deregisters it when it is PAID. That refund refused by Swish leaves the companion
 * registered; the answer says so, and the organiser can refund it from its own payment.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { CompanionRefund, Deregistration } from "../../shared/api-answers";
import type { Clock } from "../../shared/clock";
import { companionKm, strandedCompanions } from "../../shared/companion";
import { isRefundablePayment } from "../../shared/registrations-overview";
import { auditOnce } from "../db/audit";
import { database, type Db } from "../db/client";
import { auditLog, participants } from "../db/schema";
import { ApiError } from "../lib/errors";
import { takeRunnerOutOfRaces } from "../race-day/race-runners";
import { participantsByIds } from "../db/participants-db";
import { findPayment, parseParticipantIds, paymentRecord, type PaymentRow } from "./payments-db";
import { findRefundByKey, refundedOrPending, type RefundRow } from "./refunds-db";

export const DEREGISTERED = "refund.deregistered";

/** Asks for a companion's refund from its own payment (refunds.ts; passed in, as refunds.ts calls this module). */
export type RefundCompanion = (c: {
  id: string;
  payid: string;
  amount: number;
  key: string;
}) => Promise<CompanionRefund>;

/** The idempotency key of the refund that pays a companion back for the refund `refundId` took its child out with. */
export function companionRefundKey(refundId: string, companionId: string): string {
  return `${refundId}-${companionId}`;
}

export const DEREGISTER_MSG = {
  notRunnerOfPayment: (name: string) =>
    `${name} betalades inte med den här betalningen och kan inte avregistreras här.`,
  alreadyDeregistered: (name: string) => `${name} är redan avregistrerad.`,
  unknownRunner: "Löparen finns inte.",
  notCompanion: (name: string) =>
    `${name} springer inte med barn. Kryssa i ${name} bland löparna för att avregistrera ${name} med betalningen.`,
  companionElsewhere: (name: string) => `${name} hör till en annan anmälan än betalningen och kan inte tas bort här.`,
  companionUnpaid: (name: string, first: string) =>
    `${name} är inte betald: familjen kan själv ta bort ${first} i sin anmälan.`,
  companionKeepsChild: (name: string, distance: string) =>
    `${name} springer med ett barn som är kvar på ${companionKm(distance)} och tas därför inte bort. Ta bara bort ${name} om barnen på ${companionKm(distance)} också avregistreras.`,
  companionNotRefundable: (name: string) =>
    `${name}s betalning kan inte återbetalas härifrån. Återbetala och avregistrera ${name} från den betalningen.`,
  companionTooLittleLeft: (name: string, left: number) =>
    `Det finns bara ${left} kr kvar att återbetala av ${name}s betalning. Återbetala och avregistrera ${name} från den betalningen.`,
} as const;

const fullName = (r: { firstname: string; lastname: string }) => `${r.firstname} ${r.lastname}`.trim();

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

/**
 * The companions to take out with the refund (see the module comment), checked before the refund is written (422
 * otherwise, naming the companion and what to do instead). `leaving` are the refund's runners (already checked).
 */
export async function checkCompanions(
  db: Db,
  payment: PaymentRow,
  leaving: readonly string[],
  ids: readonly string[],
): Promise<string[]> {
  // A companion among the refund's own runners is one of them already.
  const unique = [...new Set(ids)].filter((id) => !leaving.includes(id));
  if (unique.length === 0) return [];
  const rows = await participantsByIds(db, unique);
  if (rows.length !== unique.length) throw new ApiError(422, DEREGISTER_MSG.unknownRunner);
  const family =
    payment.registrationId === null
      ? []
      : await db.select().from(participants).where(eq(participants.registrationId, payment.registrationId)).all();
  // Those without any child once the refund's runners have left (a companion a refund left alone before, too).
  const gone = new Set(leaving);
  const left = new Set(
    strandedCompanions(family.map((r) => ({ ...r, deregistered: r.deregisteredAt ?? gone.has(r.id) }))).map(
      (r) => r.id,
    ),
  );
  for (const r of rows) {
    const name = fullName(r);
    if (r.registrationId === null || r.registrationId !== payment.registrationId) {
      throw new ApiError(422, DEREGISTER_MSG.companionElsewhere(name));
    }
    if (!r.companion) throw new ApiError(422, DEREGISTER_MSG.notCompanion(name));
    if (r.deregisteredAt !== null) throw new ApiError(422, DEREGISTER_MSG.alreadyDeregistered(name));
    if (r.paidBy === null) throw new ApiError(422, DEREGISTER_MSG.companionUnpaid(name, r.firstname));
    if (!left.has(r.id)) throw new ApiError(422, DEREGISTER_MSG.companionKeepsChild(name, r.distance));
    if (r.paidBy === payment.id || (r.paidPrice ?? 0) === 0) continue;
    // Refunded from its own payment once this refund is PAID: that payment must be able to pay its price back.
    const own = await findPayment(db, r.paidBy);
    if (!own || !isRefundablePayment(paymentRecord(own)) || !own.paymentReference) {
      throw new ApiError(422, DEREGISTER_MSG.companionNotRefundable(name));
    }
    const rest = own.amount - (await refundedOrPending(db, own.id));
    if (rest < r.paidPrice!) throw new ApiError(422, DEREGISTER_MSG.companionTooLittleLeft(name, Math.max(0, rest)));
  }
  return unique;
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
  return {
    runners: detail.runners ?? [],
    keptInRace: detail.keptInRace ?? [],
    ...(detail.companionRefunds?.length ? { companionRefunds: detail.companionRefunds } : {}),
  };
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
  refundCompanion: RefundCompanion,
): Promise<Deregistration | null> {
  const named = parseParticipantIds(refund.deregister);
  if (refund.status !== "PAID" || named.length === 0) return null;
  const db = database(env.DB);
  const done = await recorded(db, refund.id);
  if (done) return done;

  // Companions booked by another payment (checkCompanions): 0 kr ones leave here, the others with their own refund.
  const others = (await participantsByIds(db, named)).filter((r) => r.paidBy !== null && r.paidBy !== refund.payid);
  const byOwnRefund = others.filter((r) => (r.paidPrice ?? 0) > 0);
  const ids = named.filter((id) => !byOwnRefund.some((r) => r.id === id));
  await db
    .update(participants)
    .set({ deregisteredAt: clock.now() })
    .where(
      and(inArray(participants.id, ids), eq(participants.paidBy, refund.payid), isNull(participants.deregisteredAt)),
    );
  for (const r of others.filter((o) => !byOwnRefund.includes(o))) {
    await db
      .update(participants)
      .set({ deregisteredAt: clock.now() })
      .where(and(eq(participants.id, r.id), eq(participants.paidBy, r.paidBy!), isNull(participants.deregisteredAt)));
  }
  const companionRefunds: CompanionRefund[] = [];
  for (const r of byOwnRefund) {
    const key = companionRefundKey(refund.id, r.id);
    // Out already and not by this step's refund (another refund took it meanwhile): nothing to pay back here.
    if (r.deregisteredAt !== null && !(await findRefundByKey(db, key))) continue;
    companionRefunds.push(await refundCompanion({ id: r.id, payid: r.paidBy!, amount: r.paidPrice!, key }));
  }

  const keptInRace: Deregistration["keptInRace"] = [];
  const removed: { id: string; races: string[] }[] = [];
  for (const id of ids) {
    const left = await takeRunnerOutOfRaces(env, db, id, { actor: refund.createdBy });
    removed.push({ id, races: left.removedFrom });
    if (left.keptIn) keptInRace.push({ id, ...left.keptIn });
  }
  const result: Deregistration = {
    runners: ids,
    keptInRace,
    ...(companionRefunds.length > 0 ? { companionRefunds } : {}),
  };
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

/**
 * The registration's booking service: what `POST /book-v2` charges (DESIGN.md §5), decided from the stored
 * runners, never from what the page sent. The order is for the runners not paid yet (the whole family the first
 * time, a late sibling after that); its counts must be the ones the page showed (else 400 naming barn/vuxna);
 * an unpaid adult running with a child whom a refund left without one is refused (shared/companion.ts); a
 * non-empty campaign code must apply (else 400, `usedUp` told only to the family that booked with it); the price
 * is the campaign's or the list's at `now`, each runner's share priced apart.
 *
 * It reads and decides, and writes nothing: the route writes the order (payments.ts), conditional on the
 * registration's payid and version read here, so a runner save or another booking in between (two tabs, a retry)
 * makes that write fail rather than book what this decided on stale runners.
 */
import { countAges, type AgeCounts } from "../../shared/age";
import { normalizeCode } from "../../shared/campaign";
import { companionKm, strandedCompanions } from "../../shared/companion";
import { listTotal, orderPrices } from "../../shared/pricing";
import { SEASON } from "../../shared/season";
import { isRegistrationOpen } from "../../shared/season-rules";
import type { builtinCampaigns } from "../campaigns/builtin-campaigns";
import { evaluateCampaign, registrationTriedCampaign } from "../campaigns/campaigns-db";
import { CAMPAIGN_INVALID } from "../payments/payments";
import type { Db } from "../db/client";
import { findRegistration, registrationRunners, type RegistrationRow, type StoredRunner } from "../db/registrations-db";
import { ApiError, badRequest, conflict, forbidden, tooMany } from "../lib/errors";
import type { BookingRequest } from "../../shared/api-answers";

export type { BookingRequest };

export const BOOKING_MSG = {
  closed: "Anmälan är stängd",
  allPaid: "Alla löpare i anmälan är redan betalda.",
  tooManyCampaign: "För många försök med kampanjkoder. Vänta en minut och försök igen.",
  noRunners: "Lägg till minst en deltagare innan du går till betalning.",
  campaignInvalid: CAMPAIGN_INVALID,
  campaignUsedUp:
    "Kampanjkoden hann användas av någon annan efter att din betalning misslyckades och gäller inte längre. Ta bort den eller skriv en annan.",
  strandedUnpaid: (r: { firstname: string; lastname: string; distance: string }) =>
    `${r.firstname} ${r.lastname} springer med barn, men inget barn i anmälan springer ${companionKm(r.distance)} längre. ` +
    `Ta bort ${r.firstname}, eller flytta ${r.firstname} till samma distans som ett barn, innan ni betalar.`,
} as const;

/** A runner an order of the family still has to pay for. */
export function isUnpaid(r: { paidBy: string | null; deregisteredAt: number | null }): boolean {
  return r.paidBy === null && r.deregisteredAt === null;
}

/** Spec: "{errors} with a barn entry and possibly a vuxna entry" when the sent counts are not the stored ones. */
function countErrors(sent: AgeCounts, stored: AgeCounts): Record<string, string> | null {
  if (sent.barn === stored.barn && sent.vuxna === stored.vuxna) return null;
  const errors: Record<string, string> = {
    barn:
      sent.barn === stored.barn
        ? "Antalet deltagare stämmer inte med anmälan. Ladda om sidan och försök igen."
        : `Antalet barn stämmer inte (${stored.barn} anmälda)`,
  };
  if (sent.vuxna !== stored.vuxna) errors.vuxna = `Antalet vuxna stämmer inte (${stored.vuxna} anmälda)`;
  return errors;
}

type Evaluation = Awaited<ReturnType<typeof evaluateCampaign>>;

export interface PricedOrder {
  registration: RegistrationRow;
  /** The runners the order pays for, in the stored order. */
  runners: StoredRunner[];
  counts: AgeCounts;
  campaign: Evaluation["campaign"];
  /** In kronor: the campaign's price, or the list price at `now`. */
  price: number;
  participantIds: string[];
  runnerPrices: ReturnType<typeof orderPrices>;
  /**
   * No Swish payment: a campaign code's 0 kr, or adults running with a child alone at a companionPrice of 0 kr
   * (Swish takes no 0 kr payment; shared/companion.ts).
   */
  free: boolean;
}

/**
 * Prices the family's order: 403 once registration has closed, 400 without runners, for mismatched counts, a
 * stranded companion or a code that does not apply, 409 when every runner is paid, 429 when the campaign
 * look-ups are spent (`campaignLookupAllowed`, asked only for a non-empty code).
 */
export async function priceOrder(
  db: Db,
  input: {
    email: string;
    request: BookingRequest;
    now: number;
    builtins: ReturnType<typeof builtinCampaigns>;
    campaignLookupAllowed: () => Promise<boolean>;
  },
): Promise<PricedOrder> {
  const { request, now } = input;
  if (!isRegistrationOpen(now)) throw forbidden(BOOKING_MSG.closed);

  const registration = await findRegistration(db, SEASON.year, input.email);
  const stored = registration ? await registrationRunners(db, registration.id) : [];
  if (!registration || stored.length === 0) throw badRequest(BOOKING_MSG.noRunners);
  // The order is for the runners not paid yet: the whole family the first time, a late sibling after that.
  const runners = stored.filter(isUnpaid);
  if (runners.length === 0) throw conflict(BOOKING_MSG.allPaid);
  // An unpaid companion a refund left without a child (shared/companion.ts) cannot be paid for: nobody to run with.
  const family = stored.map((r) => ({ ...r, deregistered: r.deregisteredAt }));
  const stranded = strandedCompanions(family).filter(isUnpaid);
  if (stranded.length > 0) {
    const errors = Object.fromEntries(stranded.map((r) => [`${r.id}.companion`, BOOKING_MSG.strandedUnpaid(r)]));
    throw new ApiError(400, BOOKING_MSG.strandedUnpaid(stranded[0]!), errors);
  }

  const counts = countAges(runners);
  const mismatch = countErrors({ barn: request.barn, vuxna: request.vuxna }, counts);
  if (mismatch) throw new ApiError(400, request.barn !== counts.barn ? mismatch.barn! : mismatch.vuxna!, mismatch);

  const code = normalizeCode(request.kampanj);
  if (code !== "" && !(await input.campaignLookupAllowed())) throw tooMany(BOOKING_MSG.tooManyCampaign);
  const evaluation =
    code === ""
      ? null
      : await evaluateCampaign(db, code, counts, now, {
          builtins: input.builtins,
          holder: { registrationId: registration.id, runnerIds: runners.map((r) => r.id) },
        });
  // Issue 3, bad input: a code that does not apply is refused rather than silently charged at the list price.
  if (evaluation && !evaluation.valid) {
    const usedUp = evaluation.usedUp && (await registrationTriedCampaign(db, registration.id, code));
    const message = usedUp ? BOOKING_MSG.campaignUsedUp : BOOKING_MSG.campaignInvalid;
    throw new ApiError(400, message, { kampanj: message });
  }
  const campaign = evaluation?.campaign ?? null;
  const price = campaign ? evaluation!.price : listTotal(counts, now);
  return {
    registration,
    runners,
    counts,
    campaign,
    price,
    participantIds: runners.map((r) => r.id),
    runnerPrices: orderPrices(runners, campaign?.rule ?? null, now),
    free: price === 0 && (campaign !== null || counts.medBarn === runners.length),
  };
}

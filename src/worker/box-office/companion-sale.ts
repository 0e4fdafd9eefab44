/**
 * A companion place for a parent whose child registered online (issue 39, item 3; `POST
 * /admin/api/quickreg/companion`): the volunteer finds the child (the bib desk's search or the family's check-in
 * code), and sells the parent a place running with it without competing (shared/companion.ts) on the child's
 * distance, at the season's companionPrice, paid as the box office takes payments. The parent becomes a runner of
 * the child's registration, so the family's page, its check-in at the bib desk, the start list's 'Med barn' and the
 * family's personal data all have it; there is no phone number (the family's e-mail is its contact).
 *
 * How the link is kept: the sale writes the companion as a box-office row (no registration) naming the child's
 * registration (`participants.joins_registration_id`), and one payment of origin 'kassa' for it. In the very
 * statement that makes that payment PAID the row joins the registration and the registration's version moves on
 * (the triggers of migrations/0017_box_office_companions.sql). So until it is paid the companion is the box
 * office's own, like every participant without a registration (a Swish sale waiting, or one that ended unpaid: the
 * sale's record, never in the family's list nor in its orders), and once paid it is the family's, paid by the box
 * office's payment (its refund is the box office's: the admin's list of box-office sales).
 *
 * The payment: a companionPrice of 0 kr (the default) is a free place whatever way of paying was chosen, recorded
 * as a PAID payment of 0 kr `kampanj_MEDBARN_<tail>` (as a family's free companion order, payments.ts
 * recordFreePayment); above 0 kr cash is PAID at once, Swish is PAID when the payer pays, and a campaign code is
 * refused (a code does not change the companion's price). The companion is checked in at the table once paid
 * (payments.ts afterPaid), as every box-office runner.
 *
 * Refusals (Swedish, nothing written): the child not found (not this season's, or not registered online: 404),
 * an adult or a companion as the child (400), the companion under adultAge (400), the child deregistered or not
 * paid, or on another distance than the one the page showed (409), a race already ended (409), the same name already
 * in the family or being sold to it at another desk (409), a campaign code for a companion that costs money (400).
 *
 * Concurrency:
 * - A retry of the same sale (the answer lost, 'Nästa' pressed twice, two tabs with the same sale): the page makes
 *   one sale id per sale and the companion's id is made from it, so a second request finds the row and is answered
 *   with the sale already made (its payid, and its QR while Swish waits); two at once are decided by the row's
 *   primary key, the loser answered the same way (or 409 'being registered' for the moment before the winner's
 *   Swish payment exists). A retry never sells a second place.
 * - Two desks selling the same parent (two sale ids, one name): the batch that writes the row starts with a guard
 *   (companion-sale-db.ts saleGuard) that sees, inside D1's one transaction at a time, the runners of the family and
 *   the companions being sold to it; the second desk's batch is refused whole and hears 409 with who has the name.
 * - The family saving its runner map at the same moment: until paid the companion is not in the family's list, so
 *   no save can touch it; from the payment on it is a paid runner of the registration (a save never removes one)
 *   and the version the family's save was based on is no longer the stored one, so that save is refused (409) with
 *   the list that has the companion (registrations-db.ts saveRunners). The child moved, deregistered or removed by
 *   the family or a refund between the checks and the write: the guard refuses the batch, and the volunteer hears
 *   why. A change to the child after the sale (while a Swish payment waits) is the family's; the companion then
 *   joins as it was sold, as a refund that deregisters a child leaves its companions (shared/companion.ts).
 */
import { isAdult } from "../../shared/age";
import { COMPANION_SALE_MSG, type CompanionSale, type QuickRegStarted } from "../../shared/box-office";
import { campaignPayid } from "../../shared/campaign";
import type { Clock } from "../../shared/clock";
import { COMPANION_MESSAGES } from "../../shared/companion";
import { onSitePrice } from "../../shared/pricing";
import { SEASON, type Season } from "../../shared/season";
import { audit } from "../db/audit";
import { database, type Db } from "../db/client";
import { participants, payments } from "../db/schema";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { FREE_COMPANIONS_LABEL, newInstructionId, startSwishPayment } from "../payments/payments";
import { findPayment } from "../payments/payments-db";
import {
  checkRaceAndBib,
  methodOf,
  PENDING_BIB_MS,
  QUICKREG_AUDIT,
  seasonRace,
  settledAtOnce,
  type BoxOfficeActor,
} from "./box-office";
import { paidRow } from "./box-office-db";
import { childRow, familyNames, saleGuard, saleRunner, unpaidSalePayment, type ChildRow } from "./companion-sale-db";

/** The companion's runner id: made from the sale id, so the same sale can never write a second row. */
export function companionRunnerId(saleId: string): string {
  return `kassa-${saleId}`;
}

const km = (distance: string) => `${distance.replace(".", ",")} km`;
const nameOf = (r: { firstname: string; lastname: string }) => `${r.firstname} ${r.lastname}`.trim();
/** Names as the volunteers mean them: spaces around and letter case do not matter. */
const sameName = (a: { firstname: string; lastname: string }, b: { firstname: string; lastname: string }) =>
  a.firstname.trim().toLocaleLowerCase("sv") === b.firstname.trim().toLocaleLowerCase("sv") &&
  a.lastname.trim().toLocaleLowerCase("sv") === b.lastname.trim().toLocaleLowerCase("sv");

/** The child the sale names, when it can have a companion on the sale's distance; otherwise the refusal. */
async function checkChild(db: Db, sale: CompanionSale, season: Season): Promise<ChildRow & { registrationId: string }> {
  const child = await childRow(db, sale.childId);
  if (!child || child.registrationId === null || child.season !== season.year) {
    throw new ApiError(404, COMPANION_SALE_MSG.childMissing);
  }
  const name = nameOf(child);
  if (child.companion) throw new ApiError(400, COMPANION_SALE_MSG.childCompanion(name));
  if (isAdult(child.age, season)) {
    throw new ApiError(400, COMPANION_SALE_MSG.childAdult(name, child.age, season.adultAge));
  }
  if (child.deregisteredAt !== null) throw new ApiError(409, COMPANION_SALE_MSG.childDeregistered(name));
  if (child.paidBy === null) throw new ApiError(409, COMPANION_SALE_MSG.childUnpaid(name));
  if (child.distance !== sale.distance) {
    const message = COMPANION_SALE_MSG.distance(name, km(child.distance), km(sale.distance));
    throw new ApiError(409, message, { distance: message });
  }
  return { ...child, registrationId: child.registrationId };
}

/**
 * Refuses (409) a name the family already has, or one another desk is selling to it now; this sale's own row (the
 * same sale sent again at once) is not another.
 */
async function checkNotTwice(db: Db, registrationId: string, sale: CompanionSale, since: number) {
  const own = companionRunnerId(sale.saleId);
  const twin = (await familyNames(db, registrationId, since)).find((r) => r.id !== own && sameName(r, sale));
  if (!twin) return;
  const message = (twin.pending ? COMPANION_SALE_MSG.pending : COMPANION_SALE_MSG.inFamily)(nameOf(twin));
  throw new ApiError(409, message, { firstname: message });
}

/** The answer of a sale already made with this id (a retry), or null when there is none. */
async function earlierSale(db: Db, id: string, season: Season): Promise<QuickRegStarted | null> {
  const row = await saleRunner(db, id);
  if (!row) return null;
  const payment = row.paidBy
    ? await findPayment(db, row.paidBy)
    : await unpaidSalePayment(db, id, row.createdAt, row.createdAt + PENDING_BIB_MS);
  // The row is written first, its Swish payment a moment later by the same request.
  if (!payment || payment.origin !== "kassa" || !row.companion) throw new ApiError(409, COMPANION_SALE_MSG.inFlight);
  const race = await seasonRace(db, row.distance as CompanionSale["distance"], season);
  const method = methodOf(payment);
  const token = method === "swish" && payment.status === "CREATED" ? payment.token : null;
  return { payid: payment.id, method, amount: payment.amount, raceId: race.part, ...(token ? { token } : {}) };
}

/** `POST /admin/api/quickreg/companion` (see the module comment); `sale.age` in whole years. */
export async function startCompanionSale(
  env: Env,
  clock: Clock,
  sale: CompanionSale,
  by: BoxOfficeActor,
  requestOrigin: string,
  season: Season = SEASON,
): Promise<QuickRegStarted> {
  const db = database(env.DB);
  const now = clock.now();
  const id = companionRunnerId(sale.saleId);
  const earlier = await earlierSale(db, id, season);
  if (earlier) return earlier;

  const since = now - PENDING_BIB_MS;
  if (!isAdult(sale.age, season)) {
    const message = COMPANION_MESSAGES.notAdult(season);
    throw new ApiError(400, message, { age: message });
  }
  const child = await checkChild(db, sale, season);
  const race = await seasonRace(db, sale.distance, season);
  await checkRaceAndBib(env, db, race, { ...sale, bib: null, companion: true }, 0, season, now);
  await checkNotTwice(db, child.registrationId, sale, since);
  const amount = onSitePrice(sale.age, season, true);
  if (amount > 0 && sale.method === "kampanj") {
    throw new ApiError(400, COMPANION_SALE_MSG.campaign, { kampanj: COMPANION_SALE_MSG.campaign });
  }

  const guard = saleGuard(db, {
    registrationId: child.registrationId,
    childId: child.id,
    season: season.year,
    distance: sale.distance,
    adultAge: season.adultAge,
    firstname: sale.firstname,
    lastname: sale.lastname,
    since,
  });
  const row = db.insert(participants).values({
    id,
    registrationId: null,
    joinsRegistrationId: child.registrationId,
    season: season.year,
    firstname: sale.firstname,
    lastname: sale.lastname,
    age: sale.age,
    company: "",
    distance: sale.distance,
    group: sale.group,
    bib: null,
    phone: null,
    createdAt: now,
    companion: true,
  });
  const paid = (payid: string, cash: boolean) =>
    db.insert(payments).values({
      ...paidRow(payid, season, amount, { barn: 0, vuxna: 0 }, [id], now),
      runnerPrices: JSON.stringify({ [id]: amount }),
      cash,
    });

  // Paid at once (a free place, cash), or a Swish payment started once the row is written.
  let paidNow: QuickRegStarted | null = null;
  try {
    if (amount === 0) {
      const payid = campaignPayid(FREE_COMPANIONS_LABEL, (await sha256Hex(`kassa|${sale.saleId}`)).slice(0, 16));
      await db.batch([guard, row, paid(payid, false)]);
      paidNow = { payid, method: "kampanj", amount, raceId: race.part };
    } else if (sale.method === "kontant") {
      const payid = newInstructionId();
      await db.batch([guard, row, paid(payid, true)]);
      paidNow = { payid, method: "kontant", amount, raceId: race.part };
    } else {
      await db.batch([guard, row]);
    }
  } catch (err) {
    // Another request of this sale wrote the row first (its primary key), or the guard saw the family change: the
    // sale made, or why not.
    const made = await earlierSale(db, id, season);
    if (made) return made;
    await checkChild(db, sale, season);
    await checkNotTwice(db, child.registrationId, sale, since);
    throw err;
  }
  let started = paidNow;
  if (started === null) {
    const { payid, token } = await startSwishPayment(env, clock, {
      registrationId: null,
      season: season.year,
      amount,
      barn: 0,
      vuxna: 0,
      kampanj: null,
      participantIds: [id],
      runnerPrices: { [id]: amount },
      origin: "kassa",
      message: `${season.siteName} ${season.year} ${nameOf(sale)} med barn`,
      requestOrigin,
    });
    started = { payid, method: "swish", amount, raceId: race.part, token };
  }

  await audit(
    db,
    {
      actor: by.actor,
      action: QUICKREG_AUDIT,
      subject: started.payid,
      detail: {
        participantId: id,
        participantIds: [id],
        companionOf: child.id,
        registrationId: child.registrationId,
        saleId: sale.saleId,
        method: started.method,
        raceId: race.part,
        amount,
      },
    },
    now,
  );
  await settledAtOnce(env, db, started, by, now, clock);
  return started;
}

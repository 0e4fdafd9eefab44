/**
 * The box office ('Biljettkassan', admin spec §2, §3 "Quick registration payload", §5): a volunteer signs up one
 * runner on race morning, and the runner is put into the season's race of that distance, with the bib typed, once
 * the fee is paid. Three ways to pay, each a payments row with origin 'kassa' and no registration:
 *
 * - Swish: the participant row is written, then a Swish payment (startSwishPayment) whose QR the page shows. The
 *   runner is added only when that payment settles PAID, by the one after-payment step every payment takes
 *   (payments.ts afterPaid → race-runners.ts addParticipantsToRaces), so a replayed callback, the page's poll and
 *   the cron add the runner once between them (the race object adds by participant id).
 * - Cash ('kontant'): written PAID at once with `cash` set; its id is a random instruction id that no Swish
 *   payment has, and `method` (a generated column) reads 'kontant'.
 * - Campaign code ('kampanj'): only a code that makes one runner's fee 0 (rule 'free'), claimed once in the same D1
 *   batch that writes the participant and the PAID 0-kr payment `kampanj_<CODE>_<x>` (`method` 'kampanj').
 *
 * States of a Swish sign-up: CREATED (QR shown) → PAID (runner added) | DECLINED | ERROR | CANCELLED (the volunteer
 * cancelled: withdrawn at Swish). Cash and campaign sign-ups are PAID from the start.
 *
 * Invariants
 * - A runner is only ever in a race through a PAID payment: an unpaid, declined, failed or cancelled payment leaves
 *   its participant row without a race (the row stays as the payment's record; nobody sees it on race day).
 * - The bib is checked before any payment: free in the race object (whose runners every timing phone shows) and not
 *   held by another box-office sign-up still waiting for its Swish payment (for PENDING_BIB_MS). A taken bib is a
 *   409 naming the runner who has it, and nothing is written.
 * - A paid runner is never dropped: if the bib was taken between the sign-up and the payment (a timing phone typed
 *   it meanwhile), the race object adds the runner without a number (`dropTakenBib`) and the status says so
 *   (`requestedBib` differs from `bib`).
 * - No receipt e-mail: a box-office payment has no registration, so afterPaid sends none.
 * - Every participant without a registration is the box office's own (its lists, the personal-data lookup by
 *   phone, the goodie bags' box-office count read it so), and nothing else ever is.
 * - A companion ('Springer med barn (ej tävlande)', shared/companion.ts) sold here runs with a child of the same
 *   sale on its distance, or (issue 39, item 3) with a child registered online: that sale is ./companion-sale.ts.
 *   Its companion is the box office's own until its payment is PAID, and from that very statement a paid runner
 *   of the child's registration (so no longer counted here; its payment stays a box-office payment, refunded from
 *   the box office's sales).
 *
 * Failure cases: bad input (400, Swedish per field), a distance without a race this season (404), an ended race
 * (409), a taken or pending bib (409), Swish refusing or unreachable (502 from startSwishPayment; the payment is
 * ERROR and the runner not added), a campaign code that is unknown, not free, disabled, expired or used up (400,
 * nothing stored), a code's last use taken by someone else at the same moment (409, nothing stored).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { countAges } from "../../shared/age";
import { campaignPayid, isCampaignValidAt, normalizeCode } from "../../shared/campaign";
import type { Clock } from "../../shared/clock";
import type { DistanceKm } from "../../shared/distances";
import {
  saleFieldKey,
  type BoxOfficeMethod,
  type QuickRegFields,
  type QuickRegRunner,
  type QuickRegSale,
  type QuickRegStarted,
  type QuickRegStatus,
  type QuickRegStatusRunner,
} from "../../shared/box-office";
import type { PaymentStatus } from "../../shared/payment-protocol";
import { campaignTotal, onSitePrice } from "../../shared/pricing";
import { raceIdForSeason } from "../../shared/race-id";
import { SEASON, type Season } from "../../shared/season";
import { randomHex } from "../lib/crypto";
import { audit } from "../db/audit";
import { builtinCampaigns, type BuiltinCampaigns } from "../campaigns/builtin-campaigns";
import { claimCampaignUseStatement, ensureCampaignRow, findCampaign } from "../campaigns/campaigns-db";
import { database, type Db } from "../db/client";
import type { ParticipantRow } from "../db/participants-db";
import { findPayment, parseParticipantIds, type PaymentRow } from "../payments/payments-db";
import { ensureSeasonRaces, getRace, type RaceRow } from "../race-day/races-db";
import { campaignCodes, participants, payments } from "../db/schema";
import { ApiError } from "../lib/errors";
import {
  afterPaid,
  cancelSwishPayment,
  newInstructionId,
  settlePayment,
  startSwishPayment,
} from "../payments/payments";
import { answered, raceStub } from "../race-day/race-runners";
import { paidRow } from "./box-office-db";
import { familyEmails } from "./companion-sale-db";

/** Who is at the box office (the admin's e-mail), kept in the audit log. */
export interface BoxOfficeActor {
  actor: string;
}

/** Swish gives the payer about 3 minutes; a sign-up still waiting after this no longer holds its bib. */
export const PENDING_BIB_MS = 5 * 60_000;
/** The audit line that records each sign-up: who sold it, to whom, which bib was asked for, how it was paid. */
export const QUICKREG_AUDIT = "kassa.quickreg";

export const BOX_OFFICE_MSG = {
  noRace: (d: DistanceKm) => `Det finns inget lopp på ${d.replace(".", ",")} km i år.`,
  ended: (d: DistanceKm) => `Loppet på ${d.replace(".", ",")} km är redan avslutat.`,
  bibTaken: (bib: number, name: string) => `Startnummer ${bib} används redan av ${name}.`,
  bibPending: (bib: number, name: string) =>
    `Startnummer ${bib} väntar redan på en Swish-betalning i kassan (${name}). Välj ett annat nummer.`,
  campaignMissing: "Ange kampanjkoden.",
  campaignUnknown: "Kampanjkoden finns inte.",
  campaignInvalid: "Kampanjkoden gäller inte (avstängd, utgången eller förbrukad).",
  campaignNotFree: "Kampanjkoden ger bara rabatt. I kassan tas den bara emot om den täcker hela avgiften.",
  campaignRace: "Kampanjkodens sista användning togs nyss av någon annan. Kontrollera koden och försök igen.",
  notBoxOffice: "Betalningen finns inte i kassan.",
  cancelFailed: "Swish svarade inte. Försök avbryta igen om en stund.",
} as const;

function fullName(r: { firstname: string; lastname: string }): string {
  return `${r.firstname} ${r.lastname}`;
}

/** The season's race for a distance, from D1 (seeded from the config when missing); 404 when the season has none. */
export async function seasonRace(db: Db, distance: DistanceKm, season: Season): Promise<RaceRow> {
  if (!season.races.some((r) => r.distance === distance)) throw new ApiError(404, BOX_OFFICE_MSG.noRace(distance));
  const part = raceIdForSeason(distance, season);
  let row = await getRace(db, part);
  if (!row) {
    await ensureSeasonRaces(db, season);
    row = await getRace(db, part);
  }
  if (!row) throw new ApiError(404, BOX_OFFICE_MSG.noRace(distance));
  return row;
}

/**
 * Another box-office sale for the same bib and distance whose Swish payment is still open and recent: the runner
 * it would add (each runner of the sale, through the payment's participant ids; the payments_status index finds
 * the open ones).
 */
async function pendingHolder(db: Db, runner: QuickRegRunner, season: Season, now: number) {
  return db.$client
    .prepare(
      `SELECT p.firstname, p.lastname
       FROM payments pay, json_each(pay.participant_ids) j
         JOIN participants p ON p.id = j.value
       WHERE pay.status = 'CREATED' AND pay.date_created >= ?1 AND pay.origin = 'kassa'
         AND p.season = ?2 AND p.distance = ?3 AND p.bib = ?4
       LIMIT 1`,
    )
    .bind(now - PENDING_BIB_MS, season.year, runner.distance, runner.bib)
    .first<{ firstname: string; lastname: string }>();
}

/** Refuses (409) a bib the race already uses or a waiting box-office sale holds, and an ended race. */
export async function checkRaceAndBib(
  env: Env,
  db: Db,
  race: RaceRow,
  runner: QuickRegRunner,
  index: number,
  season: Season,
  now: number,
) {
  const snapshot = await answered(raceStub(env, race.part).snapshot());
  const [record, ...runners] = snapshot ?? [null];
  if (record?.state === "ended") throw new ApiError(409, BOX_OFFICE_MSG.ended(runner.distance));
  const field = saleFieldKey(index, "bib");
  // A companion has no bib (shared/companion.ts); its child of the same sale is checked for the race.
  if (runner.bib === null) return;
  const holder = runners.find((r) => r.bib === runner.bib);
  if (holder) {
    const message = BOX_OFFICE_MSG.bibTaken(runner.bib, fullName(holder));
    throw new ApiError(409, message, { [field]: message });
  }
  const pending = await pendingHolder(db, runner, season, now);
  if (pending) {
    const message = BOX_OFFICE_MSG.bibPending(runner.bib, fullName(pending));
    throw new ApiError(409, message, { [field]: message });
  }
}

function participantRow(id: string, input: QuickRegRunner, phone: string, season: Season, now: number) {
  return {
    id,
    registrationId: null,
    season: season.year,
    firstname: input.firstname,
    lastname: input.lastname,
    age: input.age,
    company: "",
    distance: input.distance,
    group: input.group,
    bib: input.bib,
    phone,
    createdAt: now,
    companion: input.companion === true,
  };
}

/** `POST /admin/api/quickreg` with the spec's one runner: a sale of one (startBoxOfficeSale). */
export async function startQuickReg(
  env: Env,
  clock: Clock,
  input: QuickRegFields,
  by: BoxOfficeActor,
  requestOrigin: string,
  season: Season = SEASON,
): Promise<QuickRegStarted> {
  const { phone, method, kampanj, ...runner } = input;
  return startBoxOfficeSale(env, clock, { runners: [runner], phone, method, kampanj }, by, requestOrigin, season);
}

/**
 * `POST /admin/api/quickreg`: checks every runner's race and bib, writes the participants and one payment for all
 * of them. Swish answers with the token for the QR (the runners are added when it settles PAID); cash and a free
 * campaign code add them now. Either way they join their races checked in (afterPaid: a box-office runner takes
 * the bib at the table).
 */
export async function startBoxOfficeSale(
  env: Env,
  clock: Clock,
  sale: QuickRegSale,
  by: BoxOfficeActor,
  requestOrigin: string,
  season: Season = SEASON,
): Promise<QuickRegStarted> {
  const db = database(env.DB);
  const now = clock.now();
  const races: RaceRow[] = [];
  for (const runner of sale.runners) races.push(await seasonRace(db, runner.distance, season));
  for (const [i, runner] of sale.runners.entries()) await checkRaceAndBib(env, db, races[i]!, runner, i, season, now);

  const ids = sale.runners.map(() => `kassa-${crypto.randomUUID()}`);
  // A companion costs the season's companionPrice, counted apart (shared/pricing.ts).
  const prices = sale.runners.map((r) => onSitePrice(r.age, season, r.companion === true));
  const amount = prices.reduce((sum, price) => sum + price, 0);
  // Each runner's share, so the payment's trigger books every runner at its own price (migrations/0010).
  const runnerPrices = Object.fromEntries(ids.map((id, i) => [id, prices[i]!]));
  const { barn, vuxna } = countAges(sale.runners, season);
  const counts = { barn, vuxna };
  // What a campaign code must make free: the companions' price included (a code does not change it).
  const priced = countAges(sale.runners, season);
  const rows = sale.runners.map((r, i) => participantRow(ids[i]!, r, sale.phone, season, now));
  const first = sale.runners[0]!;
  const raceId = races[0]!.part;
  let started: QuickRegStarted;

  switch (sale.method) {
    case "swish": {
      await db.insert(participants).values(rows);
      const who =
        sale.runners.length === 1
          ? `${fullName(first)} ${first.distance.replace(".", ",")} km`
          : `${sale.runners.length} löpare ${first.lastname}`;
      const { payid, token } = await startSwishPayment(env, clock, {
        registrationId: null,
        season: season.year,
        amount,
        ...counts,
        kampanj: null,
        participantIds: ids,
        runnerPrices,
        origin: "kassa",
        message: `${season.siteName} ${season.year} ${who}`,
        requestOrigin,
      });
      started = { payid, method: "swish", amount, raceId, token };
      break;
    }
    case "kontant": {
      const payid = newInstructionId();
      await db.batch([
        db.insert(participants).values(rows),
        db.insert(payments).values({
          ...paidRow(payid, season, amount, counts, ids, now),
          runnerPrices: JSON.stringify(runnerPrices),
          cash: true,
        }),
      ]);
      started = { payid, method: "kontant", amount, raceId };
      break;
    }
    case "kampanj": {
      const payid = await claimFreeCampaign(db, builtinCampaigns(env), sale.kampanj, rows, priced, season, now);
      started = { payid, method: "kampanj", amount: 0, raceId };
      break;
    }
  }

  await audit(
    db,
    {
      actor: by.actor,
      action: QUICKREG_AUDIT,
      subject: started.payid,
      detail: {
        participantId: ids[0],
        bib: first.bib,
        participantIds: ids,
        bibs: Object.fromEntries(ids.map((id, i) => [id, sale.runners[i]!.bib])),
        method: started.method,
        raceId,
        amount: started.amount,
      },
    },
    now,
  );
  await settledAtOnce(env, db, started, by, now, clock);
  return started;
}

/**
 * A sale paid in cash or by a code (no Swish) is paid as it is written: audited as settled, then the after-payment
 * step puts its runners where they go, as a Swish callback's would. A Swish sale waits for Swish.
 */
export async function settledAtOnce(
  env: Env,
  db: Db,
  started: { payid: string; method: string },
  by: BoxOfficeActor,
  now: number,
  clock: Clock,
): Promise<void> {
  if (started.method === "swish") return;
  await audit(
    db,
    { actor: by.actor, action: "payment.settled", subject: started.payid, detail: { status: "PAID", source: "kassa" } },
    now,
  );
  await afterPaid(env, started.payid, clock);
}

/**
 * A campaign code as the box office's payment: it must exist, be usable now and make the sale's fee 0. Its use
 * is claimed in the same batch that writes participant and payment; the guard after the claim sees the use count
 * moved by exactly this claim, or the whole batch is rolled back (another claim got in between, or none was made).
 */
async function claimFreeCampaign(
  db: Db,
  builtins: BuiltinCampaigns,
  kampanj: string | null,
  rows: ReturnType<typeof participantRow>[],
  priced: { barn: number; vuxna: number; medBarn?: number },
  season: Season,
  now: number,
): Promise<string> {
  const counts = { barn: priced.barn, vuxna: priced.vuxna };
  const code = normalizeCode(kampanj ?? "");
  if (code === "") throw new ApiError(400, BOX_OFFICE_MSG.campaignMissing, { kampanj: BOX_OFFICE_MSG.campaignMissing });
  const campaign = await findCampaign(db, code, builtins);
  if (!campaign) throw new ApiError(400, BOX_OFFICE_MSG.campaignUnknown, { kampanj: BOX_OFFICE_MSG.campaignUnknown });
  if (!isCampaignValidAt(campaign, now)) {
    throw new ApiError(400, BOX_OFFICE_MSG.campaignInvalid, { kampanj: BOX_OFFICE_MSG.campaignInvalid });
  }
  if (campaignTotal(campaign.rule, priced, now, season) !== 0) {
    throw new ApiError(400, BOX_OFFICE_MSG.campaignNotFree, { kampanj: BOX_OFFICE_MSG.campaignNotFree });
  }
  await ensureCampaignRow(db, code, now, builtins);
  const before = await db
    .select({ uses: campaignCodes.uses })
    .from(campaignCodes)
    .where(eq(campaignCodes.code, campaign.code))
    .get();
  if (!before) throw new ApiError(400, BOX_OFFICE_MSG.campaignUnknown, { kampanj: BOX_OFFICE_MSG.campaignUnknown });

  const payid = campaignPayid(campaign.code, randomHex(8));
  // json('used') raises "malformed JSON", which aborts the batch and rolls back everything in it.
  const guard = db
    .select({ ok: sql`json(CASE WHEN ${campaignCodes.uses} = ${before.uses + 1} THEN '1' ELSE 'used' END)` })
    .from(campaignCodes)
    .where(eq(campaignCodes.code, campaign.code));
  try {
    await db.batch([
      claimCampaignUseStatement(db, campaign.code, now, null),
      guard,
      db.insert(participants).values(rows),
      db.insert(payments).values({
        ...paidRow(
          payid,
          season,
          0,
          counts,
          rows.map((r) => r.id),
          now,
        ),
        kampanj: campaign.code,
      }),
    ]);
  } catch (err) {
    const after = await findCampaign(db, code, builtins);
    if (!after || !isCampaignValidAt(after, now)) {
      throw new ApiError(400, BOX_OFFICE_MSG.campaignInvalid, { kampanj: BOX_OFFICE_MSG.campaignInvalid });
    }
    if (after.uses !== before.uses) throw new ApiError(409, BOX_OFFICE_MSG.campaignRace);
    throw err;
  }
  return payid;
}

export function methodOf(row: PaymentRow): BoxOfficeMethod {
  const method = row.method;
  return method === "kontant" || method === "kampanj" ? method : "swish";
}

async function boxOfficePayment(
  db: Db,
  payid: string,
): Promise<{ row: PaymentRow; participant: ParticipantRow; all: ParticipantRow[] }> {
  const row = await findPayment(db, payid);
  const ids = row?.origin === "kassa" ? parseParticipantIds(row.participantIds) : [];
  const found = ids.length ? await db.select().from(participants).where(inArray(participants.id, ids)).all() : [];
  const all = ids.flatMap((id) => found.filter((p) => p.id === id));
  const participant = all[0];
  if (!row || !participant) throw new ApiError(404, BOX_OFFICE_MSG.notBoxOffice);
  return { row, participant, all };
}

/** The bibs asked for at the box office, per participant (the sale's audit line; older lines name one). */
async function requestedBibs(db: Db, payid: string): Promise<Map<string, number>> {
  const line = await db.$client
    .prepare(`SELECT detail FROM audit_log WHERE action = ?1 AND subject = ?2 LIMIT 1`)
    .bind(QUICKREG_AUDIT, payid)
    .first<{ detail: string }>();
  const bibs = new Map<string, number>();
  if (!line) return bibs;
  try {
    const detail = JSON.parse(line.detail) as { bib?: unknown; participantId?: unknown; bibs?: unknown };
    if (typeof detail.participantId === "string" && typeof detail.bib === "number") {
      bibs.set(detail.participantId, detail.bib);
    }
    if (detail.bibs && typeof detail.bibs === "object") {
      for (const [id, bib] of Object.entries(detail.bibs)) if (typeof bib === "number") bibs.set(id, bib);
    }
  } catch {
    // An unreadable line names no bib.
  }
  return bibs;
}

/**
 * `GET /admin/api/quickreg/{payid}`: the sale's payment and, once paid, its runners as the race objects have them.
 * A Swish payment still open is asked for at Swish first (callbacks may never come), as the receipt page's /verify.
 */
export async function quickRegStatus(env: Env, payid: string, season: Season = SEASON): Promise<QuickRegStatus> {
  const db = database(env.DB);
  let { row, participant, all } = await boxOfficePayment(db, payid);
  if (row.status === "CREATED") {
    const result = await settlePayment(env, payid, "poll");
    if (result.status !== "CREATED") ({ row, participant, all } = await boxOfficePayment(db, payid));
  }
  const asked = await requestedBibs(db, row.id);
  const families = await familyEmails(
    db,
    all.flatMap((p) => (p.joinsRegistrationId ? [p.joinsRegistrationId] : [])),
  );
  const runners: QuickRegStatusRunner[] = [];
  for (const p of all) {
    const raceId = p.raceId ?? raceIdForSeason(p.distance as DistanceKm, season);
    if (p.companion) {
      // In no race (shared/companion.ts): done once the sale is paid, without a bib.
      const email = p.joinsRegistrationId ? families.get(p.joinsRegistrationId) : undefined;
      runners.push({
        id: p.id,
        firstname: p.firstname,
        lastname: p.lastname,
        age: p.age,
        distance: p.distance,
        raceId,
        requestedBib: null,
        added: row.status === "PAID",
        bib: null,
        pickedUpAt: p.pickedUpAt,
        companion: true,
        ...(email !== undefined ? { family: { email, joined: p.registrationId === p.joinsRegistrationId } } : {}),
      });
      continue;
    }
    const inRace = row.status === "PAID" ? await answered(raceStub(env, raceId).getRunner(p.id)) : null;
    runners.push({
      id: p.id,
      firstname: p.firstname,
      lastname: p.lastname,
      age: p.age,
      distance: p.distance,
      raceId: inRace?.part ?? raceId,
      requestedBib: asked.get(p.id) ?? null,
      added: inRace !== null,
      bib: inRace ? inRace.bib : null,
      pickedUpAt: inRace?.pickedUpAt ?? null,
    });
  }
  const first = runners[0]!;
  return {
    payid: row.id,
    method: methodOf(row),
    status: row.status as PaymentStatus,
    amount: row.amount,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    runner: {
      firstname: participant.firstname,
      lastname: participant.lastname,
      age: participant.age,
      distance: participant.distance,
      group: participant.group,
      phone: participant.phone,
    },
    raceId: first.raceId,
    requestedBib: first.requestedBib,
    added: runners.every((r) => r.added),
    bib: first.bib,
    runners,
  };
}

/**
 * `POST /admin/api/quickreg/{payid}/cancel`: the volunteer gives up on a Swish payment. It is withdrawn at Swish
 * and settled CANCELLED; if the payer was faster, it settles PAID instead and the runner is added as usual. 502
 * when Swish could not be asked (the payment stays open).
 */
export async function cancelQuickReg(env: Env, payid: string, season: Season = SEASON): Promise<QuickRegStatus> {
  const db = database(env.DB);
  const { row } = await boxOfficePayment(db, payid);
  if (row.status === "CREATED") {
    const result = await cancelSwishPayment(env, payid);
    if (result.status === "CREATED") throw new ApiError(502, BOX_OFFICE_MSG.cancelFailed);
  }
  return quickRegStatus(env, payid, season);
}

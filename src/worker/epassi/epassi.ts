/**
 * Epassi (wellness-benefit) invitations, admin spec §2 "Epassi invitation", §7 POST /admin/api/invite/epassi.
 * A person pays one runner's fee through Epassi; the organiser sends them an e-mail with a code that pays one
 * runner at registration: a campaign code of rule 'epassi' (shared/pricing.ts: the most expensive runner of the
 * order is free, the rest is paid with Swish), usable once.
 *
 * Invitation states: written (the invitation and its code, together, in one D1 batch) → sent (`sent_at`), or
 * not sent (`send_error`; the list says 'ej skickad' and offers 'Skicka igen', which sends the same code again).
 *
 * Code states (read from the payments that carry it, db/epassi.ts listInvitations):
 *   unused ──booking (Swish order, CREATED)──▶ reserved ──PAID──▶ used
 *     ▲                                           │
 *     └──── the order ends DECLINED / ERROR / CANCELLED (Swish declined, timed out, withdrawn, given up by the
 *           cron after a day) ◀─────────────────┘
 *   unused ──booking of an order the code makes free (one runner)──▶ used at once (a PAID free order)
 *
 * Invariants:
 * - An invitation never exists without its code, nor its code without it.
 * - At most one order holds the code at a time, and a paid order never loses it. The use is claimed when the order
 *   is written, in the same D1 transaction (src/worker/payments/payments-db.ts insertOrderPayment, src/worker/campaigns/campaigns-db.ts
 *   claimCampaignUseStatement: enabled, valid and under its cap of one, checked in one statement). So "consumed
 *   when the order settles" is read as: reserved at booking, kept when the order is PAID, given back when it ends
 *   unpaid. Why not claim only at PAID: a Swish payment cannot be changed once paid, so a second order paid with
 *   the same code could not be charged the difference. Reserving at booking makes the loser of a race find out
 *   before it pays anything.
 * - The use is given back by the trigger of migrations/0010_runner_payments.sql (every campaign code's), inside the
 *   one conditional UPDATE that settles the order (which happens once), so no crash between the two can leave a
 *   failed order holding it.
 *
 * Failure cases:
 * - Bad input (wrong types, missing or oversized fields, an invalid address): 400 with the spec's message,
 *   nothing written, no e-mail.
 * - A drawn code that exists already (astronomically unlikely, 50 random bits): another is drawn.
 * - The e-mail cannot be sent: the invitation and code stay, marked not sent, and the call answers 502 with the
 *   reason. Not rolled back: a provider that timed out may still deliver the mail, and a code deleted after that
 *   would be dead in the person's inbox. Nobody else knows an unsent code.
 * - A crash between writing and sending: the same as a failed send (no `sent_at`); resend from the list.
 * - Two orders racing with one code: one claim wins; the other booking is refused (400, the code does not apply)
 *   before any Swish request, and can use the code once the first order has failed.
 * - The visitor abandons the Swish payment: Swish declines or times out (the payment page's poll, the callback or
 *   the cron settles it), or the cron gives it up after a day; either way the code is back.
 */
import type { Clock } from "../../shared/clock";
import { SEASON } from "../../shared/season";
import { emailSender } from "../adapters/email";
import { audit } from "../db/audit";
import { builtinCampaigns, findBuiltin } from "../campaigns/builtin-campaigns";
import { lastValidMoment } from "../campaigns/campaigns-db";
import { database } from "../db/client";
import {
  createInvitation,
  findInvitation,
  isCodePaid,
  listInvitations,
  markInvitationFailed,
  markInvitationSent,
  type InvitationEntry,
} from "./epassi-db";
import { epassiInvitationEmail } from "./invitation-email";
import { ApiError } from "../lib/errors";

export const EPASSI_CODE_PREFIX = "EPASSI";
/** Letters and digits without look-alikes (0/O, 1/I/L): the code is read from an e-mail and typed on a phone. */
export const EPASSI_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** 10 characters of 31: about 50 bits, far beyond guessing through the rate-limited /validate-kampanj. */
export const EPASSI_CODE_RANDOM_LENGTH = 10;

export const EPASSI_SEND_FAILED =
  "Inbjudan sparades men e-postmeddelandet kunde inte skickas. Försök igen med 'Skicka igen' i listan.";
export const EPASSI_CODE_USED = "Koden är redan använd; inbjudan skickas inte igen.";
export const EPASSI_NOT_FOUND = "Inbjudan finns inte.";

/** 'EPASSI' and 10 characters drawn uniformly from the alphabet (rejection sampling: no modulo bias). */
export function newEpassiCode(): string {
  const n = EPASSI_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = "";
  while (out.length < EPASSI_CODE_RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && out.length < EPASSI_CODE_RANDOM_LENGTH) out += EPASSI_CODE_ALPHABET[byte % n];
    }
  }
  return EPASSI_CODE_PREFIX + out;
}

export interface InvitationRequest {
  name: string;
  email: string;
  /** The admin who sends it. */
  admin: string;
  /** The site's origin for the link in the e-mail. */
  siteUrl: string;
}

/**
 * Makes the invitation and its code, then sends the e-mail. Returns the invitation as listed; throws 502 when the
 * e-mail could not be sent (the invitation stays, marked not sent).
 */
export async function sendInvitation(env: Env, clock: Clock, req: InvitationRequest): Promise<InvitationEntry> {
  const db = database(env.DB);
  const now = clock.now();
  // The code works through the race day, for a person who registers at the box office on the morning.
  const validUntil = lastValidMoment(SEASON.raceDay);
  let id: number | null = null;
  let code = "";
  for (let attempt = 0; attempt < 5 && id === null; attempt++) {
    code = newEpassiCode();
    if (findBuiltin(builtinCampaigns(env), code)) continue;
    id = await createInvitation(db, { name: req.name, email: req.email, code, createdBy: req.admin, validUntil }, now);
  }
  if (id === null) throw new Error("no free Epassi code after 5 draws");
  await audit(db, { actor: req.admin, action: "epassi.invite", subject: req.email, detail: { id, code } }, now);
  return deliver(env, clock, id, req);
}

/** Sends an invitation's e-mail again (after a failed send, or a lost mail); refused once its code is used. */
export async function resendInvitation(
  env: Env,
  clock: Clock,
  id: number,
  req: Pick<InvitationRequest, "admin" | "siteUrl">,
): Promise<InvitationEntry> {
  const db = database(env.DB);
  const invitation = await findInvitation(db, id);
  if (!invitation) throw new ApiError(404, EPASSI_NOT_FOUND);
  if (await isCodePaid(db, invitation.code)) throw new ApiError(409, EPASSI_CODE_USED);
  await audit(
    db,
    { actor: req.admin, action: "epassi.resend", subject: invitation.email, detail: { id } },
    clock.now(),
  );
  return deliver(env, clock, id, req);
}

async function deliver(
  env: Env,
  clock: Clock,
  id: number,
  req: Pick<InvitationRequest, "siteUrl">,
): Promise<InvitationEntry> {
  const db = database(env.DB);
  const invitation = await findInvitation(db, id);
  if (!invitation) throw new ApiError(404, EPASSI_NOT_FOUND);
  const mail = epassiInvitationEmail({ name: invitation.name, code: invitation.code, siteUrl: req.siteUrl });
  try {
    await emailSender(env, db, clock).send({ to: invitation.email, ...mail, kind: "epassi" });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    console.error("epassi invitation e-mail failed", id, reason);
    await markInvitationFailed(db, id, reason);
    throw new ApiError(502, EPASSI_SEND_FAILED);
  }
  await markInvitationSent(db, id, clock.now());
  const [entry] = await listInvitations(db, id);
  return entry!;
}

export async function allInvitations(env: Env): Promise<InvitationEntry[]> {
  return listInvitations(database(env.DB));
}

/**
 * Mass e-mail through the Cloudflare Queue (DESIGN.md §8): one queue message per recipient, each recipient
 * claimed in D1 before its mail is sent, so nobody gets a second copy of one mailing.
 *
 * A recipient's states (mailing_recipients.status, one conditional UPDATE per change, mailings-db.ts):
 *   queued  ─claim─▶ claimed ─sent─▶ sent
 *                      │ provider refused, attempts left: release ─▶ queued (the message retries with back-off)
 *                      │ provider refused, last attempt ─▶ failed (error kept; the message goes on to the DLQ)
 *                      │ no answer from the provider (time-out, connection lost) ─▶ unknown (acknowledged)
 *   claimed, seen again by a redelivered message (the sender died between claim and send) ─▶ unknown
 *   queued, the address unsubscribed after the mailing was made ─▶ skipped
 *   queued or claimed, message dead-lettered without a verdict (the consumer itself kept failing) ─▶ failed | unknown
 *   failed ─an admin resumes the mailing (the mass e-mail screen)─▶ queued (the provider never took it)
 * Invariants:
 * - A mail is sent only by the delivery that moved the recipient queued → claimed; every other delivery of the
 *   same message (redelivered batch, duplicate enqueue, resumed mailing) finds it claimed or finished and sends
 *   nothing. At-least-once delivery therefore becomes at-most-once sending.
 * - 'unknown' is never sent again automatically: the mail may have left. The progress call lists it as an error.
 * - sent, unknown and skipped are final (a late `markSent` of a send that did finish wins over 'unknown'); failed is
 *   final for the queue, and only an admin's resume puts it back (a dead letter of its last message arriving after
 *   that resume marks it failed again: shown, not sent).
 * Failure cases: provider refusal, an error answer (retry with exponential back-off; failed after the last attempt);
 * no answer (a time-out or a lost connection: the provider may have accepted the mail, so it is reported as
 * unknown, never resent: adapters/email.ts `uncertain`); crash between
 * claim and send (unknown on redelivery), crash after send before marking sent (unknown: the mail left once),
 * messages lost before delivery or never handed to the queue (the mailing stays pending, listed on the mass e-mail
 * screen; `resumeMailings` enqueues the queued ones again), malformed or orphaned messages (acknowledged and logged,
 * never retried forever).
 *
 * The hand-off to the queue (mailings.handed_at, set once the queue took a mailing's messages: the send, a results
 * mail, a resume) and a resume: a resume takes each mailing's lease (mailings.resuming_at, one conditional UPDATE),
 * so of two resumes at the same moment (two tabs, a double click) one hands the recipients to the queue and the
 * other is told it is already going on (409). Two resumes one after the other both hand the queued recipients on;
 * the second's messages find them claimed or sent and send nothing (the first invariant), so a resume of a mailing
 * that is already sending sends nobody a second copy either way.
 *
 * Unsubscribe links are signed (HMAC-SHA-256 under SESSION_SECRET) for one purpose, 'unsubscribe', one address
 * and one mailing: `/unsubscribe/{mailingId}.{base64url(email)}.{signature}`.
 */
import { z } from "zod";
import { clockFromSettings, type Clock } from "../../shared/clock";
import { emailSender, isUncertainSend, type EmailSender } from "../adapters/email";
import { keyedHash, sameSecret } from "../lib/crypto";
import { database, type Db } from "../db/client";
import type { MailingsResumed } from "../../shared/mailings";
import {
  claimRecipient,
  findMailing,
  findRecipient,
  markFailed,
  markHanded,
  markSent,
  markSkipped,
  markUnknown,
  queuedRecipients,
  releaseClaim,
  releaseResumeLease,
  reportStaleClaims,
  requeueFailed,
  takeResumeLease,
  type MailingRow,
} from "./mailings-db";
import { mailingEmail } from "./mailing-email";

/** wrangler.toml `[[queues.consumers]] max_retries` for the mail queue: the last delivery is attempt 1 + this. */
export const MAIL_MAX_RETRIES = 5;
/** Back-off after a provider error: 15 s, 30 s, 60 s, 120 s, 240 s (attempts 1–5), at most 10 minutes. */
export const RETRY_BASE_SECONDS = 15;
export const RETRY_MAX_SECONDS = 600;
/** Messages per `sendBatch` (the Queues limit is 100 messages and 256 KB per call). */
export const ENQUEUE_CHUNK = 100;
/** A consumer invocation runs at most 15 minutes; a claim older than this cannot still be sending. */
export const STALE_CLAIM_MS = 20 * 60_000;

export const UNSUBSCRIBE_PURPOSE = "unsubscribe";

export const mailMessageSchema = z.object({
  mailingId: z.number().int().positive(),
  email: z.string().min(3).max(320),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

export const ERRORS = {
  crashed: "Avbröts mellan markering och sändning; okänt om mejlet skickades. Skickas inte igen automatiskt.",
  uncertain: "Leverantören svarade inte; mejlet kan ha skickats. Skickas inte igen automatiskt.",
  deadLettered: "Gick inte att skicka efter alla försök (dead letter).",
} as const;

export function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_BASE_SECONDS * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_SECONDS);
}

/** Puts one message per recipient of the mailing on the queue, in chunks of ENQUEUE_CHUNK. */
export function enqueueRecipients(queue: Queue<MailMessage>, mailingId: number, emails: string[]): Promise<void> {
  return enqueueMessages(
    queue,
    emails.map((email) => ({ mailingId, email })),
  );
}

/** Puts one message per (mailing, recipient) on the queue, ENQUEUE_CHUNK per call, whatever mailing each is of. */
export async function enqueueMessages(queue: Queue<MailMessage>, messages: readonly MailMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += ENQUEUE_CHUNK) {
    await queue.sendBatch(messages.slice(i, i + ENQUEUE_CHUNK).map((body) => ({ body })));
  }
}

/** A resume's lease older than this was left by a resume that died (one takes seconds): another may take it. */
export const RESUME_LEASE_MS = 60_000;

/**
 * Resumes interrupted mailings (one, or a race's results mails): claims too old to be running are reported as
 * unknown (never resent), recipients the provider refused for good are queued again, and every recipient queued
 * gets a message again; the mailings are then marked handed. A recipient whose earlier message is still on the way
 * is claimed by whichever message comes first; the other one sends nothing. Each mailing is resumed under its lease
 * (module comment): null when another resume holds every one of them (nothing was done); a mailing held by another
 * resume among others is left to that one.
 */
export async function resumeMailings(
  env: Env,
  db: Db,
  ids: readonly number[],
  now: number,
): Promise<MailingsResumed | null> {
  const held = await takeResumeLease(db, ids, now, now - RESUME_LEASE_MS);
  if (held.length === 0) return null;
  try {
    const reported = await reportStaleClaims(db, held, now - STALE_CLAIM_MS, ERRORS.crashed);
    const retried = await requeueFailed(db, held);
    const queued = await queuedRecipients(db, held);
    await enqueueMessages(env.MAIL_QUEUE as Queue<MailMessage>, queued);
    await markHanded(db, held, now);
    return { requeued: queued.length, retried, reported };
  } finally {
    await releaseResumeLease(db, held, now);
  }
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (ch) => ch.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

function signed(mailingId: number, email: string): string {
  return `${mailingId}\u0000${email}`;
}

export async function unsubscribeToken(secret: string | undefined, mailingId: number, email: string): Promise<string> {
  const signature = await keyedHash(secret, UNSUBSCRIBE_PURPOSE, signed(mailingId, email));
  return `${mailingId}.${base64url(email)}.${signature}`;
}

/** The address and mailing a token was signed for, or null for anything forged, altered or malformed. */
export async function verifyUnsubscribeToken(
  secret: string | undefined,
  token: string,
): Promise<{ mailingId: number; email: string } | null> {
  const m = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{1,600})\.([0-9a-f]{64})$/.exec(token);
  if (!m) return null;
  const mailingId = Number(m[1]);
  const email = fromBase64url(m[2]!);
  if (email === null || !Number.isSafeInteger(mailingId)) return null;
  const expected = await keyedHash(secret, UNSUBSCRIBE_PURPOSE, signed(mailingId, email));
  return (await sameSecret(m[3]!, expected)) ? { mailingId, email } : null;
}

export interface MailConsumerOptions {
  /** The sender (defaults to `emailSender` with the configured transport). */
  sender?: EmailSender;
  clock?: Clock;
}

/** The queue handler: the mail queue's messages, or its dead-letter queue's (names ending in '-dlq'). */
export async function handleMailBatch(
  batch: MessageBatch<unknown>,
  env: Env,
  options: MailConsumerOptions = {},
): Promise<void> {
  const clock = options.clock ?? clockFromSettings(env);
  const db = database(env.DB);
  if (batch.queue.endsWith("-dlq")) {
    for (const msg of batch.messages) await recordDeadLetter(db, msg);
    return;
  }
  const sender = options.sender ?? emailSender(env, db, clock);
  const mailings = new Map<number, MailingRow | null>();
  // One at a time: the provider's rate limit is the bottleneck, and max_concurrency caps the parallel batches.
  for (const msg of batch.messages) {
    try {
      await deliver(env, db, sender, clock, mailings, msg);
    } catch (err) {
      // Not a provider error (D1 failed, a bug): nothing was sent after the claim unless the claim holds, and a
      // held claim is reported as unknown on redelivery, so retrying is safe.
      console.error("mail queue: message failed", msg.id, err);
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
  }
}

async function deliver(
  env: Env,
  db: Db,
  sender: EmailSender,
  clock: Clock,
  mailings: Map<number, MailingRow | null>,
  msg: Message<unknown>,
): Promise<void> {
  const parsed = mailMessageSchema.safeParse(msg.body);
  if (!parsed.success) {
    console.error("mail queue: malformed message dropped", msg.id);
    msg.ack();
    return;
  }
  const { mailingId, email } = parsed.data;
  if (!mailings.has(mailingId)) mailings.set(mailingId, await findMailing(db, mailingId));
  const mailing = mailings.get(mailingId);
  if (!mailing) {
    console.error("mail queue: message for an unknown mailing dropped", mailingId);
    msg.ack();
    return;
  }

  if (!(await claimRecipient(db, mailingId, email, clock.now()))) {
    await settleUnclaimable(db, mailingId, email);
    msg.ack();
    return;
  }

  const token = await unsubscribeToken(env.SESSION_SECRET, mailingId, email);
  const mail = mailingEmail({
    subject: mailing.subject,
    message: mailing.message,
    unsubscribeUrl: `${env.PUBLIC_ORIGIN}/unsubscribe/${token}`,
    siteUrl: env.PUBLIC_ORIGIN,
  });
  try {
    await sender.send({
      to: email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      kind: "mailing",
      mailingId,
      headers: mail.headers,
    });
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500) || "Okänt fel";
    if (isUncertainSend(err)) {
      // The provider may have taken the mail: a retry could send a second copy. Reported instead, and the
      // message is done (a redelivery finds the recipient finished and sends nothing).
      await markUnknown(db, mailingId, email, `${ERRORS.uncertain} (${error})`.slice(0, 500));
      msg.ack();
      return;
    }
    if (msg.attempts > MAIL_MAX_RETRIES) {
      await markFailed(db, mailingId, email, error);
      // Past max_retries, a retry hands the message to the dead-letter queue.
      msg.retry();
    } else {
      await releaseClaim(db, mailingId, email, error);
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
    return;
  }
  if (!(await markSent(db, mailingId, email, clock.now()))) {
    console.error("mail queue: sent, but the recipient was no longer claimed", mailingId, msg.id);
  }
  msg.ack();
}

/** The claim failed: the recipient is finished, claimed by a delivery that never ended, unsubscribed, or unknown. */
async function settleUnclaimable(db: Db, mailingId: number, email: string): Promise<void> {
  const row = await findRecipient(db, mailingId, email);
  if (!row) {
    console.error("mail queue: message for someone not in the mailing dropped", mailingId);
    return;
  }
  if (row.status === "claimed") await markUnknown(db, mailingId, email, ERRORS.crashed);
  else if (row.status === "queued") await markSkipped(db, mailingId, email);
}

/** A dead-lettered message whose recipient has no verdict yet: failed if never claimed, unknown if claimed. */
async function recordDeadLetter(db: Db, msg: Message<unknown>): Promise<void> {
  const parsed = mailMessageSchema.safeParse(msg.body);
  if (parsed.success) {
    const { mailingId, email } = parsed.data;
    const row = await findRecipient(db, mailingId, email);
    if (row?.status === "queued") await markFailed(db, mailingId, email, ERRORS.deadLettered);
    else if (row?.status === "claimed") await markUnknown(db, mailingId, email, ERRORS.crashed);
    console.error("mail queue: dead letter", mailingId, msg.id, row?.status ?? "no recipient");
  }
  msg.ack();
}

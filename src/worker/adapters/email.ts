/**
 * The one e-mail sender (DESIGN.md §8), with the transport chosen by EMAIL_TRANSPORT:
 * - 'outbox': development; nothing leaves the machine, the mail lands in the development outbox (adapters/outbox.ts,
 *   read it at /dev/outbox);
 * - 'cloudflare': Cloudflare Email Service through the `send_email` binding (transactional mail);
 * - 'resend': Resend's HTTP API (bulk mail), key in the EMAIL_API_KEY secret.
 * Every send, whatever the transport, writes one `email_log` row before the mail can leave ('unknown') and settles it
 * after: 'sent', 'failed' or 'unknown' with the error; a
 * send that did not succeed also throws an EmailSendError so the caller (a login-code request, the mailing queue)
 * can react. 'failed' means the provider answered that it did not take the mail; 'unknown' (`uncertain`) means no
 * answer came (a time-out after SEND_TIMEOUT_MS, a connection lost): the provider may have accepted it, so a
 * caller must not send it again blindly. The log keeps what was sent
 * to whom and when; the body of a mail that carries a secret (a login code) is never written to it, and other
 * bodies are purged by the cron after their retention (db/retention.ts).
 */
import type { Clock } from "../../shared/clock";
import type { Db } from "../db/client";
import { logEmail, settleEmailLog } from "../db/email-log";
import { deliverToOutbox } from "./outbox";

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the mail is, for the log: 'login-code', 'receipt', 'mailing', 'epassi' … */
  kind: string;
  mailingId?: number;
  /** The body carries a secret (a login code): the log keeps recipient, subject, kind and time only. */
  secret?: boolean;
  /** Extra headers (a mass mail's List-Unsubscribe); the Cloudflare and Resend transports send them. */
  headers?: Record<string, string>;
}

export interface EmailSender {
  send(mail: Mail): Promise<void>;
}

/** How long a send may take before it is given up as uncertain (the provider may still have accepted it). */
export const SEND_TIMEOUT_MS = 30_000;

/** A send that did not succeed. `uncertain`: no answer came, so the mail may have left. */
export class EmailSendError extends Error {
  constructor(
    message: string,
    readonly uncertain: boolean,
  ) {
    super(message);
    this.name = "EmailSendError";
  }
}

/** True for an error after which the mail may have been accepted (never resend it automatically). */
export function isUncertainSend(err: unknown): boolean {
  return err instanceof EmailSendError && err.uncertain;
}

export type EmailTransportName = "outbox" | "cloudflare" | "resend";

export const RESEND_API_URL = "https://api.resend.com/emails";

type Deliver = (mail: Mail, signal: AbortSignal) => Promise<void>;

interface EmailEnv {
  EMAIL_TRANSPORT: string;
  EMAIL_FROM: string;
  EMAIL: SendEmail;
  /** Secret, only for 'resend'. */
  EMAIL_API_KEY?: string;
}

export interface EmailSenderOptions {
  /** The HTTP client for 'resend' (defaults to global fetch). */
  fetch?: typeof fetch;
  /** Defaults to SEND_TIMEOUT_MS. */
  timeoutMs?: number;
}

function transportFor(env: EmailEnv, db: Db, clock: Clock, options: EmailSenderOptions): Deliver {
  switch (env.EMAIL_TRANSPORT as EmailTransportName) {
    case "outbox":
      return async (mail) => {
        await deliverToOutbox(db.$client, {
          to: mail.to,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          kind: mail.kind,
          mailingId: mail.mailingId ?? null,
          createdAt: clock.now(),
        });
      };
    case "cloudflare":
      return async (mail) => {
        await env.EMAIL.send({
          from: env.EMAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          ...(mail.headers ? { headers: mail.headers } : {}),
        });
      };
    case "resend":
      return async (mail, signal) => {
        if (!env.EMAIL_API_KEY) throw new EmailSendError("EMAIL_API_KEY is not set", false);
        let res: Response;
        try {
          res = await (options.fetch ?? fetch)(RESEND_API_URL, {
            method: "POST",
            signal,
            headers: { authorization: `Bearer ${env.EMAIL_API_KEY}`, "content-type": "application/json" },
            body: JSON.stringify({
              from: env.EMAIL_FROM,
              to: [mail.to],
              subject: mail.subject,
              html: mail.html,
              text: mail.text,
              ...(mail.headers ? { headers: mail.headers } : {}),
            }),
          });
        } catch (err) {
          // No answer (aborted at the deadline, or the connection broke): the request may have reached Resend.
          throw new EmailSendError(`Resend svarade inte: ${err instanceof Error ? err.message : String(err)}`, true);
        }
        // An answer that is an error: Resend says it did not take the mail, so it can be tried again.
        if (!res.ok) throw new EmailSendError(`Resend ${res.status}: ${(await res.text()).slice(0, 300)}`, false);
      };
    default:
      throw new Error(`Unknown EMAIL_TRANSPORT "${env.EMAIL_TRANSPORT}" (outbox, cloudflare or resend)`);
  }
}

export function emailSender(env: Env, db: Db, clock: Clock, options: EmailSenderOptions = {}): EmailSender {
  const emailEnv = env as Env & EmailEnv;
  const deliver = transportFor(emailEnv, db, clock, options);
  const transport = env.EMAIL_TRANSPORT;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  return {
    async send(mail) {
      const entry = {
        to: mail.to,
        subject: mail.subject,
        html: mail.secret ? "" : mail.html,
        text: mail.secret ? "" : mail.text,
        kind: mail.kind,
        transport,
        mailingId: mail.mailingId ?? null,
      };
      // The log line is written before the mail can leave, as 'unknown' (from here on it may have left), and
      // settled after. Written after the send instead, it could bring back an address that an erasure removed
      // while the mail was on its way; settling touches only the status and the error (settleEmailLog).
      let id: number;
      try {
        id = await logEmail(db, { ...entry, status: "unknown", createdAt: clock.now() });
      } catch (err) {
        // Nothing has left: the caller may try again later.
        throw new EmailSendError(
          `E-postloggen kunde inte skrivas: ${err instanceof Error ? err.message : String(err)}`,
          false,
        );
      }
      try {
        await withDeadline((signal) => deliver(mail, signal), timeoutMs);
      } catch (err) {
        const failure =
          err instanceof EmailSendError
            ? err
            : new EmailSendError(err instanceof Error ? err.message : String(err), false);
        await settleEmailLog(db, id, failure.uncertain ? "unknown" : "failed", failure.message, mail.to);
        throw failure;
      }
      try {
        await settleEmailLog(db, id, "sent", null, mail.to);
      } catch (err) {
        // The mail has left; failing now would make the caller resend it. The line stays 'unknown': the lesser harm.
        console.error("email_log could not be marked sent after a successful send", err);
      }
      if (transport === "outbox") console.log(`[outbox] ${mail.kind} #${id}: ${mail.subject}`); // the address is in email_log, never in the logs
    },
  };
}

/**
 * Runs one delivery with a deadline: past it the delivery is aborted (a fetch takes the signal) and the send is
 * uncertain, whatever the transport (the binding takes no signal; its late answer is then ignored).
 */
async function withDeadline(run: (signal: AbortSignal) => Promise<void>, timeoutMs: number): Promise<void> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timedOut = new EmailSendError(`Ingen bekräftelse inom ${Math.round(timeoutMs / 1000)} s`, true);
      controller.abort(timedOut);
      reject(timedOut);
    }, timeoutMs);
  });
  try {
    await Promise.race([run(controller.signal), deadline]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

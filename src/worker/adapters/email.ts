/**
 * The one e-mail sender (DESIGN.md §8), with the transport chosen by EMAIL_TRANSPORT:
 * - 'outbox': development; nothing leaves the machine, the mail lands in the development outbox (dev/outbox.ts,
 *   read it at /dev/outbox);
 * - 'cloudflare': Cloudflare Email Service through the `send_email` binding (transactional mail);
 * - 'resend': Resend's HTTP API (bulk mail), key in the EMAIL_API_KEY secret.
 * Every send, whatever the transport, writes one `email_log` row, 'sent' or 'failed' with the error; a failed
 * send also throws so the caller (a login-code request, the mailing queue) can react. The log keeps what was sent
 * to whom and when; the body of a mail that carries a secret (a login code) is never written to it, and other
 * bodies are purged by the cron after their retention (db/retention.ts).
 */
import type { Clock } from "../../shared/clock";
import type { Db } from "../db/client";
import { logEmail } from "../db/email-log";
import { deliverToOutbox } from "../dev/outbox";

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

export type EmailTransportName = "outbox" | "cloudflare" | "resend";

export const RESEND_API_URL = "https://api.resend.com/emails";

type Deliver = (mail: Mail) => Promise<void>;

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
      return async (mail) => {
        if (!env.EMAIL_API_KEY) throw new Error("EMAIL_API_KEY is not set");
        const res = await (options.fetch ?? fetch)(RESEND_API_URL, {
          method: "POST",
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
        if (!res.ok) throw new Error(`Resend ${res.status}: ${(await res.text()).slice(0, 300)}`);
      };
    default:
      throw new Error(`Unknown EMAIL_TRANSPORT "${env.EMAIL_TRANSPORT}" (outbox, cloudflare or resend)`);
  }
}

export function emailSender(env: Env, db: Db, clock: Clock, options: EmailSenderOptions = {}): EmailSender {
  const emailEnv = env as Env & EmailEnv;
  const deliver = transportFor(emailEnv, db, clock, options);
  const transport = env.EMAIL_TRANSPORT;
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
      try {
        await deliver(mail);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        await logEmail(db, { ...entry, status: "failed", error, createdAt: clock.now() });
        throw err;
      }
      try {
        await logEmail(db, { ...entry, status: "sent", createdAt: clock.now() });
      } catch (err) {
        // The mail has left; failing now would make the caller resend it. Losing the log line is the lesser harm.
        console.error("email_log write failed after a successful send", err);
      }
      if (transport === "outbox") console.log(`[outbox] ${mail.kind} to ${mail.to}: ${mail.subject}`);
    },
  };
}

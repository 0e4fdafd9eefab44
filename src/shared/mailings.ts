/**
 * The wire shapes of the mass e-mail screen's list of mailings left waiting or failed (src/worker/mass-email/routes.ts
 * `GET /admin/api/mailings/waiting` and the resume calls), and the Swedish answers both ends show.
 */

/**
 * The body of POST /admin/api/send-email-previous-runners and …-current-runners: one subject line (no line breaks)
 * and the message text, both required (400 with the field's Swedish message).
 */
export interface MailingBody {
  subject: string;
  message: string;
}

/** A mass mailing (previous or current runners) with someone still waiting or failed: one line of its own. */
export interface WaitingMailing {
  id: number;
  audience: "previous" | "current";
  subject: string;
  createdAt: number;
  totalRecipients: number;
  /** Recipients queued or being sent. */
  waiting: number;
  /** Recipients the provider refused for good; a resume tries them again. */
  failed: number;
}

/** The results mails of one race (one mailing per family) with families still waiting or failed: one line per race. */
export interface WaitingResultsMails {
  /** The race id, e.g. race-250913-16. */
  race: string;
  /** Families whose results mail is queued or being sent. */
  waiting: number;
  /** Families whose results mail the provider refused for good. */
  failed: number;
  /** When the oldest of those mailings was written. */
  since: number;
}

export interface WaitingMailings {
  mailings: WaitingMailing[];
  results: WaitingResultsMails[];
}

/** What a resume did: recipients handed to the queue again, failed ones among them, stale claims reported. */
export interface MailingsResumed {
  requeued: number;
  /** Of `requeued`: recipients the provider had refused for good, tried again. */
  retried: number;
  /** Claims too old to be running, reported as unknown (never resent). */
  reported: number;
}

export const RESUME_MSG = {
  /** Another resume of the same mailing is running right now (another tab, a double click). */
  busy: "Utskicket fortsätts redan från en annan flik. Vänta en stund och se hur det går.",
  noneWaiting: "Inga resultatmejl väntar för loppet.",
  badRace: "Okänt lopp.",
} as const;

/**
 * A row of the mass e-mail's recipient lists (`GET /admin/api/previous-runners`, `…/get_current_runners_handler`),
 * and the check the admin page makes of each before listing it.
 */
export interface Recipient {
  name: string;
  email: string;
  race?: string;
}

export function isRecipient(x: unknown): x is Recipient {
  if (typeof x !== "object" || x === null) return false;
  const r = x as Record<string, unknown>;
  return (
    typeof r.name === "string" && typeof r.email === "string" && (r.race === undefined || typeof r.race === "string")
  );
}

/** `GET /admin/api/previous-runners-count` and `…/get_current_runners_count_handler`. */
export interface RecipientCount {
  count: number;
}

/**
 * The two mass e-mail screens (admin area §2): previous runners and this season's registered runners. Each has the
 * spec's three calls (§7); everything else on the screens is shared (mass-email-page.tsx).
 */
export type Audience = "previous" | "current";

export interface AudienceScreen {
  title: string;
  lead: string;
  countPath: string;
  listPath: string;
  sendPath: string;
  /** Current runners carry their race(s). */
  showRace: boolean;
}

export const AUDIENCES: Record<Audience, AudienceScreen> = {
  previous: {
    title: "Maila tidigare löpare",
    lead: "Ett mejl till varje adress som anmälde och betalade förra säsongen. Adresser som avslutat utskicken är borttagna.",
    countPath: "/admin/api/previous-runners-count",
    listPath: "/admin/api/previous-runners",
    sendPath: "/admin/api/send-email-previous-runners",
    showRace: false,
  },
  current: {
    title: "Maila registrerade löpare",
    lead: "Ett mejl till varje adress med en betald anmälan i år. Adresser som avslutat utskicken är borttagna.",
    countPath: "/admin/api/get_current_runners_count_handler",
    listPath: "/admin/api/get_current_runners_handler",
    sendPath: "/admin/api/send-email-current-runners",
    showRace: true,
  },
};

/** Spec §8, quoted as written (English in the spec). */
export const TEXTS = {
  countError: "Error loading runners count",
  listError: "Error loading runners",
  noRunners: "No runners found or invalid response format",
  sendError: "Error sending emails",
  noneSent: "No emails were sent",
  sent: (n: number) => `Successfully sent ${n} emails`,
  required: "Please fill in both subject and message",
} as const;

/** The server's limits (src/worker/mass-email/routes.ts). */
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 20_000;

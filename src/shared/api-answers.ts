/**
 * The answers (and a few bodies) of the Worker's HTTP calls that the SPA reads, declared once: the Worker's routes
 * build them typed with these, the SPA's calls (src/web/features/<area>/api/) read them, so a change on one side that the
 * other does not follow fails to compile. The race, payment and spectator sockets' frames, and their guards, are in
 * race-protocol.ts with race-frames.ts, payment-protocol.ts and spectator-protocol.ts.
 */
import type { DistanceKm } from "./distances";
import type { MailingsResumed } from "./mailings";
import type { RefundRecord, RefundStatus } from "./registrations-overview";
import type { CampaignRule, PriceTier } from "./season";
import type { AdminRole } from "./admin-roles";
import type { Retime } from "./race-protocol";
import type { Registration } from "./registration-view";

// ---- Every refusal: the body of a 4xx or 5xx (src/worker/app.ts onError) ----------------------------------

/**
 * A Swedish message for the person; `errors` one message per field of a form; `retimes` the runners a race-day
 * decision would give new times (409, nothing changed: the phone shows them and sends the decision again with
 * `confirm`, race-requests.ts).
 */
export interface ErrorAnswer {
  error: string;
  errors?: Record<string, string>;
  retimes?: Retime[];
}

/** POST /update's 409 when another tab saved first: the registration as it is now, which the page shows. */
export interface RegistrationConflict extends ErrorAnswer {
  registration: Registration;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;

function isRetime(x: unknown): x is Retime {
  const time = (t: unknown) => t === null || typeof t === "number";
  return (
    isRecord(x) &&
    typeof x.runnerId === "string" &&
    typeof x.sort === "string" &&
    (x.bib === null || typeof x.bib === "number") &&
    typeof x.name === "string" &&
    time(x.from) &&
    time(x.to) &&
    time(x.started)
  );
}

/**
 * The error answer a body is, or null when it is none (a proxy's page, no body): `error` must be text; `errors`
 * and `retimes` are kept only when well formed.
 */
export function errorAnswerOf(body: unknown): ErrorAnswer | null {
  if (!isRecord(body) || typeof body.error !== "string") return null;
  const answer: ErrorAnswer = { error: body.error };
  const { errors, retimes } = body;
  if (isRecord(errors) && Object.values(errors).every((m) => typeof m === "string")) {
    answer.errors = errors as Record<string, string>;
  }
  if (Array.isArray(retimes) && retimes.every(isRetime)) answer.retimes = retimes;
  return answer;
}

/** The registration a refusal carries (RegistrationConflict), or null. */
export function registrationOf(body: unknown): Registration | null {
  if (!errorAnswerOf(body) || !isRecord(body) || !isRecord(body.registration)) return null;
  const registration = body.registration;
  return typeof registration.email === "string" && isRecord(registration.deltagare)
    ? (registration as unknown as Registration)
    : null;
}

// ---- Admin sign-in: POST /admin/api/authenticate and /admin/api/dev-login; GET /admin/api/me ---------------

/** A sign-in that started an admin session: who, and with which role (src/worker/session/admin-sign-in.ts). */
export interface AdminSignedIn {
  ok: true;
  email: string;
  role: AdminRole;
}

/** GET /admin/api/me: the signed-in admin (the admin guard answers 401 without one). */
export interface AdminMe {
  email: string | null;
  role: AdminRole | null;
}

// ---- Campaign codes: GET /admin/api/kampanjkoder ---------------------------------------------------------

export interface Campaign {
  code: string;
  rule: CampaignRule;
  /** Last valid day, 'YYYY-MM-DD' (Stockholm); null = no end. */
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
  disabled: boolean;
  builtin: boolean;
  note: string;
  paidOrders: number;
}

/** The wire answer of GET /admin/api/kampanjkoder (the SPA reads it as a CampaignList). */
export interface CampaignsAnswer {
  kampanjkoder: Campaign[];
  /** What is wrong with the CAMPAIGN_CODES secret, one Swedish line each. */
  configErrors: readonly string[];
}

export interface CampaignList {
  campaigns: Campaign[];
  configErrors: readonly string[];
}

/** The body of POST /admin/api/kampanjkoder: a new code (400 `{error, errors}` per field; 409 when it exists). */
export interface NewCampaign {
  code: string;
  rule: CampaignRule;
  /** Last valid day, 'YYYY-MM-DD' (Stockholm); null or absent = no end. */
  validUntil?: string | null;
  maxUses?: number | null;
  note?: string;
}

// ---- ePassi invitations: GET /admin/api/invite/epassi ----------------------------------------------------

export type CodeState = "unused" | "reserved" | "used" | "disabled";

export interface Invitation {
  id: number;
  name: string;
  email: string;
  code: string;
  /** The admin who sent it. */
  createdBy: string;
  /** ISO times. */
  createdAt: string;
  /** Null while the e-mail has never left ('ej skickad'). */
  sentAt: string | null;
  sendError: string | null;
  state: CodeState;
  /** The order that holds (reserved) or used the code. */
  use: { payid: string; registrationEmail: string | null; origin: string; at: string } | null;
}

export interface InvitationsAnswer {
  invitations: Invitation[];
}

// ---- POST /admin/api/invite/epassi -----------------------------------------------------------------------

/**
 * An ePassi call's refusal (src/worker/epassi/routes.ts): the spec's error body has `message`; it carries the same
 * text as `error` too (and `errors` per field) like the rest of the API.
 */
export interface EpassiErrorAnswer extends ErrorAnswer {
  message: string;
}

/** The ePassi refusal a body is, or null (no body, a proxy's page, another shape). */
export function epassiErrorOf(body: unknown): EpassiErrorAnswer | null {
  const answer = errorAnswerOf(body);
  if (!answer || !isRecord(body) || typeof body.message !== "string") return null;
  return { ...answer, message: body.message };
}

export interface SentInvitation {
  message: string;
  invitation: Invitation;
}

// ---- A mailing: GET /admin/api/mailings/{id} -------------------------------------------------------------

export interface MailingProgress {
  id: number;
  subject: string;
  totalRecipients: number;
  sentCount: number;
  failedCount: number;
  skippedCount: number;
  pending: number;
  done: boolean;
  errors: { email: string; error: string }[];
}

// ---- POST /admin/api/mailings/{id}/resume ----------------------------------------------------------------

export interface MailingResumed extends MailingsResumed {
  progress: MailingProgress;
}

// ---- POST /admin/api/send-email-… ------------------------------------------------------------------------

export interface MailingStarted {
  id: number;
  totalRecipients: number;
}

// ---- Refunds: POST /admin/api/refunds and /admin/api/refunds/{id}/check ----------------------------------

export interface RefundAnswer {
  payid: string;
  refund: RefundRecord;
  /** Kronor still refundable of the payment. */
  refundable: number;
  repeated: boolean;
  /** The runners the refund deregisters once PAID. */
  deregister: string[];
  /** What the deregistration did; null until the refund is PAID (or when it deregisters nobody). */
  deregistration: Deregistration | null;
}

/** A companion booked by another payment, refunded from it when the refund that took its child out was PAID. */
export interface CompanionRefund {
  /** The companion. */
  id: string;
  /** Its refund (of its own payment); null when none could be written. */
  refund: string | null;
  /** Whole kronor: its booked price. */
  amount: number;
  status: RefundStatus;
  /** Why it was refused (Swedish), for an ERROR. */
  error?: string;
}

/** What a PAID refund's deregistration did (src/worker/payments/deregistration.ts). */
export interface Deregistration {
  /** The runners deregistered by the refund. */
  runners: string[];
  /** Runners left in a race that had started or ended, with that race and its state. */
  keptInRace: { id: string; part: string; state: string }[];
  /** Companions of other payments, each refunded from its own (they leave when that refund is PAID); absent if none. */
  companionRefunds?: CompanionRefund[];
}

export interface NewRefund {
  payid: string;
  amount: number;
  idempotencyKey: string;
  deregister?: string[];
  /** Companions the deregistered children leave without a child, to take out too ('Ta också bort …'). */
  companions?: string[];
}

// ---- POST /admin/api/results/import ----------------------------------------------------------------------

export type ImportRequest =
  | { kind: "results"; year: number; distance: DistanceKm; text: string; dryRun?: boolean }
  | { kind: "records"; text: string; dryRun?: boolean };

export interface ImportAnswer {
  kind: "results" | "records";
  year?: number;
  distance?: DistanceKm;
  rows: number;
  replaced?: number;
  stored: boolean;
}

// ---- GET /api/gallery ------------------------------------------------------------------------------------

export interface GallerySummary {
  year: number;
  count: number;
  /** The first photo's URL (a line of /img_{year}.txt). */
  cover: string;
}

export interface GalleryIndex {
  years: number[];
  galleries: GallerySummary[];
}

// ---- GET /admin/api/goodiebags ---------------------------------------------------------------------------

export interface BagCount {
  barn: number;
  vuxna: number;
  /** Adults running with a child without competing, counted apart (in the total). */
  medBarn: number;
  total: number;
  /** Of the total, handed out with the bib at the desk. */
  handedOut: number;
}

export interface GoodieBags {
  season: number;
  /** Runners this old or older are adults (the pricing's rule). */
  adultAge: number;
  /** 5.6, 2.8, 1.6, 0.8, every distance listed. */
  distances: (BagCount & { distance: DistanceKm; label: string })[];
  totals: BagCount;
  /** Of the totals, runners who paid at the box office. */
  boxOffice: BagCount;
  /** The server's moment of the count (epoch ms). */
  generatedAt: number;
}

// ---- The registration calls: POST /email -----------------------------------------------------------------

export interface CodeRequest {
  /** Becomes codeId in POST /code. */
  id: string;
  /** Pre-fills the code input; "" in production, where the code travels by e-mail only. */
  code: string;
}

// ---- POST /validate-kampanj ------------------------------------------------------------------------------

export interface CampaignCheck {
  kampanj: string;
  barn: number;
  vuxna: number;
  /** Adults running with a child (shared/companion.ts): priced apart, whatever the code. */
  medBarn?: number;
}

export interface CampaignResult {
  valid: boolean;
  price: number;
  /** The family's own failed payment carried this code, and its last use has gone to another family since. */
  usedUp?: boolean;
}

// ---- POST /book-v2 ---------------------------------------------------------------------------------------

export interface BookingRequest {
  barn: number;
  vuxna: number;
  kampanj: string;
}

export interface Booking {
  token: string;
  payref: string;
  /** Whole kronor the payment asks for (shown beside the QR code). */
  amount?: number;
}

// ---- The site's configuration: GET /api/config -----------------------------------------------------------

export interface ConfigDistance {
  distance: DistanceKm;
  startTime: string;
  raceId: string;
}

export interface ConfigSeason {
  year: number;
  raceDay: string;
  registrationOpen: boolean;
  showRegistrationButton: boolean;
  showBibPickupBanner: boolean;
  /** Race morning with online registration closed: registration on site at the box office (season-rules.ts). */
  onSiteRegistration?: boolean;
  priceTier: PriceTier;
  earlyPrice: PriceTier;
  latePrice: PriceTier;
  earlyPriceUntil: string;
  lastRegistration?: string;
  registrationButtonUntil?: string;
  onSitePrice?: PriceTier;
  adultAge: number;
  /** What an adult running with a child without competing costs (shared/companion.ts); absent from older servers. */
  companionPrice?: number;
  distances: ConfigDistance[];
  contactEmail: string;
  siteName: string;
}

/** The wire shape. `serverTime` is epoch ms (an ISO string is accepted too). */
export interface Config {
  isAdmin: boolean;
  isLoggedIn: boolean;
  /** The signed-in visitor's and admin's addresses, when the server sends them. */
  email?: string | null;
  adminEmail?: string | null;
  /** The admin's role (issue 43; absent from older servers, whose admins could do everything: an organiser's). */
  adminRole?: AdminRole | null;
  wsUrl: string;
  serverTime: number | string;
  devMode: boolean;
  googleClientId: string;
  season: ConfigSeason;
}

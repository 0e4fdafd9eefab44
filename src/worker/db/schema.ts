/**
 * The D1 data model (drizzle). `npm run db:generate` turns changes here into SQL under `migrations/`,
 * which are applied automatically at local start (`npm start`, `npm run dev`) and in the Worker tests.
 *
 * Times are stored as integer epoch milliseconds (UTC); dates as 'YYYY-MM-DD' strings (Stockholm date).
 * Money is whole kronor (integers): every price in the spec is whole kronor.
 */

import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** SQL list of the four distances as the spec writes them (CHECK constraints below). */
const DISTANCES_SQL = sql.raw("('0.8', '1.6', '2.8', '5.6')");

/** One family's registration in one season; e-mail is lower-cased and unique within the season. */
export const registrations = sqliteTable(
  "registrations",
  {
    id: text("id").primaryKey(),
    season: integer("season").notNull(),
    email: text("email").notNull(),
    /** The payid of the payment currently selected in `swishtory` (spec: payid). */
    payid: text("payid"),
    /** Bumped on every runner-map save; the SPA sends it back so a stale tab cannot overwrite a newer save. */
    version: integer("version").notNull().default(0),
    /**
     * The family's check-in code for the bib desk (src/shared/checkin-code.ts): random, made on first need (the
     * receipt, the family's page), unique across seasons so a code from another season is recognised as such, and
     * erased with the registration's personal data.
     */
    checkinToken: text("checkin_token"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("registrations_season_email").on(t.season, t.email),
    // The address's earlier seasons ("welcome back": email = ? AND season < ?).
    index("registrations_email_season").on(t.email, t.season),
    uniqueIndex("registrations_checkin_token").on(t.checkinToken),
    // The spec lower-cases the e-mail before use; the database refuses a mixed-case one so a bug cannot split
    // one family into two registrations.
    check("registrations_email_lower", sql`${t.email} = lower(${t.email}) AND ${t.email} LIKE '%_@_%'`),
  ],
);

/** A runner of a registration (spec: deltagare). Box-office runners have no registration. */
export const participants = sqliteTable(
  "participants",
  {
    id: text("id").primaryKey(),
    registrationId: text("registration_id").references(() => registrations.id, { onDelete: "cascade" }),
    season: integer("season").notNull(),
    firstname: text("firstname").notNull(),
    lastname: text("lastname").notNull(),
    age: integer("age").notNull(),
    company: text("company").notNull().default(""),
    /** Kilometres as the spec writes them: '0.8', '1.6', '2.8', '5.6'. */
    distance: text("distance").notNull(),
    group: text("group").notNull().default("Ingen"),
    bib: integer("bib"),
    /** The race (part) the runner was added to once paid; mirrors the race Durable Object. */
    raceId: text("race_id"),
    phone: text("phone"),
    createdAt: integer("created_at").notNull(),
    /**
     * The payment that booked the runner, set in the statement that makes that payment PAID (triggers in
     * migrations/0010_runner_payments.sql), never changed afterwards; null while the runner is unpaid. A runner is
     * paid by exactly one payment: a registration's later payments cover only the runners added since.
     */
    paidBy: text("paid_by"),
    /** Whole kronor the runner was booked at (its share of `paidBy`'s amount); null while unpaid. */
    paidPrice: integer("paid_price"),
    /**
     * When a refund that deregisters ('Återbetala och avregistrera', src/worker/payments/refunds.ts) took the
     * runner out; null while the runner runs. A deregistered runner stays in its registration for the books.
     */
    deregisteredAt: integer("deregistered_at"),
    /** When the bib was picked up at the desk; mirrors the race Durable Object (rules/checkin.ts). */
    pickedUpAt: integer("picked_up_at"),
    /**
     * 1 for an adult running with a child of the family without competing ('Springer med barn (ej tävlande)',
     * src/shared/companion.ts): priced at the season's companionPrice, never in a race object, so no bib, no time
     * and no placing; listed in the start list as 'Med barn'. 0 for every runner. The CHECK (0 or 1) is the column's
     * own, in migrations/0014_companions.sql.
     */
    companion: integer("companion", { mode: "boolean" }).notNull().default(false),
    /**
     * A companion sold at the box office to a parent whose child registered online (src/worker/box-office/
     * companion-sale.ts): the child's registration, which the row joins (`registration_id` set to it) in the very
     * statement that makes its payment PAID (a trigger in migrations/0017_box_office_companions.sql). Until then the
     * row is the box office's own, like every participant without a registration; null on every other row.
     */
    joinsRegistrationId: text("joins_registration_id"),
  },
  (t) => [
    index("participants_registration").on(t.registrationId),
    // The companions being sold at the box office for a family right now (companion-sale.ts, two desks at once).
    index("participants_joins_registration").on(t.joinsRegistrationId),
    // The runners a payment booked (a refund that deregisters, the payment dialog).
    index("participants_paid_by").on(t.paidBy),
    index("participants_race").on(t.raceId),
    index("participants_season").on(t.season, t.distance),
    check("participants_distance", sql`${t.distance} IN ${DISTANCES_SQL}`),
    check("participants_group", sql`${t.group} IN ('Ingen', 'Dam', 'Herr')`),
    check("participants_age", sql`${t.age} BETWEEN 0 AND 130`),
    // Spec: bib 0 or missing means "no number".
    check("participants_bib", sql`${t.bib} IS NULL OR ${t.bib} >= 0`),
  ],
);

/**
 * A payment attempt (spec: payment record; `swishtory` is all rows of one registration keyed by id).
 *
 * `id` is the payid/payref and is unique across all registrations, so a campaign order's payid carries a
 * unique tail: `kampanj_<CODE>_<unique>` (e.g. `kampanj_FRIBILJETT_3f9a1c2e`). The spec's readers still work:
 * it contains 'kampanj', and its second '_' part is the code (shown as the label when the amount is 0).
 */
export const payments = sqliteTable(
  "payments",
  {
    /** payid / payref: the Swish instruction UUID (32 upper hex), or `kampanj_<CODE>_<unique>` for a campaign order. */
    id: text("id").primaryKey(),
    registrationId: text("registration_id").references(() => registrations.id, { onDelete: "cascade" }),
    season: integer("season").notNull(),
    /** 'registration' (visitor), 'kassa' (box office). */
    origin: text("origin").notNull().default("registration"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("SEK"),
    /** CREATED, PAID, DECLINED, ERROR, CANCELLED. */
    status: text("status").notNull(),
    dateCreated: integer("date_created").notNull(),
    datePaid: integer("date_paid"),
    paymentReference: text("payment_reference"),
    payerAlias: text("payer_alias"),
    payeeAlias: text("payee_alias"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** Swish m-commerce token (QR is 'D' + token). */
    token: text("token"),
    callbackIdentifier: text("callback_identifier"),
    /** What we sent Swish as payeePaymentReference (≤ 35 alphanumerics) and as message (≤ 50 chars). */
    payeePaymentReference: text("payee_payment_reference"),
    message: text("message"),
    kampanj: text("kampanj"),
    barn: integer("barn").notNull().default(0),
    vuxna: integer("vuxna").notNull().default(0),
    /** JSON snapshot of the runner ids this payment covers. */
    participantIds: text("participant_ids").notNull().default("[]"),
    /**
     * JSON `{runnerId: kronor}`: each covered runner's share of `amount`, as priced at booking (shared/pricing.ts
     * orderPrices). Copied to `participants.paid_price` when the payment becomes PAID. '{}' on payments made before
     * it existed and on box-office payments (one runner: the amount).
     */
    runnerPrices: text("runner_prices").notNull().default("{}"),
    settledAt: integer("settled_at"),
    /** Money taken in cash at the box office (origin 'kassa'): the row's id is then no Swish payment. */
    cash: integer("cash", { mode: "boolean" }).notNull().default(false),
    /**
     * How the order was paid, derived so that every writer agrees: 'kampanj' when the id contains 'kampanj' (the
     * spec's marker of a campaign payment), 'kontant' for cash, otherwise 'swish'.
     */
    method: text("method").generatedAlwaysAs(
      sql`CASE WHEN instr("id", 'kampanj') > 0 THEN 'kampanj' WHEN "cash" THEN 'kontant' ELSE 'swish' END`,
      { mode: "virtual" },
    ),
  },
  (t) => [
    // A registration's payments, and whether one is PAID or still CREATED (per request: /get, /update, /book-v2).
    index("payments_registration_status").on(t.registrationId, t.status),
    index("payments_status").on(t.status, t.dateCreated),
    // The cron's follow-up of paid payments settled within a window.
    index("payments_status_settled").on(t.status, t.settledAt),
    // The orders that used a campaign code (the Epassi list, the release trigger of migrations/0010_runner_payments.sql).
    index("payments_kampanj").on(t.kampanj, t.status),
    // A season's box-office sales (the admin list they are refunded from).
    index("payments_season_origin").on(t.season, t.origin),
    check(
      "payments_id",
      sql`(length(${t.id}) = 32 AND ${t.id} NOT GLOB '*[^0-9A-F]*') OR ${t.id} GLOB 'kampanj_?*_?*'`,
    ),
    check("payments_status", sql`${t.status} IN ('CREATED', 'PAID', 'DECLINED', 'ERROR', 'CANCELLED')`),
    check("payments_amounts", sql`${t.amount} >= 0 AND ${t.barn} >= 0 AND ${t.vuxna} >= 0`),
  ],
);

/**
 * A Swish refund of a paid payment, in full or in part (src/worker/payments/refunds.ts). The row is written CREATED before
 * Swish hears of it, and only while the payment's refunds that are not ERROR stay within its amount; it is settled
 * once, as PAID or ERROR. `id` is the refund's Swish instruction id; `idempotency_key` comes from the admin's
 * dialog, so a repeated request finds the first refund instead of making a second one.
 */
export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    payid: text("payid")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    season: integer("season").notNull(),
    /** Whole kronor, > 0. */
    amount: integer("amount").notNull(),
    /** CREATED (sent or being sent to Swish), PAID (the money went back), ERROR (refused or never reached Swish). */
    status: text("status").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    callbackIdentifier: text("callback_identifier").notNull(),
    /** The admin's e-mail. */
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    datePaid: integer("date_paid"),
    paymentReference: text("payment_reference"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    settledAt: integer("settled_at"),
    /**
     * JSON array of the runner ids this refund deregisters ('Återbetala och avregistrera'); '[]' for a refund that
     * keeps the runners. Done once the refund is PAID (the money went back), never before.
     */
    deregister: text("deregister").notNull().default("[]"),
  },
  (t) => [
    uniqueIndex("refunds_idempotency_key").on(t.idempotencyKey),
    // The sum already refunded of one payment (the conditional insert) and its refunds in the payment dialog.
    index("refunds_payid_status").on(t.payid, t.status),
    // The cron's sweep of refunds Swish has not settled yet.
    index("refunds_status_created").on(t.status, t.createdAt),
    // The admin overview reads a season's refunds in one query.
    index("refunds_season").on(t.season),
    check("refunds_id", sql`length(${t.id}) = 32 AND ${t.id} NOT GLOB '*[^0-9A-F]*'`),
    check("refunds_status", sql`${t.status} IN ('CREATED', 'PAID', 'ERROR')`),
    check("refunds_amount", sql`${t.amount} > 0`),
  ],
);

/**
 * E-mailed login codes: stored hashed, 10 minutes, single use, at most 5 wrong tries, and only the newest code of
 * an address can be used (a new one sets `replaced_at` on the older ones). Each mail also carries a sign-in link.
 */
export const loginCodes = sqliteTable(
  "login_codes",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: integer("used_at"),
    /** When a newer code for the same address made this one unusable (its sign-in link stays usable). */
    replacedAt: integer("replaced_at"),
    clientKey: text("client_key"),
    /**
     * Keyed hash of the one-time sign-in link mailed with the code (session/login-codes-db.ts): usable once, until
     * `expires_at`, whatever the wrong tries of the address or newer codes; `used_at` is shared with the code (one
     * sign-in per mail). A row mailed while the address is locked has only a link: `code_hash` ''.
     */
    linkHash: text("link_hash"),
  },
  (t) => [
    index("login_codes_email").on(t.email, t.createdAt),
    index("login_codes_created").on(t.createdAt),
    uniqueIndex("login_codes_link").on(t.linkHash),
  ],
);

/**
 * One row per login-code try that was not right, counted per address over a rolling hour whatever the client
 * (db/login-codes.ts). A try is written before the code is compared and removed again when the code was right.
 */
export const loginFailures = sqliteTable(
  "login_failures",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    codeId: text("code_id").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("login_failures_email").on(t.email, t.at), index("login_failures_at").on(t.at)],
);

/** Server-side sessions: the cookie carries a signed session id; logout revokes the row. */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the 256-bit random session secret carried in the cookie. */
    id: text("id").primaryKey(),
    kind: text("kind").notNull(), // 'visitor' | 'admin'
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    index("sessions_email").on(t.email),
    // The cron's purge (db/retention.ts) finds ended sessions by either moment.
    index("sessions_expires").on(t.expiresAt),
    index("sessions_revoked").on(t.revokedAt),
    check("sessions_kind", sql`${t.kind} IN ('visitor', 'admin')`),
  ],
);

/** Campaign codes: the three built-in ones (seeded from the season config) and organiser-made ones. */
export const campaignCodes = sqliteTable(
  "campaign_codes",
  {
    code: text("code").primaryKey(), // upper-case
    /**
     * 'flat50' (50 kr per person), 'free' (price 0), 'minus50' (50 kr off each tier price), 'epassi' (an Epassi
     * invitation's single-use code: one runner free; an order that fails gives its use back, see epassiInvitations).
     */
    rule: text("rule").notNull(),
    /** Last valid moment (inclusive, epoch ms); null = valid all season. */
    validUntil: integer("valid_until"),
    /** At most this many paid orders may use the code; null = no limit. */
    maxUses: integer("max_uses"),
    /** Raise with `UPDATE … SET uses = uses + 1 WHERE code = ? AND (max_uses IS NULL OR uses < max_uses)`. */
    uses: integer("uses").notNull().default(0),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    builtin: integer("builtin", { mode: "boolean" }).notNull().default(false),
    /** The organiser's note (who it is for), shown in the admin list. */
    note: text("note").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [
    check("campaign_codes_code_upper", sql`${t.code} = upper(${t.code}) AND length(${t.code}) BETWEEN 1 AND 40`),
    check("campaign_codes_rule", sql`${t.rule} IN ('flat50', 'free', 'minus50', 'epassi')`),
    // A guarded increment can never push uses past the limit; the CHECK makes any other write fail loudly.
    check("campaign_codes_uses", sql`${t.uses} >= 0 AND (${t.maxUses} IS NULL OR ${t.uses} <= ${t.maxUses})`),
  ],
);

/**
 * Runner ids made outside a family's registration that have no participants row: a runner added on the race screen
 * (`owner` 'race:<part>'). A family's runners are reserved by their participants rows, a box-office sale's by its
 * own (registration null). A family's save that names an id reserved by anyone else is refused (409), so no family
 * can take over a runner it did not make (its ids are public in every `sort`). A table of its own: participants
 * allows only the season's four distances, and the box office counts every participant without a registration
 * as its own.
 */
export const runnerIds = sqliteTable("runner_ids", {
  id: text("id").primaryKey(),
  owner: text("owner").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** The race index: one row per race (part = race-YYMMDD-NN); race-day truth lives in the race Durable Object. */
export const races = sqliteTable(
  "races",
  {
    part: text("part").primaryKey(),
    season: integer("season").notNull(),
    date: text("date").notNull(),
    distance: integer("distance").notNull(), // metres
    startTime: text("start_time"), // 'HH:MM' Stockholm
    openForReg: integer("open_for_reg", { mode: "boolean" }).notNull().default(false),
    /** Mirrors the Durable Object: '' (not started), 'started', 'ended'. */
    state: text("state").notNull().default(""),
    started: integer("started"),
    /**
     * Mirrors the Durable Object's results status: '' (no finish yet), 'preliminary', 'official', 'corrected'.
     * 'official' (with resultsOfficialAt) is the moment the results were marked official.
     */
    resultsStatus: text("results_status").notNull().default(""),
    resultsOfficialAt: integer("results_official_at"),
  },
  (t) => [
    index("races_season").on(t.season),
    check("races_part", sql`${t.part} GLOB 'race-?*-?*'`),
    check("races_state", sql`${t.state} IN ('', 'started', 'ended')`),
    check("races_distance", sql`${t.distance} > 0 AND ${t.distance} % 100 = 0`),
  ],
);

/** Historical results (imported by the organiser; the demo seed writes invented ones). */
export const results = sqliteTable(
  "results",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    year: integer("year").notNull(),
    distance: text("distance").notNull(), // '0.8' … '5.6'
    place: integer("place").notNull(),
    name: text("name").notNull(),
    timeMs: integer("time_ms").notNull(),
    klass: text("klass").notNull().default(""),
    bib: integer("bib"),
    club: text("club").notNull().default(""),
    /**
     * The runner's age that year, for child-safe publishing (shared/child-safe.ts): the file's `Ålder` column, or
     * the oldest age of the line's age class ('P10' → 10); null when the file says neither. Never published.
     */
    age: integer("age"),
  },
  (t) => [
    index("results_year_distance").on(t.year, t.distance, t.place),
    index("results_distance_time").on(t.distance, t.timeMs),
    check("results_distance", sql`${t.distance} IN ${DISTANCES_SQL}`),
    check("results_values", sql`${t.place} >= 1 AND ${t.timeMs} > 0`),
  ],
);

/**
 * Course records kept by the organiser (e.g. set before the imported results begin). The public records list is
 * the faster of this row and the best imported result per distance (db/results.ts).
 */
export const courseRecords = sqliteTable(
  "course_records",
  {
    distance: text("distance").primaryKey(),
    name: text("name").notNull(),
    timeMs: integer("time_ms").notNull(),
    year: integer("year").notNull(),
  },
  (t) => [check("course_records_distance", sql`${t.distance} IN ${DISTANCES_SQL}`)],
);

/** Gallery photo lists per year (served as /img_{year}.txt). */
export const galleryImages = sqliteTable(
  "gallery_images",
  {
    year: integer("year").notNull(),
    position: integer("position").notNull(),
    url: text("url").notNull(),
  },
  (t) => [primaryKey({ columns: [t.year, t.position] })],
);

/**
 * Every e-mail sent, whatever the transport: to whom, what, when. The body of a mail that carries a secret (a
 * login code) is never stored; other bodies are emptied once their retention has passed (db/retention.ts).
 */
export const emailLog = sqliteTable(
  "email_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    kind: text("kind").notNull(), // 'login-code' | 'receipt' | 'mailing' | 'epassi' …
    transport: text("transport").notNull(),
    status: text("status").notNull(), // 'sent' | 'failed' | 'unknown' (no answer from the provider)
    error: text("error"),
    mailingId: integer("mailing_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("email_log_created").on(t.createdAt),
    // Only the rows that still have a body: the cron's purge visits those alone, however long the log grows.
    index("email_log_with_body")
      .on(t.createdAt)
      .where(sql`(${t.html} <> '' OR ${t.text} <> '')`),
    // What was sent to one address (personal data on request: db/personal-data.ts).
    index("email_log_to").on(t.to),
  ],
);

/** Mass e-mails and their recipients (each recipient claimed before sending). */
export const mailings = sqliteTable(
  "mailings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    audience: text("audience").notNull(), // 'previous' | 'current'
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    totalRecipients: integer("total_recipients").notNull().default(0),
    /**
     * The claim of one send (mass-email/mailings-db.ts createMailing): the SHA-256 of audience, subject and text while
     * the double-send window lasts, then NULL. Unique, so of two sends of the same mailing at the same moment D1
     * writes one and refuses the other.
     */
    sendKey: text("send_key"),
    /**
     * When the mailing's recipients were last handed to the mail queue and the queue took them (the send, a
     * results mail, a resume: mass-email/mailings.ts); NULL while the queue never got them (or for a mailing made
     * before 0016). A results mail whose mailing has none is handed again by the next run
     * (registration/results-mails.ts).
     */
    handedAt: integer("handed_at"),
    /**
     * The lease of a resume going on now (its start; mass-email/mailings.ts `resumeMailings`): a second resume
     * while it lasts is refused, so two clicks hand the recipients to the queue once. NULL when none runs.
     */
    resumingAt: integer("resuming_at"),
  },
  (t) => [uniqueIndex("mailings_send_key").on(t.sendKey)],
);

export const mailingRecipients = sqliteTable(
  "mailing_recipients",
  {
    mailingId: integer("mailing_id")
      .notNull()
      .references(() => mailings.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    race: text("race"),
    /**
     * queued → claimed → sent | failed; a claim that never finished becomes 'unknown' (reported, not resent); an
     * address unsubscribed after the mailing was made becomes 'skipped'; an admin's resume puts 'failed' back to
     * 'queued' (src/worker/mass-email/mailings.ts).
     */
    status: text("status").notNull().default("queued"),
    claimedAt: integer("claimed_at"),
    sentAt: integer("sent_at"),
    error: text("error"),
  },
  (t) => [
    primaryKey({ columns: [t.mailingId, t.email] }),
    index("mailing_recipients_status").on(t.mailingId, t.status),
    // The mailings with someone waiting or failed, across mailings (the mass e-mail screen's list: routes.ts).
    index("mailing_recipients_open").on(t.status, t.mailingId),
    // One address's rows across mailings (personal data on request: db/personal-data.ts).
    index("mailing_recipients_email").on(t.email),
  ],
);

/**
 * Addresses that followed the signed unsubscribe link in a mass e-mail; mass mailings skip them.
 * Transactional mail (login codes, receipts) is still sent.
 */
export const unsubscribes = sqliteTable("unsubscribes", {
  email: text("email").primaryKey(), // lower-case
  at: integer("at").notNull(),
  /** The mailing whose link was used, if known. */
  mailingId: integer("mailing_id"),
});

/**
 * Wellness-benefit (Epassi) invitations: the organiser sends a code (a campaign code of rule 'epassi', one use) to
 * a person who paid through Epassi (src/worker/epassi/epassi.ts). Whether the code was used is read from the payments
 * that carry it. The trigger `campaign_release_on_failed_order` (migrations/0008_campaign_release.sql, for every
 * campaign code; per runner since 0010_runner_payments.sql) gives the use back when an order holding the code ends unpaid (DECLINED, ERROR, CANCELLED), in the same statement that settles it.
 */
export const epassiInvitations = sqliteTable(
  "epassi_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    code: text("code").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    /** When the e-mail last left; null while it never has (shown as 'ej skickad', with a resend button). */
    sentAt: integer("sent_at"),
    /** Why the last send failed; null once sent. */
    sendError: text("send_error"),
  },
  (t) => [index("epassi_invitations_email").on(t.email)],
);

/**
 * Admins beyond the ADMIN_EMAILS allowlist variable (lower-cased e-mail), each with a role (issue 43):
 * 'volunteer' (Funktionär: race day, the bib desk, the box office) or 'organiser' (Arrangör: everything). The
 * addresses in ADMIN_EMAILS are organisers whatever a row here says (src/worker/session/admins-db.ts).
 */
export const admins = sqliteTable(
  "admins",
  {
    email: text("email").primaryKey(),
    addedAt: integer("added_at").notNull(),
    role: text("role").notNull().default("organiser"),
  },
  (t) => [check("admins_role", sql`${t.role} IN ('volunteer', 'organiser')`)],
);

/** Who did what, when, from which device. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actor: text("actor").notNull(),
    device: text("device"),
    action: text("action").notNull(),
    subject: text("subject"),
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [
    index("audit_log_at").on(t.at),
    // Whether a step was done for a subject (a payment's settlement, receipt, refused callback …), per request.
    index("audit_log_action_subject").on(t.action, t.subject),
  ],
);

/**
 * What a family was last told by e-mail about a race's results (issue 28, item 3; registration/results-mails.ts):
 * one row per registration and race, claimed by the mail when the race's results turn official (so each family
 * gets that mail once per race, however often it is asked for), and moved on by a correction's mail only when
 * one of the family's own runners got another time or status. `results` is that summary as JSON, the claim's
 * compare value; `mailing_id` the mailing written with the claim, in the same D1 batch (NULL: the family had
 * unsubscribed, or a row from before 0016). The states and their invariants: results-mails.ts.
 */
export const resultsMails = sqliteTable(
  "results_mails",
  {
    registrationId: text("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    raceId: text("race_id").notNull(),
    results: text("results").notNull(),
    mailedAt: integer("mailed_at").notNull(),
    mailingId: integer("mailing_id"),
  },
  (t) => [
    primaryKey({ columns: [t.registrationId, t.raceId] }),
    // A run's first step: the race's claims whose mailing the queue never got.
    index("results_mails_race").on(t.raceId, t.mailingId),
  ],
);

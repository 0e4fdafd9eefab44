/**
 * The Swish simulator (development only: app.ts answers /dev/* with 404 otherwise): the Swish Commerce API paths
 * over plain HTTP under `/dev/swish/`, so the real client (adapters/swish.ts) runs unchanged against it, plus a
 * phone page that plays the payer and test switches that drop, duplicate or delay callbacks (reference/swish.md §8).
 *
 * Its state lives in D1 scratch tables it creates itself on first use. They are never part of `migrations/`,
 * so a production database never holds simulator tables.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { tokenQrModules, tokenQrSvg } from "../adapters/swish";
import { randomHex } from "../lib/crypto";
import type { AppEnv } from "../env";
import { escapeHtml } from "../lib/html";
import { isLoopbackHost, loopbackFetch } from "../lib/loopback";

export const devSwishRoutes = new Hono<AppEnv>();

const API = "/dev/swish/swish-cpcapi/api";
/** The same path inside this sub-app, which app.ts mounts at /dev. */
const API_ROUTE = API.slice("/dev".length);

/** Like Swish: a request nobody starts paying within 3 minutes ends as ERROR TM01. */
const PAYER_TIMEOUT_MS = 3 * 60 * 1000;

/** The payer's phone number the simulator reports once "paid". */
const SIMULATED_PAYER = "46701234567";

/** Texts Swish uses for its codes (reference/swish.md §1 and §3). */
const ERROR_TEXT: Record<string, string> = {
  FF08: "PayeePaymentReference is invalid",
  RP03: "Callback URL is missing or does not use HTTPS",
  BE18: "Payer alias is invalid",
  RP01: "Missing Merchant Swish Number",
  PA02: "Amount value is missing or not a valid number",
  AM02: "Amount value is too large",
  AM03: "Invalid or missing Currency",
  AM06: "Specified transaction amount is less than agreed minimum",
  RP02: "Wrong formatted message",
  RP06: "A payment request already exists for that payer",
  RP09: "The callbackIdentifier is invalid",
  ACMT01: "Counterpart is not activated",
  ACMT03: "Payer not Enrolled",
  ACMT07: "Payee not Enrolled",
  VR01: "Payer does not meet the age limit",
  VR02: "The payer alias in the request is not enrolled in swish with the supplied ssn",
  RP07: "Transaction status is not CREATED, payment request can not be cancelled",
  RP08: "The payment request has been cancelled",
  RF02: "Original Payment not found or original payment is more than 13 months old",
  RF03: "Payer alias in the refund does not match the payee alias in the original payment",
  RF08: "Amount exceeds the amount of the original payment minus any previous refunds",
  TM01: "Swish timed out before the payment was started",
  RF07: "Transaction declined",
  BANKIDCL: "Payer cancelled BankID signing",
  FF10: "Bank system processing error",
  DS24: "Swish timed out waiting for an answer from the banks after payment was started",
  BANKIDONGOING: "BankID already in use",
  BANKIDUNKN: "BankID is not able to authorize the payment",
};

/** A `message` equal to one of these ends the payment with that error when the payer pays (MSS does the same). */
const ASYNC_ERROR_CODES = ["RF07", "BANKIDCL", "FF10", "TM01", "DS24", "BANKIDONGOING", "BANKIDUNKN"];
/** A `message` equal to one of these fails the create call at once with a 422. */
const CREATE_ERROR_CODES = ["RP06", "ACMT01", "ACMT03", "ACMT07", "VR01", "VR02", "AM06", "AM02", "BE18", "FF08"];

const ID = /^[0-9A-F]{32}$/;
const TOKEN = /^[0-9a-f]{32}$/;
/** The old (safe) message character set (reference/swish.md §1) plus space. */
const MESSAGE = /^[a-zA-Z0-9åäöÅÄÖ:;.,?!()" ]{0,50}$/;
const PAYEE_REFERENCE = /^[a-zA-Z0-9\-_.+*/]{1,36}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

type CallbackMode = "normal" | "drop" | "duplicate" | "delay";
interface Settings {
  callbacks: CallbackMode;
  delayMs: number;
  /** How long every Swish API call takes to answer (a slow Swish, or MSS far away). */
  apiDelayMs: number;
}
const DEFAULT_SETTINGS: Settings = { callbacks: "normal", delayMs: 3000, apiDelayMs: 0 };

/** The columns payments and refunds share (Swish's two objects have the same core). */
interface SimObject {
  id: string;
  callback_url: string;
  callback_identifier: string | null;
  payer_alias: string | null;
  payee_alias: string | null;
  amount_ore: number;
  currency: string;
  message: string | null;
  status: string;
  date_created: number;
  date_paid: number | null;
  payment_reference: string | null;
  error_code: string | null;
  error_message: string | null;
}

interface SimPayment extends SimObject {
  token: string | null;
  payee_payment_reference: string | null;
  payee_alias: string;
}

interface SimRefund extends SimObject {
  original_payment_reference: string;
  payer_payment_reference: string | null;
  payer_alias: string;
}

// ---- Swish API: payment requests -------------------------------------------------------------------------

devSwishRoutes.use(`${API_ROUTE}/*`, async (c, next) => {
  await ensureTables(c.env.DB);
  const { apiDelayMs } = await readSettings(c.env.DB);
  if (apiDelayMs > 0) await sleep(apiDelayMs);
  await next();
});

devSwishRoutes.put(`${API_ROUTE}/v2/paymentrequests/:id`, async (c) => {
  const db = c.env.DB;
  await ensureTables(db);
  const id = c.req.param("id");
  if (!ID.test(id)) return swishErrors(c, 400, ["PA01"], "The instruction id must be 32 upper-case hex characters");
  if (!isJson(c.req.header("content-type"))) return c.body(null, 415);
  const body = await readJson(c.req.raw);
  if (!isRecord(body)) return c.body(null, 400);

  const codes = validateCreate(body);
  if (codes.length) return swishErrors(c, 422, codes);
  // The certificate belongs to one Swish number; a request for another payee is refused outright.
  if (body.payeeAlias !== c.env.SWISH_PAYEE_ALIAS) return c.body(null, 403);
  if (await findPayment(db, id)) return swishErrors(c, 409, ["RP04"], "A payment request with this id already exists");

  const ecommerce = typeof body.payerAlias === "string";
  const token = ecommerce ? null : randomHex(16);
  await db
    .prepare(
      `INSERT INTO dev_swish_payments (id, token, payee_payment_reference, callback_url, callback_identifier,
        payer_alias, payee_alias, amount_ore, currency, message, status, date_created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'CREATED', ?)`,
    )
    .bind(
      id,
      token,
      str(body.payeePaymentReference),
      String(body.callbackUrl),
      str(body.callbackIdentifier),
      str(body.payerAlias),
      String(body.payeeAlias),
      toOre(body.amount),
      "SEK",
      str(body.message),
      c.var.clock.now(),
    )
    .run();

  const headers: Record<string, string> = {
    Location: new URL(`${API}/v1/paymentrequests/${id}`, c.req.url).toString(),
  };
  if (token) headers.PaymentRequestToken = token;
  return c.body(null, 201, headers);
});

devSwishRoutes.get(`${API_ROUTE}/v1/paymentrequests/:id`, async (c) => {
  await ensureTables(c.env.DB);
  const payment = await currentPayment(c, c.req.param("id"));
  if (!payment) return c.body(null, 404);
  return c.json(paymentObject(payment));
});

devSwishRoutes.patch(`${API_ROUTE}/v1/paymentrequests/:id`, async (c) => {
  const db = c.env.DB;
  await ensureTables(db);
  if (!/^application\/json-patch\+json/i.test(c.req.header("content-type") ?? "")) return c.body(null, 415);
  const patch = z
    .tuple([z.object({ op: z.literal("replace"), path: z.literal("/status"), value: z.literal("cancelled") })])
    .safeParse(await readJson(c.req.raw));
  if (!patch.success) return c.body(null, 400);
  const payment = await currentPayment(c, c.req.param("id"));
  if (!payment) return c.body(null, 404);
  if (payment.status !== "CREATED") return swishErrors(c, 422, [payment.status === "CANCELLED" ? "RP08" : "RP07"]);
  const changed = await db
    .prepare(
      `UPDATE dev_swish_payments SET status = 'CANCELLED', error_code = 'RP08', error_message = ?
       WHERE id = ? AND status = 'CREATED'`,
    )
    .bind(ERROR_TEXT.RP08, payment.id)
    .run();
  if (!changed.meta.changes) return swishErrors(c, 422, ["RP07"]);
  const cancelled = await findPayment(db, payment.id);
  return c.json(paymentObject(cancelled!));
});

// ---- Swish API: refunds -----------------------------------------------------------------------------------

devSwishRoutes.put(`${API_ROUTE}/v2/refunds/:id`, async (c) => {
  const db = c.env.DB;
  await ensureTables(db);
  const id = c.req.param("id");
  if (!ID.test(id)) return swishErrors(c, 400, ["PA01"], "The instruction id must be 32 upper-case hex characters");
  if (!isJson(c.req.header("content-type"))) return c.body(null, 415);
  const body = await readJson(c.req.raw);
  if (!isRecord(body)) return c.body(null, 400);

  const codes: string[] = [];
  if (!validCallbackUrl(body.callbackUrl)) codes.push("RP03");
  if (typeof body.payerAlias !== "string" || !/^\d{10,11}$/.test(body.payerAlias)) codes.push("RP01");
  if (!validAmount(body.amount)) codes.push("PA02");
  if (body.currency !== "SEK") codes.push("AM03");
  if (!validMessage(body.message)) codes.push("RP02");
  if (codes.length) return swishErrors(c, 422, codes);
  if (await findRefund(db, id)) return swishErrors(c, 409, ["RP04"], "A refund with this id already exists");

  const original = await db
    .prepare(`SELECT * FROM dev_swish_payments WHERE payment_reference = ? AND status = 'PAID'`)
    .bind(String(body.originalPaymentReference ?? ""))
    .first<SimPayment>();
  if (!original) return swishErrors(c, 422, ["RF02"]);
  if (original.payee_alias !== body.payerAlias) return swishErrors(c, 422, ["RF03"]);
  const refunded = await db
    .prepare(
      `SELECT COALESCE(SUM(amount_ore), 0) AS total FROM dev_swish_refunds
       WHERE original_payment_reference = ? AND status <> 'ERROR'`,
    )
    .bind(original.payment_reference)
    .first<{ total: number }>();
  const amountOre = toOre(body.amount);
  if ((refunded?.total ?? 0) + amountOre > original.amount_ore) return swishErrors(c, 422, ["RF08"]);

  // Swish moves a refund through DEBITED to PAID within seconds; the simulator lands it at once.
  const now = c.var.clock.now();
  await db
    .prepare(
      `INSERT INTO dev_swish_refunds (id, original_payment_reference, payer_payment_reference, callback_url,
        callback_identifier, payer_alias, payee_alias, amount_ore, currency, message, status, date_created, date_paid,
        payment_reference)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'SEK', ?, 'PAID', ?, ?, ?)`,
    )
    .bind(
      id,
      original.payment_reference,
      str(body.payerPaymentReference),
      String(body.callbackUrl),
      str(body.callbackIdentifier),
      String(body.payerAlias),
      original.payer_alias,
      amountOre,
      str(body.message),
      now,
      now,
      randomHex(16).toUpperCase(),
    )
    .run();
  const refund = (await findRefund(db, id))!;
  // No route of ours takes refund callbacks yet; a failed delivery is the receiver's problem, as with Swish.
  c.executionCtx.waitUntil(
    sendCallback(refund.callback_url, refund.callback_identifier, refundObject(refund)).catch(() => 0),
  );
  return c.body(null, 201, { Location: new URL(`${API}/v1/refunds/${id}`, c.req.url).toString() });
});

devSwishRoutes.get(`${API_ROUTE}/v1/refunds/:id`, async (c) => {
  await ensureTables(c.env.DB);
  const refund = await findRefund(c.env.DB, c.req.param("id"));
  if (!refund) return c.body(null, 404);
  return c.json(refundObject(refund));
});

// ---- Swish QR service -------------------------------------------------------------------------------------

const qrRequest = z.object({
  token: z.string().regex(TOKEN),
  format: z.enum(["svg", "png", "jpg"]),
  size: z.number().int().min(300).max(2000).optional(),
  border: z.number().int().min(0).max(4).optional(),
  transparent: z.boolean().optional(),
});

devSwishRoutes.post("/swish/qrg-swish/api/v1/commerce", async (c) => {
  await ensureTables(c.env.DB);
  const parsed = qrRequest.safeParse(await readJson(c.req.raw));
  if (!parsed.success) return c.body(null, 400);
  const { token, format, size = 300, border = 0 } = parsed.data;
  if (!(await c.env.DB.prepare(`SELECT 1 FROM dev_swish_payments WHERE token = ?`).bind(token).first())) {
    return c.body(null, 400);
  }
  switch (format) {
    case "svg":
      return c.body(tokenQrSvg(token, size), 200, { "content-type": "image/svg+xml" });
    case "png":
      return c.body(await pngFromModules(tokenQrModules(token), size, border), 200, { "content-type": "image/png" });
    case "jpg":
      // A JPEG encoder is not worth carrying in a simulator; svg and png cover every use here.
      return c.body(null, 415);
  }
});

// ---- The payer's phone ------------------------------------------------------------------------------------

devSwishRoutes.get("/swish", (c) => c.redirect("/dev/swish/", 301));

devSwishRoutes.get("/swish/", async (c) => {
  await ensureTables(c.env.DB);
  const { results } = await c.env.DB.prepare(
    `SELECT * FROM dev_swish_payments ORDER BY date_created DESC LIMIT 30`,
  ).all<SimPayment>();
  const settings = await readSettings(c.env.DB);
  const rows = results
    .map(
      (p) =>
        `<tr><td>${escapeHtml(new Date(p.date_created).toISOString())}</td><td>${escapeHtml(p.id)}</td><td>${kronor(p.amount_ore)}</td>` +
        `<td>${escapeHtml(p.status)}${p.error_code ? ` (${escapeHtml(p.error_code)})` : ""}</td>` +
        `<td>${p.token ? `<a href="/dev/swish/pay/${escapeHtml(p.token)}">telefon</a>` : "e-handel"}</td></tr>`,
    )
    .join("");
  return c.html(
    page(
      "Swish-simulator",
      `<h1>Swish-simulator</h1><p>Callbacks: <b>${escapeHtml(settings.callbacks)}</b>` +
        (settings.callbacks === "delay" ? ` (${settings.delayMs} ms)` : "") +
        `</p><table><tr><th>Skapad</th><th>Id</th><th>Belopp</th><th>Status</th><th></th></tr>${rows}</table>`,
    ),
  );
});

devSwishRoutes.get("/swish/pay/:token", async (c) => {
  await ensureTables(c.env.DB);
  const payment = await paymentByToken(c, c.req.param("token"));
  if (!payment) return c.html(page("Swish", `<h1>Okänd betalning</h1>`), 404);
  const open = payment.status === "CREATED";
  const actions = open
    ? `<form method="post">
        <button name="status" value="PAID" class="pay">Betala</button>
        <button name="status" value="DECLINED">Avbryt</button>
        <p class="small">Simulera fel:
          <select name="errorCode">${ASYNC_ERROR_CODES.map((code) => `<option>${code}</option>`).join("")}</select>
          <button name="status" value="ERROR">Fel</button></p>
      </form>`
    : `<p class="done">${escapeHtml(statusText(payment))}</p>`;
  return c.html(
    page(
      "Swish",
      `<h1>Swish</h1>
       <p class="amount">${kronor(payment.amount_ore)}</p>
       <p>Till ${escapeHtml(payment.payee_alias)}</p>
       ${payment.message ? `<p class="message">${escapeHtml(payment.message)}</p>` : ""}
       ${actions}`,
    ),
  );
});

const payRequest = z.object({
  status: z.enum(["PAID", "DECLINED", "ERROR"], { message: "status ska vara PAID, DECLINED eller ERROR" }),
  errorCode: z
    .string()
    .regex(/^[A-Z0-9]{2,20}$/, "Ogiltig felkod")
    .optional(),
});

devSwishRoutes.post("/swish/pay/:token", async (c) => {
  const db = c.env.DB;
  await ensureTables(db);
  const form = !isJson(c.req.header("content-type"));
  const raw = form ? await c.req.parseBody().catch(() => null) : await readJson(c.req.raw);
  const parsed = payRequest.safeParse(raw);
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? "Ogiltig förfrågan" }, 400);
  const payment = await paymentByToken(c, c.req.param("token"));
  if (!payment) return c.json({ error: "Okänd betalning" }, 404);
  if (payment.status !== "CREATED") {
    return c.json({ error: `Betalningen är redan avslutad (${payment.status})`, status: payment.status }, 409);
  }

  let { status } = parsed.data;
  let errorCode: string | null = parsed.data.errorCode ?? null;
  // As on MSS, a message that names an error code makes the payment end with that error.
  if (status === "PAID" && payment.message && ASYNC_ERROR_CODES.includes(payment.message)) {
    status = "ERROR";
    errorCode = payment.message;
  }
  if (status === "ERROR") errorCode ??= "FF10";
  else errorCode = null;
  const now = c.var.clock.now();
  const paid = status === "PAID";
  const changed = await db
    .prepare(
      `UPDATE dev_swish_payments SET status = ?, date_paid = ?, payment_reference = ?, payer_alias = ?,
        error_code = ?, error_message = ?
       WHERE id = ? AND status = 'CREATED'`,
    )
    .bind(
      status,
      paid ? now : null,
      paid ? randomHex(16).toUpperCase() : null,
      paid ? (payment.payer_alias ?? SIMULATED_PAYER) : payment.payer_alias,
      errorCode,
      errorCode ? (ERROR_TEXT[errorCode] ?? "Simulated error") : null,
      payment.id,
    )
    .run();
  if (!changed.meta.changes) return c.json({ error: "Betalningen är redan avslutad" }, 409);
  const settled = (await findPayment(db, payment.id))!;

  const settings = await readSettings(db);
  const deliver = () => sendCallback(settled.callback_url, settled.callback_identifier, paymentObject(settled));
  const callbackStatuses: number[] = [];
  switch (settings.callbacks) {
    case "normal":
      callbackStatuses.push(await deliver().catch(() => 0));
      break;
    case "duplicate":
      callbackStatuses.push(...(await Promise.all([deliver().catch(() => 0), deliver().catch(() => 0)])));
      break;
    case "delay":
      c.executionCtx.waitUntil(sleep(settings.delayMs).then(() => deliver().catch(() => 0)));
      break;
    case "drop":
      break;
  }

  if (form) return c.html(page("Swish", `<h1>Swish</h1><p class="done">${escapeHtml(statusText(settled))}</p>`));
  return c.json({ payment: paymentObject(settled), callbacks: settings.callbacks, callbackStatuses });
});

// ---- Test switches ----------------------------------------------------------------------------------------

const settingsRequest = z.object({
  callbacks: z
    .enum(["normal", "drop", "duplicate", "delay"], {
      message: "callbacks ska vara normal, drop, duplicate eller delay",
    })
    .optional(),
  delayMs: z.number().int().min(0).max(600_000, "delayMs högst 600000").optional(),
  apiDelayMs: z
    .number({ message: "apiDelayMs ska vara millisekunder" })
    .int()
    .min(0)
    .max(60_000, "apiDelayMs högst 60000")
    .optional(),
});

devSwishRoutes.get("/swish/settings", async (c) => {
  await ensureTables(c.env.DB);
  return c.json(await readSettings(c.env.DB));
});

devSwishRoutes.post("/swish/settings", async (c) => {
  await ensureTables(c.env.DB);
  const parsed = settingsRequest.safeParse(await readJson(c.req.raw));
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? "Ogiltiga inställningar" }, 400);
  const current = await readSettings(c.env.DB);
  const next: Settings = {
    callbacks: parsed.data.callbacks ?? current.callbacks,
    delayMs: parsed.data.delayMs ?? current.delayMs,
    apiDelayMs: parsed.data.apiDelayMs ?? current.apiDelayMs,
  };
  await c.env.DB.prepare(
    `INSERT INTO dev_swish_settings (key, value) VALUES ('settings', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  )
    .bind(JSON.stringify(next))
    .run();
  return c.json(next);
});

// ---- State ------------------------------------------------------------------------------------------------

async function ensureTables(db: D1Database): Promise<void> {
  await db.batch([
    db.prepare(`CREATE TABLE IF NOT EXISTS dev_swish_payments (
      id TEXT PRIMARY KEY, token TEXT UNIQUE, payee_payment_reference TEXT, callback_url TEXT NOT NULL,
      callback_identifier TEXT, payer_alias TEXT, payee_alias TEXT NOT NULL, amount_ore INTEGER NOT NULL,
      currency TEXT NOT NULL, message TEXT, status TEXT NOT NULL, date_created INTEGER NOT NULL, date_paid INTEGER,
      payment_reference TEXT, error_code TEXT, error_message TEXT)`),
    db.prepare(`CREATE TABLE IF NOT EXISTS dev_swish_refunds (
      id TEXT PRIMARY KEY, original_payment_reference TEXT NOT NULL, payer_payment_reference TEXT,
      callback_url TEXT NOT NULL, callback_identifier TEXT, payer_alias TEXT NOT NULL, payee_alias TEXT,
      amount_ore INTEGER NOT NULL, currency TEXT NOT NULL, message TEXT, status TEXT NOT NULL,
      date_created INTEGER NOT NULL, date_paid INTEGER, payment_reference TEXT, error_code TEXT, error_message TEXT)`),
    db.prepare(`CREATE TABLE IF NOT EXISTS dev_swish_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`),
  ]);
}

async function findPayment(db: D1Database, id: string): Promise<SimPayment | null> {
  return db.prepare(`SELECT * FROM dev_swish_payments WHERE id = ?`).bind(id).first<SimPayment>();
}

async function findRefund(db: D1Database, id: string): Promise<SimRefund | null> {
  return db.prepare(`SELECT * FROM dev_swish_refunds WHERE id = ?`).bind(id).first<SimRefund>();
}

/** The payment as Swish would report it now: an unanswered request times out (TM01) after 3 minutes. */
async function currentPayment(c: Context<AppEnv>, id: string): Promise<SimPayment | null> {
  const db = c.env.DB;
  const payment = await findPayment(db, id);
  if (!payment || payment.status !== "CREATED" || c.var.clock.now() - payment.date_created < PAYER_TIMEOUT_MS) {
    return payment;
  }
  await db
    .prepare(
      `UPDATE dev_swish_payments SET status = 'ERROR', error_code = 'TM01', error_message = ?
       WHERE id = ? AND status = 'CREATED'`,
    )
    .bind(ERROR_TEXT.TM01, id)
    .run();
  return findPayment(db, id);
}

async function paymentByToken(c: Context<AppEnv>, token: string): Promise<SimPayment | null> {
  if (!TOKEN.test(token)) return null;
  const row = await c.env.DB.prepare(`SELECT id FROM dev_swish_payments WHERE token = ?`)
    .bind(token)
    .first<{ id: string }>();
  return row ? currentPayment(c, row.id) : null;
}

async function readSettings(db: D1Database): Promise<Settings> {
  const row = await db
    .prepare(`SELECT value FROM dev_swish_settings WHERE key = 'settings'`)
    .first<{ value: string }>();
  if (!row) return DEFAULT_SETTINGS;
  try {
    return { ...DEFAULT_SETTINGS, ...(JSON.parse(row.value) as Partial<Settings>) };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

/** The retrieve/callback body, shaped like a recorded MSS answer (numeric amount, ISO dates, nulls present). */
function swishObject(o: SimObject) {
  return {
    id: o.id,
    paymentReference: o.payment_reference,
    callbackUrl: o.callback_url,
    payerAlias: o.payer_alias,
    payeeAlias: o.payee_alias,
    amount: o.amount_ore / 100,
    currency: o.currency,
    message: o.message,
    status: o.status,
    dateCreated: new Date(o.date_created).toISOString(),
    datePaid: o.date_paid === null ? null : new Date(o.date_paid).toISOString(),
    errorCode: o.error_code,
    errorMessage: o.error_message,
  };
}

function paymentObject(p: SimPayment) {
  return { ...swishObject(p), payeePaymentReference: p.payee_payment_reference };
}

function refundObject(r: SimRefund) {
  return {
    ...swishObject(r),
    originalPaymentReference: r.original_payment_reference,
    payerPaymentReference: r.payer_payment_reference,
  };
}

// ---- Validation -------------------------------------------------------------------------------------------

function validateCreate(body: Record<string, unknown>): string[] {
  const codes: string[] = [];
  if (typeof body.payeeAlias !== "string" || !/^\d{10,11}$/.test(body.payeeAlias)) codes.push("RP01");
  if (!validAmount(body.amount)) codes.push("PA02");
  if (body.currency !== "SEK") codes.push("AM03");
  if (!validCallbackUrl(body.callbackUrl)) codes.push("RP03");
  if (body.payeePaymentReference !== undefined) {
    if (typeof body.payeePaymentReference !== "string" || !PAYEE_REFERENCE.test(body.payeePaymentReference)) {
      codes.push("FF08");
    }
  }
  if (!validMessage(body.message)) codes.push("RP02");
  if (body.payerAlias !== undefined && (typeof body.payerAlias !== "string" || !/^\d{8,15}$/.test(body.payerAlias))) {
    codes.push("BE18");
  }
  if (
    body.callbackIdentifier !== undefined &&
    (typeof body.callbackIdentifier !== "string" || !/^[0-9a-zA-Z-]{32,36}$/.test(body.callbackIdentifier))
  ) {
    codes.push("RP09");
  }
  if (typeof body.message === "string" && CREATE_ERROR_CODES.includes(body.message)) codes.push(body.message);
  return codes;
}

/** Optional, and then of the old (safe) character set. */
function validMessage(x: unknown): boolean {
  return x === undefined || (typeof x === "string" && MESSAGE.test(x));
}

function validAmount(x: unknown): boolean {
  const text = typeof x === "number" ? String(x) : x;
  if (typeof text !== "string" || !AMOUNT.test(text)) return false;
  const ore = Math.round(Number(text) * 100);
  return ore >= 1 && ore <= 99_999_999_999_999;
}

function toOre(x: unknown): number {
  return Math.round(Number(x) * 100);
}

/** HTTPS, as Swish demands, except plain HTTP to a development host (localhost or a single-label name). */
function validCallbackUrl(x: unknown): boolean {
  if (typeof x !== "string") return false;
  try {
    const url = new URL(x);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && isDevelopmentHost(url.hostname);
  } catch {
    return false;
  }
}

function isDevelopmentHost(hostname: string): boolean {
  return isLoopbackHost(hostname) || hostname.endsWith(".localhost") || !hostname.includes(".");
}

// ---- Callbacks --------------------------------------------------------------------------------------------

/**
 * POSTs the object to its callbackUrl with the `callbackIdentifier` header, like Swish. A callback to this
 * development server goes in-process (its port may not be the one in the URL, and the test pool cannot reach it
 * over the network); anything else goes out over the network.
 */
async function sendCallback(url: string, callbackIdentifier: string | null, body: unknown): Promise<number> {
  const headers = new Headers({ "content-type": "application/json" });
  if (callbackIdentifier) headers.set("callbackIdentifier", callbackIdentifier);
  const request = new Request(url, { method: "POST", headers, body: JSON.stringify(body) });
  const target = isDevelopmentHost(new URL(url).hostname) ? loopbackFetch : (req: Request) => fetch(req);
  const res = await target(request);
  await res.body?.cancel();
  return res.status;
}

// ---- Helpers ----------------------------------------------------------------------------------------------

function swishErrors(c: Context<AppEnv>, status: 400 | 409 | 422, codes: string[], message?: string) {
  return c.json(
    codes.map((errorCode) => ({
      errorCode,
      errorMessage: message ?? ERROR_TEXT[errorCode] ?? "Invalid request",
      additionalInformation: "",
    })),
    status,
  );
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "");
}

async function readJson(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    return undefined;
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function str(x: unknown): string | null {
  return typeof x === "string" ? x : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function kronor(ore: number): string {
  return `${(ore / 100).toFixed(2).replace(".", ",")} kr`;
}

function statusText(p: SimPayment): string {
  switch (p.status) {
    case "PAID":
      return "Betalningen är genomförd.";
    case "DECLINED":
      return "Betalningen avbröts.";
    case "CANCELLED":
      return "Betalningen återkallades av mottagaren.";
    case "ERROR":
      return `Betalningen misslyckades (${p.error_code ?? "fel"}).`;
    default:
      return `Status: ${p.status}`;
  }
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="sv"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;text-align:center}
.amount{font-size:2.5rem;font-weight:700;margin:1rem 0}.message{color:#555}
button{font-size:1.2rem;padding:.8rem 1.6rem;margin:.4rem;border-radius:2rem;border:1px solid #888;background:#fff}
button.pay{background:#1a7f37;color:#fff;border-color:#1a7f37}.small,.small button{font-size:.9rem}
.done{font-size:1.3rem}table{font-size:.8rem;border-collapse:collapse;margin:auto}td,th{padding:.2rem .4rem}</style>
</head><body>${body}</body></html>`;
}

/** A grey-scale PNG of a QR matrix, `size` pixels wide (rounded down to whole modules), for the QR service. */
async function pngFromModules(modules: boolean[][], size: number, border: number): Promise<Uint8Array<ArrayBuffer>> {
  const count = modules.length + 2 * border;
  const scale = Math.max(1, Math.floor(size / count));
  const px = count * scale;
  const raw = new Uint8Array(px * (px + 1));
  for (let y = 0; y < px; y++) {
    const row = y * (px + 1);
    raw[row] = 0; // filter: none
    const my = Math.floor(y / scale) - border;
    for (let x = 0; x < px; x++) {
      const mx = Math.floor(x / scale) - border;
      raw[row + 1 + x] = modules[my]?.[mx] ? 0 : 255;
    }
  }
  const compressed = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, px);
  view.setUint32(4, px);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grey, deflate, no filter method choice, no interlace
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", compressed),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
